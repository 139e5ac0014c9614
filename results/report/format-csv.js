// The report as CSV: one `workload` row per workload and database (a word in `status` and empty figures for
// a workload without a passed time), with results of a cluster one `cluster` row per workload, database and size,
// then one `database` row per database with its import, size and memory.
import { suiteRendering } from './suites/index.js';

const COLUMNS = [
  'row', 'workload', 'compared', 'database', 'status', 'runs', 'ops_per_run', 'median_ms', 'ci_low_ms', 'ci_high_ms',
  'ops_per_sec', 'p50_ms', 'p90_ms', 'p99_ms', 'normalised_pct', 'significant', 'client_bound', 'server_rss_peak_bytes',
  'import_ms', 'disk_bytes', 'server_rss_mean_bytes',
];

// Only with results of a cluster: its nodes (0 for one server without a cluster), and the figures of clusters.js.
const CLUSTER_COLUMNS = ['cluster_nodes', 'cluster_p95_ms', 'cluster_ops_per_sec_per_vcpu', 'cluster_vcpus', 'cluster_network_bytes_per_sec',
  'cluster_disk_write_bytes_per_sec_per_node_mean', 'cluster_disk_write_bytes_per_sec_per_node_max', 'cluster_conflicts'];

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
  // A cluster's sizes (clusters.js): one `cluster` row per workload, database and size, in columns of their own.
  const clusterColumns = report.clusters ? CLUSTER_COLUMNS : [];
  if (report.clusters) rows[0].push(...CLUSTER_COLUMNS);
  for (const row of rows.slice(1)) row.push(...clusterColumns.map(() => null));
  for (const series of report.clusters?.series ?? []) {
    for (const p of series.points) {
      const empty = new Array(COLUMNS.length + extra.length).fill(null);
      Object.assign(empty, { 0: 'cluster', 1: series.workload, 3: p.id, 4: p.status, 5: p.runs, 10: p.opsPerSec ?? null, 11: p.latencyMs?.p50 ?? null, 13: p.latencyMs?.p99 ?? null });
      rows.push([...empty, p.cluster ? p.nodes : 0, p.latencyMs?.p95 ?? null, p.opsPerSecPerVcpu ?? null, p.vcpus ?? null,
        p.networkBytesPerSec ?? null, p.diskWriteBytesPerSecPerNode?.mean ?? null, p.diskWriteBytesPerSecPerNode?.max ?? null, p.conflicts ?? null]);
    }
  }
  for (const d of report.databases) {
    rows.push(['database', null, null, d.id, null, null, null, null, null, null, null, null, null, null, null, null, null,
      d.server.rssPeakBytes, d.import.ms, d.import.diskBytes, d.server.rssMeanBytes, ...extra, ...clusterColumns.map(() => null)]);
  }
  return `${rows.map((r) => r.map(cell).join(',')).join('\n')}\n`;
}
