// The queries suite's figures per case and size, in the layout the 2015 AQL shootout published
// (`test name | collection | runs | min (s) | max (s) | avg (s)`, plus the median and the rows returned), for the
// terminal and the reports. Entries are keyed "<case> <size>" with params { size, documents } (workloads/queries).
import { CASE_NAMES } from '../workloads/queries/cases.js';
import { stepKey } from '../workloads/queries/suite.js';

const seconds = (ms) => (ms / 1000).toFixed(4);

// The case and size of a result entry, or null for a key the queries suite cannot have written.
export function caseOf(name, params) {
  if (typeof params?.size !== 'string') return null;
  const queryCase = CASE_NAMES.find((candidate) => stepKey(candidate, params.size) === name);
  return queryCase ? { queryCase, size: params.size, documents: params.documents } : null;
}

// One row per case and size, cases in the suite's order and each case's sizes from small to large:
// { queryCase, size, documents, status, runs, minMs, maxMs, meanMs, medianMs, rows, clientBound, reason }.
export function queryFigures(result) {
  const rows = [];
  for (const [name, entry] of Object.entries(result.workloads)) {
    const at = caseOf(name, entry.params);
    if (!at) continue;
    const valid = entry.status === 'passed';
    const failedRun = entry.runs.find((run) => !run.valid);
    rows.push({
      ...at,
      status: entry.status,
      runs: entry.runs.length,
      minMs: valid ? entry.summary.minMs : null,
      maxMs: valid ? entry.summary.maxMs : null,
      meanMs: valid ? entry.summary.meanMs : null,
      medianMs: valid ? entry.summary.medianMs : null,
      rows: valid ? entry.runs.at(-1).rows ?? null : null,
      clientBound: Boolean(entry.resources?.clientBound),
      reason: entry.reason ?? failedRun?.reason ?? null,
    });
  }
  const order = (figures) => [CASE_NAMES.indexOf(figures.queryCase), figures.documents];
  return rows.sort((a, b) => {
    const [ca, da] = order(a);
    const [cb, db] = order(b);
    return ca - cb || da - db;
  });
}

function align(table, numeric) {
  const widths = table[0].map((_, column) => Math.max(...table.map((r) => r[column].length)));
  return table.map((r) => r.map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
    .join(' | ').trimEnd());
}

export function formatQueryTable(result) {
  const header = ['test name', 'collection', 'runs', 'min (s)', 'max (s)', 'avg (s)', 'median (s)', 'rows', 'status'];
  const rows = queryFigures(result).map((f) => (f.status === 'passed'
    ? [f.queryCase, f.size, String(f.runs), seconds(f.minMs), seconds(f.maxMs), seconds(f.meanMs), seconds(f.medianMs), String(f.rows ?? ''), f.clientBound ? 'ok, client-bound *' : 'ok']
    : [f.queryCase, f.size, String(f.runs), '', '', '', '', '', `${f.status.toUpperCase()}${f.reason ? `: ${f.reason}` : ''}`]));
  return align([header, ...rows], new Set([2, 3, 4, 5, 6, 7]));
}

// The queries suite's import line: each collection's load time and rate, or that it was reused.
export function queryImportLine(done) {
  const parts = Object.entries(done.collections ?? {}).map(([size, entry]) => (entry.reused
    ? `${size} reused`
    : `${size} ${(entry.ms / 1000).toFixed(2)} s (${entry.documentsPerSec.toLocaleString('en-US')} documents/s, indexes ${(entry.indexesMs / 1000).toFixed(2)} s)`));
  return `load: ${parts.join('; ')}, counts verified`;
}
