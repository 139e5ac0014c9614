// Pooling: the documents of one database (several invocations) become one set of runs per workload, and the
// database's import, memory and reproducibility facts. Nothing here compares databases; see normalise.js.
import { median } from 'simple-statistics';
import { WORKLOADS } from '../../workloads/social/workloads.js';
import { medianInterval } from '../bootstrap.js';
import { mergeLatencies } from '../stats.js';
import { reportId, reportName } from './clusters.js';

const SUITE_ORDER = WORKLOADS.map((workload) => workload.name);
const round3 = (value) => Math.round(value * 1000) / 1000;

function maxOf(values) {
  const numbers = values.filter((value) => typeof value === 'number');
  return numbers.length > 0 ? Math.max(...numbers) : null;
}

// The distinct values (compared as JSON), in their first order: a database run several times with the same
// settings has one value, and a difference between its invocations shows as a second one.
export function distinct(values) {
  const seen = new Map();
  for (const value of values) {
    const key = JSON.stringify(value ?? null);
    if (!seen.has(key)) seen.set(key, value ?? null);
  }
  return [...seen.values()];
}

// The workloads of any document: in suite order, then those the suite does not know (a newer harness) as
// they appear. A workload no document holds has nothing to show.
export function workloadNames(documents) {
  const names = [...SUITE_ORDER];
  for (const { result } of documents) {
    for (const name of Object.keys(result.workloads)) if (!names.includes(name)) names.push(name);
  }
  return names.filter((name) => documents.some(({ result }) => name in result.workloads));
}

// Whether a workload's median time is compared between databases. Never for an open-loop step (a target
// `rate` in its params): its run lasts as long as its schedule, whatever the database, so its time says nothing;
// the mixed suite's report compares its latency at each rate instead.
export function isCompared(name, documents) {
  const entry = documents.map(({ result }) => result.workloads[name]).find(Boolean);
  if (entry) return entry.compared !== false && !(entry.params?.rate > 0);
  return WORKLOADS.find((workload) => workload.name === name)?.compared ?? true;
}

// A wrong answer in any run of any invocation makes the workload failed: a database does not get a time for
// a workload it answered wrongly even once.
function pooledStatus(entries) {
  if (entries.length === 0) return 'not run';
  if (entries.some((entry) => entry.status === 'failed')) return 'failed';
  if (entries.some((entry) => entry.status === 'passed' && entry.runs.some((run) => run.valid))) return 'passed';
  if (entries.every((entry) => entry.status === 'unsupported' || entry.supported === false)) return 'unsupported';
  return 'not run';
}

function failureReason(entries) {
  const run = entries.flatMap((entry) => entry.runs).find((r) => r.valid === false);
  if (run?.reason) return run.reason;
  return entries.flatMap((entry) => entry.failures ?? []).map((f) => `${f.input}: ${f.problem}`)[0] ?? null;
}

function workloadResources(entries) {
  const figures = entries.map((entry) => entry.resources).filter(Boolean);
  if (figures.length === 0) return { serverRssPeakBytes: null, serverCpuPeakPct: null, clientCpuPct: null, clientBound: false };
  return {
    serverRssPeakBytes: maxOf(figures.map((f) => f.server?.rssPeakBytes)),
    serverCpuPeakPct: maxOf(figures.map((f) => f.server?.cpuPeakPct)),
    clientCpuPct: maxOf(figures.map((f) => f.client?.cpuPct)),
    clientBound: figures.some((f) => f.clientBound === true),
  };
}

// When a run lacks its histogram the latency figures are the medians of the runs' own percentiles.
export function latencies(runs) {
  const merged = mergeLatencies(runs);
  if (merged) return { ...merged, source: 'merged histograms' };
  const withLatency = runs.filter((run) => run.latencyMs);
  if (withLatency.length === 0) return null;
  const of = (p) => round3(median(withLatency.map((run) => run.latencyMs[p])));
  return { p50: of('p50'), p90: of('p90'), p99: of('p99'), max: maxOf(withLatency.map((run) => run.latencyMs.max)), mean: of('mean'), operations: null, source: 'medians of the runs' };
}

// One database's figures for one workload, over every document of that database.
export function poolWorkload(name, documents) {
  const entries = documents.map(({ result }) => result.workloads[name]).filter(Boolean);
  const status = pooledStatus(entries);
  const resources = workloadResources(entries);
  const base = {
    status, runs: 0, ops: maxOf(entries.map((entry) => entry.ops)) || null, medianMs: null, ci: null, opsPerSec: null,
    latencyMs: null, ...resources, reason: status === 'failed' ? failureReason(entries) : null,
  };
  if (status !== 'passed') return base;
  const runs = entries.filter((entry) => entry.status === 'passed').flatMap((entry) => entry.runs.filter((run) => run.valid));
  const times = runs.map((run) => run.ms);
  const medianMs = median(times);
  const interval = medianInterval(times);
  return {
    ...base,
    runs: runs.length,
    medianMs: round3(medianMs),
    ci: interval && { lowMs: round3(interval.low), highMs: round3(interval.high) },
    opsPerSec: base.ops ? Math.round(base.ops / (medianMs / 1000)) : null,
    latencyMs: latencies(runs),
  };
}

// Imports are told apart by when they happened: a run that reused the data repeats the figures of the import
// that put it there, which must count once.
function importFigures(documents) {
  const imports = distinct(documents.map(({ result }) => result.import).filter(Boolean)
    .map((figures) => ({
      importedAt: figures.importedAt ?? null, ms: figures.ms ?? null, diskBytes: figures.diskBytes ?? null, diskScope: figures.diskScope ?? null,
    })));
  const byTime = new Map(imports.map((figures) => [figures.importedAt, figures]));
  const unique = [...byTime.values()];
  const times = unique.map((f) => f.ms).filter((ms) => typeof ms === 'number');
  const sizes = unique.map((f) => f.diskBytes).filter((bytes) => typeof bytes === 'number');
  return {
    imports: unique.length,
    ms: times.length > 0 ? round3(median(times)) : null,
    diskBytes: sizes.length > 0 ? Math.round(median(sizes)) : null,
    // 'namespace': the adapter's own figure for the imported data; otherwise the whole data directory.
    diskScope: distinct(unique.filter((f) => typeof f.diskBytes === 'number').map((f) => f.diskScope)).join(', ') || null,
  };
}

function serverResources(documents) {
  const servers = documents.map(({ result }) => result.resources?.server).filter(Boolean);
  return {
    rssPeakBytes: maxOf(servers.map((s) => s.rssPeakBytes)),
    rssMeanBytes: maxOf(servers.map((s) => s.rssMeanBytes)),
    cpuPeakPct: maxOf(servers.map((s) => s.cpuPeakPct)),
    cpuMeanPct: maxOf(servers.map((s) => s.cpuMeanPct)),
    source: distinct(servers.map((s) => s.source).filter(Boolean)).join(', ') || null,
  };
}

// What another person needs to run the same thing again; a list holds more than one value only when the
// database's invocations differed.
function reproducibility(documents) {
  const of = (pick) => distinct(documents.map(({ result }) => pick(result)));
  return {
    dbVersion: of((r) => r.db.version ?? null),
    driver: of((r) => r.db.driver ?? null),
    dataset: of((r) => r.dataset && {
      id: r.dataset.id, name: r.dataset.name ?? null, scale: r.dataset.scale ?? null, seed: r.dataset.seed ?? null,
      profiles: r.dataset.profiles ?? null, relations: r.dataset.relations ?? null,
    }),
    config: of((r) => ({ concurrency: r.config?.concurrency ?? null, runs: r.config?.runs ?? null, preset: r.config?.preset ?? null })),
    harness: of((r) => r.harness ?? null),
    settings: of((r) => r.db.settings ?? null),
    machine: of((r) => r.environment && {
      cpu: r.environment.cpu ?? null, cores: r.environment.cores ?? null, memoryBytes: r.environment.memoryBytes ?? null,
      os: r.environment.os ?? null, node: r.environment.node ?? null, hostname: r.environment.hostname ?? null,
    }),
  };
}

// { id: [{ file, result }] } in id order; a database's results at each cluster size apart (clusters.js).
export function groupByDatabase(documents) {
  const groups = new Map();
  for (const document of documents) {
    const id = reportId(document.result);
    if (!groups.has(id)) groups.set(id, []);
    groups.get(id).push(document);
  }
  return new Map([...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function poolDatabase(id, documents, names) {
  const workloads = Object.fromEntries(names.map((name) => [name, poolWorkload(name, documents)]));
  return {
    id,
    name: reportName(documents[0].result),
    files: documents.map(({ file }) => file),
    incompleteFiles: documents.filter(({ result }) => result.complete === false && Object.keys(result.workloads).length > 0).map(({ file }) => file),
    import: importFigures(documents),
    server: serverResources(documents),
    reproducibility: reproducibility(documents),
    workloads,
  };
}
