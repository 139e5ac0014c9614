// `bench compare` as aligned text, Markdown or JSON. A workload without a passed time on both sides is a word.
import { formatMs } from './format.js';

const HEADER = ['workload', 'a median ms', 'b median ms', 'speedup', '95% CI', 'b time vs a', 'verdict'];
const NUMERIC = new Set([1, 2, 3, 4, 5]);

// When both sides are one database, each in one version, and the versions differ (Neo4j 5.24.2 against
// 2025.10.1), the time columns name them, so that the table reads on its own.
function header({ a, b }) {
  const [va, vb] = [a.versions, b.versions];
  if (a.database !== b.database || va.length !== 1 || vb.length !== 1 || va[0] === null || vb[0] === null || va[0] === vb[0]) return HEADER;
  return [HEADER[0], `a: ${a.database} ${va[0]}, median ms`, `b: ${b.database} ${vb[0]}, median ms`, ...HEADER.slice(3)];
}

function sideCell(side) {
  return side.status === 'passed' ? formatMs(side.medianMs) : side.status;
}

function rows(comparison) {
  return comparison.workloads.map((w) => [
    w.compared ? w.name : `${w.name} (not compared)`,
    sideCell(w.a),
    sideCell(w.b),
    w.speedup === null ? '' : `${w.speedup.toFixed(2)}×`,
    w.ci ? `${w.ci.low.toFixed(2)} – ${w.ci.high.toFixed(2)}` : w.speedup === null ? '' : 'n/a (one run)',
    w.changePct === null ? '' : `${w.changePct > 0 ? '+' : ''}${w.changePct.toFixed(1)}%`,
    w.verdict ?? (w.a.status === 'passed' && w.b.status === 'passed' ? '' : 'not comparable'),
  ]);
}

function sideLine(name, side) {
  return `${name} = ${side.label}: ${side.database} ${side.versions.join(' | ')}, harness ${side.harness.join(' | ')}, `
    + `${side.config.map((c) => `concurrency ${c.concurrency}, ${c.runs} runs`).join(' | ')} (${side.files.length} file${side.files.length === 1 ? '' : 's'})`;
}

function headLines(comparison) {
  return [
    sideLine('a', comparison.a),
    sideLine('b', comparison.b),
    `dataset: ${comparison.a.dataset}`,
    `speedup = ${comparison.statistics.speedup}; 95% CI: ${comparison.statistics.interval.method}, seed ${comparison.statistics.interval.seed}; faster or slower only when the interval excludes 1`,
  ];
}

function tailLines(comparison) {
  const s = comparison.summary;
  const lines = [s.geometricMeanSpeedup === null
    ? 'summary: no workload passed on both sides'
    : `summary: geometric mean speedup ${s.geometricMeanSpeedup.toFixed(3)}× over ${s.compared} workload${s.compared === 1 ? '' : 's'}: b is faster in ${s.faster}, slower in ${s.slower}, not significantly different in ${s.notSignificant}`
      + (s.notComparable.length > 0 ? `; not comparable: ${s.notComparable.join(', ')}` : '')];
  const { gate } = comparison;
  if (gate) {
    lines.push(gate.passed
      ? `--fail-if-slower ${gate.failIfSlowerPct}%: passed (no workload is significantly slower by more than ${gate.failIfSlowerPct}%)`
      : `--fail-if-slower ${gate.failIfSlowerPct}%: FAILED: ${gate.failed.map((f) => `${f.workload} ${f.reason}`).join('; ')}`);
  }
  return lines;
}

// The warnings come first: a reader who stops at the table has seen them.
const warningLines = (comparison) => comparison.warnings.map((warning) => `warning: ${warning}`);

function align(table) {
  const widths = table[0].map((_, column) => Math.max(...table.map((r) => r[column].length)));
  return table.map((r) => r.map((cell, c) => (NUMERIC.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd());
}

const md = (text) => String(text).replace(/\|/g, '\\|');

export const COMPARE_FORMATS = Object.freeze({
  // `warnings: false` where the command has printed them on stderr already (a table on the terminal).
  table: (comparison, { warnings = true } = {}) => `${[
    ...(warnings ? warningLines(comparison) : []), ...headLines(comparison), '', ...align([header(comparison), ...rows(comparison)]), '', ...tailLines(comparison),
  ].join('\n')}\n`,
  markdown: (comparison) => `${[
    '# db-shootout comparison', '', ...warningLines(comparison).map((line) => `> **${md(line)}**`), ...(comparison.warnings.length > 0 ? [''] : []),
    ...headLines(comparison).map((line) => `- ${md(line)}`), '',
    `| ${header(comparison).map(md).join(' | ')} |`, `|${HEADER.map((_, i) => (NUMERIC.has(i) ? '---:' : '---')).join('|')}|`,
    ...rows(comparison).map((r) => `| ${r.map(md).join(' | ')} |`), '', ...tailLines(comparison).map((line) => `- ${md(line)}`),
  ].join('\n')}\n`,
  json: (comparison) => `${JSON.stringify(comparison, null, 2)}\n`,
});
