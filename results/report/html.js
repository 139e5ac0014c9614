// The report as one self-contained HTML file: the tables of the other formats, the charts, and Chart.js's
// minified UMD bundle inlined from node_modules, so the file opens offline, from an e-mail or an archive,
// years later. A Content-Security-Policy forbids every network request, so a page that works here cannot
// be quietly depending on one.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { noIntervalText, reportBlocks } from './blocks.js';
import { suiteRendering } from './suites/index.js';
import { CLUSTER_PAGE_SCRIPT, clusterChartData } from './clusters.js';

const require = createRequire(import.meta.url);

function chartBundle() {
  const main = require.resolve('chart.js'); // node_modules/chart.js/dist/chart.cjs
  const bundle = readFileSync(path.join(path.dirname(main), 'chart.umd.min.js'), 'utf8');
  return bundle.replace(/<\/script/gi, '<\\/script');
}

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

function renderBlock(block) {
  if (block.kind === 'text') {
    return `<h1>${escapeHtml(block.title)}</h1>\n<ul class="summary">${block.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`;
  }
  if (block.kind === 'table') {
    const right = new Set(block.numeric);
    const cells = (r, tag) => r.map((c, i) => `<${tag}${right.has(i) ? ' class="num"' : ''}>${escapeHtml(c)}</${tag}>`).join('');
    return `<section id="${block.id}"><h2>${escapeHtml(block.title)}</h2><table><thead><tr>${cells(block.header, 'th')}</tr></thead>`
      + `<tbody>${block.rows.map((r) => `<tr>${cells(r, 'td')}</tr>`).join('\n')}</tbody></table></section>`;
  }
  return `<section id="${block.id}"><h2>${escapeHtml(block.title)}</h2><dl>${block.items.map((item) => `<dt>${escapeHtml(item.label)}</dt>${item.lines.map((line) => `<dd>${escapeHtml(line)}</dd>`).join('')}`).join('\n')}</dl></section>`;
}

// The figures the charts draw, computed here so the page's script only draws. Several databases: the
// published overview (every workload, one bar per database, baseline = 100%) and one chart per workload. One
// database: a percentage of itself would say nothing, so its absolute throughput instead.
export function chartData(report) {
  const ids = report.databases.map((d) => d.id);
  const compared = report.workloads.filter((w) => w.compared);
  const several = ids.length > 1;
  const label = (id, f) => {
    if (f.status !== 'passed') return `${id} (${f.status})`;
    return `${id}${f.noInterval ? ` (${noIntervalText(f.noInterval)})` : ''}${f.significant === false ? ' ~' : ''}${f.clientBound ? ' !' : ''}`;
  };
  // A bar the overview cannot draw is named instead: its status, or n/a without a baseline time.
  const missing = (f) => (f.status !== 'passed' ? f.status : f.normalisedPct === null ? 'n/a' : null);
  const [single] = report.databases;
  const passed = (id) => compared.filter((w) => w.results[id].status === 'passed');
  const own = suiteRendering(report.suite).charts;
  const generic = !own?.headline;
  const clusters = clusterChartData(report);
  return {
    ...(own ? { [report.suite]: own.data(report) } : {}),
    ...(clusters ? { clusters } : {}),
    baseline: several ? report.baseline.id : null,
    overview: generic && several && compared.length > 0 ? {
      workloads: compared.map((w) => w.name),
      databases: ids.map((id) => ({
        id,
        values: compared.map((w) => w.results[id].normalisedPct),
        missing: compared.map((w) => missing(w.results[id])),
        notSignificant: compared.map((w) => w.results[id].significant === false),
        noInterval: compared.map((w) => (w.results[id].noInterval ? noIntervalText(w.results[id].noInterval) : null)),
      })),
    } : null,
    normalised: generic && several ? compared.map((w) => ({
      workload: w.name,
      labels: ids.map((id) => label(id, w.results[id])),
      values: ids.map((id) => w.results[id].normalisedPct),
      baselineIndex: ids.indexOf(report.baseline.id),
    })) : [],
    throughput: generic && !several && single && passed(single.id).length > 0 ? {
      database: single.id,
      workloads: passed(single.id).map((w) => w.name),
      opsPerSec: passed(single.id).map((w) => w.results[single.id].opsPerSec),
      medianMs: passed(single.id).map((w) => w.results[single.id].medianMs),
    } : null,
    latency: !generic ? [] : report.databases.map((d) => {
      const withLatency = passed(d.id).filter((w) => w.results[d.id].latencyMs);
      return {
        database: d.id,
        workloads: withLatency.map((w) => w.name),
        p50: withLatency.map((w) => w.results[d.id].latencyMs.p50),
        p90: withLatency.map((w) => w.results[d.id].latencyMs.p90),
        p99: withLatency.map((w) => w.results[d.id].latencyMs.p99),
      };
    }).filter((chart) => chart.workloads.length > 0),
    memory: report.databases.filter((d) => typeof d.server.rssPeakBytes === 'number')
      .map((d) => ({ database: d.id, peakMiB: d.server.rssPeakBytes / 2 ** 20, meanMiB: typeof d.server.rssMeanBytes === 'number' ? d.server.rssMeanBytes / 2 ** 20 : null })),
    import: report.databases.filter((d) => typeof d.import.ms === 'number').map((d) => ({ database: d.id, seconds: d.import.ms / 1000 })),
  };
}

// Runs in the page: one chart per canvas, drawn without animation so the page is complete once loaded. A suite's
// own charts (`suiteScript`) are drawn with the helpers defined here.
const pageScript = (suiteScript) => `
(function () {
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var palette = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  function canvas(container, title, className) {
    var figure = document.createElement('figure');
    var holder = document.createElement('div');
    holder.className = className || 'chart';
    var element = document.createElement('canvas');
    element.setAttribute('aria-label', title);
    holder.appendChild(element);
    figure.appendChild(holder);
    document.getElementById(container).appendChild(figure);
    return element;
  }
  // The baseline's 100% as a dashed line, and the word for each bar that has no percentage, where it would be.
  var overviewMarks = {
    id: 'overviewMarks',
    afterDatasetsDraw: function (chart) {
      var y = chart.scales.y;
      var area = chart.chartArea;
      var context = chart.ctx;
      context.save();
      context.strokeStyle = '#222';
      context.setLineDash([6, 4]);
      context.beginPath();
      context.moveTo(area.left, y.getPixelForValue(100));
      context.lineTo(area.right, y.getPixelForValue(100));
      context.stroke();
      context.setLineDash([]);
      context.fillStyle = '#555';
      context.font = '11px system-ui, sans-serif';
      context.textAlign = 'left';
      context.textBaseline = 'middle';
      data.overview.databases.forEach(function (database, d) {
        chart.getDatasetMeta(d).data.forEach(function (bar, w) {
          var word = database.missing[w];
          if (!word) return;
          context.save();
          context.translate(bar.x, area.bottom - 4);
          context.rotate(-Math.PI / 2);
          context.fillText(word, 0, 0);
          context.restore();
        });
      });
      context.restore();
    },
  };
  if (data.overview) {
    new Chart(canvas('chart-overview', 'overview', 'chart wide'), {
      type: 'bar',
      data: { labels: data.overview.workloads, datasets: data.overview.databases.map(function (database, i) {
        var baseline = database.id === data.baseline;
        return { label: database.id + (baseline ? ' (baseline)' : ''), data: database.values, backgroundColor: baseline ? '#555' : palette[i % palette.length] };
      }) },
      options: {
        plugins: {
          title: { display: true, text: 'Median time per workload, ' + data.baseline + ' = 100%: lower is better' },
          tooltip: { callbacks: { label: function (item) {
            var database = data.overview.databases[item.datasetIndex];
            var word = database.missing[item.dataIndex];
            var interval = database.noInterval[item.dataIndex];
            return database.id + ': ' + (word || item.raw + '%' + (interval ? ' (' + interval + ')' : database.notSignificant[item.dataIndex] ? ' (~ not significant)' : ''));
          } } },
        },
        scales: { y: { beginAtZero: true, title: { display: true, text: '% of ' + data.baseline + "'s median time (lower is better)" } } },
      },
      plugins: [overviewMarks],
    });
  }
  // A log scale only when the figures span more than a factor of 20; otherwise bars from zero compare better.
  function spansDecades(values) {
    var positive = values.filter(function (v) { return typeof v === 'number' && v > 0; });
    return positive.length > 1 && Math.max.apply(null, positive) / Math.min.apply(null, positive) > 20;
  }
  // A log axis labels 1, 3, 10, 30, ... of each decade where there is room, else only the powers of ten, every
  // one or every few decades: Chart.js's own labels (1, 2, 3, ... 9 of each decade) overlap. The room is the
  // axis's length per decade against what a label needs (its height upright, about its width along an x axis).
  function decadeLabel(value) {
    var exponent = Math.floor(Math.log10(value) + 1e-9);
    var mantissa = value / Math.pow(10, exponent);
    var one = Math.abs(mantissa - 1) < 1e-6;
    var three = Math.abs(mantissa - 3) < 1e-6;
    var decades = Math.max(Math.log10(this.max) - Math.log10(this.min), 1e-9);
    var perDecade = (this.isHorizontal() ? this.width : this.height) / decades;
    var need = this.isHorizontal() ? 70 : 18;
    // Below 1, as many decimals as the value has (toLocaleString would round 0.0003 to 0).
    var text = value >= 1 ? value.toLocaleString('en') : value.toFixed(Math.max(0, -exponent));
    if (perDecade >= 2.4 * need) return one || three ? text : null;
    var every = Math.max(1, Math.ceil(need / perDecade));
    return one && exponent % every === 0 ? text : null;
  }
  function valueAxis(values, text) {
    return spansDecades(values) ? { type: 'logarithmic', title: { display: true, text: text + ', log scale' }, ticks: { callback: decadeLabel } }
      : { type: 'linear', beginAtZero: true, title: { display: true, text: text } };
  }
  // One axis for several charts drawn side by side (small multiples), over every database's \`key\` figures of
  // every chart, so that they read against each other.
  function sharedAxis(charts, key, text) {
    var values = [];
    charts.forEach(function (chart) {
      chart.databases.forEach(function (database) { values = values.concat(database[key]); });
    });
    var axis = valueAxis(values, text);
    var positive = values.filter(function (v) { return typeof v === 'number' && v > 0; });
    if (positive.length === 0) return axis;
    if (axis.type === 'logarithmic') {
      axis.min = Math.pow(10, Math.floor(Math.log10(Math.min.apply(null, positive))));
      axis.max = Math.pow(10, Math.ceil(Math.log10(Math.max.apply(null, positive))));
    } else {
      axis.max = Math.max.apply(null, positive) * 1.05;
    }
    return axis;
  }
  if (data.throughput) {
    new Chart(canvas('chart-throughput', 'throughput', 'chart wide'), {
      type: 'bar',
      data: { labels: data.throughput.workloads, datasets: [{ label: 'operations per second', data: data.throughput.opsPerSec, backgroundColor: palette[0], maxBarThickness: 90 }] },
      options: {
        plugins: {
          title: { display: true, text: data.throughput.database + ': throughput per workload (operations per second): higher is better' },
          legend: { display: false },
          tooltip: { callbacks: { label: function (item) {
            return item.raw.toLocaleString('en') + ' ops/s (median run ' + data.throughput.medianMs[item.dataIndex] + ' ms)';
          } } },
        },
        scales: { y: valueAxis(data.throughput.opsPerSec, 'operations per second') },
      },
    });
  }
  data.normalised.forEach(function (chart) {
    new Chart(canvas('chart-normalised', chart.workload), {
      type: 'bar',
      data: { labels: chart.labels, datasets: [{ label: '% of ' + data.baseline, data: chart.values,
        backgroundColor: chart.labels.map(function (_, i) { return i === chart.baselineIndex ? '#555' : palette[i % palette.length]; }) }] },
      options: { indexAxis: 'y', plugins: { title: { display: true, text: chart.workload + ' (' + data.baseline + ' = 100%, lower is faster)' }, legend: { display: false } },
        scales: { x: { beginAtZero: true, title: { display: true, text: '% of the baseline median' } } } },
    });
  });
  data.latency.forEach(function (chart) {
    new Chart(canvas('chart-latency', chart.database), {
      type: 'bar',
      data: { labels: chart.workloads, datasets: [
        { label: 'p50', data: chart.p50, backgroundColor: palette[0], maxBarThickness: 60 },
        { label: 'p90', data: chart.p90, backgroundColor: palette[1], maxBarThickness: 60 },
        { label: 'p99', data: chart.p99, backgroundColor: palette[3], maxBarThickness: 60 }] },
      options: { plugins: { title: { display: true, text: chart.database + ': latency per operation (ms): lower is better' } },
        scales: { y: valueAxis(chart.p50.concat(chart.p90, chart.p99), 'ms') } },
    });
  });
  function single(container, rows, title, datasets, axis) {
    if (rows.length === 0) return;
    new Chart(canvas(container, title), {
      type: 'bar',
      data: { labels: rows.map(function (r) { return r.database; }), datasets: datasets },
      options: { plugins: { title: { display: true, text: title } }, scales: { y: { beginAtZero: true, title: { display: true, text: axis } } } },
    });
  }
  single('chart-memory', data.memory, 'Server memory during the suite (RSS of the server process tree)', [
    { label: 'peak', data: data.memory.map(function (r) { return r.peakMiB; }), backgroundColor: palette[3] },
    { label: 'mean', data: data.memory.map(function (r) { return r.meanMiB; }), backgroundColor: palette[0] }], 'MiB');
  single('chart-import', data.import, 'Import time', [
    { label: 'import', data: data.import.map(function (r) { return r.seconds; }), backgroundColor: palette[2] }], 's');${suiteScript}
  document.body.setAttribute('data-charts-drawn', String(Object.keys(Chart.instances).length));
})();
`;

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #222; max-width: 1400px; }
table { border-collapse: collapse; margin: .5rem 0 1.5rem; }
th, td { padding: .2rem .6rem; border-bottom: 1px solid #ddd; text-align: left; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 1rem; }
.chart { position: relative; height: 260px; }
.chart.wide { height: 380px; }
.chart.small { height: 220px; }
.grid:has(.chart.small) { grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); }
#chart-latency figure:only-child { grid-column: 1 / -1; }
.grid figure:has(> .chart.wide) { grid-column: 1 / -1; }
figure { margin: 0; }
dt { font-weight: 600; margin-top: .4rem; }
dd { margin-left: 1.5rem; }
.none { color: #777; }
`;

function chartSection(id, title, count, none) {
  return `<section><h2>${escapeHtml(title)}</h2>${count > 0 ? `<div class="grid" id="${id}"></div>` : `<p class="none" id="${id}">${escapeHtml(none)}</p>`}</section>`;
}

// One chart the width of the page.
function wideSection(id, title) {
  return `<section><h2>${escapeHtml(title)}</h2><div id="${id}"></div></section>`;
}

// Several databases: the overview, then each workload's own chart. One database: its throughput. A suite whose
// own charts are its headline (`charts.headline`: crud's throughput against concurrency, mixed's latency) has
// neither: a crowded chart of every step's time would say less, and the tables keep the percentages.
function comparisonSections(report, charts) {
  if (suiteRendering(report.suite).charts?.headline) return '';
  if (charts.baseline === null) {
    return charts.throughput ? wideSection('chart-throughput', `Throughput per workload: ${charts.throughput.database}`)
      : chartSection('chart-throughput', 'Throughput per workload', 0, 'no compared workload passed');
  }
  return [
    charts.overview ? wideSection('chart-overview', `Overview: median time per workload, ${report.baseline.id} = 100% (lower is better)`) : '',
    chartSection('chart-normalised', `Median time per workload, ${report.baseline.id} = 100%`, charts.normalised.length,
      report.workloads.some((w) => w.openLoop) ? 'no workload is compared by time: an open loop\'s run lasts as long as its schedule, so its latency is compared instead (above)' : 'no compared workload'),
  ].filter(Boolean).join('\n');
}

export function formatReportHtml(report) {
  const charts = chartData(report);
  const own = suiteRendering(report.suite).charts;
  const blocks = reportBlocks(report).map(renderBlock);
  const [summary, ...rest] = blocks;
  const json = JSON.stringify(charts).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>db-shootout report: ${escapeHtml(report.databases.map((d) => d.id).join(', '))}</title>
<style>${STYLE}</style>
</head>
<body>
${summary}
${own ? `${chartSection(own.id, own.title, own.count(charts[report.suite]), own.none)}\n` : ''}${(own?.more?.(charts[report.suite], report) ?? []).map((section) => `${chartSection(section.id, section.title, section.count, '')}\n`).join('')}${charts.clusters ? `${chartSection('chart-clusters', 'Cluster size: throughput of the whole cluster against its nodes (higher is better)', charts.clusters.charts.length, '')}\n` : ''}${comparisonSections(report, charts)}
${own?.headline ? '' : chartSection('chart-latency', 'Latency percentiles per database', charts.latency.length, 'no compared workload that passed has latencies')}
${chartSection('chart-memory', 'Server memory', charts.memory.length, 'n/a: no server memory was measured in these files')}
${chartSection('chart-import', 'Import time', charts.import.length, 'n/a: no import was recorded in these files')}
${rest.join('\n')}
<script type="application/json" id="report-data">${json}</script>
<script>${chartBundle()}</script>
<script>${pageScript(`${own?.script ?? ''}${charts.clusters ? CLUSTER_PAGE_SCRIPT : ''}`)}</script>
</body>
</html>
`;
}
