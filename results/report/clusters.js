// Results of one database at different cluster sizes are a series, never pooled: a result with a `topology` is
// reported under its database id and its number of nodes (`mysql@3`), and the clusters block puts the sizes of each
// database side by side per workload, as the 2015 scaling test did: the whole cluster's throughput against its
// nodes, latency p50 and p95, throughput per vCPU, network transfer, each node's disk writes, and the conflicts
// the nodes counted. A result of the same database on one server without a cluster is the series' reference row.
import { mergeLatencies } from '../stats.js';

export function nodeCount(result) {
  return result.topology?.nodes?.length ?? null;
}

// The id a result is reported under: the database's, with its cluster size when it ran on a cluster.
export function reportId(result) {
  const nodes = nodeCount(result);
  return nodes === null ? result.db.id : `${result.db.id}@${nodes}`;
}

export function reportName(result) {
  const nodes = nodeCount(result);
  const name = result.db.name ?? result.db.id;
  return nodes === null ? name : `${name}, ${nodes} node${nodes === 1 ? '' : 's'}`;
}

const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// Bytes that crossed the network during a run: for nodes in network namespaces, what their links received; else
// the clients' traffic as each node counted it, and the replication traffic once, where it arrived.
function networkBytes(run) {
  // Nodes in namespaces of their own: what their links carried, each byte once (where it arrived).
  const measured = run.resources?.server?.network;
  if (measured) return measured.rxBytes;
  if (!Array.isArray(run.nodes)) return null;
  return run.nodes.reduce((sum, node) => sum + (node.bytesReceived ?? 0) + (node.bytesSent ?? 0) + (node.receivedBytes ?? 0), 0);
}

// Each node's disk writes during a run (its process tree's write_bytes), or null where not measured.
function nodeDiskBytes(run) {
  const nodes = run.resources?.server?.nodes;
  if (!Array.isArray(nodes) || nodes.some((node) => typeof node.io?.writeBytes !== 'number')) return null;
  return nodes.map((node) => node.io.writeBytes);
}

function conflicts(run) {
  if (!Array.isArray(run.nodes)) return null;
  return run.nodes.reduce((sum, node) => sum + (node.certificationFailures ?? 0), 0);
}

// The cores the cluster's nodes may use: a cluster `bench server` runs shares this machine's; another, what
// --node-vcpus said of each node, times its nodes.
function vcpusOf(results) {
  const counts = [...new Set(results.map((result) => result.topology?.machine?.vcpus
    ?? (result.topology?.nodeVcpus ? result.topology.nodeVcpus * nodeCount(result) : null)))];
  return counts.length === 1 && typeof counts[0] === 'number' ? counts[0] : null;
}

// One point of a series: every valid run of `name` in the documents of one database at one size.
function point(documents, name) {
  const results = documents.map(({ result }) => result);
  const entries = results.map((result) => result.workloads[name]).filter(Boolean);
  const nodes = nodeCount(results[0]);
  const base = {
    id: reportId(results[0]), nodes, cluster: nodes !== null, status: entries.some((entry) => entry.status === 'failed') ? 'failed'
      : entries.some((entry) => entry.status === 'passed') ? 'passed' : entries[0]?.status ?? 'not run',
  };
  const runs = entries.filter((entry) => entry.status === 'passed').flatMap((entry) => entry.runs.filter((run) => run.valid));
  if (base.status !== 'passed' || runs.length === 0) return { ...base, runs: 0 };
  const opsPerSec = median(runs.map((run) => run.opsPerSec));
  const latency = mergeLatencies(runs);
  const vcpus = nodes === null ? null : vcpusOf(results);
  const perSecond = (bytes, run) => bytes / (run.ms / 1000);
  const network = runs.map((run) => networkBytes(run)).every((bytes) => bytes !== null)
    ? median(runs.map((run) => perSecond(networkBytes(run), run))) : null;
  const disks = runs.map((run) => nodeDiskBytes(run));
  const disk = disks.every(Boolean)
    ? {
      mean: median(runs.map((run, i) => perSecond(disks[i].reduce((a, b) => a + b, 0) / disks[i].length, run))),
      max: median(runs.map((run, i) => perSecond(Math.max(...disks[i]), run))),
    } : null;
  const counted = runs.map(conflicts);
  return {
    ...base,
    runs: runs.length,
    opsPerSec: Math.round(opsPerSec),
    latencyMs: latency && { p50: latency.p50, p95: latency.p95, p99: latency.p99 },
    vcpus,
    vcpusShared: nodes !== null && results.some((result) => result.topology?.machine?.shared),
    opsPerSecPerVcpu: vcpus ? round(opsPerSec / vcpus) : null,
    networkBytesPerSec: network === null ? null : Math.round(network),
    diskWriteBytesPerSecPerNode: disk && { mean: Math.round(disk.mean), max: Math.round(disk.max) },
    conflicts: counted.every((count) => count !== null) ? counted.reduce((a, b) => a + b, 0) : null,
  };
}

// `documents` of one suite; `names` the workloads reported. Null when no document ran on a cluster.
export function clusterSeries(documents, names) {
  if (!documents.some(({ result }) => nodeCount(result) !== null)) return null;
  const byDatabase = new Map();
  for (const document of documents) {
    const { id } = document.result.db;
    if (!byDatabase.has(id)) byDatabase.set(id, new Map());
    const sizes = byDatabase.get(id);
    const key = reportId(document.result);
    if (!sizes.has(key)) sizes.set(key, []);
    sizes.get(key).push(document);
  }
  const series = [];
  for (const [database, sizes] of byDatabase) {
    if (![...sizes.values()].some((group) => nodeCount(group[0].result) !== null)) continue;
    // One server first, then the cluster sizes, smallest first.
    const ordered = [...sizes.values()].sort((a, b) => (nodeCount(a[0].result) ?? 0) - (nodeCount(b[0].result) ?? 0));
    for (const name of names) {
      if (!ordered.some((group) => group.some(({ result }) => result.workloads[name]))) continue;
      series.push({
        database, name: ordered[0][0].result.db.name ?? database, workload: name,
        points: ordered.filter((group) => group.some(({ result }) => result.workloads[name])).map((group) => point(group, name)),
      });
    }
  }
  return { series };
}

// The HTML report's chart: per database, the whole cluster's throughput against its nodes, one line per workload
// (a size that failed is a gap, named in the legend). Drawn by the page's script with `data.clusters`.
export function clusterChartData(report) {
  if (!report.clusters) return null;
  const databases = [...new Set(report.clusters.series.map((series) => series.database))];
  return {
    charts: databases.map((database) => {
      const series = report.clusters.series.filter((one) => one.database === database);
      const labels = [...new Set(series.flatMap((one) => one.points.map((p) => (p.cluster ? p.nodes : 0))))].sort((a, b) => a - b);
      return {
        title: `${series[0].name}: throughput against nodes`,
        labels: labels.map((nodes) => (nodes === 0 ? 'one server' : `${nodes} node${nodes === 1 ? '' : 's'}`)),
        lines: series.map((one) => {
          const at = labels.map((nodes) => one.points.find((p) => (p.cluster ? p.nodes : 0) === nodes) ?? null);
          return {
            workload: one.workload,
            opsPerSec: at.map((p) => (p?.status === 'passed' ? p.opsPerSec : null)),
            p95: at.map((p) => (p?.status === 'passed' ? p.latencyMs?.p95 ?? null : null)),
            missing: at.map((p, i) => (p && p.status !== 'passed' ? `${labels[i] || 'one server'}: ${p.status}` : null)).filter(Boolean),
          };
        }),
      };
    }),
  };
}

export const CLUSTER_PAGE_SCRIPT = `
  (data.clusters ? data.clusters.charts : []).forEach(function (chart) {
    new Chart(canvas('chart-clusters', chart.title), {
      type: 'line',
      data: { labels: chart.labels, datasets: chart.lines.map(function (line, i) {
        return { label: line.workload + (line.missing.length ? ' (' + line.missing.join(', ') + ')' : ''), data: line.opsPerSec,
          borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length], spanGaps: false, pointRadius: 3 };
      }) },
      options: {
        plugins: {
          title: { display: true, text: chart.title },
          tooltip: { callbacks: { label: function (item) {
            var line = chart.lines[item.datasetIndex];
            return line.workload + ': ' + item.raw.toLocaleString('en') + ' ops/s (p95 ' + line.p95[item.dataIndex] + ' ms)';
          } } },
        },
        scales: {
          x: { title: { display: true, text: 'cluster size' } },
          y: { beginAtZero: true, title: { display: true, text: 'operations per second, whole cluster' } },
        },
      },
    });
  });
`;
