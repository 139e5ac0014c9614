// `bench report` on synthetic documents (made up here, nothing but what the report reads): pooled medians,
// ops/s, and the "not significant" mark, which must sit on the figures whose interval overlaps the baseline's
// and on no other, in every format; a figure with a single run has no interval, and says so instead.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chartData } from '../../results/report/html.js';
import { REPORT_FORMATS, buildReport } from '../../results/report/index.js';

function synthetic(db, times, { file = `${db}.json`, ops = 10 } = {}) {
  const workloads = Object.fromEntries(Object.entries(times).map(([name, ms]) => [name, {
    supported: true, compared: true, status: 'passed', valid: true, ops,
    runs: ms.map((value, i) => ({ run: i + 1, valid: true, ms: value, errors: 0 })),
  }]));
  return { file, result: { schema: 'db-shootout/result@1', db: { id: db, version: '1' }, dataset: { id: 'synthetic-tiny-s1-g1' }, workloads } };
}

// singleRead: sqlite's range [20, 22] is apart from the baseline's [10, 12]; aggregation: [11, 13] overlaps it;
// neighbors: one run of sqlite, so no interval: said as such, never as "not significant".
function report() {
  return buildReport([
    synthetic('postgresql', { singleRead: [10, 11, 12], aggregation: [10, 11, 12], neighbors: [10, 11, 12] }),
    synthetic('sqlite', { singleRead: [20, 21, 22], aggregation: [11, 12, 13], neighbors: [30] }),
  ], { baseline: 'postgresql' });
}

const row = (text, start) => text.split('\n').find((line) => line.trimStart().startsWith(start));

test('the model: significant only when the intervals are apart; without an interval, neither', () => {
  const by = Object.fromEntries(report().workloads.map((w) => [w.name, w.results.sqlite]));
  assert.deepEqual([by.singleRead.significant, by.aggregation.significant, by.neighbors.significant], [true, false, null]);
  assert.deepEqual([by.singleRead.noInterval, by.aggregation.noInterval, by.neighbors.noInterval], [undefined, undefined, 1]);
  assert.deepEqual([by.singleRead.normalisedPct, by.aggregation.normalisedPct, by.neighbors.normalisedPct], [190.9, 109.1, 272.7]);
});

test('table and Markdown put ~ on the figures that are not significant, and only on them; "1 run: no interval" on a single run', () => {
  for (const format of ['table', 'markdown']) {
    const text = REPORT_FORMATS[format](report());
    const matrix = text.slice(0, text.indexOf('Workloads'));
    assert.match(row(matrix, format === 'table' ? 'singleRead ' : '| singleRead '), /190\.9%(?! ~)/, format);
    assert.doesNotMatch(row(matrix, format === 'table' ? 'singleRead ' : '| singleRead '), /~/, format);
    assert.match(row(matrix, format === 'table' ? 'aggregation ' : '| aggregation '), /109\.1% ~/, format);
    assert.match(row(matrix, format === 'table' ? 'neighbors ' : '| neighbors '), /272\.7% \(1 run: no interval\)(?! ~)/, format);
    assert.doesNotMatch(matrix.split('\n').filter((line) => /100% \(baseline\)/.test(line)).join('\n'), /baseline\) ~/, `${format}: never on the baseline`);
  }
});

test('the HTML charts label the databases that are not significant with ~, and only them', () => {
  const labels = Object.fromEntries(chartData(report()).normalised.map((chart) => [chart.workload, chart.labels]));
  assert.deepEqual(labels, { singleRead: ['postgresql', 'sqlite'], aggregation: ['postgresql', 'sqlite ~'], neighbors: ['postgresql', 'sqlite (1 run: no interval)'] });
});

test('CSV gives significance as true or false, empty for the baseline', () => {
  const lines = REPORT_FORMATS.csv(report()).trim().split('\n');
  const header = lines[0].split(',');
  const column = header.indexOf('significant');
  const cell = (workload, db) => lines.find((line) => line.includes(`,${workload},`) && line.includes(`,${db},`)).split(',')[column];
  assert.deepEqual([cell('singleRead', 'sqlite'), cell('aggregation', 'sqlite'), cell('singleRead', 'postgresql')], ['true', 'false', '']);
});

test('runs of several files are pooled: median of an even count, its ops/s, and a failure in any file fails the workload', () => {
  const pooled = buildReport([
    synthetic('sqlite', { singleRead: [20, 22], aggregation: [5, 6] }, { file: 'a.json' }),
    synthetic('sqlite', { singleRead: [30, 21], aggregation: [5, 6] }, { file: 'b.json' }),
  ]);
  const figures = pooled.workloads.find((w) => w.name === 'singleRead').results.sqlite;
  // 20, 21, 22, 30: median (21 + 22) / 2; 10 operations in 21.5 ms.
  assert.deepEqual([figures.runs, figures.medianMs, figures.opsPerSec], [4, 21.5, Math.round(10 / 0.0215)]);
  assert.ok(figures.ci.lowMs >= 20 && figures.ci.highMs <= 30 && figures.ci.lowMs <= 21.5 && figures.ci.highMs >= 21.5);

  const failing = synthetic('sqlite', { singleRead: [25, 26], aggregation: [5, 6] }, { file: 'c.json' });
  failing.result.workloads.singleRead.status = 'failed';
  failing.result.workloads.singleRead.runs[1] = { run: 2, valid: false, errors: 0, failed: 1, reason: '1 wrong answers' };
  const mixed = buildReport([synthetic('sqlite', { singleRead: [20, 22], aggregation: [5, 6] }, { file: 'a.json' }), failing]);
  const failed = mixed.workloads.find((w) => w.name === 'singleRead').results.sqlite;
  assert.deepEqual([failed.status, failed.medianMs, failed.opsPerSec, failed.reason], ['failed', null, null, '1 wrong answers']);
  assert.equal(mixed.workloads.find((w) => w.name === 'aggregation').results.sqlite.status, 'passed');
});
