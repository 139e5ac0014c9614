// The report laid out once as titled blocks (text, tables, lists) that the table, Markdown and HTML formats
// render each in their own syntax, so the three always say the same thing.
import { formatBytes, formatCount, formatMs } from '../format.js';
import { countFiles } from './datasets.js';
import { durabilityBlocks } from './durability.js';
import { suiteRendering } from './suites/index.js';
import { termsBlock } from './terms.js';

const MARK_NOT_SIGNIFICANT = '~';
const MARK_CLIENT_BOUND = '!';

const orNa = (value, format) => (typeof value === 'number' ? format(value) : 'n/a');
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

const runsText = (runs) => `${runs} run${runs === 1 ? '' : 's'}`;
// "1 run: no interval" where a side of the comparison has too few runs for one.
export const noIntervalText = (runs) => `${runsText(runs)}: no interval`;

function markers(figures) {
  const interval = figures.noInterval ? ` (${noIntervalText(figures.noInterval)})` : '';
  return `${interval}${figures.significant === false ? ` ${MARK_NOT_SIGNIFICANT}` : ''}${figures.clientBound ? ` ${MARK_CLIENT_BOUND}` : ''}`;
}

// The workloads compared without an interval, and the fewest runs behind one: said once in the summary.
function withoutInterval(report) {
  const cells = report.workloads.filter((w) => w.compared).flatMap((w) => Object.values(w.results))
    .filter((figures) => figures.noInterval);
  return cells.length === 0 ? null : Math.min(...cells.map((figures) => figures.noInterval));
}

// A workload without a passed time is a word, never a number.
function statusWord(figures) {
  return figures.status === 'passed' ? 'ok' : figures.status;
}

export function normalisedCell(figures, isBaseline, baselinePassed) {
  if (figures.status !== 'passed') return figures.status;
  if (!baselinePassed) return `n/a (no baseline time)${markers(figures)}`;
  if (isBaseline) return `100% (baseline)${markers(figures)}`;
  const pct = figures.normalisedPct;
  return `${pct >= 1000 ? formatCount(Math.round(pct)) : pct.toFixed(1)}%${markers(figures)}`;
}

const socialDatasetLabel = (d) => `${d.id} (${d.name ?? '?'} ${d.scale ?? '?'}, ${d.profiles === null ? '?' : formatCount(d.profiles)} profiles, ${d.relations === null ? '?' : formatCount(d.relations)} relations, seed ${d.seed ?? '?'})`;

function datasetLine(report) {
  return report.datasets.map(suiteRendering(report.suite).datasetLabel ?? socialDatasetLabel).join('; ');
}

// The other datasets of the files, which a report of one dataset leaves out (see datasets.js).
function skippedLines(report) {
  const skipped = report.datasetChoice?.skipped ?? [];
  if (skipped.length === 0) return [];
  return [`not reported (other datasets in the files; --dataset <id> chooses): ${skipped.map((s) => `${s.id} (${countFiles(s.files)})`).join(', ')}`];
}

// One database has nothing to be relative to: its report gives absolute figures and no percentages.
const alone = (report) => report.databases.length === 1;

function matrix(report) {
  const ids = report.databases.map((database) => database.id);
  const rows = report.workloads.filter((workload) => workload.compared).map((workload) => {
    const baselinePassed = workload.results[report.baseline.id]?.status === 'passed';
    return [workload.name, ...ids.map((id) => normalisedCell(workload.results[id], id === report.baseline.id, baselinePassed))];
  });
  return {
    kind: 'table', id: 'normalised', title: `Median time relative to ${report.baseline.id} (= 100%; lower is faster)`,
    header: ['workload', ...ids], numeric: ids.map((_, i) => i + 1), rows,
  };
}

function detailRows(report, workloads) {
  const rows = [];
  for (const workload of workloads) {
    const baselinePassed = workload.results[report.baseline.id]?.status === 'passed';
    report.databases.forEach((database, index) => {
      const f = workload.results[database.id];
      const passed = f.status === 'passed';
      rows.push([
        index === 0 ? workload.name : '',
        index === 0 && workload.ops ? formatCount(workload.ops) : '',
        database.id,
        statusWord(f) + (f.status === 'failed' && f.reason ? `: ${f.reason}` : ''),
        passed ? String(f.runs) : '',
        passed ? formatMs(f.medianMs) : '',
        passed && f.ci ? `${formatMs(f.ci.lowMs)} – ${formatMs(f.ci.highMs)}` : passed ? 'n/a (one run)' : '',
        passed && f.opsPerSec !== null ? formatCount(f.opsPerSec) : '',
        passed && f.latencyMs ? formatMs(f.latencyMs.p50) : '',
        passed && f.latencyMs ? formatMs(f.latencyMs.p99) : '',
        workload.compared && !alone(report) && !report.comparison?.refused ? (passed ? normalisedCell(f, database.id === report.baseline.id, baselinePassed) : '') : (passed ? `${markers(f).trim()}` : ''),
      ]);
    });
  }
  return rows;
}

const DETAIL_HEADER = ['workload', 'ops/run', 'database', 'status', 'runs', 'median ms', '95% CI ms', 'ops/s', 'p50 ms', 'p99 ms', 'vs baseline'];
const DETAIL_NUMERIC = [1, 4, 5, 6, 7, 8, 9];

function resources(report) {
  return {
    kind: 'table', id: 'resources', title: 'Server memory and CPU during the suite, import time and size on disk',
    header: ['database', 'server peak RSS', 'server mean RSS', 'server peak CPU', 'import', 'on disk after import'],
    numeric: [1, 2, 3, 4, 5],
    rows: report.databases.map((d) => [
      d.id, orNa(d.server.rssPeakBytes, formatBytes), orNa(d.server.rssMeanBytes, formatBytes),
      orNa(d.server.cpuPeakPct, (pct) => `${pct.toFixed(0)}%`), orNa(d.import.ms, seconds),
      orNa(d.import.diskBytes, (n) => `${formatBytes(n)}${d.import.diskScope && d.import.diskScope !== 'namespace' ? ` (whole ${d.import.diskScope})` : ''}`),
    ]),
  };
}

const several = (values, format) => values.map((value) => (value === null ? 'n/a' : format(value))).join(' | ');

function reproducibility(report) {
  const datasetLabel = suiteRendering(report.suite).datasetLabel ?? ((ds) => `${ds.id} (${ds.scale}, seed ${ds.seed})`);
  return {
    kind: 'list', id: 'reproducibility', title: 'Reproducibility',
    items: report.databases.map((d) => {
      const r = d.reproducibility;
      return {
        label: `${d.id} (${d.name})`,
        lines: [
          `version: ${several(r.dbVersion, String)}`,
          `driver: ${several(r.driver, (driver) => `${driver.name} ${driver.version ?? ''}`.trim())}`,
          `dataset: ${several(r.dataset, datasetLabel)}`,
          `config: ${several(r.config, (c) => `concurrency ${c.concurrency}, ${c.runs} runs${c.preset ? `, ${presetText(c.preset)}` : ''}`)}`,
          `harness: ${several(r.harness, (h) => `${h.name} ${h.version}${h.commit ? ` (${h.commit.slice(0, 12)})` : ' (no git commit)'}`)}`,
          `server settings: ${several(r.settings, (s) => (Object.keys(s).length > 0 ? Object.entries(s).map(([k, v]) => `${k}=${v}`).join(', ') : 'none recorded'))}`,
          `machine: ${several(r.machine, (m) => `${m.cpu}, ${m.cores} cores, ${formatBytes(m.memoryBytes)} RAM, ${m.os}, node ${m.node}${m.hostname ? `, host ${m.hostname}` : ''}`)}`,
          `files: ${d.files.join(', ')}`,
        ],
      };
    }),
  };
}

const listed = (value) => (Array.isArray(value) ? value.join(',') : String(value));

// "preset crud-2012 (overridden: --ops 100 instead of the preset's 10000,100000)"; a document of a time before
// presets recorded their parameters names the preset alone.
export function presetText(preset) {
  if (typeof preset !== 'object') return `preset ${preset}`;
  const overridden = (preset.overridden ?? []).map((o) => `--${o.flag} ${listed(o.used)} instead of the preset's ${listed(o.preset)}`);
  return `preset ${preset.name}${overridden.length > 0 ? ` (overridden: ${overridden.join('; ')})` : ''}`;
}

// The presets the databases' runs took, when any value of one was overridden: said in the summary.
function presetLines(report) {
  const presets = report.databases.flatMap((d) => d.reproducibility.config.map((c) => c.preset))
    .filter((preset) => preset && typeof preset === 'object' && (preset.overridden ?? []).length > 0);
  return [...new Set(presets.map(presetText))];
}

function legend(report) {
  const fewest = withoutInterval(report);
  return {
    kind: 'list', id: 'legend', title: 'Legend',
    items: [
      { label: MARK_NOT_SIGNIFICANT, lines: [`not significant: the ${report.statistics.interval.level * 100}% interval of the median overlaps the baseline's; the difference may be noise`] },
      ...(fewest ? [{ label: 'no interval', lines: [`${noIntervalText(fewest)} (the fewer runs of the database and the baseline): an interval needs 2 runs or more, so a difference of any size may be noise; --runs 3 or more gives one`] }] : []),
      { label: MARK_CLIENT_BOUND, lines: ['client was the bottleneck: in at least one run the harness process itself used more than 85% of a core, so the figure may understate the database'] },
      { label: 'failed', lines: ['a wrong answer or an error in at least one run: no time is given'] },
      { label: 'unsupported', lines: ['the adapter does not implement the operation'] },
      { label: 'not run', lines: ['the workload is not in the given files, or the run was interrupted before it'] },
      { label: 'n/a', lines: ['not measured in the given files'] },
      { label: '95% CI', lines: [`${report.statistics.interval.method} (${formatCount(report.statistics.interval.resamples)} resamples, seed ${report.statistics.interval.seed})`] },
    ],
  };
}

// Open-loop steps are named by what they are; any other workload that is never compared, by name.
function notComparedTitle(separate) {
  const open = separate.filter((w) => w.openLoop);
  const other = separate.filter((w) => !w.openLoop);
  const named = other.length > 0 ? `Not compared (${other.map((w) => w.name).join(', ')}: reported, never normalised)` : 'Not compared';
  return open.length === 0 ? named
    : `${named}: ${open.length} open loop step${open.length === 1 ? '' : 's'}, whose runs last as long as their schedule, so their time and ops/s are the schedule's; their latency at each rate is compared above`;
}

const CLUSTER_HEADER = ['workload', 'database', 'nodes', 'status', 'ops/s', 'p50 ms', 'p95 ms', 'ops/s per vCPU', 'network MB/s', 'disk MB/s per node', 'conflicts'];
const MB = 1024 * 1024;

// A database's results at each cluster size, side by side per workload (clusters.js): the whole cluster's
// throughput against its nodes.
function clustersBlock(report) {
  const rows = report.clusters.series.flatMap((series) => series.points.map((p) => {
    const passed = p.status === 'passed';
    const disk = p.diskWriteBytesPerSecPerNode;
    return [
      series.workload, p.id, p.cluster ? String(p.nodes) : 'one server', passed ? 'ok' : p.status,
      passed ? formatCount(p.opsPerSec) : '', passed && p.latencyMs ? formatMs(p.latencyMs.p50) : '', passed && p.latencyMs ? formatMs(p.latencyMs.p95) : '',
      passed && p.opsPerSecPerVcpu !== null ? `${formatCount(Math.round(p.opsPerSecPerVcpu))}${p.vcpusShared ? ` (${p.vcpus} shared)` : ''}` : '',
      passed && p.networkBytesPerSec !== null ? (p.networkBytesPerSec / MB).toFixed(2) : '',
      passed && disk ? `${(disk.mean / MB).toFixed(2)} (max ${(disk.max / MB).toFixed(2)})` : '',
      passed && p.conflicts !== null ? formatCount(p.conflicts) : '',
    ];
  }));
  return { kind: 'table', id: 'clusters', title: 'Cluster size: throughput of the whole cluster against its nodes', header: CLUSTER_HEADER, numeric: [2, 4, 5, 6, 7, 8, 9, 10], rows };
}

export function reportBlocks(report) {
  if (report.databases.length === 0) return durabilityBlocks(report);
  const compared = report.workloads.filter((w) => w.compared);
  const separate = report.workloads.filter((w) => !w.compared);
  const fewest = withoutInterval(report);
  const blocks = [
    {
      kind: 'text', id: 'summary', title: 'db-shootout report',
      lines: [
        // Unequal terms are the first thing said; equal ones after the baseline.
        ...(report.terms && !report.terms.equal ? [report.terms.line] : []),
        ...(report.comparison?.reason ? [report.comparison.reason] : []),
        `dataset: ${datasetLine(report)}`,
        ...skippedLines(report),
        `databases: ${report.databases.map((d) => d.id).join(', ')}`,
        alone(report) ? 'baseline: none (one database: absolute figures, no percentages)' : `baseline: ${report.baseline.id} (${report.baseline.reason})`,
        ...(report.terms?.equal ? [report.terms.line] : []),
        ...(fewest && !alone(report) && !report.comparison?.refused
          ? [`intervals: none where a database or the baseline has ${runsText(fewest)} (marked "${noIntervalText(fewest)}"): a difference of any size may be noise; --runs 3 or more gives a ${report.statistics.interval.level * 100}% interval`] : []),
        ...presetLines(report),
      ],
    },
    ...(report.terms ? [termsBlock(report)] : []),
    ...(suiteRendering(report.suite).blocks?.(report) ?? []),
    ...(report.clusters ? [clustersBlock(report)] : []),
    ...(alone(report) || report.comparison?.refused || compared.length === 0 ? [] : [matrix(report)]),
    ...(compared.length === 0 ? [] : [{
      kind: 'table', id: 'workloads', title: 'Workloads', header: alone(report) || report.comparison?.refused ? DETAIL_HEADER.slice(0, -1).concat('') : DETAIL_HEADER,
      numeric: DETAIL_NUMERIC, rows: detailRows(report, compared),
    }]),
  ];
  if (separate.length > 0) {
    blocks.push({
      kind: 'table', id: 'not-compared', title: notComparedTitle(separate),
      header: DETAIL_HEADER.slice(0, -1).concat(''), numeric: DETAIL_NUMERIC, rows: detailRows(report, separate),
    });
  }
  blocks.push(resources(report), reproducibility(report), ...durabilityBlocks(report), legend(report));
  if (report.warnings.length > 0) blocks.push({ kind: 'list', id: 'warnings', title: 'Warnings', items: report.warnings.map((w) => ({ label: 'warning', lines: [w] })) });
  return blocks;
}
