// The queries suite's report model, blocks, CSV cells and chart data (results/report/suites/queries.js) on result
// documents made up here: two databases, two collection sizes, one database in two files with a load each, a failed
// and an unsupported case.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { REPORT_FORMATS, buildReport } from '../../results/report/index.js';
import { chartData } from '../../results/report/html.js';
import { reportBlocks } from '../../results/report/blocks.js';

const passed = (size, documents, times, rows = 10) => ({
  supported: true, compared: true, status: 'passed', valid: true, ops: 1, params: { size, documents },
  runs: times.map((ms, i) => ({ run: i + 1, valid: true, ms, errors: 0, rows: rows + i })),
});
const failed = (size, documents) => ({
  supported: true, compared: true, status: 'failed', valid: false, ops: 1, params: { size, documents },
  runs: [{ run: 1, valid: false, errors: 0, failed: 1, reason: 'rows differ' }],
});

function document(db, file, workloads, collections) {
  return {
    file,
    result: {
      schema: 'db-shootout/result@1', suite: 'queries', db: { id: db, name: db, version: '1' },
      dataset: { id: 'queries-s1', name: null }, config: { concurrency: 1, runs: 3 },
      import: { collections }, workloads,
    },
  };
}

// alpha (baseline): subquery 10k 10-30 ms and 1k 1-3 ms, collect-number 1k 2 ms; two files, each loading 1k once.
// beta: subquery 10k 40 ms twice, 1k failed, collect-number 1k 4 ms; 10k loaded, 1k reused.
function documents() {
  return [
    document('alpha', 'alpha-1.json', {
      'subquery 10k': passed('10k', 10000, [10, 20]), 'subquery 1k': passed('1k', 1000, [1, 2, 3]), 'collect-number 1k': passed('1k', 1000, [2]),
    }, { '1k': { reused: false, ms: 1000, documentsPerSec: 1000 }, '10k': { reused: true } }),
    document('alpha', 'alpha-2.json', {
      'subquery 10k': passed('10k', 10000, [30], 7), 'subquery 1k': passed('1k', 1000, [1, 2, 3]), 'collect-number 1k': passed('1k', 1000, [2]),
    }, { '1k': { reused: false, ms: 3000, documentsPerSec: 500 } }),
    document('beta', 'beta.json', {
      'subquery 10k': passed('10k', 10000, [40, 40], 1234), 'subquery 1k': failed('1k', 1000), 'collect-number 1k': passed('1k', 1000, [4]),
    }, { '1k': { reused: true }, '10k': { reused: false, ms: 2500, documentsPerSec: 4000 } }),
  ];
}

test('the model: per case and size each database\'s runs of every file, min, max, mean, median and rows; the loads pooled', () => {
  const report = buildReport(documents(), { baseline: 'alpha' });
  assert.deepEqual(report.queries.sizes, ['1k', '10k']);
  assert.deepEqual(report.queries.cases.map((c) => [c.queryCase, c.size, c.documents, c.workload]), [
    ['collect-number', '1k', 1000, 'collect-number 1k'], ['subquery', '1k', 1000, 'subquery 1k'], ['subquery', '10k', 10000, 'subquery 10k'],
  ]);
  const [collect, small, large] = report.queries.cases;
  assert.deepEqual(large.results.alpha, { status: 'passed', runs: 3, minMs: 10, maxMs: 30, meanMs: 20, medianMs: 20, rows: 7, normalisedPct: 100 });
  assert.deepEqual(large.results.beta, { status: 'passed', runs: 2, minMs: 40, maxMs: 40, meanMs: 40, medianMs: 40, rows: 1235, normalisedPct: 200 });
  assert.deepEqual(small.results.beta, { status: 'failed', runs: 0, minMs: null, maxMs: null, meanMs: null, medianMs: null, rows: null, normalisedPct: null });
  assert.deepEqual([collect.results.alpha.runs, collect.results.beta.normalisedPct], [2, 200]);
  assert.deepEqual(report.queries.loads, {
    alpha: { '1k': { loads: 2, ms: 2000, documentsPerSec: 750 } },
    beta: { '10k': { loads: 1, ms: 2500, documentsPerSec: 4000 } },
  });
});

test('the blocks: the published table per database, and the loads per size, reused where a file loaded nothing', () => {
  const blocks = reportBlocks(buildReport(documents(), { baseline: 'alpha' }));
  const alpha = blocks.find((b) => b.id === 'queries-alpha');
  assert.equal(alpha.title, 'alpha: per case and collection, seconds (as the AQL shootout published)');
  assert.deepEqual(alpha.header, ['test name', 'collection', 'runs', 'min (s)', 'max (s)', 'avg (s)', 'median (s)', 'rows']);
  assert.deepEqual(alpha.numeric, [2, 3, 4, 5, 6, 7]);
  assert.deepEqual(alpha.rows, [
    ['collect-number', '1k', '2', '0.0020', '0.0020', '0.0020', '0.0020', '10'],
    ['subquery', '1k', '6', '0.0010', '0.0030', '0.0020', '0.0020', '12'],
    ['subquery', '10k', '3', '0.0100', '0.0300', '0.0200', '0.0200', '7'],
  ]);
  assert.deepEqual(blocks.find((b) => b.id === 'queries-beta').rows[1], ['subquery', '1k', '', 'failed', '', '', '', '']);
  assert.deepEqual(blocks.find((b) => b.id === 'queries-beta').rows[2], ['subquery', '10k', '2', '0.0400', '0.0400', '0.0400', '0.0400', '1,235']);
  const loads = blocks.find((b) => b.id === 'queries-load');
  assert.deepEqual([loads.title, loads.header, loads.numeric], ['Loading the collections: seconds (documents per second), indexes and count check included', ['collection', 'alpha', 'beta'], [1, 2]]);
  assert.deepEqual(loads.rows, [['1k', '2.00 s (750/s)', 'reused'], ['10k', 'reused', '2.50 s (4,000/s)']]);
  assert.equal(blocks[0].lines[0], 'dataset: queries-s1 (query shootout documents)');
  // Right after the summary, before the generic tables.
  // After the summary and the terms.
  assert.deepEqual(blocks.slice(2, 5).map((b) => b.id), ['queries-alpha', 'queries-beta', 'queries-load']);
});

test('the CSV\'s own columns: the case, the collection and the published statistics; empty on a row no case names', () => {
  const report = buildReport(documents(), { baseline: 'alpha' });
  const rows = REPORT_FORMATS.csv(report).trim().split('\n').map((line) => line.split(','));
  assert.deepEqual(rows[0].slice(-6), ['case', 'collection', 'min_ms', 'max_ms', 'mean_ms', 'rows']);
  const row = (workload, db) => rows.find((r) => r[1] === workload && r[3] === db).slice(-6);
  assert.deepEqual(row('subquery 10k', 'beta'), ['subquery', '10k', '40', '40', '40', '1235']);
  assert.deepEqual(row('subquery 1k', 'beta'), ['subquery', '1k', '', '', '', '']);
  assert.deepEqual(rows.find((r) => r[0] === 'database').slice(-6), ['', '', '', '', '', '']);
});

test('the chart data: per case its median time against the size; per size each database\'s percentage of the baseline, the word where it has none', () => {
  const data = chartData(buildReport(documents(), { baseline: 'alpha' })).queries;
  assert.deepEqual(data, {
    baseline: 'alpha',
    sizes: ['1k', '10k'],
    // The headline: every case's time at each size, a word where a database has none (collect-number ran at 1k only).
    cases: [
      {
        title: 'collect-number',
        databases: [{ id: 'alpha', medianMs: [2, null], missing: [null, 'not run'] }, { id: 'beta', medianMs: [4, null], missing: [null, 'not run'] }],
      },
      {
        title: 'subquery',
        databases: [{ id: 'alpha', medianMs: [2, 20], missing: [null, null] }, { id: 'beta', medianMs: [null, 40], missing: ['failed', null] }],
      },
    ],
    charts: [
      {
        title: '1k documents: median time relative to alpha (= 100%, lower is faster)',
        cases: ['collect-number', 'subquery'],
        databases: [{ id: 'alpha', pct: [100, 100], missing: [null, null] }, { id: 'beta', pct: [200, null], missing: [null, 'failed'] }],
      },
      {
        title: '10k documents: median time relative to alpha (= 100%, lower is faster)',
        cases: ['subquery'],
        databases: [{ id: 'alpha', pct: [100], missing: [null] }, { id: 'beta', pct: [200], missing: [null] }],
      },
    ],
  });
  const html = REPORT_FORMATS.html(buildReport(documents(), { baseline: 'alpha' }));
  assert.ok(html.includes('<section><h2>Median time per case against the collection size (ms, lower is better), as the publication&#39;s table reads</h2><div class="grid" id="chart-queries"></div></section>'));
  assert.ok(html.includes('<section><h2>Median time per case relative to alpha, per collection size (lower is faster)</h2><div class="grid" id="chart-queries-relative"></div></section>'));
  assert.ok(html.includes("new Chart(canvas('chart-queries', chart.title, 'chart small'), {"));
  // The queries charts are the headline: no overview of 64 steps, no chart per step.
  assert.ok(!html.includes('id="chart-overview"') && !html.includes('id="chart-normalised"'));
  // One database: its times, nothing relative to itself.
  const alone = chartData(buildReport(documents().filter(({ result }) => result.db.id === 'alpha'))).queries;
  assert.deepEqual([alone.baseline, alone.charts, alone.cases.length], [null, [], 2]);
  assert.ok(!REPORT_FORMATS.html(buildReport(documents().slice(0, 1))).includes('id="chart-queries-relative"'));
});

test('keys that are no case, a case one file lacks or did not run, no import, a failed file beside a passed one, rows not recorded', () => {
  const [alphaOne, alphaTwo, beta] = documents();
  // A workload no case names (no params), in every file.
  for (const document of [alphaOne, alphaTwo, beta]) document.result.workloads.notes = { ...passed('1k', 1000, [5]), params: undefined };
  // alpha's second file did not run collect-number; its first file's subquery 10k has three runs, the last with 9 rows.
  alphaTwo.result.workloads['collect-number 1k'] = { supported: true, compared: true, status: 'not run', ops: 1, params: { size: '1k', documents: 1000 }, runs: [] };
  alphaOne.result.workloads['subquery 10k'] = passed('10k', 10000, [10, 20, 25], 7);
  alphaTwo.result.import = null;
  // beta's collect-number passed without rows; a second beta file failed subquery 10k.
  for (const run of beta.result.workloads['collect-number 1k'].runs) delete run.rows;
  const betaFailed = document('beta', 'beta-2.json', { 'subquery 10k': failed('10k', 10000) }, {});
  // gamma lacks every case but one, and is listed first.
  const gamma = document('gamma', 'gamma.json', { 'subquery 10k': passed('10k', 10000, [5]) }, {});
  const report = buildReport([gamma, alphaOne, alphaTwo, beta, betaFailed], { baseline: 'alpha' });
  assert.deepEqual(report.warnings, []);
  assert.deepEqual(report.queries.sizes, ['1k', '10k']);
  const [collect, small, large] = report.queries.cases;
  assert.deepEqual([collect.results.alpha.runs, collect.results.alpha.medianMs], [1, 2], 'the run of the file that ran it');
  assert.equal(collect.results.beta.rows, null);
  assert.equal(large.results.alpha.rows, 7, 'the last file\'s last run');
  assert.deepEqual(large.results.beta, { status: 'failed', runs: 0, minMs: null, maxMs: null, meanMs: null, medianMs: null, rows: null, normalisedPct: null });
  assert.equal(small.results.gamma.status, 'not run');
  assert.deepEqual(report.queries.loads.alpha, { '1k': { loads: 1, ms: 1000, documentsPerSec: 1000 } });
  const blocks = reportBlocks(report);
  assert.deepEqual(blocks.find((b) => b.id === 'queries-beta').rows[0], ['collect-number', '1k', '1', '0.0040', '0.0040', '0.0040', '0.0040', '']);
  const rows = REPORT_FORMATS.csv(report).trim().split('\n').map((line) => line.split(','));
  const notes = rows.find((r) => r[1] === 'notes' && r[3] === 'alpha');
  assert.deepEqual([notes.length, notes.slice(-6)], [rows[0].length, ['', '', '', '', '', '']]);
});

test('sizes from small to large whatever order the cases name them in; the page\'s words without a case', () => {
  const first = document('alpha', 'a.json', { 'collect-number 10k': passed('10k', 10000, [5]), 'subquery 1k': passed('1k', 1000, [5]) }, {});
  assert.deepEqual(buildReport([first]).queries.sizes, ['1k', '10k']);
  const none = document('alpha', 'a.json', { notes: { ...passed('1k', 1000, [5]), params: undefined } }, {});
  assert.ok(REPORT_FORMATS.html(buildReport([none])).includes('<p class="none" id="chart-queries">no case has a time</p>'));
});
