// `bench compare`: the speedup, its interval and the summary on cases worked out by hand (minimal documents
// made up here, labelled synthetic), then the real CLI on the real result files for its exit codes.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildComparison, createComparison } from '../../results/compare.js';
import { spawnBench } from '../helpers/cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/results/', import.meta.url));
const fixtureFile = (dir, db) => path.join(FIXTURES, dir, readdirSync(path.join(FIXTURES, dir)).find((f) => f.startsWith(`${db}-`)));
const fixture = (dir, db) => JSON.parse(readFileSync(fixtureFile(dir, db), 'utf8'));

// Synthetic: a document with the given run times per workload, nothing else the comparison does not read.
function synthetic(times, { db = 'sqlite', dataset = 'synthetic-tiny-s1-g1' } = {}) {
  const workloads = Object.fromEntries(Object.entries(times).map(([name, ms]) => [name, {
    supported: true, compared: true, status: 'passed', valid: true, ops: 10,
    runs: ms.map((value, i) => ({ run: i + 1, valid: true, ms: value, errors: 0 })),
  }]));
  return { file: `${db}.json`, result: { schema: 'db-shootout/result@1', db: { id: db, version: '1' }, dataset: { id: dataset }, workloads } };
}

test('synthetic: speedup is median(a) / median(b), faster or slower only when the interval excludes 1', () => {
  const a = synthetic({ singleRead: [10, 10, 10], singleWrite: [10, 10, 10], aggregation: [10, 11, 12] });
  const b = synthetic({ singleRead: [5, 5, 5], singleWrite: [20, 20, 20], aggregation: [10, 11, 12] });
  const comparison = buildComparison([a], [b]);
  const by = Object.fromEntries(comparison.workloads.map((w) => [w.name, w]));
  assert.deepEqual([by.singleRead.speedup, by.singleRead.ci, by.singleRead.changePct, by.singleRead.verdict], [2, { low: 2, high: 2 }, -50, 'faster']);
  assert.deepEqual([by.singleWrite.speedup, by.singleWrite.ci, by.singleWrite.changePct, by.singleWrite.verdict], [0.5, { low: 0.5, high: 0.5 }, 100, 'slower']);
  // 3 runs a side: the interval runs from min(a)/max(b) to max(a)/min(b) (statistics.test.js).
  assert.deepEqual([by.aggregation.speedup, by.aggregation.ci, by.aggregation.verdict], [1, { low: 0.833, high: 1.2 }, 'not significant']);
  // (2 · 0.5 · 1)^(1/3) = 1
  assert.deepEqual(comparison.summary, { geometricMeanSpeedup: 1, compared: 3, faster: 1, slower: 1, notSignificant: 1, notComparable: [] });
  assert.equal(comparison.gate, null);
});

test('synthetic: an interval that only touches 1 is not significant; a single run gives no interval', () => {
  const a = synthetic({ singleRead: [10, 10, 10], singleWrite: [10, 10, 10], aggregation: [10] });
  const b = synthetic({ singleRead: [10, 10, 10], singleWrite: [10, 10, 5], aggregation: [5, 5] });
  const by = Object.fromEntries(buildComparison([a], [b]).workloads.map((w) => [w.name, w]));
  assert.deepEqual([by.singleRead.ci, by.singleRead.verdict], [{ low: 1, high: 1 }, 'not significant']);
  // b's resampled median is 10 or 5: the ratio runs from exactly 1 to 2.
  assert.deepEqual([by.singleWrite.ci, by.singleWrite.verdict], [{ low: 1, high: 2 }, 'not significant']);
  assert.deepEqual([by.aggregation.speedup, by.aggregation.ci, by.aggregation.verdict], [2, null, 'not significant']);
  const reversed = Object.fromEntries(buildComparison([b], [a]).workloads.map((w) => [w.name, w]));
  assert.deepEqual([reversed.singleWrite.ci, reversed.singleWrite.verdict], [{ low: 0.5, high: 1 }, 'not significant']);
});

test('synthetic: the geometric mean of speedups 2, 4 and 1 is 2', () => {
  const a = synthetic({ singleRead: [20, 20], singleWrite: [40, 40], aggregation: [7, 7] });
  const b = synthetic({ singleRead: [10, 10], singleWrite: [10, 10], aggregation: [7, 7] });
  assert.equal(buildComparison([a], [b]).summary.geometricMeanSpeedup, 2);
});

test('synthetic: --fail-if-slower fails on a significant slowdown beyond the threshold, or a validation failure in b', () => {
  const a = synthetic({ singleRead: [10, 10, 10], singleWrite: [10, 10, 10], aggregation: [10, 11, 12] });
  const b = synthetic({ singleRead: [5, 5, 5], singleWrite: [20, 20, 20], aggregation: [12, 13, 14] });
  assert.deepEqual(buildComparison([a], [b], { failIfSlowerPct: 50 }).gate, {
    failIfSlowerPct: 50, passed: false, failed: [{ workload: 'singleWrite', reason: '100% slower (speedup 0.5, 95% CI 0.5 – 0.5)' }],
  });
  assert.equal(buildComparison([a], [b], { failIfSlowerPct: 150 }).gate.passed, true, '100% slower is within 150%');
  // aggregation is 18% slower in its median, but the interval [10/14, 12/12] holds 1: not a failure at 10%.
  assert.deepEqual(buildComparison([a], [b], { failIfSlowerPct: 10 }).gate.failed.map((f) => f.workload), ['singleWrite']);
  b.result.workloads.singleRead = { ...b.result.workloads.singleRead, status: 'failed', valid: false, runs: [{ run: 1, valid: false, errors: 0, failed: 2, reason: '2 wrong answers' }] };
  assert.deepEqual(buildComparison([a], [b], { failIfSlowerPct: 150 }).gate.failed, [{ workload: 'singleRead', reason: 'failed validation in b (2 wrong answers)' }]);
});

test('synthetic: the comparison names each side, says how it computes, and warns when the sides differ in kind', () => {
  const a = synthetic({ singleRead: [10, 10] });
  const b = synthetic({ singleRead: [10, 10] }, { db: 'postgresql' });
  a.result.harness = { version: '0.1.0', commit: '0123456789abcdef0123' };
  a.result.config = { concurrency: 25, runs: 2 };
  a.result.environment = { hostname: 'one', cpu: 'x', cores: 2 };
  b.result.environment = { hostname: 'two', cpu: 'x', cores: 2 };
  const comparison = buildComparison([a], [b], { labels: ['before/', 'after/'] });
  assert.equal(comparison.schema, 'db-shootout/compare@1');
  assert.deepEqual(comparison.statistics, {
    speedup: 'median time of a / median time of b: above 1 means b is faster, below 1 that b is slower',
    interval: { method: 'percentile bootstrap of the ratio of the medians, each side resampled on its own', level: 0.95, resamples: 10_000, seed: 1 },
    significance: 'a workload is faster or slower only when the interval excludes 1',
    summary: 'geometric mean of the speedups of the compared workloads both sides passed',
  });
  assert.deepEqual(comparison.a, {
    label: 'before/', files: ['sqlite.json'], database: 'sqlite', versions: ['1'], dataset: 'synthetic-tiny-s1-g1',
    harness: ['0.1.0 0123456789ab'], config: [{ concurrency: 25, runs: 2 }],
  });
  assert.deepEqual([comparison.b.label, comparison.b.database, comparison.b.harness, comparison.b.config], ['after/', 'postgresql', [null], [{ concurrency: null, runs: null }]]);
  assert.deepEqual(comparison.warnings, [
    'a is sqlite and b is postgresql: this compares two databases, not two versions of one (`bench report` is made for that)',
    'the results come from different machines (one: x, 2 cores; two: x, 2 cores)',
  ]);
  assert.deepEqual(buildComparison([a], [synthetic({ singleRead: [10, 10] })]).warnings, [], 'one machine, or none recorded');
  a.result.harness = { version: '0.1.0', commit: null };
  const unlabelled = buildComparison([a], [synthetic({ singleRead: [10, 10] })]);
  assert.deepEqual([unlabelled.a.label, unlabelled.b.label, unlabelled.a.harness], ['a', 'b', ['0.1.0']]);
});

test('synthetic: only compared workloads both sides passed count; the gate reads only those and needs a threshold', () => {
  const a = synthetic({ warmup: [10, 10, 10], singleRead: [10, 10, 10], singleWrite: [10, 10, 10], aggregation: [10, 10, 10] });
  const b = synthetic({ warmup: [40, 40, 40], singleRead: [20, 20, 20], singleWrite: [10, 10, 10], aggregation: [10, 10, 10] });
  a.result.workloads.warmup.compared = false;
  b.result.workloads.warmup.compared = false;
  b.result.workloads.aggregation = { ...b.result.workloads.aggregation, status: 'failed', valid: false, runs: [{ run: 1, valid: false, errors: 1, failed: 1 }] };
  const comparison = buildComparison([a], [b], { failIfSlowerPct: 100 });
  const by = Object.fromEntries(comparison.workloads.map((w) => [w.name, w]));
  assert.deepEqual([by.warmup.compared, by.warmup.speedup, by.warmup.verdict], [false, 0.25, 'slower']);
  assert.deepEqual([by.aggregation.speedup, by.aggregation.verdict, by.aggregation.b.status], [null, null, 'failed']);
  assert.equal('exactSpeedup' in by.singleRead, false);
  assert.deepEqual(comparison.summary, { geometricMeanSpeedup: Math.round(Math.sqrt(0.5) * 1000) / 1000, compared: 2, faster: 0, slower: 1, notSignificant: 1, notComparable: ['aggregation'] });
  // singleRead is exactly 100% slower: not beyond 100%; warmup is not compared; aggregation failed in b without a reason.
  assert.deepEqual(comparison.gate, { failIfSlowerPct: 100, passed: false, failed: [{ workload: 'aggregation', reason: 'failed validation in b' }] });
  assert.deepEqual(buildComparison([a], [b], { failIfSlowerPct: 99.9 }).gate.failed.map((f) => f.workload), ['singleRead', 'aggregation']);
  // Failed on both sides is no regression of b's; failed only in a gives no speedup either.
  const bothFailed = buildComparison([b], [b], { failIfSlowerPct: 10 });
  assert.deepEqual([bothFailed.gate.passed, bothFailed.workloads.find((w) => w.name === 'aggregation').speedup], [true, null]);
  const aFailed = buildComparison([b], [a]).workloads.find((w) => w.name === 'aggregation');
  assert.deepEqual([aFailed.a.status, aFailed.speedup, aFailed.verdict], ['failed', null, null]);
  const allFailed = buildComparison([synthetic({ singleRead: [1, 1] })], [b].map(({ file, result }) => ({ file, result: { ...result, workloads: { singleRead: b.result.workloads.aggregation } } })));
  assert.deepEqual([allFailed.summary.compared, allFailed.summary.geometricMeanSpeedup], [0, null]);
  const nothing = buildComparison([synthetic({ singleRead: [1, 1] })], [synthetic({ singleRead: [1, 1] })]);
  const oneSided = buildComparison([synthetic({ singleRead: [1, 1], singleWrite: [2, 2] })], [synthetic({ singleRead: [1] })]);
  assert.deepEqual([oneSided.summary.compared, oneSided.summary.notComparable], [1, ['singleWrite']], 'a workload b did not run');
  assert.equal(nothing.summary.geometricMeanSpeedup, 1);
});

test('synthetic: a side of several files pools their runs, and a file without the workload adds nothing', () => {
  const a = [synthetic({ singleRead: [10, 30], singleWrite: [5, 5] }), synthetic({ singleRead: [20] })];
  const b = [synthetic({ singleRead: [10, 10, 10], singleWrite: [5, 5] })];
  const by = Object.fromEntries(buildComparison(a, b).workloads.map((w) => [w.name, w]));
  assert.deepEqual([by.singleRead.a.runs, by.singleRead.speedup], [3, 2], 'median of 10, 20, 30 over 10');
  assert.deepEqual([by.singleWrite.a.runs, by.singleWrite.speedup], [2, 1]);
});

test('createComparison reads files and directories and labels the sides as they were named', async () => {
  const fileA = fixtureFile('suite', 'sqlite');
  const dirB = path.join(FIXTURES, 'sqlite-b');
  const comparison = await createComparison(fileA, dirB, { failIfSlowerPct: 1_000_000 });
  assert.deepEqual([comparison.a.label, comparison.b.label], [fileA, dirB]);
  assert.deepEqual(comparison.a.files, [fileA]);
  assert.equal(comparison.b.files.length, 1);
  assert.equal(comparison.gate.passed, true);
  assert.equal(comparison.summary.compared, Object.values(fixture('suite', 'sqlite').workloads).filter((w) => w.compared).length);
});

test('synthetic: different datasets are refused; several databases on one side are refused', () => {
  assert.throws(() => buildComparison([synthetic({ singleRead: [1, 1] })], [synthetic({ singleRead: [1, 1] }, { dataset: 'other' })]), { code: 'E_MIXED_DATASETS' });
  assert.throws(() => buildComparison([synthetic({ singleRead: [1, 1] }), synthetic({ singleRead: [1, 1] }, { db: 'neo4j' })], [synthetic({ singleRead: [1, 1] })]),
    { code: 'E_MIXED_DATABASES', message: /a holds results of 2 databases \(neo4j, sqlite\); each side of a comparison must be one database/ });
});

const middle = (values) => [...values].sort((x, y) => x - y)[(values.length - 1) / 2];

test('bench compare of two real SQLite invocations exits 0 and prints the speedups and their geometric mean', async () => {
  const a = fixture('suite', 'sqlite');
  const b = fixture('sqlite-b', 'sqlite');
  const { code, stdout, stderr } = await spawnBench(['compare', fixtureFile('suite', 'sqlite'), path.join(FIXTURES, 'sqlite-b')]);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /speedup = median time of a \/ median time of b: above 1 means b is faster/);
  const compared = Object.keys(a.workloads).filter((name) => a.workloads[name].compared);
  const speedups = compared.map((name) => middle(a.workloads[name].runs.map((r) => r.ms)) / middle(b.workloads[name].runs.map((r) => r.ms)));
  const geometric = Math.exp(speedups.reduce((sum, s) => sum + Math.log(s), 0) / speedups.length);
  assert.match(stdout, new RegExp(`summary: geometric mean speedup ${geometric.toFixed(3)}× over ${compared.length} workloads`));
  const row = stdout.split('\n').find((line) => line.startsWith('singleRead '));
  assert.ok(row.includes(`${speedups[compared.indexOf('singleRead')].toFixed(2)}×`), row);
});

test('bench compare --fail-if-slower exits 1 and names each significantly slower workload', async () => {
  const a = fixture('suite', 'memory');
  const b = fixture('suite', 'postgresql');
  // With 3 runs a side, b is significantly slower when even max(a) / min(b) is below 1.
  const times = (doc, name) => doc.workloads[name].runs.map((r) => r.ms);
  const expected = Object.keys(a.workloads).filter((name) => a.workloads[name].compared
    && Math.max(...times(a, name)) / Math.min(...times(b, name)) < 1
    && (middle(times(b, name)) / middle(times(a, name)) - 1) * 100 > 10);
  assert.ok(expected.length > 0, 'PostgreSQL is slower than the in-process store somewhere');
  const { code, stdout, stderr } = await spawnBench(['compare', fixtureFile('suite', 'memory'), fixtureFile('suite', 'postgresql'), '--fail-if-slower', '10']);
  assert.equal(code, 1, stderr);
  const failedLine = stderr.split('\n').find((line) => line.startsWith('failed: '));
  const named = failedLine.slice('failed: '.length).split('; ').map((part) => part.split(' ')[0]);
  assert.deepEqual(named, expected);
  assert.match(stdout, /--fail-if-slower 10%: FAILED: /);
  // The warning on stderr before anything else; the table on the terminal does not repeat it.
  assert.match(stderr, /^warning: a is memory and b is postgresql: this compares two databases/);
  assert.doesNotMatch(stdout, /warning:/);
  const relaxed = await spawnBench(['compare', fixtureFile('suite', 'memory'), fixtureFile('suite', 'postgresql'), '--fail-if-slower', '1000000']);
  assert.equal(relaxed.code, 0, relaxed.stderr);
  assert.match(relaxed.stdout, /--fail-if-slower 1000000%: passed/);
});

test('bench compare refuses different datasets and bad flags with exit code 2', async () => {
  const datasets = await spawnBench(['compare', fixtureFile('suite', 'sqlite'), path.join(FIXTURES, 'seed2')]);
  assert.equal(datasets.code, 2);
  assert.match(datasets.stderr, /^error: the results are of 2 different datasets: synthetic-tiny-s1-g1 .*; synthetic-tiny-s2-g1 /);
  const databases = await spawnBench(['compare', path.join(FIXTURES, 'suite'), path.join(FIXTURES, 'sqlite-b')]);
  assert.equal(databases.code, 2);
  assert.match(databases.stderr, /holds results of 4 databases/);
  const negative = await spawnBench(['compare', fixtureFile('suite', 'sqlite'), path.join(FIXTURES, 'sqlite-b'), '--fail-if-slower', '-5']);
  assert.equal(negative.code, 2);
  assert.match(negative.stderr, /--fail-if-slower must be a percentage of at least 0, got -5/);
  const json = await spawnBench(['compare', fixtureFile('suite', 'sqlite'), path.join(FIXTURES, 'sqlite-b'), '--format', 'json']);
  assert.equal(json.code, 0, json.stderr);
  const comparison = JSON.parse(json.stdout);
  assert.equal(comparison.schema, 'db-shootout/compare@1');
  assert.equal(comparison.workloads.length, 11);
});
