// One benchmark invocation: connect, import (or reuse) the dataset, then `runs` times over from a fresh
// connection: the warm-up and every selected workload, each timed by execute() and validated after
// the clock has stopped. The result document is handed to `onUpdate` after the import and after every
// run, so nothing completed is lost when a later step fails or the user interrupts.
import { BenchError, ErrorCodes, withTimeout } from '../core/errors.js';
import { packageVersion } from '../core/environment.js';
import { importDataset } from '../import/import.js';
import { abbreviate } from '../workloads/compare.js';
import { loadExpected } from '../workloads/expected.js';
import { isSupported } from '../workloads/suite.js';
import { addWorkload, createResult, finishResult, recordRun } from '../results/model.js';
import { summarizeLatencies } from '../results/stats.js';
import { measureDisk } from '../resources/disk.js';
import { measureRun, measureServer } from '../resources/measure.js';
import { execute } from './execute.js';
import { restartServer } from './restart.js';

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const MAX_EXAMPLES_PER_RUN = 3;

function endpoint(options) {
  return options.host ? `${options.host}${options.port ? `:${options.port}` : ''}` : null;
}

export async function connectAdapter(description, options) {
  const adapter = description.create(options);
  const where = endpoint(options);
  try {
    // The adapter must honour connectTimeoutMs itself; this bound only guards against one that does not.
    await withTimeout(adapter.connect(), options.connectTimeoutMs + 1000,
      `connecting took longer than ${options.connectTimeoutMs} ms`);
  } catch (error) {
    await adapter.close().catch(() => {});
    if (error.code === ErrorCodes.CONNECT) throw error;
    throw new BenchError(ErrorCodes.CONNECT,
      `cannot connect to ${description.name}${where ? ` at ${where}` : ''}: ${error.message}`, { cause: error });
  }
  return adapter;
}

function describeDataset(dataset) {
  return {
    id: dataset.id,
    name: dataset.name,
    scale: dataset.scale,
    seed: dataset.seed,
    profiles: dataset.profiles,
    relations: dataset.relations,
    sha256: dataset.sha256,
    // What preparing the dataset met in its files: lines repaired (invalid UTF-8) or skipped (--skip-bad),
    // relations dropped (the real Pokec's duplicates and dangling ids); null for a dataset prepared without.
    readStats: dataset.readStats ?? null,
  };
}

async function describeDb(description, adapter) {
  return {
    id: description.id,
    name: description.name,
    version: await adapter.serverVersion(),
    kind: description.kind,
    execution: description.execution,
    driver: description.driver ? { name: description.driver, version: packageVersion(description.driver) } : null,
    durability: description.durability,
    settings: adapter.settings ? await adapter.settings() : {},
  };
}

// `usage.resources` receives what the run used while its operations ran, even when the run then throws.
async function runWorkload({ workload, adapter, inputs, expected, config, signal, progress, run, server, usage }) {
  const bar = progress?.bar(`run ${run}/${config.runs} ${workload.name}`, inputs.length);
  if (workload.setup) await workload.setup(adapter);
  let outcome;
  const meter = await measureRun(server);
  try {
    outcome = await execute({
      inputs,
      call: workload.call,
      adapter,
      concurrency: config.concurrency,
      signal,
      stallTimeoutMs: config.stallTimeoutMs,
      onProgress: bar ? (done) => bar.update(done) : undefined,
    });
  } finally {
    usage.resources = await meter.stop();
    bar?.stop();
  }
  if (outcome.aborted) return null;

  const record = { run, ops: inputs.length, ms: outcome.wallMs, resources: usage.resources };
  if (outcome.errors.length > 0) {
    const stopped = outcome.completed < inputs.length ? `; stopped after ${outcome.completed} operations` : '';
    record.valid = false;
    record.errors = outcome.errors.length;
    record.failed = outcome.errors.length;
    record.reason = `${outcome.errors.length} operations failed${stopped}`;
    record.examples = outcome.errors.slice(0, MAX_EXAMPLES_PER_RUN)
      .map(({ index, error }) => ({ input: abbreviate(inputs[index]), problem: `error: ${error.message}` }));
  } else {
    const failures = await workload.check(expected, inputs, outcome.answers, adapter);
    record.valid = failures.length === 0;
    if (record.valid) {
      Object.assign(record, summarizeLatencies(outcome.latencies));
    } else {
      record.errors = 0;
      record.failed = failures.length;
      record.reason = `${failures.length} wrong answers`;
      record.examples = failures.slice(0, MAX_EXAMPLES_PER_RUN)
        .map(({ input, problem }) => ({ input: abbreviate(input), problem }));
    }
  }
  if (workload.teardown) await workload.teardown(adapter);
  return record;
}

function failedRecord(run, error, resources) {
  return {
    run, ops: 0, valid: false, errors: 1, failed: 1, reason: error.message, resources,
    examples: [{ input: null, problem: `error: ${error.message}` }],
  };
}

// The import's timings, the size of what it left on disk (also when it was reused) and, for a fresh import,
// what the server used meanwhile.
async function importMeasured({ adapter, description, options, dataset, reimport, progress, server }) {
  const meter = await measureServer(server);
  let imported;
  let serverUsage;
  try {
    imported = await importDataset({ adapter, description, options, dataset, force: reimport, progress });
  } finally {
    serverUsage = await meter.stop();
  }
  const disk = await measureDisk({ adapter, dataDir: server?.dataDir, log: progress?.log });
  return { ...imported, ...disk, resources: imported.reused ? null : { server: serverUsage } };
}

// `server`: the local server process to sample ({ pid, source, dataDir, and for source 'bench server' its
// family and cacheDir }), or null.
export async function runBenchmark({
  description, adapterOptions, dataset, workloads, config, command, signal, progress, onUpdate = () => {}, reimport = false,
  server = null,
}) {
  const setupAdapter = await connectAdapter(description, adapterOptions);
  let result;
  try {
    result = createResult({
      db: await describeDb(description, setupAdapter),
      dataset: describeDataset(dataset),
      config,
      command,
      server: server && { pid: server.pid, source: server.source },
    });
    for (const workload of workloads) addWorkload(result, workload, isSupported(description, workload));
    const { sha256, ...imported } = await importMeasured({
      adapter: setupAdapter, description, options: adapterOptions, dataset, reimport, progress, server,
    });
    // The checksums of the bytes the import read; a reused import's, which its marker matched to the manifest.
    result.dataset.sha256 = sha256;
    result.import = imported;
  } finally {
    await setupAdapter.close();
  }
  await onUpdate(result);

  const supported = workloads.filter((workload) => result.workloads[workload.name].supported);
  const expected = await loadExpected(dataset, supported);
  const inputs = new Map(supported.map((workload) => [workload.name, workload.inputs(expected)]));

  try {
    for (let run = 1; run <= config.runs && !signal?.aborted; run += 1) {
      if (run > 1 && config.restartCmd) {
        progress?.log(`restarting the server: ${config.restartCmd}`);
        await restartServer(config.restartCmd);
      }
      const adapter = await connectAdapter(description, adapterOptions);
      try {
        for (const workload of supported) {
          if (signal?.aborted) break;
          let record;
          const usage = { resources: null };
          try {
            record = await runWorkload({
              workload, adapter, inputs: inputs.get(workload.name), expected, config, signal, progress, run, server, usage,
            });
          } catch (error) {
            recordRun(result, workload.name, failedRecord(run, error, usage.resources));
            // A stalled server will stall every following workload too.
            if (error.code === ErrorCodes.TIMEOUT) throw error;
            continue;
          }
          if (record) recordRun(result, workload.name, record);
        }
      } finally {
        await adapter.close();
      }
      if (!signal?.aborted) await onUpdate(result);
    }
  } catch (error) {
    finishResult(result, { complete: false, error });
    await onUpdate(result);
    throw Object.assign(error, { result });
  }
  finishResult(result, { complete: !signal?.aborted, interrupted: Boolean(signal?.aborted) });
  await onUpdate(result);
  return result;
}
