#!/bin/sh
# Creates Temporal's two databases on the shared Postgres and brings their schemas to the
# version the admin-tools image ships (what temporalio/auto-setup used to do). Runs once per
# `docker compose up`; every step is safe on a database that is already set up.
set -eu

sql() {
  temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_HOST" -p "$POSTGRES_PORT" -u "$POSTGRES_USER" "$@"
}

for db in temporal temporal_visibility; do
  case "$db" in
    temporal) dir=/etc/temporal/schema/postgresql/v12/temporal/versioned ;;
    *) dir=/etc/temporal/schema/postgresql/v12/visibility/versioned ;;
  esac
  # `create` fails when the database exists (a restart); the schema steps below still run and
  # fail loudly on a real problem such as a wrong password.
  sql --db "$db" create || echo "database $db already exists"
  sql --db "$db" setup-schema -v 0.0
  sql --db "$db" update-schema -d "$dir"
done
echo 'Temporal schema is up to date'
