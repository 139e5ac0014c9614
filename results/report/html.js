// The report as one self-contained HTML file: the tables of the other formats, the charts, and Chart.js's
// minified UMD bundle inlined from node_modules, so the file opens offline, from an e-mail or an archive,
// years later. A Content-Security-Policy forbids every network request, so a page that works here cannot
// be quietly depending on one.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { reportBlocks } from './blocks.js';

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

// The figures the charts draw, computed here so the page's script only draws.
export function chartData(report) {
  const ids = report.databases.map((d) => d.id);
  const compared = report.workloads.filter((w) => w.compared);
  const label = (id, f) => {
    if (f.status !== 'passed') return `${id} (${f.status})`;
    return `${id}${f.significant === false ? ' ~' : ''}${f.clientBound ? ' !' : ''}`;
  };
  return {
    baseline: report.baseline.id,
    normalised: compared.map((w) => ({
      workload: w.name,
      labels: ids.map((id) => label(id, w.results[id])),
      values: ids.map((id) => w.results[id].normalisedPct),
      baselineIndex: ids.indexOf(report.baseline.id),
    })),
    latency: report.databases.map((d) => {
      const passed = compared.filter((w) => w.results[d.id].status === 'passed' && w.results[d.id].latencyMs);
      return {
        database: d.id,
        workloads: passed.map((w) => w.name),
        p50: passed.map((w) => w.results[d.id].latencyMs.p50),
        p90: passed.map((w) => w.results[d.id].latencyMs.p90),
        p99: passed.map((w) => w.results[d.id].latencyMs.p99),
      };
    }).filter((chart) => chart.workloads.length > 0),
    memory: report.databases.filter((d) => typeof d.server.rssPeakBytes === 'number')
      .map((d) => ({ database: d.id, peakMiB: d.server.rssPeakBytes / 2 ** 20, meanMiB: typeof d.server.rssMeanBytes === 'number' ? d.server.rssMeanBytes / 2 ** 20 : null })),
    import: report.databases.filter((d) => typeof d.import.ms === 'number').map((d) => ({ database: d.id, seconds: d.import.ms / 1000 })),
  };
}

// Runs in the page: one chart per canvas, drawn without animation so the page is complete once loaded.
const PAGE_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var palette = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  function canvas(container, title) {
    var figure = document.createElement('figure');
    var holder = document.createElement('div');
    holder.className = 'chart';
    var element = document.createElement('canvas');
    element.setAttribute('aria-label', title);
    holder.appendChild(element);
    figure.appendChild(holder);
    document.getElementById(container).appendChild(figure);
    return element;
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
        { label: 'p50', data: chart.p50, backgroundColor: palette[0] },
        { label: 'p90', data: chart.p90, backgroundColor: palette[1] },
        { label: 'p99', data: chart.p99, backgroundColor: palette[3] }] },
      options: { plugins: { title: { display: true, text: chart.database + ': latency per operation (ms, log scale)' } },
        scales: { y: { type: 'logarithmic', title: { display: true, text: 'ms' } } } },
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
    { label: 'import', data: data.import.map(function (r) { return r.seconds; }), backgroundColor: palette[2] }], 's');
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
figure { margin: 0; }
dt { font-weight: 600; margin-top: .4rem; }
dd { margin-left: 1.5rem; }
.none { color: #777; }
`;

function chartSection(id, title, count, none) {
  return `<section><h2>${escapeHtml(title)}</h2>${count > 0 ? `<div class="grid" id="${id}"></div>` : `<p class="none" id="${id}">${escapeHtml(none)}</p>`}</section>`;
}

export function formatReportHtml(report) {
  const charts = chartData(report);
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
${chartSection('chart-normalised', `Median time per workload, ${report.baseline.id} = 100%`, charts.normalised.length, 'no compared workload')}
${chartSection('chart-latency', 'Latency percentiles per database', charts.latency.length, 'no passed workload has latencies')}
${chartSection('chart-memory', 'Server memory', charts.memory.length, 'n/a: no server memory was measured in these files')}
${chartSection('chart-import', 'Import time', charts.import.length, 'n/a: no import was recorded in these files')}
${rest.join('\n')}
<script type="application/json" id="report-data">${json}</script>
<script>${chartBundle()}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
