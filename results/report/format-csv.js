// The report as CSV: one `workload` row per workload and database (a word in `status` and empty figures for
// a workload without a passed time), then one `database` row per database with its import, size and memory.
import { suiteRendering } from './suites/index.js';

const COLUMNS = [
  'row', 'workload', 'compared', 'database', 'status', 'runs', 'ops_per_run', 'median_ms', 'ci_low_ms', 'ci_high_ms',
  'ops_per_sec', 'p50_ms', 'p90_ms', 'p99_ms', 'normalised_pct', 'significant', 'client_bound', 'server_rss_peak_bytes',
  'import_ms', 'disk_bytes', 'server_rss_mean_bytes',
];

function cell(value) {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

// A suite may append columns of its own to the workload rows (see suites/index.js); the generic columns keep
// their places.
export function formatReportCsv(report) {
  const own = suiteRendering(report.suite).csv;
  const extra = own ? own.columns.map(() => null) : [];
  const rows = [[...COLUMNS, ...(own?.columns ?? [])]];
  for (const workload of report.workloads) {
    for (const database of report.databases) {
      const f = workload.results[database.id];
      rows.push([
        'workload', workload.name, workload.compared, database.id, f.status, f.runs, f.ops, f.medianMs, f.ci?.lowMs, f.ci?.highMs,
        f.opsPerSec, f.latencyMs?.p50, f.latencyMs?.p90, f.latencyMs?.p99, f.normalisedPct, f.significant, f.clientBound,
        f.serverRssPeakBytes, null, null, null, ...(own ? own.cells(report, workload, database.id) : []),
      ]);
    }
  }
  for (const d of report.databases) {
    rows.push(['database', null, null, d.id, null, null, null, null, null, null, null, null, null, null, null, null, null,
      d.server.rssPeakBytes, d.import.ms, d.import.diskBytes, d.server.rssMeanBytes, ...extra]);
  }
  return `${rows.map((r) => r.map(cell).join(',')).join('\n')}\n`;
}
