// The crud suite's own view of a report: per phase and document count, each database's figures at every
// concurrency level, the data of the published "Times insert, 10000 documents" charts. The generic per-workload
// tables stay as they are; this adds a table per phase and count, and in the page a line chart of each.
import { stepKey } from '../../../workloads/crud/suite.js';
import { WORKLOADS } from '../../../workloads/crud/workloads.js';
import { formatCount, formatMs } from '../../format.js';
import { distinct } from '../aggregate.js';
import { reportId } from '../clusters.js';

const PHASES = WORKLOADS.map((workload) => workload.name);
const byNumber = (a, b) => a - b;

// The phase a workload's key names, from its params (`insert n=2000 c=4` with { ops: 2000, concurrency: 4 } is
// the insert phase); null for a key the crud suite cannot have written.
function phaseOf(name, params) {
  if (!Number.isInteger(params?.ops) || !Number.isInteger(params?.concurrency)) return null;
  const suffix = stepKey('', params);
  const phase = name.endsWith(suffix) ? name.slice(0, -suffix.length) : '';
  return phase.length > 0 && stepKey(phase, params) === name ? phase : null;
}

function levelFigures(concurrency, workload, f) {
  const passed = f.status === 'passed';
  return {
    concurrency,
    workload,
    status: f.status,
    runs: f.runs,
    medianMs: f.medianMs,
    opsPerSec: f.opsPerSec,
    // p95 only where the histograms were merged: the medians of older runs' own percentiles have none.
    latencyMs: passed && f.latencyMs
      ? { p50: f.latencyMs.p50, p95: f.latencyMs.p95 ?? null, p99: f.latencyMs.p99, max: f.latencyMs.max } : null,
    clientBound: f.clientBound,
    reason: f.reason,
  };
}

// Which databases wrote durably (--sync), which did not, and which did both in different documents.
function durabilityWarning(documents, databases) {
  const modes = databases.map(({ id }) => {
    const durable = distinct(documents.filter(({ result }) => reportId(result) === id)
      .flatMap(({ result }) => Object.values(result.workloads).map((entry) => entry.params?.durable === true)));
    return `${id}: ${durable.length > 1 ? 'both' : durable[0] ? 'durable' : 'default'}`;
  });
  return `the results mix durable writes (--sync) and the databases' default acknowledgement (${modes.join(', ')}), which do not measure the same work`;
}

// `workloads` and `databases` as in the report model; `documents` give each workload's params. Returns the
// report's `crud` block, { serial: [database ids], series: [{ phase, ops, durable, levels, results: { <database id>:
// [figures per level] } }] }, phases in the suite's order, then counts and levels ascending; and the warnings it
// calls for.
export function crudModel({ workloads, databases, documents }) {
  const series = new Map();
  for (const workload of workloads) {
    const params = documents.map(({ result }) => result.workloads[workload.name]?.params).filter(Boolean);
    const phase = phaseOf(workload.name, params[0]);
    if (phase === null) continue;
    const id = `${phase} n=${params[0].ops}`;
    if (!series.has(id)) series.set(id, { phase, ops: params[0].ops, durable: [], workloads: new Map() });
    const entry = series.get(id);
    entry.durable.push(...params.map((p) => p.durable === true));
    entry.workloads.set(params[0].concurrency, workload);
  }
  const order = (phase) => (PHASES.includes(phase) ? PHASES.indexOf(phase) : PHASES.length);
  const ordered = [...series.values()]
    .sort((a, b) => order(a.phase) - order(b.phase) || a.ops - b.ops)
    .map(({ phase, ops, durable, workloads: byLevel }) => {
      const levels = [...byLevel.keys()].sort(byNumber);
      const modes = distinct(durable);
      return {
        phase,
        ops,
        durable: modes.length === 1 ? modes[0] : null,
        levels,
        results: Object.fromEntries(databases.map((database) => [
          database.id,
          levels.map((level) => levelFigures(level, byLevel.get(level).name, byLevel.get(level).results[database.id])),
        ])),
      };
    });
  // A serial driver runs one operation at a time whatever the level: its lines say nothing about concurrency.
  const serial = distinct(documents.filter(({ result }) => result.db.execution === 'serial').map(({ result }) => reportId(result)))
    .filter((id) => databases.some((database) => database.id === id));
  return { block: { serial, series: ordered }, warnings: ordered.some((s) => s.durable === null) ? [durabilityWarning(documents, databases)] : [] };
}

const MARK_CLIENT_BOUND = '!';

function seriesTitle(series, what) {
  const writes = series.durable === true ? ', durable writes (--sync)' : series.durable === null ? ', durable and default writes mixed' : '';
  return `${series.phase}, ${formatCount(series.ops)} documents${writes}: ${what}`;
}

// One table per phase and count, the suite's headline: a row per concurrency level and database, its ops/s and
// latency p50/p95/p99; a level without a passed time shows its status word.
function seriesTable(series, ids) {
  return {
    kind: 'table',
    id: `crud-${series.phase}-${series.ops}`,
    title: seriesTitle(series, 'throughput (ops/s, higher is better) and latency (ms, lower is better) by concurrency'),
    header: ['concurrency', 'database', 'ops/s', 'p50 ms', 'p95 ms', 'p99 ms'],
    numeric: [0, 2, 3, 4, 5],
    rows: series.levels.flatMap((level, index) => ids.map((id, i) => {
      const f = series.results[id][index];
      const head = [i === 0 ? String(level) : '', id];
      if (f.status !== 'passed') return [...head, f.status, '', '', ''];
      const ms = (p) => (f.latencyMs && typeof f.latencyMs[p] === 'number' ? formatMs(f.latencyMs[p]) : 'n/a');
      return [...head, `${f.opsPerSec === null ? 'n/a' : formatCount(f.opsPerSec)}${f.clientBound ? ` ${MARK_CLIENT_BOUND}` : ''}`, ms('p50'), ms('p95'), ms('p99')];
    })),
  };
}

export function crudBlocks(report) {
  const ids = report.databases.map((database) => database.id);
  const blocks = report.crud.series.map((series) => seriesTable(series, ids));
  if (report.crud.serial.length > 0) {
    blocks.push({
      kind: 'list', id: 'crud-serial', title: 'Concurrency',
      items: report.crud.serial.map((id) => ({ label: id, lines: ['serial driver: one operation at a time at every level, so a difference between its levels is not the effect of concurrency'] })),
    });
  }
  return blocks;
}

// The summary names the documents by what they are (the crud suite has no profiles or relations).
export function crudDatasetLabel(dataset) {
  return `${dataset.id} (${dataset.name ?? 'crud documents'}, seed ${dataset.seed ?? '?'})`;
}

// The CSV's workload rows gain the phase, count and level their key names, and p95 and max latency.
export const CRUD_CSV = Object.freeze({
  columns: ['phase', 'documents', 'concurrency', 'p95_ms', 'max_ms'],
  cells(report, workload, databaseId) {
    for (const series of report.crud.series) {
      const f = series.results[databaseId].find((figures) => figures.workload === workload.name);
      if (f) return [series.phase, series.ops, f.concurrency, f.latencyMs?.p95, f.latencyMs?.max];
    }
    return [null, null, null, null, null];
  },
});

// The page's charts, small multiples: per phase and count, the throughput at each level, one line per database
// (higher is better), every chart on one axis (the page's sharedAxis: logarithmic for all when the rates span
// more than a factor of 20), so that the phases read against each other. A level without a passed time is a gap in the line, and its
// status is named in the legend, as is a serial driver (see crudBlocks); the tooltip gives the latencies.
export function crudChartData(report) {
  const charts = report.crud.series.map((series) => ({
    title: seriesTitle(series, 'throughput by concurrency (ops/s, higher is better)'),
    levels: series.levels,
    databases: report.databases.map((database) => {
      const figures = series.results[database.id];
      const latency = (p) => figures.map((f) => (f.status === 'passed' && f.latencyMs ? f.latencyMs[p] ?? null : null));
      return {
        id: database.id,
        serial: report.crud.serial.includes(database.id),
        opsPerSec: figures.map((f) => (f.status === 'passed' ? f.opsPerSec : null)),
        p50: latency('p50'),
        p95: latency('p95'),
        p99: latency('p99'),
        missing: figures.map((f) => (f.status === 'passed' ? null : f.status)),
      };
    }),
  }));
  return { charts };
}

export const CRUD_PAGE_SCRIPT = `
  (data.crud ? data.crud.charts : []).forEach(function (chart) {
    var axis = sharedAxis(data.crud.charts, 'opsPerSec', 'operations per second');
    new Chart(canvas('chart-crud', chart.title), {
      type: 'line',
      data: { labels: chart.levels.map(String), datasets: chart.databases.map(function (database, i) {
        var notes = chart.levels.map(function (level, l) { return database.missing[l] ? 'c=' + level + ' ' + database.missing[l] : null; })
          .filter(Boolean);
        if (database.serial) notes.unshift('serial driver');
        return { label: database.id + (notes.length ? ' (' + notes.join(', ') + ')' : ''), data: database.opsPerSec,
          borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length], spanGaps: false, pointRadius: 3 };
      }) },
      options: {
        plugins: {
          title: { display: true, text: chart.title },
          tooltip: { callbacks: { label: function (item) {
            var database = chart.databases[item.datasetIndex];
            var l = item.dataIndex;
            return database.id + ': ' + item.raw.toLocaleString('en') + ' ops/s (p50 ' + database.p50[l] + ' ms, p95 ' + database.p95[l] + ' ms, p99 ' + database.p99[l] + ' ms)';
          } } },
        },
        scales: {
          x: { title: { display: true, text: 'concurrency (operations in flight)' } },
          y: axis,
        },
      },
    });
  });
`;

export default {
  model: crudModel,
  blocks: crudBlocks,
  datasetLabel: crudDatasetLabel,
  csv: CRUD_CSV,
  charts: {
    id: 'chart-crud',
    headline: true,
    title: 'Throughput by concurrency, per phase and document count (higher is better; latencies in the tooltips and the tables)',
    none: 'no phase has a level',
    data: crudChartData,
    count: (data) => data.charts.length,
    script: CRUD_PAGE_SCRIPT,
  },
};
