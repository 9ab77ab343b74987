/**
 * What the benches that support it (crawl, scrape) measure: the Temporal dev server of `npm
 * start` with one API and one worker, or (`npm run bench -- --cluster ...`) the production shape
 * of `npm run cluster`: Temporal on Postgres, two API replicas, two HTTP workers, a browser worker,
 * compiled, on the production Node.
 */
export type BenchShape = 'dev-server' | 'cluster';

let shape: BenchShape = 'dev-server';

export function benchShape(): BenchShape {
  return shape;
}

export function setBenchShape(s: BenchShape): void {
  shape = s;
}
