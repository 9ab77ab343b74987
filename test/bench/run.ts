/**
 * `npm run bench [name...]`: runs the named benchmarks (all but crawl-scale when none is named) and prints
 * their reports. Each benchmark lives in test/bench/<name>.ts and exports `run()`; it measures
 * this service side by side with a peer and reports ratios, never pass/fail.
 * `npm run bench -- --cluster crawl scrape`: those two on the production shape (bench-shape.ts).
 */
import path from 'node:path';
import { setBenchShape } from './bench-shape';

export interface BenchModule {
  /** One line on what is measured and against which peer. */
  description: string;
  run(): Promise<void>;
}

const BENCHES = ['scrape', 'crawl', 'crawl-scale', 'screenshot', 'extract', 'search', 'content', 'overload'] as const;
/** What `npm run bench` runs without names: all but the long 20,000-page crawl. */
const DEFAULT = BENCHES.filter((b) => b !== 'crawl-scale');
/** The benches that run on the cluster too (`--cluster`). */
const ON_CLUSTER: readonly string[] = ['scrape', 'crawl'];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const onCluster = args.includes('--cluster');
  const wanted = args.filter((a) => a !== '--cluster');
  if (onCluster) {
    const elsewhere = (wanted.length > 0 ? wanted : DEFAULT).filter((w) => !ON_CLUSTER.includes(w));
    if (elsewhere.length > 0 || wanted.length === 0) {
      console.error(`--cluster runs ${ON_CLUSTER.join(' and ')}; name them (npm run bench -- --cluster ${ON_CLUSTER.join(' ')})`);
      process.exit(2);
    }
    setBenchShape('cluster');
  }
  const unknown = wanted.filter((w) => !(BENCHES as readonly string[]).includes(w));
  if (unknown.length > 0) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; choose from ${BENCHES.join(', ')}`);
    process.exit(2);
  }
  for (const name of wanted.length > 0 ? wanted : DEFAULT) {
    const bench = (await import(path.join(__dirname, `${name}.ts`))) as BenchModule;
    console.log(`\n=== bench ${name}: ${bench.description}\n`);
    await bench.run();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
