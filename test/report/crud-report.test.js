// The crud suite's own report: per phase and document count, every database's figures at each concurrency level
// (the model's `crud` block, a table per phase and count, a line chart of each in the page), beside the generic
// per-workload tables; and `bench compare` of two crud result sets, key by key. The result documents are made up
// here: two databases, two levels, one level failed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildComparison } from '../../results/compare.js';
import { reportBlocks } from '../../results/report/blocks.js';
import { REPORT_FORMATS, buildReport } from '../../results/report/index.js';
import { summarizeLatencies } from '../../results/stats.js';
import { browserTest, drawPage } from '../helpers/browser.js';

const PHASES = ['insert', 'get', 'update', 'delete'];
const OPS = 100;

// Per operation 1, 2, ..., 100 ms times `scale`: p50 50, p95 95, p99 99 and max 100 ms times `scale`.
const latencies = (scale) => Array.from({ length: OPS }, (_, i) => (i + 1) * scale);

function passedEntry(phase, params, times, scale) {
  return {
    supported: true, compared: true, operation: `${phase}Document`, description: `${phase} each document`, status: 'passed', valid: true,
    ops: params.ops, params,
    runs: times.map((ms, i) => ({ run: i + 1, valid: true, ms, opsPerSec: Math.round(OPS / (ms / 1000)), errors: 0, ...summarizeLatencies(latencies(scale)), resources: null })),
    summary: null, resources: null, failures: [],
  };
}

function failedEntry(phase, params, reason) {
  return {
    supported: true, compared: true, operation: `${phase}Document`, description: `${phase} each document`, status: 'failed', valid: false,
    ops: params.ops, params, runs: [{ run: 1, valid: false, errors: 0, failed: 2, reason, resources: null }], summary: null, resources: null, failures: [],
  };
}

// `times(phase, level)`: the runs' ms of a passed phase, or { failed: reason }.
function crudDocument(db, { levels, times, counts = [OPS], scale = 1, durable = false, execution = 'concurrent', harness = '1' }) {
  const workloads = {};
  for (const ops of counts) {
    for (const concurrency of levels) {
      for (const phase of PHASES) {
        const params = { ops, concurrency, durable };
        const figures = times(phase, concurrency);
        workloads[`${phase} n=${ops} c=${concurrency}`] = figures.failed ? failedEntry(phase, params, figures.failed) : passedEntry(phase, params, figures, scale);
      }
    }
  }
  return {
    file: `${db}-crud.json`,
    result: {
      schema: 'db-shootout/result@1', suite: 'crud',
      harness: { name: 'db-shootout', version: harness, commit: null },
      db: { id: db, name: db, version: '1', execution, settings: {} },
      dataset: { id: 'crud-uniform-s1', name: 'crud documents', shape: 'uniform', seed: 1, documents: OPS },
      config: { concurrency: levels, ops: counts, runs: 3, durable },
      environment: { cpu: 'cpu', cores: 2, memoryBytes: 1, os: 'linux', hostname: 'host', node: '20' },
      import: null, resources: null, complete: true, interrupted: false, error: null, workloads,
    },
  };
}

// alpha: 100, 101, 102 ms per phase at c=1 and half of that at c=4. beta: twice alpha's time and latencies, and
// its update at c=4 answered wrongly, so the delete after it in that round was not measured.
const alpha = crudDocument('alpha', { levels: [1, 4], times: (phase, level) => (level === 1 ? [100, 101, 102] : [50, 50.5, 51]) });
const beta = crudDocument('beta', {
  levels: [4, 1],
  scale: 2,
  times(phase, level) {
    if (level === 4 && phase === 'update') return { failed: '2 wrong answers' };
    if (level === 4 && phase === 'delete') return { failed: `not run: update n=${OPS} c=4 failed before it in this round` };
    return level === 1 ? [200, 202, 204] : [100, 101, 102];
  },
});

const near = (actual, expected) => Math.abs(actual - expected) <= expected * 0.002;

test('the model\'s crud block: per phase and count, each database\'s median time, ops/s and merged latencies at every level', () => {
  const report = buildReport([beta, alpha], { baseline: 'alpha' });
  assert.equal(report.suite, 'crud');
  assert.deepEqual(report.crud.series.map((s) => [s.phase, s.ops, s.durable, s.levels]), PHASES.map((phase) => [phase, OPS, false, [1, 4]]));
  assert.deepEqual(report.crud.serial, []);
  const insert = report.crud.series[0];
  assert.deepEqual(Object.keys(insert.results), ['alpha', 'beta'], 'databases in report order, the baseline first');
  const [alpha1, alpha4] = insert.results.alpha;
  assert.deepEqual([alpha1.concurrency, alpha1.workload, alpha1.status, alpha1.runs, alpha1.medianMs, alpha1.opsPerSec], [1, `insert n=${OPS} c=1`, 'passed', 3, 101, 990]);
  assert.deepEqual([alpha4.concurrency, alpha4.medianMs, alpha4.opsPerSec], [4, 50.5, 1980]);
  // Three runs of 1..100 ms merged: the percentiles of the 300 operations (3 significant digits), max exact.
  assert.ok(near(alpha1.latencyMs.p50, 50) && near(alpha1.latencyMs.p95, 95) && near(alpha1.latencyMs.p99, 99), JSON.stringify(alpha1.latencyMs));
  assert.equal(alpha1.latencyMs.max, 100);
  const [beta1] = insert.results.beta;
  assert.ok(near(beta1.latencyMs.p99, 198) && beta1.latencyMs.max === 200, JSON.stringify(beta1.latencyMs));
  assert.deepEqual([beta1.medianMs, beta1.opsPerSec], [202, 495]);

  // The failed level is a status and a reason, never a number; the other database keeps its figures there.
  const update = report.crud.series.find((s) => s.phase === 'update');
  assert.deepEqual(update.results.beta[1], {
    concurrency: 4, workload: `update n=${OPS} c=4`, status: 'failed', runs: 0, medianMs: null, opsPerSec: null, latencyMs: null, clientBound: false, reason: '2 wrong answers',
  });
  assert.equal(update.results.alpha[1].status, 'passed');
  const remove = report.crud.series.find((s) => s.phase === 'delete');
  assert.equal(remove.results.beta[1].status, 'failed');
  assert.match(remove.results.beta[1].reason, /^not run: update n=100 c=4 failed/);

  // The generic per-workload figures and the percentages against the baseline stay.
  const generic = report.workloads.find((w) => w.name === `insert n=${OPS} c=1`);
  assert.deepEqual([generic.results.alpha.normalisedPct, generic.results.beta.normalisedPct], [100, 200]);
  assert.equal(report.workloads.length, 8);
  assert.deepEqual(JSON.parse(REPORT_FORMATS.json(report)).crud, report.crud, 'the JSON format carries the block');
});

test('a level one database did not run is "not run" in its column; a serial driver is named', () => {
  const wider = crudDocument('gamma', { levels: [1, 2, 4], times: () => [10, 10, 10], execution: 'serial' });
  const report = buildReport([alpha, wider]);
  const [insert] = report.crud.series;
  assert.deepEqual(insert.levels, [1, 2, 4]);
  assert.deepEqual(insert.results.alpha.map((f) => f.status), ['passed', 'not run', 'passed']);
  assert.deepEqual(report.crud.serial, ['gamma']);
  // Each key names its level, so different lists of levels are no difference in the same work.
  assert.deepEqual(report.warnings.filter((w) => w.includes('concurrenc')), []);
  assert.match(REPORT_FORMATS.table(report), /\nConcurrency:\n {2}gamma {2}serial driver: one operation at a time/);
});

test('several document counts: a series per phase and count, the counts ascending within each phase', () => {
  const report = buildReport([crudDocument('alpha', { levels: [2, 1], counts: [200, 100], times: () => [10, 10, 10] })]);
  assert.deepEqual(report.crud.series.map((s) => `${s.phase} ${s.ops} ${s.levels.join(',')}`), PHASES.flatMap((phase) => [`${phase} 100 1,2`, `${phase} 200 1,2`]));
  assert.deepEqual(report.crud.series[1].results.alpha.map((f) => [f.workload, f.opsPerSec]), [['insert n=200 c=1', 20_000], ['insert n=200 c=2', 20_000]]);
});

const TITLE = 'throughput (ops/s, higher is better) and latency (ms, lower is better) by concurrency';

test('the text table: per phase and count, a row per level and database with its ops/s and p50/p95/p99, a word where it failed', () => {
  const report = buildReport([alpha, beta], { baseline: 'alpha' });
  const text = REPORT_FORMATS.table(report);
  const lines = text.split('\n');
  const at = lines.indexOf(`update, ${OPS} documents: ${TITLE}:`);
  assert.ok(at > 0, text);
  // Percentiles of 1..100 ms and of 2..200 ms, as HDR's 3 significant digits give them.
  assert.deepEqual(lines.slice(at + 1, at + 6), [
    '  concurrency  database   ops/s  p50 ms  p95 ms  p99 ms',
    '            1  alpha        990   50.02   95.04   99.01',
    '               beta         495     100     190     198',
    '            4  alpha      1,980   50.02   95.04   99.01',
    '               beta      failed',
  ]);
  assert.ok(lines.indexOf(`insert, ${OPS} documents: ${TITLE}:`) < at);
  // Right after the summary, before the generic tables, which stay.
  assert.ok(at < lines.indexOf('Median time relative to alpha (= 100%; lower is faster):'));
  assert.ok(lines.includes('Workloads:'));
  assert.match(text, /\ndataset: crud-uniform-s1 \(crud documents, seed 1\)\n/);
  assert.match(text, /\n {4}dataset: crud-uniform-s1 \(crud documents, seed 1\)\n/, 'the reproducibility block names it so too');

  const markdown = REPORT_FORMATS.markdown(report);
  assert.ok(markdown.includes(`## update, ${OPS} documents: ${TITLE}\n\n`
    + '| concurrency | database | ops/s | p50 ms | p95 ms | p99 ms |\n|---:|---|---:|---:|---:|---:|\n'), markdown);
});

test('the CSV\'s workload rows name their phase, count and level, with p95 and max latency', () => {
  const report = buildReport([alpha, beta], { baseline: 'alpha' });
  const rows = REPORT_FORMATS.csv(report).trim().split('\n').map((line) => line.split(','));
  const [header] = rows;
  assert.deepEqual(header.slice(-5), ['phase', 'documents', 'concurrency', 'p95_ms', 'max_ms']);
  const column = (name) => header.indexOf(name);
  const row = rows.find((r) => r[column('workload')] === `get n=${OPS} c=4` && r[column('database')] === 'beta');
  const f = report.crud.series[1].results.beta[1];
  assert.deepEqual(row.slice(-5), ['get', String(OPS), '4', String(f.latencyMs.p95), '200']);
  const failed = rows.find((r) => r[column('workload')] === `update n=${OPS} c=4` && r[column('database')] === 'beta');
  assert.deepEqual(failed.slice(-5), ['update', String(OPS), '4', '', '']);
  assert.ok(rows.filter((r) => r[0] === 'database').every((r) => r.length === header.length));
});

// The chart data as the page's script reads it.
const embedded = (html) => JSON.parse(html.match(/<script type="application\/json" id="report-data">(.*?)<\/script>/s)[1]);

test('the page: a line chart per phase and count, throughput per level, one line per database, a gap where one failed', () => {
  const report = buildReport([alpha, beta], { baseline: 'alpha' });
  const html = REPORT_FORMATS.html(report);
  const data = embedded(html);
  const { crud } = data;
  assert.equal(crud.charts.length, 4);
  const update = crud.charts[2];
  const alphaLatency = report.crud.series[2].results.alpha[0].latencyMs;
  const betaLatency = report.crud.series[2].results.beta[0].latencyMs;
  assert.deepEqual(update, {
    title: `update, ${OPS} documents: throughput by concurrency (ops/s, higher is better)`,
    levels: [1, 4],
    databases: [
      { id: 'alpha', serial: false, opsPerSec: [990, 1980], p50: [alphaLatency.p50, alphaLatency.p50], p95: [alphaLatency.p95, alphaLatency.p95], p99: [alphaLatency.p99, alphaLatency.p99], missing: [null, null] },
      { id: 'beta', serial: false, opsPerSec: [495, null], p50: [betaLatency.p50, null], p95: [betaLatency.p95, null], p99: [betaLatency.p99, null], missing: [null, 'failed'] },
    ],
  });
  // Its section comes first after the summary, and the page draws a line chart into it; the crud charts are the
  // headline, so no overview of every step's time and no generic latency chart.
  assert.ok(html.indexOf('<h1>') < html.indexOf('<div class="grid" id="chart-crud">'));
  assert.ok(html.includes("new Chart(canvas('chart-crud', chart.title), {\n      type: 'line'"));
  assert.ok(!html.includes('id="chart-overview"') && !html.includes('id="chart-normalised"') && !html.includes('id="chart-latency"'));
  assert.deepEqual([data.overview, data.normalised, data.latency, data.throughput], [null, [], [], null]);
});

test('bench compare of two crud result sets of one database: a speedup per phase and level', () => {
  const faster = crudDocument('alpha', { levels: [1, 4], harness: '2', times: (phase, level) => (phase === 'insert' && level === 4 ? [25, 25.25, 25.5] : level === 1 ? [100, 101, 102] : [50, 50.5, 51]) });
  const comparison = buildComparison([alpha], [faster]);
  assert.deepEqual(comparison.workloads.map((w) => w.name), [1, 4].flatMap((level) => PHASES.map((phase) => `${phase} n=${OPS} c=${level}`)));
  const by = Object.fromEntries(comparison.workloads.map((w) => [w.name, w]));
  assert.deepEqual([by[`insert n=${OPS} c=4`].speedup, by[`insert n=${OPS} c=4`].verdict], [2, 'faster']);
  assert.deepEqual([by[`insert n=${OPS} c=1`].speedup, by[`get n=${OPS} c=4`].speedup], [1, 1]);
  assert.equal(comparison.summary.faster, 1);
  // A level only one side ran is not run on the other: not comparable, and said so.
  const wider = buildComparison([alpha], [crudDocument('alpha', { levels: [1, 4, 8], harness: '2', times: () => [50, 50.5, 51] })]);
  assert.deepEqual(wider.summary.notComparable, PHASES.map((phase) => `${phase} n=${OPS} c=8`));
  assert.equal(wider.workloads.find((w) => w.name === `get n=${OPS} c=8`).a.status, 'not run');
});

test('results that mix durable and default writes are reported with a warning', () => {
  const durable = crudDocument('beta', { levels: [1, 4], durable: true, times: () => [10, 10, 10] });
  const report = buildReport([alpha, durable]);
  assert.deepEqual(report.crud.series.map((s) => s.durable), [null, null, null, null]);
  assert.deepEqual(report.warnings, ["the results mix durable writes (--sync) and the databases' default acknowledgement (alpha: default, beta: durable), which do not measure the same work"]);
  assert.match(REPORT_FORMATS.table(report), /\ninsert, 100 documents, durable and default writes mixed: throughput/);
  assert.deepEqual(buildReport([durable]).crud.series.map((s) => s.durable), [true, true, true, true]);
});

test('a social report has no crud block, columns or chart', () => {
  const social = { ...alpha, result: { ...alpha.result, suite: 'social' } };
  const report = buildReport([social]);
  assert.equal(report.crud, undefined);
  assert.ok(!REPORT_FORMATS.csv(report).split('\n')[0].includes('phase'));
  assert.ok(!('crud' in embedded(REPORT_FORMATS.html(report))));
  assert.ok(!REPORT_FORMATS.table(report).includes('documents: throughput'));
});

// In a real headless browser (as test/report/html.test.js: Debian's chromium through puppeteer-core), when one
// is installed: the line charts are drawn with no error, and a failed level is named in its line's legend.
test('the page draws a line chart per phase and count in a browser', browserTest, async () => {
  const serial = crudDocument('gamma', { levels: [1, 4], times: () => [10, 10, 10], execution: 'serial' });
  const html = REPORT_FORMATS.html(buildReport([alpha, beta, serial], { baseline: 'alpha' }));
  const { problems, drawn: charts } = await drawPage(html, () => Array.from(document.querySelectorAll('#chart-crud canvas')).map((canvas) => {
    const chart = window.Chart.getChart(canvas);
    const y = chart.scales.y;
    return { type: chart.config.type, labels: chart.data.labels, lines: chart.data.datasets.map((dataset) => [dataset.label, dataset.data]), y: [y.type, y.min, y.max] };
  }));
  assert.deepEqual(problems, []);
  assert.deepEqual(charts.map((chart) => chart.type), ['line', 'line', 'line', 'line']);
  assert.deepEqual(charts[2], {
    type: 'line',
    labels: ['1', '4'],
    lines: [['alpha', [990, 1980]], ['beta (c=4 failed)', [495, null]], ['gamma (serial driver)', [10000, 10000]]],
    // One axis for every phase's chart: from 495 to 10,000 ops/s is more than a factor of 20, so logarithmic,
    // whole decades.
    y: ['logarithmic', 100, 10000],
  });
  assert.ok(charts.every((chart) => chart.y.join() === charts[0].y.join()), 'the small multiples share their axis');
});

// The documents' workloads as the crud block reads them: keys it cannot have written, durable writes in some
// phases only, a passed level without latencies or without a count, a client-bound one, and the words of its blocks.
const withWorkloads = (document, workloads) => ({ ...document, result: { ...document.result, workloads: { ...document.result.workloads, ...workloads } } });
const paramsEntry = (params, extra = {}) => ({ ...passedEntry('get', { ops: OPS, concurrency: 1, ...params }, [10, 10, 10], 1), params, ...extra });

test('only keys the crud suite writes make series: a key without a count or level, of another form, or with no phase is left out', () => {
  const odd = withWorkloads(alpha, {
    notes: { ...paramsEntry(undefined), params: undefined },
    'count only n=100 c=1': paramsEntry({ ops: OPS }),
    'level only n=100 c=1': paramsEntry({ concurrency: 1 }),
    bogus: paramsEntry({ ops: OPS, concurrency: 1 }),
    ' n=100 c=1': paramsEntry({ ops: OPS, concurrency: 1 }),
    'insert n=100 c=1 again': paramsEntry({ ops: OPS, concurrency: 1 }),
  });
  const report = buildReport([odd, withWorkloads(beta, { notes: { ...paramsEntry(undefined), params: undefined } })], { baseline: 'alpha' });
  assert.deepEqual(report.crud.series.map((s) => `${s.phase} ${s.ops}`), PHASES.map((phase) => `${phase} ${OPS}`));
  assert.deepEqual(report.warnings, []);
  // Their CSV rows keep the crud columns, empty.
  const rows = REPORT_FORMATS.csv(report).trim().split('\n').map((line) => line.split(','));
  const notes = rows.find((r) => r[1] === 'notes' && r[3] === 'alpha');
  assert.equal(notes.length, rows[0].length);
  assert.deepEqual(notes.slice(-5), ['', '', '', '', '']);
});

test('durable writes in one phase only: that series is mixed, the others not, and a database that did both says so', () => {
  const partly = structuredClone(beta);
  for (const [name, entry] of Object.entries(partly.result.workloads)) if (name.startsWith('insert')) entry.params.durable = true;
  const report = buildReport([alpha, partly, withWorkloads(crudDocument('gamma', { levels: [1, 4], times: () => [10, 10, 10] }), { notes: { ...paramsEntry(undefined), params: undefined } })], { baseline: 'alpha' });
  assert.deepEqual(report.crud.series.map((s) => s.durable), [null, false, false, false]);
  assert.deepEqual(report.warnings, ["the results mix durable writes (--sync) and the databases' default acknowledgement (alpha: default, beta: both, gamma: default), which do not measure the same work"]);
  // A series all of durable writes says so in its title.
  const durable = buildReport([crudDocument('delta', { levels: [1], durable: true, times: () => [10, 10, 10] })]);
  assert.match(REPORT_FORMATS.table(durable), /\ninsert, 100 documents, durable writes \(--sync\): throughput/);
});

test('a passed level without latencies or without a count is n/a in its cells, a client-bound one is marked', () => {
  const document = crudDocument('alpha', { levels: [1], times: () => [10, 10, 10] });
  const entries = document.result.workloads;
  for (const run of entries['insert n=100 c=1'].runs) delete run.latencyMs;
  for (const run of entries['insert n=100 c=1'].runs) delete run.histogram;
  entries['get n=100 c=1'].ops = 0;
  entries['update n=100 c=1'].resources = { clientBound: true };
  const report = buildReport([document, crudDocument('beta', { levels: [1], times: () => [10, 10, 10] })], { baseline: 'alpha' });
  const [insert, get, update] = report.crud.series;
  assert.equal(insert.results.alpha[0].latencyMs, null);
  const blocks = reportBlocks(report);
  const table = (id) => blocks.find((block) => block.id === id);
  assert.deepEqual(table('crud-insert-100').rows, [['1', 'alpha', '10,000', 'n/a', 'n/a', 'n/a'], ['', 'beta', '10,000', '50.02', '95.04', '99.01']]);
  assert.equal(get.results.alpha[0].opsPerSec, null);
  assert.deepEqual(table('crud-get-100').rows[0].slice(0, 4), ['1', 'alpha', 'n/a', '50.02']);
  assert.equal(update.results.alpha[0].clientBound, true);
  assert.deepEqual(table('crud-update-100').rows[0].slice(0, 3), ['1', 'alpha', '10,000 !']);
  assert.equal(blocks.find((block) => block.id === 'crud-serial'), undefined, 'no serial driver, no list');
});

test('a report of a serial driver alone names it in a list of its own', () => {
  const report = buildReport([crudDocument('gamma', { levels: [1, 2], times: () => [10, 10, 10], execution: 'serial' })]);
  assert.deepEqual(report.crud.serial, ['gamma']);
  assert.deepEqual(reportBlocks(report).find((block) => block.id === 'crud-serial'), {
    kind: 'list', id: 'crud-serial', title: 'Concurrency',
    items: [{ label: 'gamma', lines: ['serial driver: one operation at a time at every level, so a difference between its levels is not the effect of concurrency'] }],
  });
});

test('the dataset\'s label names the documents and their seed, or says it does not know them', () => {
  const report = buildReport([alpha]);
  const unnamed = { ...report, datasets: [{ id: 'crud-x', name: null, seed: null }] };
  assert.equal(reportBlocks(unnamed)[0].lines[0], 'dataset: crud-x (crud documents, seed ?)');
});

test('the page\'s crud section: its title and charts, or its words when no phase has a level', () => {
  const html = REPORT_FORMATS.html(buildReport([alpha, beta], { baseline: 'alpha' }));
  const title = 'Throughput by concurrency, per phase and document count (higher is better; latencies in the tooltips and the tables)';
  assert.ok(html.includes(`<section><h2>${title}</h2><div class="grid" id="chart-crud"></div></section>`));
  const none = { ...alpha, result: { ...alpha.result, workloads: { notes: { ...paramsEntry(undefined), params: undefined } } } };
  assert.ok(REPORT_FORMATS.html(buildReport([none])).includes(`<section><h2>${title}</h2><p class="none" id="chart-crud">no phase has a level</p></section>`));
});
