// `bench report` over result documents the real harness wrote (test/fixtures/results/, see its README): the
// figures are checked against values worked out here from the documents' raw runs.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { REPORT_FORMATS, buildReport, createReport, loadResults } from '../../results/report/index.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/results/', import.meta.url));
const SUITE = path.join(FIXTURES, 'suite');
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-report-'));
after(() => rmSync(work, { recursive: true, force: true }));

function fixture(dir, db) {
  const name = readdirSync(path.join(FIXTURES, dir)).find((file) => file.startsWith(`${db}-`));
  return JSON.parse(readFileSync(path.join(FIXTURES, dir, name), 'utf8'));
}

function sortedTimes(...documents) {
  return (name) => documents.flatMap((d) => d.workloads[name].runs.map((run) => run.ms)).sort((a, b) => a - b);
}

const middle = (sorted) => (sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2);
const round3 = (value) => Math.round(value * 1000) / 1000;

test('medians, intervals, throughput and percentages match the raw runs of the real result files', async () => {
  const report = await createReport([SUITE], { baseline: 'postgresql' });
  assert.deepEqual(report.databases.map((d) => d.id), ['postgresql', 'memory', 'postgresql_tabular', 'sqlite'], 'the baseline first, then by id');
  const pg = fixture('suite', 'postgresql');
  const sqlite = fixture('suite', 'sqlite');
  for (const workload of report.workloads.filter((w) => w.compared)) {
    const pgTimes = sortedTimes(pg)(workload.name);
    const sqliteTimes = sortedTimes(sqlite)(workload.name);
    const figures = workload.results.sqlite;
    assert.equal(figures.status, 'passed');
    assert.equal(figures.runs, 3);
    assert.equal(figures.medianMs, round3(sqliteTimes[1]));
    // With 3 runs the 95% bootstrap interval of the median is the range of the runs (see statistics.test.js).
    assert.deepEqual(figures.ci, { lowMs: sqliteTimes[0], highMs: sqliteTimes[2] });
    assert.equal(figures.opsPerSec, Math.round(sqlite.workloads[workload.name].ops / (sqliteTimes[1] / 1000)));
    assert.equal(figures.normalisedPct, Math.round((sqliteTimes[1] / pgTimes[1]) * 1000) / 10);
    const apart = sqliteTimes[2] < pgTimes[0] || pgTimes[2] < sqliteTimes[0];
    assert.equal(figures.significant, apart, `${workload.name}: significance from the two ranges`);
    assert.equal(workload.results.postgresql.normalisedPct, 100);
  }
});

test('latency percentiles come from the runs\' merged histograms', async () => {
  const report = await createReport([SUITE]);
  const runs = fixture('suite', 'sqlite').workloads.singleRead.runs;
  const latency = report.workloads.find((w) => w.name === 'singleRead').results.sqlite.latencyMs;
  assert.equal(latency.source, 'merged histograms');
  assert.equal(latency.operations, runs.length * fixture('suite', 'sqlite').workloads.singleRead.ops);
  assert.equal(latency.max, Math.max(...runs.map((run) => run.latencyMs.max)));
  // A percentile of all operations lies between the smallest and the largest of the runs' own.
  assert.ok(latency.p50 >= Math.min(...runs.map((r) => r.latencyMs.p50)) && latency.p50 <= Math.max(...runs.map((r) => r.latencyMs.p50)));
  assert.ok(latency.p99 >= Math.min(...runs.map((r) => r.latencyMs.p99)) && latency.p99 <= Math.max(...runs.map((r) => r.latencyMs.p99)));
});

test('without ArangoDB and without --baseline, the baseline is chosen by passed workloads, then id, and the report says so', async () => {
  const report = await createReport([SUITE]);
  // All four passed every compared workload; memory comes first by id, but an in-process test store is no
  // database, so postgresql is the first of the databases.
  assert.equal(report.baseline.id, 'postgresql');
  assert.match(report.baseline.reason, /^ArangoDB is not in these results; postgresql passed the most compared workloads \(10 of 10\), as many as postgresql_tabular, sqlite; the first by id is taken$/);
  const table = REPORT_FORMATS.table(report);
  assert.match(table, /baseline: postgresql \(ArangoDB is not in these results;/);
  const alone = await createReport([path.join(FIXTURES, 'partial')]);
  assert.equal(alone.baseline.id, 'memory', 'the test store, when nothing else was run');
  // The partial memory run passed only two workloads: now PostgreSQL (10 passed, first by id) is the baseline.
  const partial = await createReport([path.join(SUITE, readdirSync(SUITE).find((f) => f.startsWith('postgresql-'))), path.join(FIXTURES, 'partial')]);
  assert.equal(partial.baseline.id, 'postgresql');
  assert.match(partial.baseline.reason, /postgresql passed the most compared workloads \(10 of 10\)$/);
});

test('--baseline must name a database of the results', async () => {
  await assert.rejects(createReport([SUITE], { baseline: 'arangodb' }), {
    code: 'E_BASELINE', message: /--baseline arangodb: no result of that database was given; the results hold memory, postgresql, postgresql_tabular, sqlite/,
  });
});

test('several files of one database are pooled: the median is over every valid run of both invocations', async () => {
  const report = await createReport([SUITE, path.join(FIXTURES, 'sqlite-b')], { baseline: 'sqlite' });
  const times = sortedTimes(fixture('suite', 'sqlite'), fixture('sqlite-b', 'sqlite'));
  const sqlite = report.databases.find((d) => d.id === 'sqlite');
  assert.equal(sqlite.files.length, 2);
  for (const workload of report.workloads) {
    assert.equal(workload.results.sqlite.runs, 6);
    assert.equal(workload.results.sqlite.medianMs, round3(middle(times(workload.name))));
  }
  assert.equal(sqlite.import.imports, 1, 'both invocations reused one import, counted once');
});

test('workloads that were not run are words, never numbers, in every format', async () => {
  const report = await createReport([path.join(FIXTURES, 'partial'), path.join(SUITE, readdirSync(SUITE).find((f) => f.startsWith('sqlite-')))], { baseline: 'sqlite' });
  const singleWrite = report.workloads.find((w) => w.name === 'singleWrite').results.memory;
  assert.deepEqual([singleWrite.status, singleWrite.medianMs, singleWrite.normalisedPct, singleWrite.opsPerSec], ['not run', null, null, null]);
  assert.equal(report.workloads.find((w) => w.name === 'singleRead').results.memory.status, 'passed');
  const matrixRow = REPORT_FORMATS.table(report).split('\n').find((line) => /^\s+singleWrite\s+100% \(baseline\)/.test(line));
  assert.match(matrixRow, /not run$/);
  const markdownRow = REPORT_FORMATS.markdown(report).split('\n').find((line) => line.startsWith('| neighbors | 100% (baseline)'));
  assert.match(markdownRow, /\| not run \|$/);
  const csv = REPORT_FORMATS.csv(report).split('\n').find((line) => line.startsWith('workload,neighbors,true,memory,'));
  assert.equal(csv, 'workload,neighbors,true,memory,not run,0,,,,,,,,,,,false,,,,');
});

// A minimal document made up here, not by the harness: only to show how failed and unsupported workloads
// are displayed, which no honest run of the fixtures' databases produces.
function syntheticDocument(sqlite, { id, statuses, datasetId }) {
  const workloads = {};
  for (const [name, entry] of Object.entries(sqlite.workloads)) {
    const status = statuses[name] ?? 'not run';
    workloads[name] = status === 'failed'
      ? { ...entry, status, valid: false, runs: [{ run: 1, valid: false, errors: 0, failed: 3, reason: '3 wrong answers' }], summary: null }
      : status === 'unsupported' ? { ...entry, supported: false, status, valid: null, runs: [], summary: null }
        : status === 'passed' ? entry : { ...entry, status, runs: [], summary: null };
  }
  return {
    ...sqlite, db: { ...sqlite.db, id, name: `synthetic ${id}` }, dataset: { ...sqlite.dataset, id: datasetId ?? sqlite.dataset.id }, workloads,
  };
}

test('synthetic: failed and unsupported workloads are shown as such, and never normalised', async () => {
  const sqlite = fixture('suite', 'sqlite');
  const made = syntheticDocument(sqlite, { id: 'synthetic_db', statuses: { singleRead: 'failed', aggregation: 'unsupported', neighbors: 'passed' } });
  const report = buildReport([{ file: 'sqlite.json', result: sqlite }, { file: 'synthetic.json', result: made }], { baseline: 'sqlite' });
  const of = (name) => report.workloads.find((w) => w.name === name).results.synthetic_db;
  assert.deepEqual([of('singleRead').status, of('singleRead').medianMs, of('singleRead').normalisedPct, of('singleRead').reason], ['failed', null, null, '3 wrong answers']);
  assert.deepEqual([of('aggregation').status, of('aggregation').normalisedPct], ['unsupported', null]);
  assert.equal(of('neighbors').normalisedPct, 100, 'the same runs as the baseline');
  const table = REPORT_FORMATS.table(report);
  assert.match(table, /\n\s+singleRead\s+100% \(baseline\)\s+failed\n/);
  assert.match(table, /\n\s+aggregation\s+100% \(baseline\)\s+unsupported\n/);
  assert.match(table, /synthetic_db\s+failed: 3 wrong answers/);
});

test('results of different datasets: the latest is reported, unless --dataset names one or --allow-mixed combines them with a warning', async () => {
  const seed2 = path.join(FIXTURES, 'seed2');
  // seed2 was written after the suite: its dataset is the latest.
  const latest = await createReport([SUITE, seed2]);
  assert.deepEqual(latest.datasets.map((d) => d.id), ['synthetic-tiny-s2-g1']);
  assert.deepEqual(latest.databases.map((d) => d.id), ['sqlite']);
  assert.equal(latest.datasetChoice.id, 'synthetic-tiny-s2-g1');
  assert.deepEqual(latest.datasetChoice.skipped.map((s) => [s.id, s.files.length]), [['synthetic-tiny-s1-g1', 4]]);
  const named = await createReport([SUITE, seed2], { dataset: 'synthetic-tiny-s1-g1' });
  assert.deepEqual(named.databases.map((d) => d.id).sort(), ['memory', 'postgresql', 'postgresql_tabular', 'sqlite']);
  assert.equal(named.datasetChoice.reason, 'named with --dataset');
  const report = await createReport([path.join(SUITE, readdirSync(SUITE).find((f) => f.startsWith('postgresql-'))), seed2], { allowMixed: true });
  assert.equal(report.datasets.length, 2);
  assert.equal(report.datasetChoice, null);
  assert.ok(report.warnings.some((w) => /2 different datasets.*do not compare the same work \(--allow-mixed\)/.test(w)), report.warnings.join('\n'));
});

test('files that are not result documents are rejected by name', async () => {
  const notJson = path.join(work, 'notes.json');
  writeFileSync(notJson, 'not json');
  const otherSchema = path.join(work, 'other.json');
  writeFileSync(otherSchema, JSON.stringify({ schema: 'something-else@2' }));
  await assert.rejects(loadResults([notJson]), { code: 'E_NOT_A_RESULT', message: new RegExp(`^${notJson.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a db-shootout/result@1 result document: not valid JSON`) });
  await assert.rejects(loadResults([otherSchema]), { code: 'E_NOT_A_RESULT', message: /other\.json is not a db-shootout\/result@1 result document: schema is "something-else@2"/ });
  await assert.rejects(loadResults([path.join(work, 'missing.json')]), { code: 'E_NOT_A_RESULT', message: /missing\.json: cannot read it: no such file or directory \(ENOENT\)/ });
  const empty = mkdtempSync(path.join(work, 'empty-'));
  await assert.rejects(loadResults([empty]), { code: 'E_NO_RESULTS', message: /holds no \*\.json result file/ });
});

test('warmup is reported apart and never normalised', async () => {
  const report = await createReport([SUITE], { baseline: 'postgresql' });
  const warmup = report.workloads.find((w) => w.name === 'warmup');
  assert.equal(warmup.compared, false);
  for (const figures of Object.values(warmup.results)) {
    assert.equal(figures.status, 'passed');
    assert.equal(figures.normalisedPct, null);
    assert.ok(figures.medianMs > 0);
  }
  const table = REPORT_FORMATS.table(report);
  const matrix = table.slice(table.indexOf('Median time relative'), table.indexOf('Workloads:'));
  assert.doesNotMatch(matrix, /warmup/);
  assert.match(table, /Not compared \(warmup: reported, never normalised\):\n.*\n\s+warmup\s+100\s+postgresql\s+ok\s+3/);
});

test('server memory, import time and size come from the documents, n/a where they were not measured', async () => {
  const report = await createReport([SUITE], { baseline: 'postgresql' });
  const pg = fixture('suite', 'postgresql');
  const pgFacts = report.databases.find((d) => d.id === 'postgresql');
  assert.equal(pgFacts.server.rssPeakBytes, pg.resources.server.rssPeakBytes);
  assert.equal(pgFacts.import.ms, pg.import.ms);
  assert.equal(pgFacts.import.diskBytes, pg.import.diskBytes);
  const rows = REPORT_FORMATS.table(report).split('\n');
  const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const pgRow = rows.find((line) => /^\s+postgresql\s+\d/.test(line));
  assert.ok(pgRow.includes(mib(pg.resources.server.rssPeakBytes)) && pgRow.includes(`${(pg.import.ms / 1000).toFixed(2)} s`), pgRow);
  // SQLite is embedded: no server process; the memory adapter keeps nothing on disk.
  assert.match(rows.find((line) => /^\s+sqlite\s+n\/a/.test(line)), /^\s+sqlite\s+n\/a\s+n\/a\s+n\/a\s+\d+\.\d\d s\s+\d+\.\d MiB$/);
  assert.match(rows.find((line) => /^\s+memory\s+n\/a/.test(line)), /\d\.\d\d s\s+n\/a$/);
});

test('a workload in which the client was the bottleneck is flagged', async () => {
  const pg = fixture('suite', 'postgresql');
  const bound = Object.entries(pg.workloads).filter(([, entry]) => entry.resources?.clientBound).map(([name]) => name);
  assert.ok(bound.length > 0, 'the PostgreSQL fixture has a client-bound workload');
  const report = await createReport([SUITE], { baseline: 'sqlite' });
  for (const workload of report.workloads) assert.equal(workload.results.postgresql.clientBound, bound.includes(workload.name), workload.name);
  const table = REPORT_FORMATS.table(report);
  const boundCompared = bound.find((name) => report.workloads.find((w) => w.name === name).compared);
  assert.match(table.split('\n').find((line) => line.trimStart().startsWith(`${boundCompared} `)), /%( ~)? !/);
  assert.match(table, /!\s+client was the bottleneck/);
  assert.ok(report.warnings.some((w) => /harness itself was the bottleneck/.test(w)));
});

test('the reproducibility block names versions, driver, dataset, config, harness commit, settings and machine', async () => {
  const report = await createReport([SUITE], { baseline: 'postgresql' });
  const pg = fixture('suite', 'postgresql');
  const table = REPORT_FORMATS.table(report);
  const block = table.slice(table.indexOf('Reproducibility:'), table.indexOf('  memory (In-process memory)'));
  for (const expected of [
    `version: ${pg.db.version}`, `driver: ${pg.db.driver.name} ${pg.db.driver.version}`, `dataset: ${pg.dataset.id} (tiny, seed 1)`,
    'config: concurrency 25, 3 runs', `harness: ${pg.harness.name} ${pg.harness.version} (${pg.harness.commit.slice(0, 12)})`,
    `shared_buffers=${pg.db.settings.shared_buffers}`, `machine: ${pg.environment.cpu}, ${pg.environment.cores} cores`, `node ${pg.environment.node}`,
  ]) assert.ok(block.includes(expected), `${expected}\nin\n${block}`);
  assert.deepEqual(report.databases[0].reproducibility.settings, [pg.db.settings]);
});

test('every format says the same, and the same files give a byte-identical report', async () => {
  const a = await createReport([SUITE], { baseline: 'postgresql' });
  const b = await createReport([SUITE], { baseline: 'postgresql' });
  for (const format of Object.keys(REPORT_FORMATS)) assert.equal(REPORT_FORMATS[format](a), REPORT_FORMATS[format](b), format);
  assert.deepEqual(JSON.parse(REPORT_FORMATS.json(a)), a);
  const csv = REPORT_FORMATS.csv(a).trimEnd().split('\n');
  assert.equal(csv.length, 1 + a.workloads.length * a.databases.length + a.databases.length);
  const neighbors = a.workloads.find((w) => w.name === 'neighbors').results.sqlite;
  assert.ok(csv.includes(csv.find((line) => line.startsWith('workload,neighbors,true,sqlite,passed,3,'))));
  assert.match(csv.find((line) => line.startsWith('workload,neighbors,true,sqlite,')), new RegExp(`,${neighbors.medianMs},${neighbors.ci.lowMs},${neighbors.ci.highMs},${neighbors.opsPerSec},`));
  const markdown = REPORT_FORMATS.markdown(a);
  assert.match(markdown, /^# db-shootout report\n/);
  assert.match(markdown, /\n\| workload \| postgresql \| memory \| postgresql_tabular \| sqlite \|\n\|---\|---:\|---:\|---:\|---:\|\n\| singleRead \| 100% \(baseline\)( !)? \| \d/);
  const html = REPORT_FORMATS.html(a);
  assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href=|<img[^>]+src=/, 'nothing is loaded from elsewhere');
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
  assert.match(html, /Chart\.js v4/);
});

test('a `bench import` document adds its import to the database\'s figures, counted apart from the reused one', async () => {
  const imported = fixture('import-only', 'sqlite');
  assert.deepEqual(Object.keys(imported.workloads), [], 'an import document has no workloads');
  const suiteSqlite = fixture('suite', 'sqlite');
  const report = await createReport([SUITE, path.join(FIXTURES, 'import-only')], { baseline: 'sqlite' });
  const sqlite = report.databases.find((d) => d.id === 'sqlite');
  assert.equal(sqlite.import.imports, 2);
  assert.equal(sqlite.import.ms, round3((suiteSqlite.import.ms + imported.import.ms) / 2), 'the median of two imports');
  assert.equal(report.workloads.find((w) => w.name === 'singleRead').results.sqlite.runs, 3, 'the runs are those of the suite document');
});
