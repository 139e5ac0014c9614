// The result document: one JSON object per invocation, schema "db-shootout/result@1", defined field by
// field in results/README.md. It is built up while the benchmark runs and written after every run, so
// an interrupted invocation still leaves its completed runs behind.
import { environment, harness } from '../core/environment.js';
import { suiteResources, workloadResources } from '../resources/summary.js';
import { mergeLatencies, summarizeRuns } from './stats.js';

export const RESULT_SCHEMA = 'db-shootout/result@1';
const MAX_EXAMPLES = 5;

// `server`: the local server process whose resources are sampled ({ pid, source }), or null. `shard`: which share of
// a `bench run --shard` run the document holds (a partial result, which `bench merge` combines with the others).
// `topology`: the nodes of a cluster the run spread its connections over (runner/run.js describeTopology), or null.
export function createResult({ suite = 'social', db, dataset, config, command, server = null, shard = null, topology = null }) {
  return {
    schema: RESULT_SCHEMA,
    suite,
    harness: harness(),
    command,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    db,
    dataset,
    config,
    environment: environment(),
    import: null,
    resources: suiteResources(server, {}),
    complete: false,
    interrupted: false,
    error: null,
    workloads: {},
    ...(shard ? { shard } : {}),
    ...(topology ? { topology } : {}),
  };
}

// `workload.params`: what one step of a suite's plan measures (the crud suite's document count and concurrency),
// recorded with its entry; absent for workloads that take none.
export function addWorkload(result, workload, supported) {
  const entry = supported
    ? {
      supported: true,
      compared: workload.compared,
      operation: workload.operation,
      description: workload.description,
      status: 'pending',
      valid: null,
      ops: 0,
      runs: [],
      summary: null,
      resources: null,
      failures: [],
    }
    : {
      supported: false,
      compared: workload.compared,
      operation: workload.operation,
      description: workload.description,
      status: 'unsupported',
      valid: null,
      ops: 0,
      runs: [],
      summary: null,
      resources: null,
      // Why the database cannot express it, where its adapter says (description.unsupported).
      ...(workload.unsupported ? { reason: workload.unsupported } : {}),
    };
  // The durability term its writes ran under (core/terms.js); absent for a workload that writes nothing it times.
  if (workload.durability) entry.durability = workload.durability;
  result.workloads[workload.name] = workload.params ? { ...entry, params: workload.params } : entry;
}

// A run that answered wrongly or failed keeps no time: only what went wrong, and what it used.
export function recordRun(result, name, run) {
  const entry = result.workloads[name];
  entry.ops = run.ops;
  if (run.valid) {
    entry.runs.push({
      run: run.run,
      valid: true,
      ms: round3(run.ms),
      opsPerSec: Math.round((run.ops / run.ms) * 1000),
      errors: 0,
      latencyMs: run.latencyMs,
      histogram: run.histogram,
      resources: run.resources ?? null,
      // An open-loop run: its target and achieved rates (runner/open-loop.js).
      ...(run.openLoop ? { openLoop: run.openLoop } : {}),
      // The rows a query returned (the queries suite).
      ...(run.rows !== undefined ? { rows: run.rows } : {}),
      // The edges the answers held or the writes carried, and the edge collection's size with the writes applied
      // (the graph suite).
      ...(run.edges !== undefined ? { edges: run.edges } : {}),
      ...(run.diskBytes !== undefined ? { diskBytes: run.diskBytes } : {}),
      // A shard's run: when its operations began and ended on the wall clock (results/merge.js spans them).
      ...(run.span ? { span: run.span } : {}),
      // A mix's latency per kind of operation (the mixed suite: get, update, insert, delete), each with its histogram.
      ...(run.byKind ? { byKind: run.byKind } : {}),
      // A run bounded by --duration, second by second: { intervalMs, ops, p50, p99 }.
      ...(run.series ? { series: run.series } : {}),
      // It took every operation of --ops before its --duration was up.
      ...(run.endedAtOps ? { endedAtOps: true } : {}),
      // A run on a cluster: what each node counted during it (runner/run.js nodeDifferences).
      ...(run.nodes ? { nodes: run.nodes } : {}),
      // How the operations spread over several endpoints: per endpoint, its connections and the operations it served.
      ...(run.spread ? { spread: run.spread } : {}),
      // Reads on replicas: how long the step waited, before its clock, for them to replay the primary's WAL.
      ...(run.replicaWaitMs !== undefined ? { replicaWaitMs: run.replicaWaitMs } : {}),
      // What the run started from (the mixed suite): 'load', with the load's own time, or 'the run before'.
      ...(run.startedFrom ? { startedFrom: run.startedFrom } : {}),
      ...(run.load ? { load: run.load } : {}),
    });
  } else {
    entry.runs.push({
      run: run.run, valid: false, errors: run.errors, failed: run.failed, reason: run.reason, resources: run.resources ?? null,
      ...(run.span ? { span: run.span } : {}),
      ...(run.nodes ? { nodes: run.nodes } : {}),
      ...(run.startedFrom ? { startedFrom: run.startedFrom } : {}),
      ...(run.load ? { load: run.load } : {}),
    });
    for (const example of run.examples) {
      if (entry.failures.length < MAX_EXAMPLES) entry.failures.push({ run: run.run, ...example });
    }
  }
  entry.valid = entry.runs.every((r) => r.valid);
  entry.status = entry.valid ? 'passed' : 'failed';
  entry.summary = entry.valid ? summarizeRuns(entry.runs.map((r) => r.ms)) : null;
  const byKind = entry.valid ? latencyByKind(entry.runs) : null;
  if (byKind) entry.latencyByKind = byKind;
  else delete entry.latencyByKind;
  entry.resources = workloadResources(entry.runs);
  result.resources = suiteResources(result.resources.server, result.workloads);
}

// A mix's latency per kind of operation over every run (their histograms added), or null when a run has none.
export function latencyByKind(runs) {
  if (runs.length === 0 || runs.some((run) => !run.byKind)) return null;
  const kinds = [...new Set(runs.flatMap((run) => Object.keys(run.byKind)))];
  return Object.fromEntries(kinds.map((kind) => [kind, mergeLatencies(runs.map((run) => run.byKind[kind]).filter(Boolean))]));
}

export function finishResult(result, { complete, interrupted = false, error = null }) {
  result.finishedAt = new Date().toISOString();
  result.complete = complete;
  result.interrupted = interrupted;
  result.error = error ? { code: error.code ?? null, message: error.message } : null;
  for (const entry of Object.values(result.workloads)) {
    if (entry.status === 'pending') entry.status = 'not run';
  }
  return result;
}

export function failedWorkloads(result) {
  return Object.entries(result.workloads)
    .filter(([, entry]) => entry.status === 'failed')
    .map(([name]) => name);
}

function round3(value) {
  return Math.round(value * 1000) / 1000;
}
