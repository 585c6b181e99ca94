import type { BenchOutcome } from './http-load';

/**
 * `npm run bench [-- <filter>…]`: runs every known benchmark module, or only
 * those whose name contains one of the filters. Exits non-zero when a module
 * reports problems (failed requests make its figures meaningless) or throws.
 * Benchmarks only print figures; they never pass or fail on timings.
 */

interface BenchModule {
  name: string;
  run(): Promise<BenchOutcome>;
}

/** Every benchmark, by name; loaded lazily so a filtered run imports only what it runs. */
const BENCHES: Record<string, () => Promise<BenchModule>> = {
  rest: () => import('./rest'),
  materialize: () => import('./materialize'),
  content: () => import('./content'),
  'content-batch': () => import('./content-batch'),
  'cold-load': () => import('./cold-load'),
  fanout: () => import('./fanout'),
  merge: () => import('./merge'),
  site: () => import('./site'),
  load: () => import('./load'),
  desktop: () => import('./desktop'),
  upload: () => import('./upload'),
  'hostile-markdown': () => import('./hostile-markdown'),
  fuzz: () => import('./fuzz'),
  summary: () => import('./summary'),
  'pglite-footprint': () => import('./pglite-footprint'),
  startup: () => import('./startup'),
  'git-sync': () => import('./git-sync'),
  computed: () => import('./computed'),
  translation: () => import('./translation'),
  'integration-sandbox': () => import('./integration-sandbox'),
};

async function main(filters: string[]): Promise<number> {
  // A filter naming a benchmark exactly runs that one ("load" is not also "cold-load"); others match by substring.
  const matches = (n: string, f: string) => (f in BENCHES ? n === f : n.includes(f));
  // The summary re-runs parts of the others: only when asked for by name.
  const names = Object.keys(BENCHES).filter((n) =>
    filters.length === 0 ? n !== 'summary' : filters.some((f) => matches(n, f)),
  );
  if (names.length === 0) {
    console.error(`No benchmark matches ${filters.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
    return 2;
  }
  let failed = 0;
  for (const n of names) {
    console.log(`=== bench ${n} ===`);
    try {
      const outcome = await (await BENCHES[n]!()).run();
      if (!outcome.ok) {
        failed++;
        console.error(`bench ${n}: figures are not valid:\n  ${outcome.problems.join('\n  ')}`);
      }
    } catch (err) {
      failed++;
      console.error(`bench ${n} failed:`, err);
    }
  }
  return failed === 0 ? 0 : 1;
}

// Exit explicitly: a leftover handle (a keep-alive socket, a timer) must not
// keep a finished benchmark process alive.
main(process.argv.slice(2).filter((a) => a !== '--')).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
