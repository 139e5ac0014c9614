// The result document: one JSON object per invocation, schema "db-shootout/result@1", defined field by
// field in results/README.md. It is built up while the benchmark runs and written after every run, so
// an interrupted invocation still leaves its completed runs behind.
import { environment, harness } from '../core/environment.js';
import { summarizeRuns } from './stats.js';

export const RESULT_SCHEMA = 'db-shootout/result@1';
const MAX_EXAMPLES = 5;

export function createResult({ db, dataset, config, command }) {
  return {
    schema: RESULT_SCHEMA,
    harness: harness(),
    command,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    db,
    dataset,
    config,
    environment: environment(),
    import: null,
    complete: false,
    interrupted: false,
    error: null,
    workloads: {},
  };
}

export function addWorkload(result, workload, supported) {
  result.workloads[workload.name] = supported
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
    };
}

// A run that answered wrongly or failed keeps no time: only what went wrong.
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
    });
  } else {
    entry.runs.push({ run: run.run, valid: false, errors: run.errors, failed: run.failed, reason: run.reason });
    for (const example of run.examples) {
      if (entry.failures.length < MAX_EXAMPLES) entry.failures.push({ run: run.run, ...example });
    }
  }
  entry.valid = entry.runs.every((r) => r.valid);
  entry.status = entry.valid ? 'passed' : 'failed';
  entry.summary = entry.valid ? summarizeRuns(entry.runs.map((r) => r.ms)) : null;
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
