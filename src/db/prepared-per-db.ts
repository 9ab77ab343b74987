import type { Db } from './client';

/**
 * A drizzle prepared query (`.prepare(name)`, with `sql.placeholder`s for a call's values), made
 * once per database handle on first use. drizzle otherwise builds a query's text anew on every
 * call by walking its whole tree: for the small statements every scrape runs before its workflow
 * starts (its team's balance, its job row, a resumable earlier request, v2's cached copy), the
 * building was most of their client-side CPU (0.1-0.2 ms each of 0.14-0.29; built-once.ts has the
 * measurement of the larger store).
 */
export function preparedPerDb<Prepared>(prepare: (db: Db) => Prepared): (db: Db) => Prepared {
  const made = new WeakMap<Db, Prepared>();
  return (db) => {
    let prepared = made.get(db);
    if (!prepared) made.set(db, (prepared = prepare(db)));
    return prepared;
  };
}
