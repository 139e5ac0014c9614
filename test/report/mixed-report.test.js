// The mixed suite's own report: closed loop, per workload and operation count, every database's ops/s and
// p50/p95/p99 at each concurrency level; open loop, per workload, count and level, every database's achieved rate
// and latency at each target rate, with a note where it fell behind (the model's `mixed` block, its tables, CSV
// columns and charts). The result documents are made up here: two databases, one level failed, one rate behind.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportBlocks } from '../../results/report/blocks.js';
import { REPORT_FORMATS, buildReport } from '../../results/report/index.js';
import { summarizeLatencies } from '../../results/stats.js';
import { browserTest, drawPage } from '../helpers/browser.js';

const OPS = 100;
const RECORDS = 50;

// Per operation 1, 2, ..., 100 ms times `scale`: p50 50, p95 95, p99 99 and max 100 ms times `scale`.
const latencies = (scale) => Array.from({ length: OPS }, (_, i) => (i + 1) * scale);
const key = (mix, { concurrency, rate }) => `${mix} n=${OPS} c=${concurrency}${rate ? ` rate=${rate}` : ''}`;

// `figures`: { ms: [per run] , scale } closed loop, { achieved: [per run], scale } open loop, or { failed: reason }.
function entry(mix, params, figures) {
  const base = { supported: true, compared: true, operation: 'updateDocument', description: mix, ops: OPS, params, summary: null, resources: null, failures: [] };
  if (figures.failed) {
    return { ...base, status: 'failed', valid: false, runs: [{ run: 1, valid: false, errors: 0, failed: 2, reason: figures.failed, resources: null }] };
  }
  const runs = (figures.ms ?? figures.achieved.map((rate) => (OPS / rate) * 1000)).map((ms, i) => ({
    run: i + 1, valid: true, ms, opsPerSec: Math.round(OPS / (ms / 1000)), errors: 0, ...summarizeLatencies(latencies(figures.scale)), resources: null,
    ...(params.rate ? {
      openLoop: {
        targetRate: params.rate, achievedRate: figures.achieved[i], sendLagMs: { mean: 0.1, max: 2 + i },
        note: figures.achieved[i] < params.rate * 0.95 ? 'behind' : null,
      },
    } : {}),
  }));
  return { ...base, status: 'passed', valid: true, runs };
}

// `closed(mix, level)` and `open(mix, rate)`: an entry's figures, or null for a key the document lacks.
function mixedDocument(db, { levels = [], rates = [], mixes = ['95-5', 'read-only'], closed, open, concurrency = 4, durable = false, distribution = 'zipfian', execution = 'concurrent' }) {
  const workloads = {};
  for (const mix of mixes) {
    for (const level of levels) {
      const params = { ops: OPS, records: RECORDS, distribution, concurrency: level, durable };
      const figures = closed(mix, level);
      if (figures) workloads[key(mix, params)] = entry(mix, params, figures);
    }
    for (const rate of rates) {
      const params = { ops: OPS, records: RECORDS, distribution, concurrency, durable, rate };
      const figures = open(mix, rate);
      if (figures) workloads[key(mix, params)] = entry(mix, params, figures);
    }
  }
  return {
    file: `${db}-mixed.json`,
    result: {
      schema: 'db-shootout/result@1', suite: 'mixed',
      harness: { name: 'db-shootout', version: '1', commit: null },
      db: { id: db, name: db, version: '1', execution, settings: {} },
      dataset: { id: `mixed-uniform-r${RECORDS}-s1`, name: 'mixed documents', shape: 'uniform', seed: 1, documents: RECORDS },
      config: { concurrency: levels.length > 0 ? levels : [concurrency], records: RECORDS, ops: [OPS], rates, distribution, durable, runs: 1 },
      environment: { cpu: 'cpu', cores: 2, memoryBytes: 1, os: 'linux', hostname: 'host', node: '20' },
      import: null, resources: null, complete: true, interrupted: false, error: null, workloads,
    },
  };
}

// alpha: closed loop 100 ms per run at c=1 and 50 at c=4 (1,000 and 2,000 ops/s); open loop at c=4, every rate
// held but 800's (three runs: 700, 760, 790 achieved); the keys in no particular order. beta: twice alpha's
// time, its read-only at c=4 answered wrongly; open loop exactly 5% below 200/s (not behind) and 25% below 400/s
// (behind), with latencies growing with the rate; no run at 800/s.
const alpha = mixedDocument('alpha', {
  levels: [4, 1],
  rates: [800, 100, 200, 400],
  closed: (mix, level) => ({ ms: [level === 1 ? 100 : 50], scale: 1 }),
  open: (mix, rate) => (mix === '95-5' ? { achieved: rate === 800 ? [700, 790, 760] : [rate], scale: 1 } : null),
});
const BETA_ACHIEVED = { 100: 100, 200: 190, 400: 300 };
const beta = mixedDocument('beta', {
  levels: [1, 4],
  rates: [100, 200, 400],
  closed: (mix, level) => (mix === 'read-only' && level === 4 ? { failed: '2 stale reads' } : { ms: [level === 1 ? 200 : 100], scale: 2 }),
  open: (mix, rate) => (mix === '95-5' ? { achieved: [BETA_ACHIEVED[rate]], scale: rate / 100 } : null),
});

const near = (actual, expected) => Math.abs(actual - expected) <= expected * 0.002;

test('the model\'s mixed block: closed loop per workload and level, ops/s and merged p50/p95/p99, in the suite\'s order', () => {
  const report = buildReport([beta, alpha], { baseline: 'alpha' });
  assert.equal(report.suite, 'mixed');
  assert.deepEqual(report.mixed.closed.map((s) => [s.mix, s.ops, s.levels]), [['read-only', OPS, [1, 4]], ['95-5', OPS, [1, 4]]]);
  const [readOnly] = report.mixed.closed;
  assert.deepEqual(Object.keys(readOnly.results), ['alpha', 'beta'], 'databases in report order, the baseline first');
  const [alpha1, alpha4] = readOnly.results.alpha;
  assert.deepEqual([alpha1.concurrency, alpha1.workload, alpha1.status, alpha1.opsPerSec], [1, `read-only n=${OPS} c=1`, 'passed', 1000]);
  assert.equal(alpha4.opsPerSec, 2000);
  assert.ok(near(alpha1.latencyMs.p50, 50) && near(alpha1.latencyMs.p95, 95) && near(alpha1.latencyMs.p99, 99), JSON.stringify(alpha1.latencyMs));
  assert.equal(alpha1.latencyMs.max, 100);
  const [beta1, beta4] = readOnly.results.beta;
  assert.ok(near(beta1.latencyMs.p95, 190), JSON.stringify(beta1.latencyMs));
  assert.deepEqual(beta4, {
    concurrency: 4, workload: `read-only n=${OPS} c=4`, status: 'failed', runs: 0, medianMs: null, opsPerSec: null, latencyMs: null, clientBound: false, reason: '2 stale reads',
  });
  assert.deepEqual(report.mixed.serial, []);
  assert.deepEqual(report.warnings, []);
  assert.deepEqual(JSON.parse(REPORT_FORMATS.json(report)).mixed, report.mixed, 'the JSON format carries the block');
});

test('the model\'s rate sweep: per target rate the achieved rate (median of the runs), latency, and a note only below 95% of the target', () => {
  const report = buildReport([alpha, beta], { baseline: 'alpha' });
  assert.deepEqual(report.mixed.sweeps.map((s) => [s.mix, s.ops, s.concurrency, s.rates]), [['95-5', OPS, 4, [100, 200, 400, 800]]]);
  const [sweep] = report.mixed.sweeps;
  assert.deepEqual(sweep.results.alpha.map((f) => [f.workload, f.status, f.achievedRate, f.sendLagMaxMs]), [
    [`95-5 n=${OPS} c=4 rate=100`, 'passed', 100, 2],
    [`95-5 n=${OPS} c=4 rate=200`, 'passed', 200, 2],
    [`95-5 n=${OPS} c=4 rate=400`, 'passed', 400, 2],
    [`95-5 n=${OPS} c=4 rate=800`, 'passed', 760, 4],
  ]);
  assert.equal(sweep.results.alpha[3].note, null, '760 of 800 is exactly 5% below: not behind');
  const [b100, b200, b400, b800] = sweep.results.beta;
  assert.deepEqual([b100.note, b200.note], [null, null], '190 of 200 is exactly 5% below: not behind');
  assert.equal(b400.achievedRate, 300);
  assert.equal(b400.note, 'achieved 300 ops/s, 25% below the target of 400 ops/s: the answers (or the harness sending the operations) could not keep up with the schedule');
  assert.ok(near(b400.latencyMs.p99, 396) && near(b400.latencyMs.p50, 200), JSON.stringify(b400.latencyMs));
  assert.deepEqual([b800.rate, b800.status, b800.achievedRate, b800.latencyMs, b800.note], [800, 'not run', null, null, null]);
});

test('the text tables: closed loop a row per workload, level and database; open loop a row per rate, saying how far one fell behind', () => {
  const report = buildReport([alpha, beta], { baseline: 'alpha' });
  const text = REPORT_FORMATS.table(report);
  const lines = text.split('\n');
  const closed = lines.indexOf('Closed loop: throughput (ops/s, higher is better) and latency (ms, lower is better) per workload and concurrency:');
  assert.ok(closed > 0, text);
  // The percentiles of 1..100 ms and of 2..200 ms, as HDR's 3 significant digits give them.
  assert.deepEqual(lines.slice(closed + 1, closed + 6), [
    '  workload   operations  concurrency  database   ops/s  p50 ms  p95 ms  p99 ms',
    '  read-only         100            1  alpha      1,000   50.02   95.04   99.01',
    '  read-only         100            1  beta         500     100     190     198',
    '  read-only         100            4  alpha      2,000   50.02   95.04   99.01',
    '  read-only         100            4  beta      failed',
  ]);
  // The open loop's comparison is its latency at each rate, relative to the baseline's at the same rate.
  const open = lines.indexOf('Open loop: latency (ms, from each operation\'s due time; lower is better) against achieved throughput, per target rate;'
    + ' p50 and p99 relative to alpha\'s at the same rate (= 100%; one merged histogram per database: no interval):');
  assert.ok(open > closed, text);
  assert.deepEqual(lines.slice(open + 1, open + 10), [
    '  workload  operations  concurrency  database  target ops/s  achieved ops/s  p50 ms  p95 ms  p99 ms  p50 vs baseline  p99 vs baseline  note',
    '  95-5             100            4  alpha              100             100   50.02   95.04   99.01  100% (baseline)  100% (baseline)',
    '  95-5             100            4  beta               100             100   50.02   95.04   99.01           100.0%           100.0%',
    '  95-5             100            4  alpha              200             200   50.02   95.04   99.01  100% (baseline)  100% (baseline)',
    '  95-5             100            4  beta               200             190     100     190     198           200.0%           200.0%',
    '  95-5             100            4  alpha              400             400   50.02   95.04   99.01  100% (baseline)  100% (baseline)',
    '  95-5             100            4  beta               400             300     200     380     396           400.0%           400.0%  25% below target',
    '  95-5             100            4  alpha              800             760   50.02   95.04   99.01  100% (baseline)  100% (baseline)',
    '  95-5             100            4  beta               800         not run',
  ]);
  // An open loop's time is its schedule's: never a percentage, and said so where its figures are listed.
  const matrix = lines.indexOf('Median time relative to alpha (= 100%; lower is faster):');
  assert.deepEqual(lines.slice(matrix + 2, matrix + 6).map((line) => line.trim().split(/\s{2,}/)[0]),
    [`95-5 n=${OPS} c=4`, `95-5 n=${OPS} c=1`, `read-only n=${OPS} c=4`, `read-only n=${OPS} c=1`]);
  assert.equal(lines[matrix + 6], '');
  assert.ok(lines.includes('Not compared: 4 open loop steps, whose runs last as long as their schedule, so their time and ops/s are the schedule\'s; their latency at each rate is compared above:'));
  assert.equal(report.workloads.find((w) => w.name === `95-5 n=${OPS} c=4 rate=400`).results.beta.normalisedPct, null);
  assert.match(text, /\nOpen loop behind its target:\n {2}beta 95-5 n=100 c=4 rate=400 {2}achieved 300 ops\/s, 25% below the target of 400 ops\/s/);
  // Right after the summary, before the generic tables, which stay.
  assert.ok(open < lines.indexOf('Median time relative to alpha (= 100%; lower is faster):'));
  assert.ok(lines.includes('Workloads:'));
  assert.match(text, /\ndataset: mixed-uniform-r50-s1 \(mixed documents, seed 1\)\n/);

  const markdown = REPORT_FORMATS.markdown(report);
  assert.ok(markdown.includes('| workload | operations | concurrency | database | target ops/s | achieved ops/s | p50 ms | p95 ms | p99 ms | p50 vs baseline | p99 vs baseline | note |\n'
    + '|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|\n'), markdown);
  // One database, or unequal terms: no relative columns.
  assert.ok(REPORT_FORMATS.table(buildReport([alpha])).includes('  workload  operations  concurrency  database  target ops/s  achieved ops/s  p50 ms  p95 ms  p99 ms  note\n'));
});

test('a serial driver is named; results that mix write modes or key distributions are reported with a warning', () => {
  const serial = mixedDocument('gamma', { levels: [1, 4], execution: 'serial', durable: true, distribution: 'uniform', closed: () => ({ ms: [10], scale: 1 }) });
  const report = buildReport([alpha, serial]);
  assert.deepEqual(report.mixed.serial, ['gamma']);
  assert.match(REPORT_FORMATS.table(report), /\nConcurrency:\n {2}gamma {2}serial driver: one operation at a time/);
  assert.deepEqual(report.warnings, [
    'the results mix key distributions (--distribution) (alpha: zipfian, gamma: uniform), which do not measure the same work',
    'the results mix durable writes (--sync) and default ones (alpha: default, gamma: durable), which do not measure the same work',
  ]);
});

test('the CSV\'s workload rows name their workload, level and target rate, with the achieved rate, p95, max and the note', () => {
  const report = buildReport([alpha, beta], { baseline: 'alpha' });
  const rows = REPORT_FORMATS.csv(report).trim().split('\n').map((line) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/));
  const [header] = rows;
  assert.deepEqual(header.slice(-7), ['mix', 'concurrency', 'target_rate', 'achieved_rate', 'p95_ms', 'max_ms', 'open_loop_note']);
  const column = (name) => header.indexOf(name);
  const row = (workload, database) => rows.find((r) => r[column('workload')] === workload && r[column('database')] === database);
  const closedP95 = report.mixed.closed[1].results.beta[1].latencyMs.p95;
  assert.deepEqual(row(`95-5 n=${OPS} c=4`, 'beta').slice(-7), ['95-5', '4', '', '', String(closedP95), '200', '']);
  const openP95 = report.mixed.sweeps[0].results.beta[2].latencyMs.p95;
  assert.deepEqual(row(`95-5 n=${OPS} c=4 rate=400`, 'beta').slice(-7), ['95-5', '4', '400', '300', String(openP95), '400', `"${report.mixed.sweeps[0].results.beta[2].note}"`]);
  assert.deepEqual(row(`read-only n=${OPS} c=4`, 'beta').slice(-7), ['read-only', '4', '', '', '', '', '']);
  assert.ok(rows.filter((r) => r[0] === 'database').every((r) => r.length === header.length));
});

// The chart data as the page's script reads it.
const embedded = (html) => JSON.parse(html.match(/<script type="application\/json" id="report-data">(.*?)<\/script>/s)[1]);

test('the page: throughput with p50/p95/p99 per workload, and latency against achieved throughput per sweep', () => {
  const report = buildReport([alpha, beta], { baseline: 'alpha' });
  const html = REPORT_FORMATS.html(report);
  const { mixed } = embedded(html);
  assert.deepEqual(mixed.databases, ['alpha', 'beta']);
  assert.equal(mixed.throughput.length, 2);
  const [readOnly] = mixed.throughput;
  assert.equal(readOnly.title, `read-only, ${OPS} operations: ops/s (bars) and latency p50/p95/p99 (marks)`);
  assert.deepEqual(readOnly.labels, ['alpha c=1', 'beta c=1', 'alpha c=4', 'beta c=4 (failed)']);
  assert.deepEqual(readOnly.databases, [0, 1, 0, 1]);
  assert.deepEqual(readOnly.opsPerSec, [1000, 500, 2000, null]);
  assert.deepEqual(readOnly.p99.map((v) => (v === null ? null : Math.round(v))), [99, 198, 99, null]);
  assert.equal(mixed.sweeps.length, 1);
  const [sweep] = mixed.sweeps;
  assert.equal(sweep.title, `95-5, ${OPS} operations, concurrency 4: latency against achieved throughput`);
  const [a, b] = sweep.databases;
  assert.deepEqual([a.id, a.targets, a.achieved, a.behind, a.missing], ['alpha', [100, 200, 400, 800], [100, 200, 400, 760], [false, false, false, false], []]);
  assert.deepEqual([b.id, b.targets, b.achieved, b.behind, b.missing], ['beta', [100, 200, 400], [100, 190, 300], [false, false, true], ['800/s not run']]);
  assert.deepEqual(b.p99.map(Math.round), [99, 198, 396]);
  // The suite's charts are its headline: no overview of every step's time, no generic latency chart.
  assert.ok(html.indexOf('<h1>') < html.indexOf('<div class="grid" id="chart-mixed">'));
  assert.ok(!html.includes('id="chart-overview"') && !html.includes('id="chart-latency"'));
});

test('a crud report has no mixed block, columns or chart', () => {
  const crud = { ...alpha, result: { ...alpha.result, suite: 'crud' } };
  const report = buildReport([crud]);
  assert.equal(report.mixed, undefined);
  assert.ok(!REPORT_FORMATS.csv(report).split('\n')[0].includes('open_loop_note'));
  assert.ok(!('mixed' in embedded(REPORT_FORMATS.html(report))));
  assert.ok(!REPORT_FORMATS.table(report).includes('Open loop'));
});

// In a real headless browser (as test/report/html.test.js: Debian's chromium through puppeteer-core), when one
// is installed: the charts are drawn with no error, with the data and legends the tables give.
test('the page draws the throughput and the latency-against-throughput charts in a browser', browserTest, async () => {
  const html = REPORT_FORMATS.html(buildReport([alpha, beta], { baseline: 'alpha' }));
  const { problems, drawn: charts } = await drawPage(html, () => Array.from(document.querySelectorAll('#chart-mixed canvas')).map((canvas) => {
    const chart = window.Chart.getChart(canvas);
    return {
      type: chart.config.type,
      labels: chart.data.labels,
      lines: chart.data.datasets.map((dataset) => [dataset.label, dataset.data]),
      axes: Object.fromEntries(Object.entries(chart.options.scales).map(([id, scale]) => [id, scale.title.text])),
    };
  }));
  assert.deepEqual(problems, []);
  assert.deepEqual(charts.map((chart) => chart.type), ['bar', 'bar', 'scatter']);
  const [readOnly, , sweep] = charts;
  assert.deepEqual(readOnly.labels, ['alpha c=1', 'beta c=1', 'alpha c=4', 'beta c=4 (failed)']);
  // A bar dataset per database (its colour in the legend), then the latency marks.
  assert.deepEqual(readOnly.lines.map(([label]) => label), ['alpha ops/s', 'beta ops/s', 'p50 ms', 'p95 ms', 'p99 ms']);
  assert.deepEqual(readOnly.lines.slice(0, 2).map(([, values]) => values), [[1000, null, 2000, null], [null, 500, null, null]]);
  assert.match(readOnly.axes.y, /higher is better/);
  assert.match(readOnly.axes.latency, /lower is better/);
  assert.deepEqual(sweep.lines.map(([label]) => label), ['alpha p99', 'alpha p50', 'beta p99 (800/s not run)', 'beta p50 (800/s not run)']);
  assert.deepEqual(sweep.lines[2][1].map(({ x, y }) => [x, Math.round(y)]), [[100, 99], [190, 198], [300, 396]]);
  assert.match(sweep.axes.x, /^achieved throughput, ops\/s/);
  assert.match(sweep.axes.y, /lower is better/);
});

// Documents made entry by entry: `entries` is [[mix, params, figures]], params completed with the defaults.
const fullKey = (mix, { ops, concurrency, rate }) => `${mix} n=${ops} c=${concurrency}${rate ? ` rate=${rate}` : ''}`;
function documentOf(db, entries, { execution = 'concurrent', file = `${db}-mixed.json`, dataset } = {}) {
  const document = mixedDocument(db, { levels: [], closed: () => null, open: () => null, execution });
  for (const [mix, params, figures, extra = {}] of entries) {
    const full = { ops: OPS, records: RECORDS, distribution: 'zipfian', concurrency: 4, durable: false, ...params };
    document.result.workloads[fullKey(mix, full)] = { ...entry(mix, full, figures), ...extra };
  }
  return { ...document, file, result: { ...document.result, ...(dataset ? { dataset } : {}) } };
}
const blocksOf = (report) => reportBlocks(report);
const blockOf = (report, id) => reportBlocks(report).find((block) => block.id === id);

test('only keys the mixed suite writes make series; one without params, count or level, of another form, is left out', () => {
  const document = documentOf('alpha', [['95-5', { concurrency: 1 }, { ms: [100], scale: 1 }]]);
  const odd = (params) => ({ ...entry('95-5', { ops: OPS, concurrency: 1 }, { ms: [100], scale: 1 }), params: params && { distribution: 'zipfian', ...params } });
  Object.assign(document.result.workloads, {
    notes: odd(undefined), 'count only n=100 c=1': odd({ ops: OPS }), 'level only n=100 c=1': odd({ concurrency: 1 }),
    bogus: odd({ ops: OPS, concurrency: 1 }), ' n=100 c=1': odd({ ops: OPS, concurrency: 1 }),
  });
  const other = documentOf('beta', [['95-5', { concurrency: 1, distribution: 'uniform' }, { ms: [100], scale: 1 }]]);
  other.result.workloads.notes = odd(undefined);
  const report = buildReport([document, other]);
  assert.deepEqual(report.mixed.closed.map((s) => [s.mix, s.levels]), [['95-5', [1]]]);
  assert.deepEqual(report.mixed.sweeps, []);
  assert.deepEqual(report.warnings, ['the results mix key distributions (--distribution) (alpha: zipfian, beta: uniform), which do not measure the same work']);
  // Their CSV rows keep the mixed columns, empty.
  const rows = REPORT_FORMATS.csv(report).trim().split('\n').map((line) => line.split(','));
  const notes = rows.find((r) => r[1] === 'notes' && r[3] === 'alpha');
  assert.equal(notes.length, rows[0].length);
  assert.deepEqual(notes.slice(-7), ['', '', '', '', '', '', '']);
});

test('a key the first document lacks still makes its series from the next one\'s params', () => {
  const first = documentOf('alpha', [['95-5', { concurrency: 1 }, { ms: [100], scale: 1 }]]);
  const second = documentOf('beta', [['95-5', { concurrency: 1 }, { ms: [100], scale: 1 }], ['read-only', { concurrency: 2 }, { ms: [100], scale: 1 }]]);
  assert.deepEqual(buildReport([first, second]).mixed.closed.map((s) => `${s.mix} ${s.levels}`), ['read-only 2', '95-5 1']);
});

test('series and sweeps in order: workload, then operations, then concurrency, however the keys come', () => {
  const document = documentOf('alpha', [
    ['95-5', { ops: 200, concurrency: 1 }, { ms: [100], scale: 1 }],
    ['95-5', { ops: 100, concurrency: 1 }, { ms: [100], scale: 1 }],
    ['95-5', { concurrency: 8, rate: 100 }, { achieved: [100], scale: 1 }],
    ['95-5', { concurrency: 2, rate: 100 }, { achieved: [100], scale: 1 }],
    ['read-only', { concurrency: 2, rate: 100 }, { achieved: [100], scale: 1 }],
  ]);
  const report = buildReport([document]);
  assert.deepEqual(report.mixed.closed.map((s) => `${s.mix} ${s.ops}`), ['95-5 100', '95-5 200']);
  assert.deepEqual(report.mixed.sweeps.map((s) => `${s.mix} ${s.ops} ${s.concurrency}`), ['read-only 100 2', '95-5 100 2', '95-5 100 8']);
});

test('the achieved rate: the median of an even number of runs, the runs\' own figure, else the generic ops/s', () => {
  const openLoop = (achievedRate, sendLagMs) => ({ targetRate: 1000, achievedRate, sendLagMs, note: null });
  const runs = (figures) => figures.map(([ms, loop], i) => ({ run: i + 1, valid: true, ms, opsPerSec: Math.round(OPS / (ms / 1000)), errors: 0, ...summarizeLatencies(latencies(1)), resources: null, ...(loop ? { openLoop: loop } : {}) }));
  // Two runs of 100 ms (1,000 ops/s) that say they achieved 600 and 900: 750; without sendLagMs, no lag.
  const two = documentOf('alpha', [['95-5', { rate: 1000 }, { achieved: [1000], scale: 1 }, { runs: runs([[100, openLoop(600, undefined)], [100, openLoop(900, { mean: 1 })]]) }]]);
  const [even] = buildReport([two]).mixed.sweeps[0].results.alpha;
  assert.deepEqual([even.achievedRate, even.sendLagMaxMs], [750, null]);
  // Runs that carry no open-loop figures: the generic ops/s.
  const plain = documentOf('alpha', [['95-5', { rate: 1000 }, { achieved: [1000], scale: 1 }, { runs: runs([[125], [125]]) }]]);
  const [generic] = buildReport([plain]).mixed.sweeps[0].results.alpha;
  assert.deepEqual([generic.achievedRate, generic.sendLagMaxMs, generic.note], [800, null, 'achieved 800 ops/s, 20% below the target of 1,000 ops/s: the answers (or the harness sending the operations) could not keep up with the schedule']);
  // A database whose second file failed the rate has no achieved rate, lag or note, whatever the first file measured.
  const failed = documentOf('alpha', [['95-5', { rate: 1000 }, { failed: '1 stale read' }]], { file: 'alpha-2.json' });
  const [pooled] = buildReport([two, failed]).mixed.sweeps[0].results.alpha;
  assert.deepEqual([pooled.status, pooled.achievedRate, pooled.sendLagMaxMs, pooled.note], ['failed', null, null, null]);
});

test('write modes and distributions: the same in every document is no warning; a database that ran both says so', () => {
  const plain = documentOf('alpha', [['95-5', { concurrency: 1 }, { ms: [100], scale: 1 }]]);
  const unsaid = documentOf('beta', [['95-5', { concurrency: 1 }, { ms: [100], scale: 1 }]]);
  for (const entryOf of Object.values(unsaid.result.workloads)) delete entryOf.params.durable;
  assert.deepEqual(buildReport([plain, unsaid]).warnings, [], 'durable: false and durable absent are the same default');
  const durable = documentOf('alpha', [['95-5', { concurrency: 1, durable: true }, { ms: [100], scale: 1 }]], { file: 'alpha-durable.json' });
  assert.deepEqual(buildReport([plain, durable, unsaid]).warnings, [
    'the results mix durable writes (--sync) and default ones (alpha: default and durable, beta: default), which do not measure the same work',
  ]);
});

test('the closed loop table: n/a for a figure not measured, the client-bound mark, and only the blocks there is something for', () => {
  const document = documentOf('alpha', [
    ['95-5', { concurrency: 1 }, { ms: [100], scale: 1 }, { resources: { clientBound: true } }],
    ['95-5', { concurrency: 2 }, { ms: [100], scale: 1 }],
    ['95-5', { concurrency: 4 }, { ms: [100], scale: 1 }, { ops: 0 }],
  ]);
  // c=2: runs without histograms, whose own percentiles have no p95; c=4: no count of operations.
  for (const run of document.result.workloads[`95-5 n=${OPS} c=2`].runs) {
    delete run.histogram;
    run.latencyMs = { p50: 5, p90: 8, p99: 9, max: 10, mean: 5 };
  }
  const report = buildReport([document]);
  const closed = blockOf(report, 'mixed-closed');
  assert.deepEqual(closed.rows, [
    ['95-5', '100', '1', 'alpha', '1,000 !', '50.02', '95.04', '99.01'],
    ['95-5', '100', '2', 'alpha', '1,000', '5.00', 'n/a', '9.00'],
    ['95-5', '100', '4', 'alpha', 'n/a', '50.02', '95.04', '99.01'],
  ]);
  assert.deepEqual(blocksOf(report).map((block) => block.id).filter((id) => id.startsWith('mixed')), ['mixed-closed']);
  // Without latencies at all.
  for (const run of document.result.workloads[`95-5 n=${OPS} c=2`].runs) delete run.latencyMs;
  assert.deepEqual(blockOf(buildReport([document]), 'mixed-closed').rows[1], ['95-5', '100', '2', 'alpha', '1,000', 'n/a', 'n/a', 'n/a']);
  assert.deepEqual(mixedChart(buildReport([document])).throughput[0].p50, [report.mixed.closed[0].results.alpha[0].latencyMs.p50, null, report.mixed.closed[0].results.alpha[2].latencyMs.p50]);
});

test('an open loop alone: its table with the client-bound mark, no closed loop table, no list without a rate behind', () => {
  const document = documentOf('alpha', [['95-5', { rate: 100 }, { achieved: [100], scale: 1 }, { resources: { clientBound: true } }]]);
  const report = buildReport([document]);
  assert.deepEqual(blocksOf(report).map((block) => block.id).filter((id) => id.startsWith('mixed')), ['mixed-open']);
  assert.deepEqual(blockOf(report, 'mixed-open').rows, [['95-5', '100', '4', 'alpha', '100', '100 !', '50.02', '95.04', '99.01', '']]);
});

test('the lists: each rate behind its target, each serial driver', () => {
  const report = buildReport([alpha, beta, documentOf('gamma', [['95-5', { concurrency: 1 }, { ms: [100], scale: 1 }]], { execution: 'serial' })], { baseline: 'alpha' });
  assert.deepEqual(blockOf(report, 'mixed-behind'), {
    kind: 'list', id: 'mixed-behind', title: 'Open loop behind its target',
    items: [{ label: `beta 95-5 n=${OPS} c=4 rate=400`, lines: [report.mixed.sweeps[0].results.beta[2].note] }],
  });
  assert.deepEqual(blockOf(report, 'mixed-serial'), {
    kind: 'list', id: 'mixed-serial', title: 'Concurrency',
    items: [{ label: 'gamma', lines: ['serial driver: one operation at a time at every level, so a difference between its levels is not the effect of concurrency'] }],
  });
  assert.deepEqual(buildReport([documentOf('gamma', [['95-5', { concurrency: 1 }, { ms: [100], scale: 1 }]], { execution: 'serial' })]).mixed.serial, ['gamma']);
  const unnamed = { ...report, datasets: [{ id: 'mixed-x', name: null, seed: null }] };
  assert.equal(reportBlocks(unnamed)[0].lines[0], 'dataset: mixed-x (mixed documents, seed ?)');
});

const mixedChart = (report) => embedded(REPORT_FORMATS.html(report)).mixed;

test('the page\'s charts: every percentile drawn, a CSV row per rate of a second sweep, and the section or its words', () => {
  const report = buildReport([alpha, beta], { baseline: 'alpha' });
  const { throughput, sweeps } = mixedChart(report);
  const closedAlpha = report.mixed.closed[0].results.alpha;
  assert.deepEqual(throughput[0].p50.slice(0, 1), [closedAlpha[0].latencyMs.p50]);
  assert.deepEqual(throughput[0].p95.slice(0, 1), [closedAlpha[0].latencyMs.p95]);
  assert.deepEqual(sweeps[0].databases[1].p50, report.mixed.sweeps[0].results.beta.slice(0, 3).map((f) => f.latencyMs.p50));
  const html = REPORT_FORMATS.html(report);
  const section = '<section><h2>Throughput and latency per workload; for a rate sweep, latency against achieved throughput</h2><div class="grid" id="chart-mixed"></div></section>';
  assert.ok(html.includes(section));
  assert.ok(html.includes("(data.mixed ? data.mixed.throughput : []).forEach(function (chart) {\n    new Chart(canvas('chart-mixed', chart.title, 'chart wide'), {"));
  // One closed series and one sweep: two charts.
  const one = documentOf('alpha', [['95-5', { concurrency: 1 }, { ms: [100], scale: 1 }], ['95-5', { rate: 100 }, { achieved: [100], scale: 1 }],
    ['read-only', { rate: 100 }, { achieved: [100], scale: 1 }]]);
  assert.ok(REPORT_FORMATS.html(buildReport([one])).includes(section));
  const rows = REPORT_FORMATS.csv(buildReport([one])).trim().split('\n').map((line) => line.split(','));
  assert.deepEqual(rows.find((r) => r[1] === `95-5 n=${OPS} c=4 rate=100`).slice(-7, -1), ['95-5', '4', '100', '100', String(buildReport([one]).mixed.sweeps[1].results.alpha[0].latencyMs.p95), '100']);
  const none = documentOf('alpha', [['95-5', { concurrency: 1 }, { failed: 'wrong' }]]);
  none.result.workloads = { notes: { ...none.result.workloads[`95-5 n=${OPS} c=1`], params: undefined } };
  assert.ok(REPORT_FORMATS.html(buildReport([none])).includes('<section><h2>Throughput and latency per workload; for a rate sweep, latency against achieved throughput</h2><p class="none" id="chart-mixed">no workload has a passed level or rate</p></section>'));
});

test('what the runs started from: the loads with their time and the runs on the state the run before left, per database, in the report', () => {
  const started = (doc, starts) => {
    const copy = structuredClone(doc);
    const runs = Object.values(copy.result.workloads).flatMap((e) => e.runs);
    runs.forEach((run, i) => Object.assign(run, starts[i % starts.length]));
    return copy;
  };
  const load = (ms) => ({ startedFrom: 'load', load: { documents: RECORDS, ms, concurrency: 4 } });
  const before = { startedFrom: 'the run before' };
  const once = started(alpha, [load(1234), before, before, before, before, before, before, before, before, before]);
  const twice = started(beta, [load(500), before, before, load(700)]);
  const report = buildReport([once, twice], { baseline: 'alpha' });
  const runsOf = (doc) => Object.values(doc.result.workloads).flatMap((e) => e.runs).length;
  assert.deepEqual(report.mixed.loads.alpha, { runs: runsOf(once), loads: 1, documents: RECORDS, ms: 1234, firstMs: 1234, fromRunBefore: runsOf(once) - 1 });
  // beta's runs in turn: a load of 500 ms, two on the run before, a load of 700 ms, and again.
  const betaLoads = Array.from({ length: runsOf(twice) }, (_, i) => [500, null, null, 700][i % 4]).filter(Boolean);
  assert.ok(betaLoads.length >= 2);
  assert.deepEqual(report.mixed.loads.beta, {
    runs: runsOf(twice), loads: betaLoads.length, documents: RECORDS, ms: betaLoads.reduce((a, b) => a + b, 0), firstMs: 500,
    fromRunBefore: runsOf(twice) - betaLoads.length,
  });
  const table = REPORT_FORMATS.table(report);
  assert.match(table, new RegExp(`\\nLoading:\\n {2}alpha {2}loaded once: ${RECORDS} documents in 1\\.23 s \\(untimed\\); ${runsOf(once) - 1} of ${runsOf(once)} runs started from the checked state the run before left`));
  assert.match(table, /\n {2}beta {2}loaded \d+ times: 50 documents in [\d.]+ s in all \(untimed\)/);
  // Results from before the runs said what they started from: no line, no block.
  assert.deepEqual(buildReport([alpha, beta], { baseline: 'alpha' }).mixed.loads, {});
  assert.doesNotMatch(REPORT_FORMATS.table(buildReport([alpha, beta], { baseline: 'alpha' })), /Loading/);
});
