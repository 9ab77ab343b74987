#!/bin/sh
# Creates Temporal's two databases on the shared Postgres and brings their schemas to the
# version of the temporal-sql-tool that runs it (the schemas are embedded in the tool), as
# temporalio/auto-setup used to. Runs once per `docker compose up` (the temporal-schema service)
# and per `npm run cluster`; every step is safe on a database that is already set up.
set -eu

sql() {
  temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_HOST" -p "$POSTGRES_PORT" -u "$POSTGRES_USER" "$@"
}

for db in temporal temporal_visibility; do
  case "$db" in
    temporal) schema=postgresql/v12/temporal ;;
    *) schema=postgresql/v12/visibility ;;
  esac
  # `create` fails when the database exists (a restart); the schema steps below still run and
  # fail loudly on a real problem such as a wrong password.
  sql --db "$db" create || echo "database $db already exists"
  sql --db "$db" setup-schema -v 0.0
  sql --db "$db" update-schema --schema-name "$schema"
done
echo 'Temporal schema is up to date'
