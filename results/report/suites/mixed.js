// The mixed suite's own view of a report. Closed loop: per workload and operation count, each database's
// throughput with latency p50/p95/p99 at every concurrency level. Open loop (a rate sweep): per workload, count
// and level, each database's achieved rate and latency at every target rate, so latency reads against achieved
// throughput. The generic per-workload tables stay as they are.
import { BEHIND_RATIO } from '../../../runner/open-loop.js';
import { stepKey } from '../../../workloads/mixed/suite.js';
import { WORKLOADS } from '../../../workloads/mixed/workloads.js';
import { formatCount, formatMs, loadsLine, loadsOf } from '../../format.js';
import { latencyByKind } from '../../model.js';
import { distinct } from '../aggregate.js';
import { reportId } from '../clusters.js';

const MIXES = WORKLOADS.map((workload) => workload.name);
const MARK_CLIENT_BOUND = '!';
const byNumber = (a, b) => a - b;

// The workload a key names, from its params (`95-5 n=10000 c=4 rate=500` with { ops: 10000, concurrency: 4,
// rate: 500 } is 95-5); null for a key the mixed suite cannot have written.
function mixOf(name, params) {
  if (!Number.isInteger(params?.ops) || !Number.isInteger(params?.concurrency)) return null;
  const suffix = stepKey('', params);
  const mix = name.endsWith(suffix) ? name.slice(0, -suffix.length) : '';
  return mix.length > 0 && stepKey(mix, params) === name ? mix : null;
}

// p95 only where the histograms were merged: the medians of older runs' own percentiles have none.
function latencyOf(f) {
  return f.status === 'passed' && f.latencyMs
    ? { p50: f.latencyMs.p50, p95: f.latencyMs.p95 ?? null, p99: f.latencyMs.p99, max: f.latencyMs.max } : null;
}

function levelFigures(concurrency, workload, f) {
  return {
    concurrency,
    workload,
    status: f.status,
    runs: f.runs,
    medianMs: f.medianMs,
    opsPerSec: f.opsPerSec,
    latencyMs: latencyOf(f),
    clientBound: f.clientBound,
    reason: f.reason,
  };
}

const median = (values) => {
  const sorted = [...values].sort(byNumber);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

// One target rate of one database: the achieved rate is the median of its valid runs' (each run's `ms` spans
// the first due time to the last answer, so the generic ops/s is that rate too when a run lacks `openLoop`).
function rateFigures(rate, workload, f, runs) {
  const passed = f.status === 'passed';
  const measured = runs.filter((run) => run.openLoop);
  const achievedRate = !passed ? null
    : measured.length > 0 ? Math.round(median(measured.map((run) => run.openLoop.achievedRate))) : f.opsPerSec;
  const lags = measured.map((run) => run.openLoop.sendLagMs?.max).filter((ms) => typeof ms === 'number');
  const behind = achievedRate !== null && achievedRate < rate * BEHIND_RATIO;
  return {
    rate,
    workload,
    status: f.status,
    runs: f.runs,
    achievedRate,
    latencyMs: latencyOf(f),
    sendLagMaxMs: passed && lags.length > 0 ? Math.max(...lags) : null,
    note: behind
      ? `achieved ${formatCount(achievedRate)} ops/s, ${Math.round((1 - achievedRate / rate) * 100)}% below the target of ${formatCount(rate)} ops/s: the answers (or the harness sending the operations) could not keep up with the schedule`
      : null,
    clientBound: f.clientBound,
    reason: f.reason,
  };
}

// A parameter the workload keys do not name (the distribution, the write mode) that differs between the
// results: their figures under one key measure different work.
function mixedParamWarnings(documents, databases) {
  const warnings = [];
  const named = { distribution: 'key distributions (--distribution)', durable: 'durable writes (--sync) and default ones' };
  for (const [param, words] of Object.entries(named)) {
    const valueOf = (params) => (param === 'durable' ? params.durable === true : params[param] ?? null);
    const all = documents.flatMap(({ result }) => Object.values(result.workloads).map((entry) => entry.params).filter(Boolean).map(valueOf));
    if (distinct(all).length < 2) continue;
    const each = databases.map(({ id }) => {
      const values = distinct(documents.filter(({ result }) => reportId(result) === id)
        .flatMap(({ result }) => Object.values(result.workloads).map((entry) => entry.params).filter(Boolean).map(valueOf)));
      return `${id}: ${values.map((value) => (param === 'durable' ? (value ? 'durable' : 'default') : value)).join(' and ')}`;
    });
    warnings.push(`the results mix ${words} (${each.join(', ')}), which do not measure the same work`);
  }
  return warnings;
}

// `workloads` and `databases` as in the report model; `documents` give each workload's params and its runs'
// open-loop figures. Returns the report's `mixed` block, { serial: [database ids], closed: [{ mix, ops, levels,
// results: { <database id>: [figures per level] } }], sweeps: [{ mix, ops, concurrency, rates, results:
// { <database id>: [figures per target rate] } }] }, workloads in the suite's order, then counts, levels and rates
// ascending; and the warnings it calls for.
// Each database's p50 and p99 at one target rate as a percentage of the baseline's (the first database) at the
// same rate: how open loops compare, since their times are the schedule's. Null for the baseline, where either
// has no latency, and when the comparison is refused (unequal terms) or there is one database.
function withLatencyPct(results, ids, comparison) {
  const [baselineId] = ids;
  const pct = (f, base, p) => (f.latencyMs && base?.latencyMs && base.latencyMs[p] > 0 && typeof f.latencyMs[p] === 'number'
    ? Math.round((f.latencyMs[p] / base.latencyMs[p]) * 1000) / 10 : null);
  return Object.fromEntries(Object.entries(results).map(([id, series]) => [id, series.map((f, index) => {
    const base = results[baselineId][index];
    const shown = ids.length > 1 && !comparison?.refused && id !== baselineId;
    return { ...f, latencyPct: shown ? { p50: pct(f, base, 'p50'), p99: pct(f, base, 'p99') } : null };
  })]));
}

export function mixedModel({ workloads, databases, documents, comparison }) {
  const closed = new Map();
  const sweeps = new Map();
  for (const workload of workloads) {
    const params = documents.map(({ result }) => result.workloads[workload.name]?.params).filter(Boolean);
    const mix = mixOf(workload.name, params[0]);
    if (mix === null) continue;
    const { ops, concurrency, rate } = params[0];
    const [groups, id, point] = rate ? [sweeps, `${mix} n=${ops} c=${concurrency}`, rate] : [closed, `${mix} n=${ops}`, concurrency];
    if (!groups.has(id)) groups.set(id, { mix, ops, concurrency, workloads: new Map() });
    groups.get(id).workloads.set(point, workload);
  }
  const order = (mix) => (MIXES.includes(mix) ? MIXES.indexOf(mix) : MIXES.length);
  const sorted = (groups) => [...groups.values()]
    .sort((a, b) => order(a.mix) - order(b.mix) || a.ops - b.ops || a.concurrency - b.concurrency)
    .map((group) => ({ ...group, points: [...group.workloads.keys()].sort(byNumber) }));
  const runsOf = (id, name) => documents.filter(({ result }) => reportId(result) === id && result.workloads[name]?.status === 'passed')
    .flatMap(({ result }) => result.workloads[name].runs.filter((run) => run.valid));

  // The figures with each kind's latency over every valid run of the database (its histograms added), where the
  // runs timed the kinds of a mix apart.
  const withKinds = (figures, runs) => {
    const byKind = latencyByKind(runs);
    const timed = runs.filter((run) => run.series);
    // A run bounded by --duration, second by second: that of the run whose time is the median.
    const series = timed.length > 0 ? [...timed].sort((a, b) => a.ms - b.ms)[Math.floor((timed.length - 1) / 2)].series : null;
    return { ...figures, ...(byKind ? { byKind } : {}), ...(series ? { series } : {}) };
  };

  // Per database, what its runs started from: the loads and the runs on the state the run before left.
  const loads = Object.fromEntries(databases.map(({ id }) => [id, loadsOf(Object.assign({}, ...documents
    .filter(({ result }) => reportId(result) === id).map(({ result }, index) => Object.fromEntries(Object.entries(result.workloads)
      .map(([name, entry]) => [`${index} ${name}`, entry])))))]).filter(([, summary]) => summary));
  const block = {
    loads,
    serial: distinct(documents.filter(({ result }) => result.db.execution === 'serial').map(({ result }) => reportId(result)))
      .filter((id) => databases.some((database) => database.id === id)),
    closed: sorted(closed).map(({ mix, ops, points, workloads: byLevel }) => ({
      mix,
      ops,
      levels: points,
      results: Object.fromEntries(databases.map(({ id }) => [id, points.map((level) => {
        const workload = byLevel.get(level);
        return withKinds(levelFigures(level, workload.name, workload.results[id]), runsOf(id, workload.name));
      })])),
    })),
    sweeps: sorted(sweeps).map(({ mix, ops, concurrency, points, workloads: byRate }) => ({
      mix,
      ops,
      concurrency,
      rates: points,
      results: withLatencyPct(Object.fromEntries(databases.map(({ id }) => [id, points.map((rate) => {
        const workload = byRate.get(rate);
        const runs = runsOf(id, workload.name);
        return withKinds(rateFigures(rate, workload.name, workload.results[id], runs), runs);
      })])), databases.map(({ id }) => id), comparison),
    })),
  };
  return { block, warnings: mixedParamWarnings(documents, databases) };
}

const ms = (latency, p) => (latency && typeof latency[p] === 'number' ? formatMs(latency[p]) : 'n/a');
const latencyCells = (f) => ['p50', 'p95', 'p99'].map((p) => ms(f.latencyMs, p));

// Closed loop: a row per workload, count, level and database: its ops/s and latency percentiles, or its status
// word where it has no passed time.
function closedTable(report, ids) {
  return {
    kind: 'table',
    id: 'mixed-closed',
    title: 'Closed loop: throughput (ops/s, higher is better) and latency (ms, lower is better) per workload and concurrency',
    header: ['workload', 'operations', 'concurrency', 'database', 'ops/s', 'p50 ms', 'p95 ms', 'p99 ms'],
    numeric: [1, 2, 4, 5, 6, 7],
    rows: report.mixed.closed.flatMap((series) => series.levels.flatMap((level, index) => ids.map((id) => {
      const f = series.results[id][index];
      const head = [series.mix, formatCount(series.ops), String(level), id];
      if (f.status !== 'passed') return [...head, f.status, '', '', ''];
      return [...head, `${f.opsPerSec === null ? 'n/a' : formatCount(f.opsPerSec)}${f.clientBound ? ` ${MARK_CLIENT_BOUND}` : ''}`, ...latencyCells(f)];
    }))),
  };
}

// Open loop: a row per workload, count, level, target rate and database: the rate it achieved and the latency
// measured from each operation's due time; a rate that fell behind its target says by how much.
// With several databases (and equal terms), each one's p50 and p99 as a percentage of the baseline's at the same
// rate: the comparison an open loop gives, since every database's run lasts as long as the schedule.
function sweepTable(report, ids) {
  const relative = ids.length > 1 && !report.comparison?.refused;
  const [baselineId] = ids;
  const pctCell = (f, p) => (f.latencyPct?.[p] == null ? 'n/a' : `${f.latencyPct[p].toFixed(1)}%`);
  return {
    kind: 'table',
    id: 'mixed-open',
    title: 'Open loop: latency (ms, from each operation\'s due time; lower is better) against achieved throughput, per target rate'
      + (relative ? `; p50 and p99 relative to ${baselineId}'s at the same rate (= 100%; one merged histogram per database: no interval)` : ''),
    header: ['workload', 'operations', 'concurrency', 'database', 'target ops/s', 'achieved ops/s', 'p50 ms', 'p95 ms', 'p99 ms',
      ...(relative ? ['p50 vs baseline', 'p99 vs baseline'] : []), 'note'],
    numeric: [1, 2, 4, 5, 6, 7, 8, ...(relative ? [9, 10] : [])],
    rows: report.mixed.sweeps.flatMap((sweep) => sweep.rates.flatMap((rate, index) => ids.map((id) => {
      const f = sweep.results[id][index];
      const head = [sweep.mix, formatCount(sweep.ops), String(sweep.concurrency), id, formatCount(rate)];
      if (f.status !== 'passed') return [...head, f.status, '', '', '', ...(relative ? ['', ''] : []), ''];
      const below = f.note ? `${Math.round((1 - f.achievedRate / rate) * 100)}% below target` : '';
      const vs = !relative ? [] : id === baselineId ? ['100% (baseline)', '100% (baseline)'] : [pctCell(f, 'p50'), pctCell(f, 'p99')];
      return [...head, `${formatCount(f.achievedRate)}${f.clientBound ? ` ${MARK_CLIENT_BOUND}` : ''}`, ...latencyCells(f), ...vs, below];
    }))),
  };
}

// The kinds of a mix in the order the suite names them (workloads/mixed/consistency.js), then any other.
const KIND_ORDER = ['get', 'update', 'insert', 'delete', 'read-modify-write', 'scan'];

// A row per workload, count, level (or target rate), database and kind of operation, for the mixes of several
// kinds: each kind's p50 and p99 over every run, so that a mix's reads and writes are not one blended figure. A
// row per kind, not a column, keeps the table as narrow with five kinds as with two.
function kindsTable(report, ids) {
  const series = [
    ...report.mixed.closed.flatMap((s) => s.levels.map((level, index) => ({ s, point: `c=${level}`, index, of: (id) => s.results[id][index] }))),
    ...report.mixed.sweeps.flatMap((s) => s.rates.map((rate, index) => ({ s, point: `c=${s.concurrency} rate=${formatCount(rate)}`, index, of: (id) => s.results[id][index] }))),
  ];
  const rows = [];
  const present = new Set();
  for (const { s, point, of } of series) {
    for (const id of ids) {
      const f = of(id);
      if (f.status !== 'passed' || !f.byKind) continue;
      for (const kind of Object.keys(f.byKind)) present.add(kind);
      rows.push({ head: [s.mix, formatCount(s.ops), point, id], byKind: f.byKind });
    }
  }
  if (rows.length === 0) return null;
  const kinds = [...KIND_ORDER.filter((kind) => present.has(kind)), ...[...present].filter((kind) => !KIND_ORDER.includes(kind))];
  return {
    kind: 'table',
    id: 'mixed-kinds',
    title: 'Latency by operation: each kind of a mix apart (ms, every run together; lower is better)',
    header: ['workload', 'operations', 'level', 'database', 'operation', 'p50', 'p99'],
    numeric: [1, 5, 6],
    rows: rows.flatMap(({ head, byKind }) => kinds.filter((kind) => byKind[kind])
      .map((kind) => [...head, kind, ms(byKind[kind], 'p50'), ms(byKind[kind], 'p99')])),
  };
}

export function mixedBlocks(report) {
  const ids = report.databases.map((database) => database.id);
  const blocks = [];
  if (report.mixed.closed.length > 0) blocks.push(closedTable(report, ids));
  if (report.mixed.sweeps.length > 0) blocks.push(sweepTable(report, ids));
  const kinds = kindsTable(report, ids);
  if (kinds) blocks.push(kinds);
  const behind = report.mixed.sweeps.flatMap((sweep) => ids.flatMap((id) => sweep.results[id].filter((f) => f.note)
    .map((f) => ({ label: `${id} ${f.workload}`, lines: [f.note] }))));
  if (behind.length > 0) blocks.push({ kind: 'list', id: 'mixed-behind', title: 'Open loop behind its target', items: behind });
  const loaded = Object.entries(report.mixed.loads ?? {});
  if (loaded.length > 0) {
    blocks.push({
      kind: 'list', id: 'mixed-loads', title: 'Loading',
      items: loaded.map(([id, summary]) => ({ label: id, lines: [loadsLine(summary)] })),
    });
  }
  if (report.mixed.serial.length > 0) {
    blocks.push({
      kind: 'list', id: 'mixed-serial', title: 'Concurrency',
      items: report.mixed.serial.map((id) => ({ label: id, lines: ['serial driver: one operation at a time at every level, so a difference between its levels is not the effect of concurrency'] })),
    });
  }
  return blocks;
}

// The summary names the documents by what they are (the mixed suite has no profiles or relations).
export function mixedDatasetLabel(dataset) {
  return `${dataset.id} (${dataset.name ?? 'mixed documents'}, seed ${dataset.seed ?? '?'})`;
}

// The CSV's workload rows gain the workload, level and target rate their key names, the achieved rate and its
// note (open loop), and p95 and max latency.
export const MIXED_CSV = Object.freeze({
  columns: ['mix', 'concurrency', 'target_rate', 'achieved_rate', 'p95_ms', 'max_ms', 'open_loop_note'],
  cells(report, workload, databaseId) {
    for (const series of report.mixed.closed) {
      const f = series.results[databaseId].find((figures) => figures.workload === workload.name);
      if (f) return [series.mix, f.concurrency, null, null, f.latencyMs?.p95, f.latencyMs?.max, null];
    }
    for (const sweep of report.mixed.sweeps) {
      const f = sweep.results[databaseId].find((figures) => figures.workload === workload.name);
      if (f) return [sweep.mix, sweep.concurrency, f.rate, f.achievedRate, f.latencyMs?.p95, f.latencyMs?.max, f.note];
    }
    return [null, null, null, null, null, null, null];
  },
});

// The page's charts. Closed loop, per workload and count: a bar of ops/s for each database at each level, with
// its p50/p95/p99 as marks on a second axis. Open loop, per workload, count and level: latency p50 and p99
// against the achieved rate, one line per database and percentile, a point per target rate.
export function mixedChartData(report) {
  const ids = report.databases.map((database) => database.id);
  const pick = (f, p) => (f.status === 'passed' && f.latencyMs ? f.latencyMs[p] : null);
  return {
    databases: ids,
    throughput: report.mixed.closed.map((series) => {
      const points = series.levels.flatMap((level, index) => ids.map((id) => ({ id, level, f: series.results[id][index] })));
      return {
        title: `${series.mix}, ${formatCount(series.ops)} operations: ops/s (bars) and latency p50/p95/p99 (marks)`,
        labels: points.map(({ id, level, f }) => `${id} c=${level}${f.status === 'passed' ? '' : ` (${f.status})`}`),
        databases: points.map(({ id }) => ids.indexOf(id)),
        opsPerSec: points.map(({ f }) => (f.status === 'passed' ? f.opsPerSec : null)),
        p50: points.map(({ f }) => pick(f, 'p50')),
        p95: points.map(({ f }) => pick(f, 'p95')),
        p99: points.map(({ f }) => pick(f, 'p99')),
      };
    }),
    // Runs bounded by --duration: per workload and level, each database's operations and p99 second by second.
    timelines: report.mixed.closed.flatMap((series) => series.levels.map((level, index) => ({
      title: `${series.mix}, concurrency ${level}: operations per second, second by second (the median run)`,
      databases: ids.map((id) => ({ id, series: series.results[id][index].series ?? null })).filter(({ series: s }) => s),
    }))).filter((timeline) => timeline.databases.length > 0),
    sweeps: report.mixed.sweeps.map((sweep) => ({
      title: `${sweep.mix}, ${formatCount(sweep.ops)} operations, concurrency ${sweep.concurrency}: latency against achieved throughput`,
      databases: ids.map((id) => {
        const passed = sweep.results[id].filter((f) => f.status === 'passed');
        return {
          id,
          targets: passed.map((f) => f.rate),
          achieved: passed.map((f) => f.achievedRate),
          p50: passed.map((f) => pick(f, 'p50')),
          p99: passed.map((f) => pick(f, 'p99')),
          behind: passed.map((f) => f.note !== null),
          missing: sweep.results[id].filter((f) => f.status !== 'passed').map((f) => `${formatCount(f.rate)}/s ${f.status}`),
        };
      }),
    })),
  };
}

export const MIXED_PAGE_SCRIPT = `
  (data.mixed ? data.mixed.throughput : []).forEach(function (chart) {
    new Chart(canvas('chart-mixed', chart.title, 'chart wide'), {
      type: 'bar',
      data: { labels: chart.labels, datasets: data.mixed.databases.map(function (id, d) {
        // One bar dataset per database, so that the legend names each colour; skipNull keeps a bar centred.
        return { type: 'bar', label: id + ' ops/s', yAxisID: 'y', maxBarThickness: 60, skipNull: true, order: 1,
          backgroundColor: palette[d % palette.length],
          data: chart.opsPerSec.map(function (value, i) { return chart.databases[i] === d ? value : null; }) };
      }).concat([
        { type: 'line', label: 'p50 ms', data: chart.p50, yAxisID: 'latency', showLine: false, pointStyle: 'circle', pointRadius: 5, borderColor: '#222', backgroundColor: '#fff' },
        { type: 'line', label: 'p95 ms', data: chart.p95, yAxisID: 'latency', showLine: false, pointStyle: 'triangle', pointRadius: 6, borderColor: '#222', backgroundColor: '#999' },
        { type: 'line', label: 'p99 ms', data: chart.p99, yAxisID: 'latency', showLine: false, pointStyle: 'rectRot', pointRadius: 6, borderColor: '#222', backgroundColor: '#222' }]) },
      options: {
        plugins: { title: { display: true, text: chart.title } },
        scales: {
          y: { type: 'linear', beginAtZero: true, position: 'left', title: { display: true, text: 'ops/s (bars; higher is better)' } },
          latency: Object.assign(valueAxis(chart.p50.concat(chart.p95, chart.p99), 'latency, ms (marks; lower is better)'), { position: 'right', grid: { drawOnChartArea: false } }),
        },
      },
    });
  });
  (data.mixed ? data.mixed.timelines : []).forEach(function (chart) {
    var longest = Math.max.apply(null, chart.databases.map(function (database) { return database.series.ops.length; }));
    var seconds = [];
    for (var s = 1; s <= longest; s += 1) seconds.push(s);
    var lines = [];
    var latencies = [];
    chart.databases.forEach(function (database, i) {
      latencies = latencies.concat(database.series.p99);
      lines.push({ label: database.id + ' ops/s', data: database.series.ops, yAxisID: 'y', borderColor: palette[i % palette.length],
        backgroundColor: palette[i % palette.length], pointRadius: 2 });
      lines.push({ label: database.id + ' p99 ms', data: database.series.p99, yAxisID: 'latency', borderDash: [6, 4],
        borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length], pointRadius: 0 });
    });
    new Chart(canvas('chart-mixed', chart.title, 'chart wide'), {
      type: 'line',
      data: { labels: seconds, datasets: lines },
      options: {
        plugins: { title: { display: true, text: chart.title } },
        scales: {
          x: { title: { display: true, text: 'second of the run' } },
          y: { type: 'linear', beginAtZero: true, position: 'left', title: { display: true, text: 'operations answered in the second (higher is better)' } },
          latency: Object.assign(valueAxis(latencies, 'p99 latency, ms (dashed; lower is better)'), { position: 'right', grid: { drawOnChartArea: false } }),
        },
      },
    });
  });
  (data.mixed ? data.mixed.sweeps : []).forEach(function (chart) {
    var latencies = [];
    var lines = [];
    chart.databases.forEach(function (database, i) {
      latencies = latencies.concat(database.p50, database.p99);
      var missing = database.missing.length ? ' (' + database.missing.join(', ') + ')' : '';
      [['p99', []], ['p50', [6, 4]]].forEach(function (line) {
        lines.push({ label: database.id + ' ' + line[0] + missing, database: database, showLine: true, borderDash: line[1],
          data: database.achieved.map(function (x, r) { return { x: x, y: database[line[0]][r] }; }),
          borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length],
          pointStyle: database.behind.map(function (behind) { return behind ? 'crossRot' : 'circle'; }), pointRadius: 4 });
      });
    });
    new Chart(canvas('chart-mixed', chart.title, 'chart wide'), {
      type: 'scatter',
      data: { datasets: lines },
      options: {
        plugins: {
          title: { display: true, text: chart.title },
          tooltip: { callbacks: { label: function (item) {
            var database = item.dataset.database;
            var r = item.dataIndex;
            return item.dataset.label + ': ' + item.raw.y + ' ms at ' + item.raw.x.toLocaleString('en') + ' ops/s achieved (target '
              + database.targets[r].toLocaleString('en') + (database.behind[r] ? ', behind it' : '') + ')';
          } } },
        },
        scales: {
          x: { type: 'linear', beginAtZero: true, title: { display: true, text: 'achieved throughput, ops/s (a cross: more than 5% below its target)' } },
          y: valueAxis(latencies, 'latency from the due time, ms (lower is better)'),
        },
      },
    });
  });
`;

export default {
  model: mixedModel,
  blocks: mixedBlocks,
  datasetLabel: mixedDatasetLabel,
  csv: MIXED_CSV,
  charts: {
    id: 'chart-mixed',
    headline: true,
    title: 'Throughput and latency per workload; for a rate sweep, latency against achieved throughput',
    none: 'no workload has a passed level or rate',
    data: mixedChartData,
    count: (data) => data.throughput.length + data.timelines.length + data.sweeps.length,
    script: MIXED_PAGE_SCRIPT,
  },
};
