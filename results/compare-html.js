// `bench compare --format html`: one self-contained page (no script, no network) with the speedup of every
// workload as a bar on a logarithmic axis centred on 1, its 95% interval as a whisker, as the AQL shootout's PDF
// charted one version against the other per query case; then the comparison's table and summary as text.
import { COMPARE_FORMATS } from './compare-format.js';

const ROW = 22;
const LABEL_WIDTH = 260;
const PLOT_WIDTH = 520;
const PAD = 40;
const COLORS = { faster: '#2e7d32', slower: '#c62828', 'not significant': '#9e9e9e' };

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// The axis spans the speedups and intervals shown, at least 0.5× to 2×, symmetric around 1 in log scale.
function axisRange(workloads) {
  const values = workloads.flatMap((w) => [w.speedup, w.ci?.low, w.ci?.high]).filter((v) => typeof v === 'number' && v > 0);
  const extent = Math.max(Math.log10(2), ...values.map((v) => Math.abs(Math.log10(v))));
  return Math.ceil(extent * 10) / 10;
}

export function speedupChart(comparison) {
  const shown = comparison.workloads.filter((w) => w.speedup !== null);
  if (shown.length === 0) return '<p>No workload passed on both sides: nothing to chart.</p>';
  const extent = axisRange(shown);
  const x = (value) => LABEL_WIDTH + ((Math.log10(value) + extent) / (2 * extent)) * PLOT_WIDTH;
  const height = PAD + shown.length * ROW + PAD;
  const ticks = [];
  for (let exponent = -Math.floor(extent / Math.log10(2)); exponent <= Math.floor(extent / Math.log10(2)); exponent += 1) {
    const value = 2 ** exponent;
    ticks.push(`<line x1="${x(value)}" y1="${PAD - 6}" x2="${x(value)}" y2="${height - PAD}" stroke="#ddd"/>`
      + `<text x="${x(value)}" y="${PAD - 10}" font-size="11" text-anchor="middle">${value >= 1 ? `${value}×` : `1/${1 / value}×`}</text>`);
  }
  const bars = shown.map((w, i) => {
    const y = PAD + i * ROW;
    const color = COLORS[w.verdict] ?? COLORS['not significant'];
    const from = Math.min(x(1), x(w.speedup));
    const whisker = w.ci
      ? `<line x1="${x(Math.max(w.ci.low, 10 ** -extent))}" y1="${y + ROW / 2}" x2="${x(Math.min(w.ci.high, 10 ** extent))}" y2="${y + ROW / 2}" stroke="#000"/>` : '';
    return `<g><title>${escape(`${w.name}: ${w.speedup}× ${w.ci ? `(95% CI ${w.ci.low} – ${w.ci.high})` : ''} ${w.verdict ?? ''}`)}</title>`
      + `<text x="${LABEL_WIDTH - 8}" y="${y + ROW / 2 + 4}" font-size="12" text-anchor="end">${escape(w.name)}</text>`
      + `<rect x="${from}" y="${y + 4}" width="${Math.max(1, Math.abs(x(w.speedup) - x(1)))}" height="${ROW - 8}" fill="${color}"/>`
      + `${whisker}<text x="${LABEL_WIDTH + PLOT_WIDTH + 8}" y="${y + ROW / 2 + 4}" font-size="11">${w.speedup.toFixed(2)}×</text></g>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${LABEL_WIDTH + PLOT_WIDTH + 80}" height="${height}" role="img" `
    + `aria-label="speedup of b over a per workload">${ticks.join('')}`
    + `<line x1="${x(1)}" y1="${PAD - 6}" x2="${x(1)}" y2="${height - PAD}" stroke="#000"/>${bars.join('')}`
    + `<text x="${LABEL_WIDTH + PLOT_WIDTH / 2}" y="${height - PAD + 24}" font-size="12" text-anchor="middle">`
    + 'speedup of b over a (log scale; right of 1×: b is faster; whisker: 95% interval)</text></svg>';
}

export function formatCompareHtml(comparison) {
  const title = `db-shootout comparison: ${comparison.a.label} against ${comparison.b.label}`;
  const legend = Object.entries(COLORS).map(([verdict, color]) => `<span style="color:${color}">■</span> ${verdict}`).join(' &nbsp; ');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:72em}pre{font-size:12px;overflow-x:auto}</style></head>
<body><h1>${escape(title)}</h1>
${comparison.warnings.map((warning) => `<p role="alert"><strong>warning: ${escape(warning)}</strong></p>`).join('\n')}
<h2>Speedup per workload</h2><p>${legend}</p>
${speedupChart(comparison)}
<h2>Figures</h2><pre>${escape(COMPARE_FORMATS.table(comparison, { warnings: false }))}</pre>
</body></html>
`;
}
