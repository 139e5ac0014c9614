// The HTML report's page (results/report/html.js) on reports made up here: the blocks as escaped HTML, each chart's
// section or the words for its absence, the chart data's every field, and what the page carries (its policy, the
// bundled Chart.js, the drawing script).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildReport } from '../../results/report/build.js';
import { chartData, formatReportHtml } from '../../results/report/html.js';

const latency = (ms) => ({ p50: ms / 10, p90: ms / 5, p99: ms / 2, max: ms, mean: ms / 10 });
const passed = (times, { ops = 10, compared = true, withLatency = true } = {}) => ({
  supported: true, compared, status: 'passed', valid: true, ops,
  runs: times.map((ms, i) => ({ run: i + 1, valid: true, ms, errors: 0, ...(withLatency ? { latencyMs: latency(ms) } : {}) })),
});
const document = (db, workloads, extra = {}) => ({
  file: `${db}.json`,
  result: {
    schema: 'db-shootout/result@1', db: { id: db, name: db, version: '1' }, dataset: { id: 'd', scale: 's', seed: 1 }, config: { concurrency: 2, runs: 3 },
    import: { importedAt: 't', ms: 1500, diskBytes: 2048 }, resources: { server: { rssPeakBytes: 3 * 2 ** 20, rssMeanBytes: 2 ** 20 } }, workloads, ...extra,
  },
});

// a (baseline): singleRead 10-12 ms, aggregation 5 ms once, neighbors failed; b<x>: singleRead 30-32 ms and
// client-bound, aggregation 5 ms once, neighbors 20 ms without latencies; no import, memory without a mean.
function twoDatabases() {
  const bound = passed([30, 31, 32]);
  bound.resources = { clientBound: true };
  return buildReport([
    document('a', {
      singleRead: passed([10, 11, 12]), aggregation: passed([5]), warmup: passed([1], { compared: false }),
      neighbors: { supported: true, compared: true, status: 'failed', ops: 10, runs: [{ run: 1, valid: false, reason: 'wrong' }] },
    }),
    document('b<x>', { singleRead: bound, aggregation: passed([5]), neighbors: passed([20], { withLatency: false }), warmup: passed([1], { compared: false }) },
      { import: null, resources: { server: { rssPeakBytes: 2 ** 20, rssMeanBytes: null } } }),
  ], { baseline: 'a' });
}

test('several databases: the overview and each workload\'s chart, labelled with the marks and the words for a missing bar', () => {
  const data = chartData(twoDatabases());
  assert.deepEqual(data.baseline, 'a');
  assert.deepEqual(data.overview, {
    workloads: ['singleRead', 'aggregation', 'neighbors'],
    databases: [
      { id: 'a', values: [100, 100, null], missing: [null, null, 'failed'], notSignificant: [false, false, false], noInterval: [null, null, null] },
      { id: 'b<x>', values: [281.8, 100, null], missing: [null, null, 'n/a'], notSignificant: [false, false, false], noInterval: [null, '1 run: no interval', null] },
    ],
  });
  assert.deepEqual(data.normalised, [
    { workload: 'singleRead', labels: ['a', 'b<x> !'], values: [100, 281.8], baselineIndex: 0 },
    { workload: 'aggregation', labels: ['a', 'b<x> (1 run: no interval)'], values: [100, 100], baselineIndex: 0 },
    { workload: 'neighbors', labels: ['a (failed)', 'b<x>'], values: [null, null], baselineIndex: 0 },
  ]);
  assert.equal(data.throughput, null);
  assert.deepEqual(data.latency, [
    { database: 'a', workloads: ['singleRead', 'aggregation'], p50: [1.1, 0.5], p90: [2.2, 1], p99: [5.5, 2.5] },
    { database: 'b<x>', workloads: ['singleRead', 'aggregation'], p50: [3.1, 0.5], p90: [6.2, 1], p99: [15.5, 2.5] },
  ]);
  assert.deepEqual(data.memory, [{ database: 'a', peakMiB: 3, meanMiB: 1 }, { database: 'b<x>', peakMiB: 1, meanMiB: null }]);
  assert.deepEqual(data.import, [{ database: 'a', seconds: 1.5 }]);
});

test('one database: its throughput, never a percentage; none when no compared workload passed', () => {
  const one = buildReport([document('a', { singleRead: passed([10, 11, 12]), aggregation: passed([20]), warmup: passed([1], { compared: false }) })]);
  const data = chartData(one);
  assert.deepEqual([data.baseline, data.overview, data.normalised], [null, null, []]);
  assert.deepEqual(data.throughput, { database: 'a', workloads: ['singleRead', 'aggregation'], opsPerSec: [909, 500], medianMs: [11, 20] });
  const html = formatReportHtml(one);
  assert.ok(html.includes('<section><h2>Throughput per workload: a</h2><div id="chart-throughput"></div></section>'));

  const failed = buildReport([document('a', { singleRead: { supported: true, compared: true, status: 'failed', ops: 10, runs: [{ run: 1, valid: false, reason: 'x' }] } },
    { import: { importedAt: 't' }, resources: { server: null } })]);
  const none = chartData(failed);
  assert.deepEqual([none.throughput, none.latency, none.memory, none.import], [null, [], [], []]);
  const page = formatReportHtml(failed);
  for (const section of [
    '<section><h2>Throughput per workload</h2><p class="none" id="chart-throughput">no compared workload passed</p></section>',
    '<section><h2>Latency percentiles per database</h2><p class="none" id="chart-latency">no compared workload that passed has latencies</p></section>',
    '<section><h2>Server memory</h2><p class="none" id="chart-memory">n/a: no server memory was measured in these files</p></section>',
    '<section><h2>Import time</h2><p class="none" id="chart-import">n/a: no import was recorded in these files</p></section>',
  ]) assert.ok(page.includes(section), section);
});

test('the page: the policy, the title, the summary first, each chart section, the blocks escaped, the data and the scripts', () => {
  const report = twoDatabases();
  const html = formatReportHtml(report);
  assert.ok(html.startsWith('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'));
  assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">`));
  assert.ok(html.includes('<title>db-shootout report: a, b&lt;x&gt;</title>'));
  assert.ok(html.includes('<h1>db-shootout report</h1>\n<ul class="summary"><li>dataset: d (? s, ? profiles, ? relations, seed 1)</li><li>databases: a, b&lt;x&gt;</li><li>baseline: a (named with --baseline)</li><li>terms: not recorded in these results (run before durability terms were recorded): the databases may have written under different durability</li><li>intervals: none where a database or the baseline has 1 run (marked &quot;1 run: no interval&quot;): a difference of any size may be noise; --runs 3 or more gives a 95% interval</li></ul>\n'));
  const order = [
    '<section><h2>Overview: median time per workload, a = 100% (lower is better)</h2><div id="chart-overview"></div></section>',
    '<section><h2>Median time per workload, a = 100%</h2><div class="grid" id="chart-normalised"></div></section>',
    '<section><h2>Latency percentiles per database</h2><div class="grid" id="chart-latency"></div></section>',
    '<section><h2>Server memory</h2><div class="grid" id="chart-memory"></div></section>',
    '<section><h2>Import time</h2><div class="grid" id="chart-import"></div></section>',
    '<section id="normalised"><h2>Median time relative to a (= 100%; lower is faster)</h2><table><thead><tr><th>workload</th><th class="num">a</th><th class="num">b&lt;x&gt;</th></tr></thead>',
    '<tbody><tr><td>singleRead</td><td class="num">100% (baseline)</td><td class="num">281.8% !</td></tr>\n<tr><td>aggregation</td>',
    '<section id="legend"><h2>Legend</h2><dl><dt>~</dt><dd>not significant: the 95% interval',
    '<script type="application/json" id="report-data">',
  ];
  const at = order.map((part) => html.indexOf(part));
  assert.ok(at.every((index) => index > 0), JSON.stringify(order.filter((_, i) => at[i] < 0)));
  assert.deepEqual([...at].sort((x, y) => x - y), at, 'in this order');
  // A list of several lines: a term, then each line.
  assert.ok(html.includes('<dt>a (a)</dt><dd>version: 1</dd><dd>driver: n/a</dd>'));
  // The embedded data is the chart data, with no `<` that could end its script element.
  const json = html.match(/<script type="application\/json" id="report-data">(.*?)<\/script>/s)[1];
  assert.ok(!json.includes('<'));
  assert.deepEqual(JSON.parse(json), JSON.parse(JSON.stringify(chartData(report))));
  // Chart.js inline, with no `</script` inside it; the page's own script after it.
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
  assert.equal(scripts.length, 2);
  assert.ok(scripts[0].length > 100_000 && scripts[0].includes('Chart'));
  assert.ok(scripts[1].includes("var data = JSON.parse(document.getElementById('report-data').textContent);"));
  assert.ok(scripts[1].includes("new Chart(canvas('chart-overview', 'overview', 'chart wide'), {"));
  assert.ok(html.includes('<style>\nbody { font: 14px/1.45 system-ui, sans-serif;'));
  assert.ok(html.endsWith('</script>\n</body>\n</html>\n'));
});

test('several databases and no compared workload: no overview, and the words for the missing charts', () => {
  const report = buildReport([document('a', { warmup: passed([1], { compared: false }) }), document('b', { warmup: passed([1], { compared: false }) })]);
  const data = chartData(report);
  assert.deepEqual([data.overview, data.normalised], [null, []]);
  const html = formatReportHtml(report);
  assert.ok(!html.includes('chart-overview"'));
  assert.ok(html.includes('<section><h2>Median time per workload, a = 100%</h2><p class="none" id="chart-normalised">no compared workload</p></section>'));
});

test('HTML special characters are escaped in every block', () => {
  const report = twoDatabases();
  report.warnings.push(`a & b < c > d " e ' f`);
  assert.ok(formatReportHtml(report).includes('<dd>a &amp; b &lt; c &gt; d &quot; e &#39; f</dd>'));
});

test('the page\'s parts one line apart: the summary, the chart sections, the blocks, the items of a list; no suite script of its own', () => {
  const html = formatReportHtml(twoDatabases());
  // The generic report has no suite section: the overview right after the summary, the workloads' charts on the next line.
  assert.ok(html.includes('<li>baseline: a (named with --baseline)</li><li>terms: not recorded in these results (run before durability terms were recorded): the databases may have written under different durability</li><li>intervals: none where a database or the baseline has 1 run (marked &quot;1 run: no interval&quot;): a difference of any size may be noise; --runs 3 or more gives a 95% interval</li></ul>\n<section><h2>Overview: median time per workload, a = 100% (lower is better)</h2><div id="chart-overview"></div></section>\n<section><h2>Median time per workload, a = 100%</h2>'));
  assert.ok(html.includes('</table></section>\n<section id="resources">'));
  assert.ok(html.includes('</dd>\n<dt>b&lt;x&gt; (b&lt;x&gt;)</dt>'));
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
  assert.ok(scripts[1].includes("backgroundColor: palette[2] }], 's');\n  document.body.setAttribute('data-charts-drawn', String(Object.keys(Chart.instances).length));"));
  // Without an overview, nothing in its place.
  const report = buildReport([document('a', { warmup: passed([1], { compared: false }) }), document('b', { warmup: passed([1], { compared: false }) })]);
  assert.ok(formatReportHtml(report).includes('</ul>\n<section><h2>Median time per workload, a = 100%</h2><p class="none" id="chart-normalised">no compared workload</p></section>\n<section><h2>Latency'));
});
