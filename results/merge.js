// `bench merge`: the partial results of one sharded run (`bench run --shard i/n`, one document per shard) as one
// ordinary result document. Per workload and run: the shards' operations added, their HDR histograms added (the
// percentiles of every operation of every shard, as one process timing them all would give), the time from the
// earliest shard's start to the latest one's end (so the throughput is every operation over that span), valid only
// when every shard's check passed. The shards must be exactly those of one run: a document of another run, a shard
// given twice, a missing or unfinished one is refused, naming them.
import { mergeLatencyParts } from './stats.js';
import { finishResult, recordRun } from './model.js';
import { suiteResources } from '../resources/summary.js';
import { usageError } from '../core/errors.js';
import { BEHIND_RATIO } from '../runner/open-loop.js';

const MAX_EXAMPLES = 5;

const named = ({ file, result }) => `${file} (shard ${result.shard.index} of ${result.shard.count})`;

// The documents as one run's shards 0..n-1, in shard order, or a usage error saying what is wrong with them.
export function orderShards(documents) {
  const stray = documents.filter(({ result }) => !result?.shard);
  if (stray.length > 0) {
    throw usageError(`not a partial result of a sharded run (bench run --shard): ${stray.map(({ file }) => file).join(', ')}`);
  }
  if (documents.length === 0) throw usageError('no partial results to merge');
  const runs = [...new Set(documents.map(({ result }) => result.shard.runId))];
  if (runs.length > 1) {
    const lines = runs.map((run) => `run ${run}: ${documents.filter(({ result }) => result.shard.runId === run).map(({ file }) => file).join(', ')}`);
    throw usageError(`the partial results are of ${runs.length} different runs; merge one run at a time\n${lines.join('\n')}`);
  }
  const counts = [...new Set(documents.map(({ result }) => result.shard.count))];
  if (counts.length > 1) throw usageError(`the shards of run ${runs[0]} disagree on their number: ${counts.join(', ')}`);
  const [count] = counts;
  const byIndex = Array.from({ length: count }, () => []);
  for (const document of documents) byIndex[document.result.shard.index].push(document);
  const twice = byIndex.filter((found) => found.length > 1);
  if (twice.length > 0) {
    throw usageError(`a shard is given more than once: ${twice.map((found) => `shard ${found[0].result.shard.index} in ${found.map(({ file }) => file).join(' and ')}`).join('; ')}`);
  }
  const missing = byIndex.flatMap((found, index) => (found.length === 0 ? [index] : []));
  if (missing.length > 0) {
    throw usageError(`run ${runs[0]} is missing ${missing.length === 1 ? 'shard' : 'shards'} ${missing.join(', ')} of ${count}: `
      + `only ${count - missing.length} of its ${count} partial results were given`);
  }
  const unfinished = documents.filter(({ result }) => !result.complete);
  if (unfinished.length > 0) {
    throw usageError(`run ${runs[0]} has unfinished shards (stopped before their end, complete: false): `
      + `${unfinished.map((document) => `${named(document)}${document.result.error ? `: ${document.result.error.message}` : ''}`).join('; ')}`);
  }
  return byIndex.map(([document]) => document);
}

// The open-loop figures of the shards' runs: their targets add up, the achieved rate is every answer over the span.
function mergeOpenLoop(runs, ops, ms) {
  const parts = runs.map((run) => run.openLoop);
  if (parts.some((part) => !part)) return null;
  const targetRate = parts.reduce((total, part) => total + part.targetRate, 0);
  const achievedRate = ms > 0 ? Math.round((ops / ms) * 1000) : 0;
  const lagMean = runs.reduce((total, run) => total + run.openLoop.sendLagMs.mean * run.ops, 0) / Math.max(1, ops);
  const summary = {
    targetRate,
    achievedRate,
    sendLagMs: { mean: Math.round(lagMean * 1000) / 1000, max: Math.max(...parts.map((part) => part.sendLagMs.max)) },
    note: null,
  };
  if (achievedRate < targetRate * BEHIND_RATIO) {
    summary.note = `achieved ${achievedRate} ops/s, ${Math.round((1 - achievedRate / targetRate) * 100)}% below the target of `
      + `${targetRate} ops/s (the shards' targets added): the answers could not keep up with the schedule`;
  }
  return summary;
}

// The resources of one merged run: no server figures (each shard sampled the server only when it ran beside it),
// the busiest shard's client figures with every shard's own, and client-bound when any shard was.
function mergeResources(runs) {
  const clients = runs.map((run) => run.resources?.client ?? null);
  if (clients.some((client) => client === null)) return null;
  const busiest = clients.reduce((top, client) => (client.cpuPct > top.cpuPct ? client : top));
  return {
    server: null,
    client: {
      cpuPct: busiest.cpuPct,
      eventLoopDelayP99Ms: Math.max(...clients.map((client) => client.eventLoopDelayP99Ms)),
      processes: clients.map(({ cpuPct, eventLoopDelayP99Ms }) => ({ cpuPct, eventLoopDelayP99Ms })),
    },
    clientBound: runs.some((run) => run.resources?.clientBound),
  };
}

// A mix's latency per kind over every shard's operations (their histograms added), in the shape of one run's
// `byKind`; null unless every shard timed its kinds apart.
function mergeByKind(runs) {
  if (runs.some((run) => !run.byKind)) return null;
  const kinds = [...new Set(runs.flatMap((run) => Object.keys(run.byKind)))];
  return Object.fromEntries(kinds.map((kind) => {
    const parts = runs.map((run) => run.byKind[kind]).filter(Boolean);
    const merged = mergeLatencyParts(parts.map((part) => ({
      histogram: part.histogram, count: part.operations, sum: part.latencyMs.mean * part.operations, max: part.latencyMs.max,
    })));
    return [kind, { operations: parts.reduce((total, part) => total + part.operations, 0), ...merged }];
  }));
}

// One run of one workload over every shard, in the shape recordRun() takes.
function mergeRun(number, runs, failuresOf) {
  const ops = runs.reduce((total, run) => total + (run.valid ? run.ops : 0), 0);
  const resources = mergeResources(runs);
  const failed = runs.map((run, index) => ({ run, index })).filter(({ run }) => !run.valid);
  if (failed.length > 0) {
    return {
      run: number,
      valid: false,
      errors: failed.reduce((total, { run }) => total + (run.errors ?? 0), 0),
      failed: failed.reduce((total, { run }) => total + (run.failed ?? 0), 0),
      reason: failed.map(({ run, index }) => `shard ${index}: ${run.reason}`).join('; '),
      resources,
      examples: failed.flatMap(({ index }) => failuresOf(index, number).map((example) => ({
        input: example.input, problem: `shard ${index}: ${example.problem}`,
      }))).slice(0, MAX_EXAMPLES),
    };
  }
  const start = Math.min(...runs.map((run) => run.span.startMs));
  const end = Math.max(...runs.map((run) => run.span.endMs));
  const merged = mergeLatencyParts(runs.map((run) => ({
    histogram: run.histogram, count: run.ops, sum: run.latencyMs.mean * run.ops, max: run.latencyMs.max,
  })));
  const openLoop = mergeOpenLoop(runs, ops, end - start);
  const byKind = mergeByKind(runs);
  return {
    run: number,
    valid: true,
    ops,
    ms: end - start,
    ...merged,
    resources,
    ...(openLoop ? { openLoop } : {}),
    ...(byKind ? { byKind } : {}),
    span: { startMs: start, endMs: end, shards: runs.map((run) => run.span) },
  };
}

// The shards' documents (`{ file, result }`, any order) as one result document.
export function mergeShards(documents) {
  const shards = orderShards(documents);
  const results = shards.map(({ result }) => result);
  const [first] = results;
  const names = Object.keys(first.workloads);
  const differ = results.find((result) => Object.keys(result.workloads).join('\n') !== names.join('\n'));
  if (differ) throw usageError(`shard ${differ.shard.index} ran other workloads than shard 0: were they given the same flags?`);

  const merged = {
    ...structuredClone(first),
    command: first.command.replace(/\s--shard(=|\s+)\S+/, ''),
    startedAt: results.map((result) => result.startedAt).sort()[0],
    config: { ...first.config, shards: first.shard.count },
    import: first.import,
    resources: suiteResources(null, {}),
    workloads: {},
    shards: {
      count: first.shard.count,
      runId: first.shard.runId,
      startAt: first.shard.startAt,
      machines: results.map((result, index) => ({
        shard: index, hostname: result.environment.hostname, file: shards[index].file, clock: result.shard.clock, environment: result.environment,
      })),
    },
  };
  delete merged.shard;
  for (const name of names) {
    const entry = first.workloads[name];
    const { runs, summary, failures, resources, ...meta } = entry;
    merged.workloads[name] = {
      ...meta, status: entry.supported ? 'pending' : entry.status, valid: null, ops: 0, runs: [], summary: null, resources: null,
      ...(entry.supported ? { failures: [] } : {}),
    };
    if (!entry.supported) continue;
    const numbers = [...new Set(results.flatMap((result) => result.workloads[name].runs.map((run) => run.run)))].sort((a, b) => a - b);
    for (const number of numbers) {
      const found = results.map((result) => result.workloads[name].runs.find((run) => run.run === number));
      const absent = found.findIndex((run) => run === undefined);
      if (absent >= 0) throw usageError(`shard ${absent} has no run ${number} of ${name} (the others have)`);
      // A run records no operation count of its own: its workload's, the same for every run of one shard.
      const runs = found.map((run, index) => ({ ...run, ops: results[index].workloads[name].ops }));
      const failuresOf = (index, run) => results[index].workloads[name].failures.filter((failure) => failure.run === run);
      recordRun(merged, name, mergeRun(number, runs, failuresOf));
    }
  }
  const errors = results.filter((result) => result.error);
  finishResult(merged, {
    complete: results.every((result) => result.complete),
    interrupted: results.some((result) => result.interrupted),
    error: errors.length > 0 ? { code: errors[0].error.code, message: `shard ${errors[0].shard.index}: ${errors[0].error.message}` } : null,
  });
  merged.finishedAt = results.map((result) => result.finishedAt).sort().at(-1);
  return merged;
}
