// The runs behind every suite's report page that test/report/pages.test.js checks and
// benchmarks/report-screenshots.js draws: embedded SQLite and the in-process memory store, each suite on sizes
// small enough for a test, two runs (so that intervals exist).
export const PAGE_DATABASES = Object.freeze(['sqlite', 'memory']);

export const SUITE_RUNS = Object.freeze({
  social: ['--scale', 'tiny'],
  crud: ['--ops', '200', '--concurrency', '1,2,4'],
  mixed: ['--records', '200', '--ops', '400', '--concurrency', '1,4'],
  queries: ['--size', '1k', '--workload', 'collect-number,sort-string,join-id,lookup-key,filter-number,min-number'],
  graph: ['--scale', 'tiny'],
});

// The `bench run` arguments of one suite's run on one database, into `out`, with the cache `cacheDir`.
export const pageRunArgs = (suite, db, { cacheDir, out }) => ['run', '--suite', suite, '--db', db, '--runs', '2', ...SUITE_RUNS[suite],
  '--cache-dir', cacheDir, '--out', out, '--quiet'];
