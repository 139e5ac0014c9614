// How `bench report` pools one database's documents (results/report/aggregate.js) and chooses and applies its
// baseline (normalise.js), on entries made up here: a workload's pooled status, its reason, the latency fallback,
// the order of workloads and databases.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupByDatabase, isCompared, poolDatabase, poolWorkload, workloadNames } from '../../results/report/aggregate.js';
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
