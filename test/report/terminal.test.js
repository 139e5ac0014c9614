// What `bench run`, `bench check` and `bench import` print: the terminal table of one result document, line by
// line, and the import summary. The documents are made up here, each field set to a value that shows in the text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatImport } from '../../results/import-summary.js';
import { formatTable, readStatsLine } from '../../results/table.js';

const run = (n, ms, p50, p99) => ({ run: n, valid: true, ms, latencyMs: { p50, p99 } });

// A social result of a server: one workload fast and client-bound, one unsupported, one failed with four examples,
// the warm-up not compared.
function socialResult() {
  return {
    suite: 'social',
    db: { id: 'pg', name: 'PostgreSQL', version: '17.2', kind: 'server', execution: 'parallel' },
    dataset: { name: 'synthetic', scale: 'tiny', profiles: 1000, relations: 17531, seed: 1, readStats: null },
    config: { concurrency: 25, runs: 3 },
    import: {
      reused: false, ms: 12345, profilesPerSec: 7868, relationsPerSec: 272535, indexesMs: 2500, path: 'online', onlineBecause: null,
      diskBytes: 3 * 1024 ** 3, diskScope: 'data directory',
    },
    resources: {
      server: { source: 'docker', pid: 42, rssPeakBytes: 512 * 1024 ** 2, cpuPeakPct: 180, cpuMeanPct: 90.5 },
      client: { cpuPeakPct: 95, eventLoopDelayP99MaxMs: 1.5 },
    },
    complete: true,
    interrupted: false,
    error: null,
    workloads: {
      warmup: { supported: true, compared: false, status: 'passed', ops: 100, runs: [run(1, 10, 0.1, 0.2)], summary: { medianMs: 10, stdevMs: 0 }, resources: null, failures: [] },
      // The runs out of order: the latencies shown are the median run's (200 ms), not the first's or the middle one's.
      singleRead: {
        supported: true, compared: true, status: 'passed', ops: 1000, runs: [run(1, 300, 0.3, 3), run(2, 100, 0.1, 1), run(3, 200, 0.2, 2)],
        summary: { medianMs: 200, stdevMs: 100 }, resources: { clientBound: true }, failures: [],
      },
      hardPath: { supported: false, compared: true, status: 'unsupported', ops: 0, runs: [] },
      neighbors: {
        supported: true, compared: true, status: 'failed', ops: 500,
        runs: [run(1, 50, 1, 2), { run: 2, valid: false, reason: '3 wrong answers' }],
        failures: [{ run: 2, input: 7, problem: 'missing key 8' }, { run: 2, input: 9, problem: 'b' }, { run: 2, input: 10, problem: 'c' }, { run: 2, input: 11, problem: 'd' }],
      },
    },
  };
}

const WORKLOAD_LINES = [
  'workload    status        ops  median ms  ops/s  p50 ms  p99 ms  sd ms',
  'singleRead  ok           1000        200   5000   0.200    2.00    100  client-bound *',
  'hardPath    unsupported',
  'neighbors   FAILED        500                                           3 wrong answers',
  '',
  'not compared:',
  'warmup    ok      100      10.00  10000   0.100   0.200',
];
const EXAMPLES = ['neighbors failed; examples:', '  run 2: input 7: missing key 8', '  run 2: input 9: b', '  run 2: input 10: c'];

test('the terminal table of a server\'s social run: the import, the resources, the workloads, the marks explained and the failures', () => {
  assert.deepEqual(formatTable(socialResult()).split('\n'), [
    'PostgreSQL 17.2 · dataset synthetic tiny (1000 profiles, 17531 relations, seed 1) · concurrency 25 · 3 runs',
    'import: 12.35 s (profiles 7868/s, relations 272535/s, indexes 2.50 s); 3.00 GiB on disk (the whole data directory)',
    'resources: server (docker, pid 42) peak 512.0 MiB resident, CPU peak 180% mean 90.5%; harness CPU peak 95%, event-loop delay p99 up to 1.50 ms (100% = one core)',
    '',
    ...WORKLOAD_LINES,
    '',
    "* client-bound: in at least one run the harness itself was the limit: it used more than 85% of one core, its event loop was busy more than 90% of the time, or its own CPU per operation was more than 50% of the operation's mean latency; the figure may measure the client or its driver rather than the database (more concurrency or --clients spread that cost)",
    '',
    'event-loop delay: how long the harness\'s own event loop was blocked (p99, worst run); latencies may include that wait',
    '',
    ...EXAMPLES,
  ]);
});

test('a server whose runs were all too short for a CPU peak says so, never "null%"', () => {
  const result = socialResult();
  result.resources.server = { ...result.resources.server, cpuPeakPct: null };
  const line = formatTable(result).split('\n')[2];
  assert.match(line, /CPU peak n\/a \(no run of 0\.5 s or more\) mean 90\.5%/);
  assert.doesNotMatch(line, /null/);
});

test('an embedded database run once with a serial driver, its import reused, stopped by an error', () => {
  const result = {
    ...socialResult(),
    db: { id: 'sqlite', name: 'SQLite', version: '3.46', kind: 'embedded', execution: 'serial' },
    config: { concurrency: 1, runs: 1 },
    import: { reused: true, importedAt: '2026-11-21T23:29:50.003Z', diskBytes: 5 * 1024 ** 2, diskScope: 'database' },
    resources: { server: null, client: { cpuPeakPct: 99 } },
    complete: false,
    error: { message: 'connection lost' },
  };
  assert.deepEqual(formatTable(result).split('\n'), [
    'SQLite 3.46 · dataset synthetic tiny (1000 profiles, 17531 relations, seed 1) · concurrency 1 (serial driver: one operation at a time) · 1 run',
    'import: reused the data imported at 2026-11-21T23:29:50.003Z; 5.0 MiB on disk',
    'resources: harness (with SQLite inside) CPU peak 99% (100% = one core)',
    '',
    ...WORKLOAD_LINES,
    '',
    '* client-bound: in at least one run the harness used more than 85% of one core or its event loop was busy more than 90% of the time, so the limit was that core, which SQLite shares with the harness as it runs inside it',
    '',
    ...EXAMPLES,
    '',
    'INCOMPLETE: connection lost',
  ]);
  // Without the error's message, and interrupted.
  assert.equal(formatTable({ ...result, error: null }).split('\n').at(-1), 'INCOMPLETE: stopped early');
  assert.equal(formatTable({ ...result, interrupted: true }).split('\n').at(-1), 'INCOMPLETE: interrupted; the runs completed so far are kept (NOT RUN: not reached, or stopped by the interruption before it finished).');
});

test('another suite names itself and its data\'s label; the offline import\'s time; no resources line without figures', () => {
  const result = {
    ...socialResult(),
    suite: 'crud',
    dataset: { name: 'x', scale: 'x', label: 'crud documents, seed 1' },
    import: { ...socialResult().import, path: 'offline', loadMs: 4000, diskBytes: 1024 ** 3 - 1024 ** 2, diskScope: 'namespace' },
    resources: { server: { source: 'docker', pid: 1, rssPeakBytes: null }, client: { cpuPeakPct: null } },
    workloads: { singleRead: socialResult().workloads.singleRead },
  };
  assert.deepEqual(formatTable(result).split('\n'), [
    'suite crud · PostgreSQL 17.2 · crud documents, seed 1 · concurrency 25 · 3 runs',
    'import: 12.35 s (profiles 7868/s, relations 272535/s, indexes 2.50 s; offline: importer and restart 4.00 s); 1023.0 MiB on disk',
    '',
    'workload    status   ops  median ms  ops/s  p50 ms  p99 ms  sd ms',
    'singleRead  ok      1000        200   5000   0.200    2.00    100  client-bound *',
    '',
    "* client-bound: in at least one run the harness itself was the limit: it used more than 85% of one core, its event loop was busy more than 90% of the time, or its own CPU per operation was more than 50% of the operation's mean latency; the figure may measure the client or its driver rather than the database (more concurrency or --clients spread that cost)",
  ]);
  // The client-bound legend only for a passed workload, and no size without one.
  const failed = { ...result.workloads.singleRead, status: 'failed', runs: [{ run: 1, valid: false, reason: 'wrong' }] };
  const text = formatTable({ ...result, import: { ...result.import, diskBytes: null }, workloads: { singleRead: failed } });
  assert.ok(!text.includes('* client-bound'), text);
  assert.ok(!text.includes('on disk'), text);
  assert.match(text, /\nsingleRead  FAILED  1000 {43}wrong$/);
});

test('a run of one: no standard deviation; a failed workload without a failed run names no reason', () => {
  const result = {
    ...socialResult(),
    import: null,
    resources: null,
    workloads: {
      one: { supported: true, compared: true, status: 'passed', ops: 10, runs: [run(1, 0.5, 0.01, 0.02)], summary: { medianMs: 0.5, stdevMs: 0.1 }, resources: null, failures: [] },
      gone: { supported: true, compared: true, status: 'failed', ops: 10, runs: [run(1, 1, 1, 1)], failures: [] },
    },
  };
  assert.deepEqual(formatTable(result).split('\n').slice(1), [
    '',
    'workload  status  ops  median ms  ops/s  p50 ms  p99 ms  sd ms',
    'one       ok       10      0.500  20000   0.010   0.020',
    'gone      FAILED   10',
  ]);
});

test('the dataset files\' read statistics: each kind of count, singular and plural, the edge file on its own', () => {
  assert.equal(readStatsLine(null), null);
  assert.equal(readStatsLine({ profiles: { repairedLines: 0, skippedLines: 0 }, relations: null }), null);
  assert.equal(readStatsLine({ profiles: { repairedLines: 1, skippedLines: 2 }, relations: { repairedLines: 2, skippedLines: 1 } }),
    'dataset files read: profiles 1 line repaired (invalid UTF-8), 2 lines skipped (malformed, --skip-bad); '
    + 'relations 2 lines repaired (invalid UTF-8), 1 line skipped (malformed, --skip-bad)');
  assert.equal(readStatsLine({ skippedLines: 0, repairedLines: 0, duplicates: 1, selfLoops: 2 }),
    'dataset files read: edge file 1 repeated pair dropped, 2 self-loops dropped');
  assert.equal(readStatsLine({ skippedLines: 1, repairedLines: 0, duplicates: 2, selfLoops: 1 }),
    'dataset files read: edge file 1 line skipped (malformed, --skip-bad), 2 repeated pairs dropped, 1 self-loop dropped');
  assert.equal(readStatsLine({ skippedLines: 0, repairedLines: 0, duplicates: 0, selfLoops: 0 }), null);
});

test('the import summary: the dataset, each phase\'s time and rate, the size on disk, or what stopped it', () => {
  const result = {
    db: { name: 'PostgreSQL', version: '17.2' },
    dataset: { name: 'pokec', scale: 'full', profiles: 1632803, relations: 30622564, seed: 7, readStats: { profiles: { repairedLines: 3 } } },
    import: {
      ms: 123456, profilesMs: 40000, relationsMs: 80000, indexesMs: 3456, profilesPerSec: 40820, relationsPerSec: 382782, path: 'online', diskBytes: 5 * 1024 ** 3,
    },
  };
  assert.deepEqual(formatImport(result).split('\n'), [
    'PostgreSQL 17.2 · dataset pokec full (1,632,803 profiles, 30,622,564 relations, seed 7)',
    'import: 123.5 s, counts verified',
    '  profiles      40.0 s     40,820 rows/s',
    '  relations     80.0 s    382,782 rows/s',
    '  indexes        3.5 s',
    'on disk after import: 5.0 GiB',
    'dataset files read: profiles 3 lines repaired (invalid UTF-8)',
  ]);
  const offline = formatImport({ ...result, dataset: { ...result.dataset, readStats: null }, import: { ...result.import, path: 'offline', loadMs: 2000, diskBytes: null } }).split('\n');
  assert.deepEqual(offline.slice(1), [
    'import: 123.5 s offline, counts verified',
    '  profiles      40.0 s     40,820 rows/s (written)',
    '  relations     80.0 s    382,782 rows/s (written)',
    '  load           2.0 s  (the importer, the server restarted on its database)',
    '  indexes        3.5 s',
  ]);
  assert.deepEqual(formatImport({ ...result, import: null, error: { message: 'disk full' } }).split('\n').slice(1), ['INCOMPLETE: disk full']);
  assert.deepEqual(formatImport({ ...result, import: null }).split('\n').slice(1), ['INCOMPLETE: the import did not finish']);
});

// The queries suite: a case per row in the suite's order, each case's sizes from small to large.
function queriesResult() {
  const entry = (size, documents, extra) => ({
    supported: true, compared: true, status: 'passed', ops: 1, params: { size, documents },
    runs: [{ run: 1, valid: true, ms: 10, rows: 7, latencyMs: { p50: 10, p99: 10 } }, { run: 2, valid: true, ms: 30, rows: 5, latencyMs: { p50: 30, p99: 30 } }],
    summary: { minMs: 10, maxMs: 30, meanMs: 20, medianMs: 20.5, stdevMs: 14.1 }, resources: null, ...extra,
  });
  return {
    suite: 'queries',
    db: { id: 'pg', name: 'PostgreSQL', version: '17.2', kind: 'server', execution: 'parallel' },
    dataset: { label: 'query documents, sizes 1k, 10k' },
    config: { concurrency: 1, runs: 2 },
    import: { collections: { '1k': { reused: true }, '10k': { reused: false, ms: 1234, documentsPerSec: 8100, indexesMs: 56 } }, diskBytes: 2 * 1024 ** 2 },
    resources: null,
    complete: true,
    workloads: {
      'collect-string 10k': entry('10k', 10000, { resources: { clientBound: true } }),
      'collect-number 10k': entry('10k', 10000, { runs: [1, 2].map((run) => ({ run, valid: true, ms: 10, latencyMs: { p50: 10, p99: 10 } })) }),
      'collect-number 1k': entry('1k', 1000, { runs: [1, 2, 3].map((run) => ({ run, valid: true, ms: 10, latencyMs: { p50: 10, p99: 10 }, ...(run === 2 ? {} : { rows: run }) })) }),
      'subquery 1k': entry('1k', 1000, { status: 'failed', runs: [{ run: 1, valid: true, ms: 1 }, { run: 2, valid: false, reason: 'rows differ' }], summary: null }),
      'subquery 10k': entry('10k', 10000, { status: 'unsupported', supported: false, runs: [], reason: 'no subqueries', summary: null }),
      'collect-count-number 1k': entry('1k', 1000, { status: 'failed', runs: [{ run: 1, valid: false }], summary: null }),
      'not a case 1k': entry('1k', 1000),
      notes: { ...entry('1k', 1000), params: undefined },
      'collect-count-string 1k': entry('1k', 1000, { params: { documents: 1000 } }),
    },
  };
}

test('the queries suite\'s table: the published columns per case and size, its loads, the failures in words', () => {
  assert.deepEqual(formatTable(queriesResult()).split('\n'), [
    'suite queries · PostgreSQL 17.2 · query documents, sizes 1k, 10k · concurrency 1 · 2 runs',
    'load: 1k reused; 10k 1.23 s (8,100 documents/s, indexes 0.06 s), counts verified; 2.0 MiB on disk',
    '',
    'test name            | collection | runs | min (s) | max (s) | avg (s) | median (s) | rows | status',
    'collect-number       | 1k         |    3 |  0.0100 |  0.0300 |  0.0200 |     0.0205 |    3 | ok',
    'collect-number       | 10k        |    2 |  0.0100 |  0.0300 |  0.0200 |     0.0205 |      | ok',
    'collect-string       | 10k        |    2 |  0.0100 |  0.0300 |  0.0200 |     0.0205 |    5 | ok, client-bound *',
    'collect-count-number | 1k         |    1 |         |         |         |            |      | FAILED',
    'subquery             | 1k         |    2 |         |         |         |            |      | FAILED: rows differ',
    'subquery             | 10k        |    0 |         |         |         |            |      | UNSUPPORTED: no subqueries',
    '',
    "* client-bound: in at least one run the harness itself was the limit: it used more than 85% of one core, its event loop was busy more than 90% of the time, or its own CPU per operation was more than 50% of the operation's mean latency; the figure may measure the client or its driver rather than the database (more concurrency or --clients spread that cost)",
  ]);
});

// The graph suite: a read measured over three runs (the median run's figures), a batched write with the collection's
// size after it, an unsupported and a failed workload.
function graphResult(kind) {
  const io = (readBytes, writeBytes) => ({ readBytes, writeBytes, readChars: 0, writeChars: 0 });
  const measured = (readBytes, writeBytes) => (kind === 'server' ? { server: { io: io(readBytes, writeBytes) } } : { client: { io: io(readBytes, writeBytes) } });
  const run = (n, ms, extra) => ({ run: n, valid: true, ms, latencyMs: { p50: ms / 100, p99: ms / 10 }, ...extra });
  return {
    suite: 'graph',
    db: { id: 'x', name: 'Neo4j', version: '5', kind, execution: 'parallel' },
    dataset: { label: 'edge file e.tsv (6,000 edges)' },
    config: { concurrency: 4, runs: 3 },
    import: {
      reused: false, edges: 6000, ms: 2500, edgesPerSec: 2400, indexesMs: 120, floor: { ms: 100, edgesPerSec: 60000 }, floorMultiple: 25,
      resources: measured(0, kind === 'server' ? 144000 : 72000), collectionBytes: 5 * 1024 ** 2, diskBytes: 9e9,
    },
    resources: null,
    complete: true,
    workloads: {
      neighbors: {
        supported: true, compared: true, status: 'passed', operation: 'neighbors', ops: 1000, summary: { medianMs: 500, stdevMs: 1 },
        runs: [run(1, 500, { edges: 30000, resources: measured(kind === 'server' ? 120000 : 36000, 0) }), run(2, 250, { edges: 30000, resources: measured(600000, 0) }), run(3, 2000, { edges: 30000 })],
      },
      addEdges: {
        supported: true, compared: true, status: 'passed', operation: 'addEdges', ops: 4, summary: { medianMs: 80, stdevMs: 0 },
        runs: [run(1, 80, { edges: 2000, diskBytes: 6 * 1024 ** 2, resources: kind === 'server' ? measured(0, 96000) : null })],
      },
      hardPath: { supported: false, compared: true, status: 'unsupported', operation: 'hardPath', ops: 0, runs: [], reason: 'no paths' },
      removeEdges: { supported: true, compared: true, status: 'failed', operation: 'removeEdges', ops: 4, runs: [{ run: 1, valid: false, reason: 'count off by 1' }] },
    },
  };
}

const GRAPH_NOTES = [
  'edges/s: edges answered (reads) or written (writes) per second; a batched write carries 500 per request',
  'amplification: those bytes over the logical bytes of the edges answered or written (12 bytes an edge)',
  'edge collection on disk after each write workload (before its undo): addEdges 6.0 MiB',
];

test('the graph suite\'s table: requests and edges per second, the bytes per request and their amplification, a failed workload\'s reason', () => {
  assert.deepEqual(formatTable(graphResult('server')).split('\n'), [
    'suite graph · Neo4j 5 · edge file e.tsv (6,000 edges) · concurrency 4 · 3 runs',
    'import: 6,000 edges in 2.50 s (2,400 edges/s, indexes 0.12 s); reading and parsing the file alone (the floor) 0.10 s, 60,000 edges/s, '
      + 'so the import took 25× the floor; the server wrote 140.6 KiB, 2.00× the edges\' logical bytes; the edge collection takes 5.0 MiB on disk',
    '',
    'workload     status       requests  median ms  requests/s  edges/s  p50 ms  p99 ms  read/req  written/req  read ampl.  write ampl.',
    'neighbors    ok               1000        500       2,000   60,000    5.00   50.00     120 B          0 B       0.33×        0.00×',
    'addEdges     ok                  4      80.00          50   25,000   0.800    8.00       0 B     23.4 KiB       0.00×        4.00×',
    'hardPath     UNSUPPORTED',
    'removeEdges  FAILED',
    '',
    'unsupported hardPath: no paths',
    'failed removeEdges: count off by 1',
    '',
    'read/written: bytes the server\'s processes read from and wrote to storage per request; page-cache hits read 0',
    ...GRAPH_NOTES,
  ]);
});

test('the graph suite\'s import line says the floor is the faster of its passes', () => {
  const result = graphResult('server');
  result.import.floor.passes = [130, 100];
  assert.match(formatTable(result).split('\n')[1], /; reading and parsing the file alone \(the floor, the faster of 2 passes\) 0\.10 s, 60,000 edges\/s, so the import took 25× the floor;/);
});

test('the graph suite\'s table for an embedded database: the harness\'s own bytes, none where a run has no figures', () => {
  const lines = formatTable(graphResult('embedded')).split('\n');
  assert.equal(lines[1], 'import: 6,000 edges in 2.50 s (2,400 edges/s, indexes 0.12 s); reading and parsing the file alone (the floor) 0.10 s, 60,000 edges/s, '
    + 'so the import took 25× the floor; the harness process (the database inside) wrote 70.3 KiB, 1.00× the edges\' logical bytes; the edge collection takes 5.0 MiB on disk');
  assert.equal(lines[4], 'neighbors    ok               1000        500       2,000   60,000    5.00   50.00      36 B          0 B       0.10×        0.00×');
  assert.equal(lines[5], 'addEdges     ok                  4      80.00          50   25,000   0.800    8.00');
  assert.deepEqual(lines.slice(12), ['read/written: bytes the harness process (Neo4j runs inside it) read from and wrote to storage per request; page-cache hits read 0', ...GRAPH_NOTES]);
  // A server the harness does not know the process of: nothing measured.
  const unknown = graphResult('server');
  for (const entry of [unknown.workloads.neighbors, unknown.workloads.addEdges]) for (const run of entry.runs) delete run.resources;
  assert.equal(formatTable(unknown).split('\n')[12], 'read/written: not measured (no local server process known: bench server start, or --server-pid)');
});

test('the graph suite\'s import line: reused, or loaded without a floor or bytes measured', () => {
  const reused = { ...graphResult('server'), import: { reused: true, edges: 6000, collectionBytes: 1024 } };
  assert.equal(formatTable(reused).split('\n')[1], 'import: reused the edge collection loaded before (6,000 edges); the edge collection takes 1.0 KiB on disk');
  // Without the collection's own size, the namespace's size on disk stands for it.
  const plain = { ...graphResult('server'), import: { reused: false, edges: 6000, ms: 2500, edgesPerSec: 2400, indexesMs: 120, diskBytes: 2 * 1024 ** 2, diskScope: 'namespace' } };
  assert.equal(formatTable(plain).split('\n')[1], 'import: 6,000 edges in 2.50 s (2,400 edges/s, indexes 0.12 s); 2.0 MiB on disk');
});

test('exactly a GiB on disk is a GiB; the dataset files\' read statistics close the table, after a blank line', () => {
  const result = { ...socialResult(), import: { ...socialResult().import, diskBytes: 1024 ** 3, diskScope: 'namespace' }, resources: null };
  result.dataset = { ...result.dataset, readStats: { profiles: { repairedLines: 2, skippedLines: 0 }, relations: null } };
  result.workloads = { singleRead: { ...result.workloads.singleRead, resources: null } };
  assert.deepEqual(formatTable(result).split('\n').slice(1), [
    'import: 12.35 s (profiles 7868/s, relations 272535/s, indexes 2.50 s); 1.00 GiB on disk',
    '',
    'workload    status   ops  median ms  ops/s  p50 ms  p99 ms  sd ms',
    'singleRead  ok      1000        200   5000   0.200    2.00    100',
    '',
    'dataset files read: profiles 2 lines repaired (invalid UTF-8)',
  ]);
});
