// How `bench report` pools one database's documents (results/report/aggregate.js) and chooses and applies its
// baseline (normalise.js), on entries made up here: a workload's pooled status, its reason, the latency fallback,
// the order of workloads and databases.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distinct, groupByDatabase, isCompared, poolDatabase, poolWorkload, workloadNames } from '../../results/report/aggregate.js';
import { chooseBaseline, normaliseWorkload } from '../../results/report/normalise.js';

const doc = (workloads, { db = 'sqlite', file = `${db}.json`, complete = true } = {}) => ({ file, result: { db: { id: db }, complete, workloads } });
const run = (ms, extra = {}) => ({ run: 1, valid: true, ms, ...extra });
const passed = (...ms) => ({ supported: true, status: 'passed', ops: 10, runs: ms.map((value) => run(value)) });
const status = (name, documents) => poolWorkload(name, documents).status;

test('a pooled workload passes when a file passed it and none failed it; else unsupported, or not run', () => {
  const notRun = { supported: true, status: 'not run', runs: [] };
  assert.equal(status('singleRead', [doc({ singleRead: passed(5) }), doc({ singleRead: notRun })]), 'passed');
  assert.equal(status('singleRead', [doc({ singleRead: { supported: true, status: 'passed', runs: [] } })]), 'not run', 'passed without a run');
  assert.equal(status('singleRead', [doc({})]), 'not run', 'in no file');
  assert.equal(status('singleRead', [doc({ singleRead: { status: 'unsupported', runs: [] } })]), 'unsupported');
  assert.equal(status('singleRead', [doc({ singleRead: { supported: false, status: 'x', runs: [] } })]), 'unsupported');
  assert.equal(status('singleRead', [doc({ singleRead: { supported: false, status: 'unsupported', runs: [] } }), doc({ singleRead: notRun })]), 'not run');
});

test('a failed workload gives the first failed run\'s reason, else its first example, else none', () => {
  const failed = (runs, failures) => doc({ singleRead: { supported: true, status: 'failed', runs, failures } });
  assert.equal(poolWorkload('singleRead', [failed([run(5), { run: 2, valid: false, reason: '2 wrong answers' }], [])]).reason, '2 wrong answers');
  assert.equal(poolWorkload('singleRead', [failed([{ run: 1, valid: false }], [{ input: '"P1"', problem: 'expected 1, got 2' }])]).reason, '"P1": expected 1, got 2');
  assert.equal(poolWorkload('singleRead', [failed([{ run: 1, valid: false }])]).reason, null);
  assert.equal(poolWorkload('singleRead', [doc({ singleRead: passed(5) })]).reason, null);
});

test('runs without histograms give the medians of their own percentiles; runs without latencies give none', () => {
  const latencyMs = (p50, max) => ({ p50, p90: p50 * 2, p99: p50 * 3, max, mean: p50 });
  const entry = { supported: true, status: 'passed', ops: 10, runs: [run(5, { latencyMs: latencyMs(1, 4) }), run(6, { latencyMs: latencyMs(2, 9) }), run(7, { latencyMs: latencyMs(4, 5) })] };
  assert.deepEqual(poolWorkload('singleRead', [doc({ singleRead: entry })]).latencyMs, {
    p50: 2, p90: 4, p99: 6, max: 9, mean: 2, operations: null, source: 'medians of the runs',
  });
  assert.equal(poolWorkload('singleRead', [doc({ singleRead: passed(5, 6) })]).latencyMs, null);
});

test('the resources of a workload: the peaks over its files, and whether the client was ever the bottleneck', () => {
  const withResources = (resources) => ({ ...passed(5), resources });
  const figures = poolWorkload('singleRead', [
    doc({ singleRead: withResources({ server: { rssPeakBytes: 10, cpuPeakPct: 50 }, client: { cpuPct: 90 }, clientBound: true }) }),
    doc({ singleRead: withResources({ server: { rssPeakBytes: 30, cpuPeakPct: 20 }, client: { cpuPct: 10 }, clientBound: false }) }),
    doc({ singleRead: withResources(null) }),
  ]);
  assert.deepEqual([figures.serverRssPeakBytes, figures.serverCpuPeakPct, figures.clientCpuPct, figures.clientBound], [30, 50, 90, true]);
  const none = poolWorkload('singleRead', [doc({ singleRead: passed(5) })]);
  assert.deepEqual([none.serverRssPeakBytes, none.serverCpuPeakPct, none.clientCpuPct, none.clientBound], [null, null, null, false]);
});

test('workloads in suite order, then unknown ones as they come; compared unless marked or known otherwise', () => {
  const documents = [doc({ zeta: passed(1), aggregation: passed(1) }), doc({ singleRead: passed(1), alpha: passed(1) })];
  assert.deepEqual(workloadNames(documents), ['singleRead', 'aggregation', 'zeta', 'alpha']);
  assert.equal(isCompared('aggregation', documents), true);
  assert.equal(isCompared('zeta', [doc({ zeta: { ...passed(1), compared: false } })]), false);
  assert.equal(isCompared('warmup', documents), false, 'the suite says so when no file holds it');
  assert.equal(isCompared('unknown', documents), true);
});

test('databases in id order whatever the order of the files; a file cut short with runs is named incomplete', () => {
  const files = [doc({}, { db: 'sqlite' }), doc({}, { db: 'arangodb' }), doc({}, { db: 'memory' }), doc({}, { db: 'arangodb', file: 'b.json' })];
  const groups = groupByDatabase(files);
  assert.deepEqual([...groups.keys()], ['arangodb', 'memory', 'sqlite']);
  assert.deepEqual(groups.get('arangodb').map((d) => d.file), ['arangodb.json', 'b.json']);
  const pooled = poolDatabase('sqlite', [
    doc({ singleRead: passed(5) }, { file: 'cut.json', complete: false }), doc({}, { file: 'empty.json', complete: false }), doc({ singleRead: passed(6) }, { file: 'done.json' }),
  ], ['singleRead']);
  assert.deepEqual([pooled.name, pooled.files, pooled.incompleteFiles], ['sqlite', ['cut.json', 'empty.json', 'done.json'], ['cut.json']]);
});

const database = (id, statuses) => ({ id, workloads: Object.fromEntries(Object.entries(statuses).map(([name, s]) => [name, { status: s }])) });

test('the baseline choice does not depend on the order of the databases, and reads a missing workload as not passed', () => {
  const all = { singleRead: 'passed', aggregation: 'passed' };
  for (const order of [['sqlite', 'postgresql', 'mysql'], ['mysql', 'sqlite', 'postgresql'], ['postgresql', 'mysql', 'sqlite']]) {
    assert.equal(chooseBaseline(order.map((id) => database(id, all)), ['singleRead', 'aggregation']).id, 'mysql', order.join());
  }
  assert.equal(chooseBaseline([database('neo4j', { singleRead: 'passed' }), database('sqlite', all)], ['singleRead', 'aggregation']).id, 'sqlite');
  assert.deepEqual(chooseBaseline([database('sqlite', all), database('arangodb', {})], ['singleRead']), { id: 'arangodb', reason: 'ArangoDB, the reference of the published nosql-tests charts' });
  assert.equal(chooseBaseline([database('sqlite', all)], ['singleRead'], null).id, 'sqlite', 'no --baseline given');
});

test('no percentages against a baseline that is missing, failed or without a positive time', () => {
  const figures = { status: 'passed', medianMs: 10, ci: null };
  for (const baseline of [undefined, { status: 'failed', medianMs: 5, ci: null }, { status: 'passed', medianMs: 0, ci: null }]) {
    const results = normaliseWorkload(baseline ? { base: baseline, other: figures } : { other: figures }, 'base');
    assert.deepEqual([results.other.normalisedPct, results.other.significant], [null, null], JSON.stringify(baseline));
  }
});

test('a database\'s import, server and reproducibility figures over its files: each import once, the peaks, every distinct value', () => {
  const full = (file, extra) => ({
    file,
    result: {
      db: { id: 'pg', name: 'PostgreSQL', version: '17', driver: { name: 'pg', version: '8' }, settings: { shared_buffers: '1GB' } },
      dataset: { id: 'd', name: 'synthetic', scale: 'tiny', seed: 1, profiles: 10, relations: 20 },
      config: { concurrency: 25, runs: 3, preset: null },
      harness: { name: 'db-shootout', version: '1', commit: 'abc' },
      environment: { cpu: 'x', cores: 2, memoryBytes: 8, os: 'linux', node: '20', hostname: 'h' },
      complete: true, workloads: { singleRead: passed(5) },
      ...extra,
    },
  });
  const documents = [
    full('a.json', { import: { importedAt: 't1', ms: 1000, diskBytes: 100, diskScope: 'namespace' }, resources: { server: { rssPeakBytes: 5, rssMeanBytes: 3, cpuPeakPct: 150, cpuMeanPct: 50, source: 'docker' } } }),
    // The same import reused: counted once.
    full('b.json', { import: { importedAt: 't1', ms: 1000, diskBytes: 100, diskScope: 'namespace', reused: true }, resources: { server: { rssPeakBytes: 9, rssMeanBytes: 2, cpuPeakPct: 120, cpuMeanPct: 70, source: 'bench server' } } }),
    full('c.json', { import: { importedAt: 't2', ms: 3000, diskBytes: 300, diskScope: 'data directory' }, resources: { server: { rssPeakBytes: 'n/a', source: null } }, db: { id: 'pg', name: 'PostgreSQL', version: '18', driver: null } }),
    full('d.json', { import: { importedAt: 't3' }, resources: null, environment: null, harness: undefined, config: undefined, complete: false }),
  ];
  const pooled = poolDatabase('pg', documents, ['singleRead']);
  assert.deepEqual(pooled.import, { imports: 3, ms: 2000, diskBytes: 200, diskScope: 'namespace, data directory' });
  assert.deepEqual(pooled.server, { rssPeakBytes: 9, rssMeanBytes: 3, cpuPeakPct: 150, cpuMeanPct: 70, source: 'docker, bench server' });
  assert.deepEqual(pooled.incompleteFiles, ['d.json']);
  assert.deepEqual(pooled.reproducibility.dbVersion, ['17', '18']);
  assert.deepEqual(pooled.reproducibility.driver, [{ name: 'pg', version: '8' }, null]);
  assert.deepEqual(pooled.reproducibility.dataset, [{ id: 'd', name: 'synthetic', scale: 'tiny', seed: 1, profiles: 10, relations: 20 }]);
  assert.deepEqual(pooled.reproducibility.config, [{ concurrency: 25, runs: 3, preset: null }, { concurrency: null, runs: null, preset: null }]);
  assert.deepEqual(pooled.reproducibility.harness, [{ name: 'db-shootout', version: '1', commit: 'abc' }, null]);
  assert.deepEqual(pooled.reproducibility.settings, [{ shared_buffers: '1GB' }, null]);
  assert.deepEqual(pooled.reproducibility.machine, [{ cpu: 'x', cores: 2, memoryBytes: 8, os: 'linux', node: '20', hostname: 'h' }, null]);
  // No figure at all: nulls, never zeros.
  const bare = poolDatabase('x', [{ file: 'x.json', result: { db: { id: 'x' }, dataset: { id: 'd' }, workloads: {} } }], []);
  assert.deepEqual(bare.import, { imports: 0, ms: null, diskBytes: null, diskScope: null });
  assert.deepEqual(bare.server, { rssPeakBytes: null, rssMeanBytes: null, cpuPeakPct: null, cpuMeanPct: null, source: null });
  assert.equal(bare.name, 'x');
  assert.deepEqual(bare.reproducibility.dataset, [{ id: 'd', name: null, scale: null, seed: null, profiles: null, relations: null }]);
  assert.deepEqual(bare.reproducibility.machine, [null]);
  // A size without its scope, a time without a size.
  const partial = poolDatabase('y', [{ file: 'y.json', result: { db: { id: 'y' }, import: { ms: 5, diskBytes: 7 }, workloads: {} } }, { file: 'z.json', result: { db: { id: 'y' }, import: { importedAt: 'u', ms: 9 }, workloads: {} } }], []);
  assert.deepEqual(partial.import, { imports: 2, ms: 7, diskBytes: 7, diskScope: null });
});

test('distinct values compared as JSON keep the first of each, in their first order; undefined is null', () => {
  // Equal as JSON, not as objects: the first one stays.
  const first = { version: '1', note: undefined };
  const [kept] = distinct([first, { version: '1' }]);
  assert.equal(kept, first);
  assert.deepEqual(distinct([2, undefined, 1, null, 2, 1]), [2, null, 1]);
  assert.deepEqual(distinct([]), []);
});

test('pooled runs are the valid runs of the entries that passed: a run elsewhere neither passes a workload nor counts', () => {
  // An entry whose status is not "passed" does not pass the workload by its runs, nor add them to a passed one.
  const notRun = { supported: true, status: 'not run', ops: 10, runs: [run(100)] };
  assert.deepEqual([poolWorkload('singleRead', [doc({ singleRead: notRun })]).status, poolWorkload('singleRead', [doc({ singleRead: notRun })]).runs], ['not run', 0]);
  const pooled = poolWorkload('singleRead', [doc({ singleRead: passed(5, 7) }), doc({ singleRead: notRun })]);
  assert.deepEqual([pooled.status, pooled.runs, pooled.medianMs], ['passed', 2, 6]);
  // A passed entry's invalid run does not count either.
  const withInvalid = { ...passed(5, 7), runs: [run(5), run(7), { run: 3, valid: false, ms: 1000, reason: 'stopped' }] };
  const counted = poolWorkload('singleRead', [doc({ singleRead: withInvalid })]);
  assert.deepEqual([counted.status, counted.runs, counted.medianMs, counted.reason], ['passed', 2, 6, null]);
});

test('a reason only for a failed workload; a failure without a failed run gives its first example', () => {
  const stopped = { supported: true, status: 'not run', runs: [{ run: 1, valid: false, reason: 'interrupted' }], failures: [{ input: '"P1"', problem: 'x' }] };
  assert.equal(poolWorkload('singleRead', [doc({ singleRead: stopped })]).reason, null);
  assert.equal(poolWorkload('singleRead', [doc({ singleRead: passed(5) }), doc({ singleRead: stopped })]).reason, null);
  const failedWithoutRun = { supported: true, status: 'failed', runs: [], failures: [{ input: '"P2"', problem: 'expected 1, got 2' }] };
  assert.equal(poolWorkload('singleRead', [doc({ singleRead: failedWithoutRun })]).reason, '"P2": expected 1, got 2');
  assert.equal(poolWorkload('singleRead', [doc({ singleRead: passed(5) }), doc({ singleRead: { ...failedWithoutRun, failures: [] } })]).reason, null);
});

test('the resources of a workload whose files lack the client\'s or the server\'s figures', () => {
  const figures = poolWorkload('singleRead', [
    doc({ singleRead: { ...passed(5), resources: { server: { rssPeakBytes: 10, cpuPeakPct: 50 } } } }),
    doc({ singleRead: { ...passed(6), resources: { client: { cpuPct: 40 }, clientBound: false } } }),
  ]);
  assert.deepEqual([figures.serverRssPeakBytes, figures.serverCpuPeakPct, figures.clientCpuPct, figures.clientBound], [10, 50, 40, false]);
  const serverOnly = poolWorkload('singleRead', [doc({ singleRead: { ...passed(5), resources: { server: { rssPeakBytes: 10 } } } })]);
  assert.deepEqual([serverOnly.serverRssPeakBytes, serverOnly.serverCpuPeakPct, serverOnly.clientCpuPct, serverOnly.clientBound], [10, null, null, false]);
});
