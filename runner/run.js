// One benchmark invocation of any suite: connect, load what the suite needs (the social suite imports or reuses
// its dataset), then the suite's rounds (a run, or a concurrency level of a run), each over a fresh connection:
// every selected workload, timed by execute() and validated after the clock has stopped. The result document is
// handed to `onUpdate` after the load and after every round, so nothing completed is lost when a later step
// fails or the user interrupts.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { BenchError, ErrorCodes, withTimeout } from '../core/errors.js';
import { packageVersion } from '../core/environment.js';
import { abbreviate } from '../workloads/compare.js';
import { SUITES, isSupported } from '../workloads/index.js';
import { serverSupports } from '../adapters/server-supports.js';
import { DEFAULT_DURABILITY, termObstacle, workloadDurability } from '../core/terms.js';
import { addWorkload, createResult, finishResult, recordRun } from '../results/model.js';
import { summarizeLatencies } from '../results/stats.js';
import { measureDisk } from '../resources/disk.js';
import { clientCost, costIsBound, ownIo } from '../resources/client.js';
import { answering } from './answering.js';
import { ioDifference } from '../resources/io.js';
import { measureRun, measureServer } from '../resources/measure.js';
import { checkClients, startClients } from './clients.js';
import { DEFAULT_STALL_TIMEOUT_MS, execute } from './execute.js';
import { executeOpenLoop } from './open-loop.js';
import { restartServer } from './restart.js';
import { runningServer } from '../server/state.js';
import { settleTerms } from './terms.js';
import {
  checkShardedSuite, createCoordinator, measureClockOffset, shareOf, sleepUntil, wallNow,
} from './shards.js';

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const MAX_EXAMPLES_PER_RUN = 3;

function endpoint(options) {
  return options.host ? `${options.host}${options.port ? `:${options.port}` : ''}` : null;
}

// How long connect() may take: --connect-timeout, or an embedded adapter's own openTimeoutMs when that is longer.
export function connectLimitMs(description, options) {
  const open = description.kind === 'embedded' ? description.connection?.openTimeoutMs ?? 0 : 0;
  return Math.max(options.connectTimeoutMs, open);
}

export async function connectAdapter(description, options) {
  const adapter = description.create(options);
  const where = endpoint(options);
  try {
    // The adapter must honour connectTimeoutMs itself; this bound only guards against one that does not. An
    // embedded engine has no server to wait for, and its first open may take longer (PGlite runs initdb):
    // `connection.openTimeoutMs` is its own bound, when longer.
    const limitMs = connectLimitMs(description, options);
    await withTimeout(adapter.connect(), limitMs + 1000, `connecting took longer than ${limitMs} ms`);
  } catch (error) {
    await adapter.close().catch(() => {});
    if (error.code === ErrorCodes.CONNECT) throw error;
    throw new BenchError(ErrorCodes.CONNECT,
      `cannot connect to ${description.name}${where ? ` at ${where}` : ''}: ${error.message}`, { cause: error });
  }
  return adapter;
}

// Whether `driver` is one of the adapter's drivers whose calls block the process until the server answers.
export function blockingDriver(description, driver) {
  return Boolean(driver) && (description.blockingDrivers ?? []).includes(driver);
}

// What a result records of the database: versions, driver (the one selected, `--driver`), durability claims and
// the server's settings.
export async function describeDb(description, adapter, driver = description.driver) {
  return {
    id: description.id,
    name: description.name,
    version: await adapter.serverVersion(),
    kind: description.kind,
    execution: description.execution,
    // A blocking driver carries the timed operations alone, in client processes; the untimed work goes through the
    // adapter's first driver.
    driver: driver ? {
      name: driver, version: packageVersion(driver),
      ...(blockingDriver(description, driver) && { blocking: true, untimed: description.drivers[0] }),
    } : null,
    durability: description.durability,
    durablePerWrite: description.durablePerWrite ?? [],
    settings: adapter.settings ? await adapter.settings() : {},
  };
}

// What a result records of a run on several endpoints (a cluster's nodes), or null for one server: each node's
// endpoint, role and state as it reports them, how the connections were spread, and for a cluster `bench server`
// runs on this machine, that its nodes share this machine's cores and memory.
export async function describeTopology(description, adapter, options, server) {
  const state = server?.source === 'bench server' ? runningServer(server.cacheDir, server.family) : null;
  const owned = options.cluster ? state?.cluster ?? null : null;
  if (!(options.endpoints?.length > 1) && !owned) return null;
  const figures = adapter.nodeFigures ? await adapter.nodeFigures() : [];
  return {
    kind: owned?.kind ?? (figures.some((node) => node.galera) ? 'galera' : figures.some((node) => node.postgres) ? 'streaming' : 'endpoints'),
    readsFrom: options.readFrom ?? 'primary',
    nodes: options.endpoints.map(({ host, port }, i) => {
      const where = `${host}:${port}`;
      const own = owned?.nodes.find((node) => `${node.host}:${node.port}` === where);
      const reported = figures.find((node) => node.endpoint === where);
      return {
        name: own?.name ?? reported?.galera?.node ?? `node ${i + 1}`, endpoint: where, role: own?.role ?? reported?.postgres?.role ?? null,
        ...(reported?.galera && { galera: reported.galera }),
      };
    }),
    spread: description.connection?.spread ?? null,
    // --node-vcpus: what each node may use, as the user knows it (a cluster the harness does not own).
    ...(options.nodeVcpus && { nodeVcpus: options.nodeVcpus }),
    ...(owned && {
      owner: 'bench server', provider: owned.provider, providerOptions: owned.providerOptions, sst: owned.sst, roles: owned.roles,
      reads: owned.reads ?? null,
      machine: { shared: true, vcpus: os.availableParallelism?.() ?? os.cpus().length, memoryBytes: os.totalmem() },
    }),
  };
}

// One step of a round: `workload` over its `inputs`, timed, then validated. `params` (null for a suite whose
// workloads take none) reach the workload's call, setup, check and teardown; a `rate` among them runs the step open
// loop. A `timed` workload's check also gets each operation's start and end. `usage.resources` receives what the
// step used while its operations ran, even when it then throws. With `config.clients` above 1 the operations run
// in client processes (runner/clients.js), connected and ready before the clock starts; setup, check and teardown
// stay here, on this process's connection. `sharded` (a `--shard` run): `startAt()` resolves with the wall-clock
// instant at which every shard starts the step, and `owns` tells the check which keys are this shard's.
async function runWorkload({
  step, adapter, inputs, expected, round, config, signal, progress, server, usage, clientsOf, sharded = null, embedded = false,
  inProcesses = config.clients > 1,
}) {
  const { workload, params } = step;
  // The untimed work after the clock talks to the database too: bounded by the stall timeout while it waits on it
  // (answering.js). Not the setup: a database's own warm-up or a reload is one long request.
  const untimed = answering(adapter, config.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS);
  if (workload.setup) await workload.setup(adapter, params);
  const call = params ? (target, input) => workload.call(target, input, params) : workload.call;
  // Unmeasured executions first (the queries suite's warm-up), under the same stall bound; an error in one fails
  // the step.
  for (let warmup = 0; warmup < (step.warmups ?? 0); warmup += 1) {
    const warm = await execute({
      inputs, call, adapter, concurrency: round.concurrency, signal, stallTimeoutMs: config.stallTimeoutMs,
    });
    if (warm.aborted) return null;
    if (warm.errors.length > 0) throw new Error(`warm-up: ${warm.errors[0].error.message}`);
  }
  const clients = inProcesses ? await clientsOf(step, inputs) : null;
  // Once started, the client processes are closed however the step ends: a shards' meeting that fails included.
  let startAt = null;
  let bar;
  let meter = null;
  let outcome;
  let began = null;
  let nodesBefore = null;
  let replicaWaitMs = null;
  let spreadBefore = null;
  // The count last shown: a step that threw has no outcome to count from.
  let shown = 0;
  try {
    startAt = sharded ? await sharded.startAt() : null;
    bar = progress?.bar(step.label ?? `${round.label} ${step.key}`, inputs.length);
    const onProgress = bar ? (done) => { shown = done; bar.update(done); } : undefined;
    // A cluster's nodes count what each of them did (the statements it ran, the bytes it took and sent, what it
    // replicated and wrote): read before and after the step, the step's share recorded per node.
    nodesBefore = config.connection?.endpoints && adapter.nodeFigures ? await untimed.guard(adapter.nodeFigures(), 'reading the nodes\' counters') : null;
    // Reads on replicas: every write so far (the round's load) replayed on each of them first.
    replicaWaitMs = adapter.awaitReplicas ? await untimed.guard(adapter.awaitReplicas(), 'waiting for the replicas') : null;
    spreadBefore = adapter.spread?.() ?? null;
    meter = await measureRun(server);
    if (startAt !== null) await sleepUntil(startAt);
    began = wallNow();
    const executor = params?.rate ? executeOpenLoop : execute;
    outcome = clients ? await clients.run({ signal, onProgress }) : await executor({
      inputs,
      call,
      adapter,
      concurrency: round.concurrency,
      rate: params?.rate,
      times: Boolean(workload.timed),
      signal,
      stallTimeoutMs: config.stallTimeoutMs,
      onProgress,
      durationMs: params?.durationS ? params.durationS * 1000 : null,
    });
  } finally {
    // A step that writes reads the server's I/O once more after it (workload.ioSettleMs): writes it deferred count.
    if (meter) usage.resources = await meter.stop(outcome?.clients, { ioSettleMs: outcome && !outcome.aborted ? workload.ioSettleMs ?? 0 : 0 });
    // The count that completed, never the total: an interrupted or failed step must not read as finished.
    const unfinished = !outcome ? 'failed' : outcome.aborted ? `interrupted: ${outcome.completed} of ${inputs.length} done, not recorded` : null;
    bar?.stop(outcome ? outcome.completed : shown, unfinished);
    await clients?.close();
  }
  if (outcome.aborted) return null;

  const run = step.run ?? round.run;
  // A run bounded by --duration took a prefix of its operations: those are the run, checked and counted.
  if (outcome.stoppedAtDuration) ({ inputs, outcome } = takenPrefix(inputs, outcome));
  const record = { run, ops: inputs.length, ms: outcome.wallMs, resources: usage.resources };
  if (nodesBefore) record.nodes = nodeDifferences(nodesBefore, await untimed.guard(adapter.nodeFigures(), 'reading the nodes\' counters'));
  if (replicaWaitMs !== null) record.replicaWaitMs = replicaWaitMs;
  // How the step's operations spread over the endpoints, as the harness's own pools counted them.
  const spread = outcome.spread ?? (spreadBefore && spreadGrowth(spreadBefore, adapter.spread()));
  if (spread) record.spread = spread;
  if (params?.durationS) record.series = perSecond(outcome, params.durationS);
  // Every operation taken before the time was up: the run was bounded by --ops, not by --duration, and says so.
  if (params?.durationS && !outcome.stoppedAtDuration && outcome.completed === inputs.length) record.endedAtOps = true;
  if (outcome.openLoop) record.openLoop = outcome.openLoop;
  if (sharded) {
    // Client processes start together a moment after the call: their first start is the span's.
    const start = outcome.starts ? performance.timeOrigin + Math.min(...outcome.starts) : began;
    record.span = { startAt: new Date(startAt).toISOString(), startMs: start, endMs: start + outcome.wallMs, lateMs: start - startAt };
  }
  if (outcome.errors.length > 0) {
    const stopped = outcome.completed < inputs.length ? `; stopped after ${outcome.completed} operations` : '';
    record.valid = false;
    record.errors = outcome.errors.length;
    record.failed = outcome.errors.length;
    record.reason = `${outcome.errors.length} operations failed${stopped}`;
    record.examples = outcome.errors.slice(0, MAX_EXAMPLES_PER_RUN)
      .map(({ index, error }) => ({ input: abbreviate(inputs[index]), problem: `error: ${error.message}` }));
  } else {
    const checked = sharded ? { ...params, owns: sharded.owns } : params;
    const failures = await untimed.guard(workload.check(expected, inputs, outcome.answers, untimed.adapter, checked, outcome.times),
      `checking ${step.key}`);
    record.valid = failures.length === 0;
    if (record.valid) {
      Object.assign(record, outcome.latency ?? summarizeLatencies(outcome.latencies), workload.tally?.(inputs, outcome.answers));
      // The harness's own CPU per operation against the operation's latency: a server's run whose client spends
      // more than half of it is the client's figure as much as the database's (resources/client.js).
      const cost = clientCost(usage.resources, { ops: inputs.length, ms: outcome.wallMs, meanLatencyMs: record.latencyMs?.mean ?? 0 });
      if (cost) {
        Object.assign(usage.resources.client, cost);
        if (costIsBound(cost, { embedded, wallMs: outcome.wallMs })) usage.resources.clientBound = true;
      }
      // A mix of operation kinds (the mixed suite's gets, updates, inserts, deletes): each kind's latency apart.
      const byKind = workload.kindOf ? latenciesByKind(inputs, operationLatencies(outcome), workload.kindOf) : null;
      if (byKind) record.byKind = byKind;
    } else {
      record.errors = 0;
      record.failed = failures.length;
      record.reason = `${failures.length} wrong answers`;
      record.examples = failures.slice(0, MAX_EXAMPLES_PER_RUN)
        .map(({ input, problem }) => ({ input: abbreviate(input), problem }));
    }
  }
  // Figures of the state the step left, read before its teardown (the graph suite's size on disk after writes).
  if (workload.figures) Object.assign(record, await untimed.guard(workload.figures(untimed.adapter, params), `measuring ${step.key}`));
  if (workload.teardown) await untimed.guard(workload.teardown(untimed.adapter, params, expected), `after ${step.key}`);
  return record;
}

// Per endpoint, the operations a pool served between two readings of its spread() (adapters/spread.js).
export function spreadGrowth(before, after) {
  return after.map((now) => ({
    endpoint: now.endpoint, connections: now.connections,
    operations: now.operations - (before.find((then) => then.endpoint === now.endpoint)?.operations ?? 0),
  }));
}

// Per node, what its counters (an adapter's nodeFigures()) grew by between `before` and `after`; its cluster state
// as it was after.
export function nodeDifferences(before, after) {
  return after.map((node) => {
    const earlier = before.find((one) => one.endpoint === node.endpoint) ?? {};
    const grown = Object.fromEntries(Object.entries(node)
      .filter(([name, value]) => typeof value === 'number' && typeof earlier[name] === 'number')
      .map(([name, value]) => [name, value - earlier[name]]));
    return { endpoint: node.endpoint, ...grown, ...(node.galera && { galera: node.galera }), ...(node.postgres && { postgres: node.postgres }) };
  });
}

// The operations a run bounded by --duration took (a prefix of its inputs, every one answered), and the outcome
// cut to them.
function takenPrefix(inputs, outcome) {
  const n = outcome.completed;
  const cut = (values) => (values ? values.slice(0, n) : values);
  return {
    inputs: inputs.slice(0, n),
    outcome: {
      ...outcome,
      answers: outcome.answers.slice(0, n),
      latencies: cut(outcome.latencies),
      times: outcome.times ? { starts: cut(outcome.times.starts), ends: cut(outcome.times.ends) } : null,
    },
  };
}

// The run second by second, from the first operation's start: per second, the operations that ended in it and their
// latency's p50 and p99 (ms; null for a second with none). `{ intervalMs, ops, p50, p99 }`, one entry per second.
export function perSecond(outcome, durationS) {
  const { times, latencies } = outcome;
  if (!times?.starts || !latencies || latencies.length === 0) return null;
  const origin = Math.min(...times.starts.slice(0, Math.min(times.starts.length, 1000)));
  // The answers to the operations in flight when the time was up land in its last second.
  let last = 0;
  for (const end of times.ends) if (end > last) last = end;
  const seconds = Math.max(1, Math.min(Math.ceil(durationS), Math.ceil((last - origin) / 1000)));
  const buckets = Array.from({ length: seconds }, () => []);
  for (let i = 0; i < latencies.length; i += 1) {
    const second = Math.min(seconds - 1, Math.max(0, Math.floor((times.ends[i] - origin) / 1000)));
    buckets[second].push(latencies[i]);
  }
  const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round3 = (value) => Math.round(value * 1000) / 1000;
  const ops = [];
  const p50 = [];
  const p99 = [];
  for (const bucket of buckets) {
    const sorted = Float64Array.from(bucket).sort();
    ops.push(bucket.length);
    p50.push(bucket.length > 0 ? round3(quantile(sorted, 0.5)) : null);
    p99.push(bucket.length > 0 ? round3(quantile(sorted, 0.99)) : null);
  }
  return { intervalMs: 1000, ops, p50, p99 };
}

// Each operation's latency as the run measured it: execute()'s and the open loop's own, else (operations timed by
// client processes, which send their histogram only) each one's end less its start, which is the same figure in a
// closed loop (a worker's next operation starts when its last one ends). Null when neither was kept.
function operationLatencies(outcome) {
  if (outcome.latencies) return outcome.latencies;
  if (!outcome.times?.starts || !outcome.times?.ends) return null;
  const { starts, ends } = outcome.times;
  return Float64Array.from(ends, (end, index) => end - starts[index]);
}

// { <kind>: summarizeLatencies() of that kind's operations }, kinds in the order they first occur; null with one kind
// or none (the overall latency says it all), or without latencies.
export function latenciesByKind(inputs, latencies, kindOf) {
  if (!latencies) return null;
  const groups = new Map();
  for (let index = 0; index < inputs.length; index += 1) {
    const kind = kindOf(inputs[index]);
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(latencies[index]);
  }
  if (groups.size < 2) return null;
  return Object.fromEntries([...groups].map(([kind, values]) => [kind, { operations: values.length, ...summarizeLatencies(values) }]));
}

function failedRecord(run, error, resources) {
  return {
    run, ops: 0, valid: false, errors: 1, failed: 1, reason: error.message, resources,
    examples: [{ input: null, problem: `error: ${error.message}` }],
  };
}

// What the suite loads before its runs (the social suite's import), with the size it left on disk (also when
// reused) and, for a fresh load, what the server used meanwhile. Null for a suite that imports nothing.
async function loadMeasured({ suite, adapter, description, options, data, reimport, progress, server, config }) {
  if (!suite.load) return null;
  const meter = await measureServer(server);
  // An embedded database loads from this process: its I/O is the harness's own (the files read included).
  const ioBefore = description.kind === 'embedded' ? ownIo() : null;
  let loaded;
  let serverUsage;
  try {
    loaded = await suite.load({ adapter, description, options, data, reimport, progress, server, config });
  } finally {
    serverUsage = await meter.stop();
  }
  if (!loaded) return null;
  const client = ioBefore ? { client: { io: ioDifference(ownIo(), ioBefore) } } : {};
  const disk = await measureDisk({ adapter, dataDir: server?.dataDir, log: progress?.log });
  return { ...loaded, ...disk, resources: loaded.reused ? null : { server: serverUsage, ...client } };
}

// The result entries of a plan: each step key once, in the order the rounds first name it.
function planEntries(rounds) {
  const entries = new Map();
  for (const round of rounds) {
    for (const step of round.steps) if (!entries.has(step.key)) entries.set(step.key, step);
  }
  return [...entries.values()];
}

// One round: a fresh connection with a pool of the round's concurrency, the round's own setup, its steps in
// order, its teardown. In a chained round (each step works on what the one before stored) a failed step leaves
// the later ones unmeasured, each recorded as failed with the reason. A stalled step ends the whole benchmark
// (every later step would stall too), unless the round says `stallFailsRound`: then it ends the round alone.
// In a `--shard` run (`sharding`, below) shard 0 alone sets a round up and tears it down, the others run their
// share of its steps.
async function runRound({
  round, result, description, adapterOptions, clientOptions = adapterOptions, expected, inputs, config, signal, progress, server, suiteId,
  sharding = null,
}) {
  const adapter = await connectAdapter(description, { ...adapterOptions, concurrency: round.concurrency });
  // A blocking driver: one client process per operation in flight, whatever --clients says (cli/run.js refuses
  // another count).
  const perOperation = blockingDriver(description, clientOptions.driver);
  const clientsOf = (step, stepInputs) => startClients({
    clients: perOperation ? round.concurrency : config.clients,
    description,
    adapterOptions: clientOptions,
    suiteId,
    step,
    inputs: stepInputs,
    concurrency: round.concurrency,
    rate: step.params?.rate,
    times: Boolean(step.workload.timed),
    stallTimeoutMs: config.stallTimeoutMs,
  });
  let broken = null;
  const leader = !sharding || sharding.leader;
  try {
    // What the round's setup says of the state it prepared (the mixed suite: loaded, and in what time, or the run
    // before's) goes into each of its runs' records.
    const prepared = round.setup && leader ? await round.setup(adapter, expected) : null;
    const start = prepared?.startedFrom ? { startedFrom: prepared.startedFrom, ...(prepared.load && { load: prepared.load }) } : null;
    for (const step of round.steps) {
      if (signal?.aborted) break;
      if (!result.workloads[step.key].supported) continue;
      if (broken) {
        recordRun(result, step.key, failedRecord(step.run ?? round.run, new Error(`not run: ${broken} failed before it in this round`), null));
        continue;
      }
      let record;
      const usage = { resources: null };
      const share = sharding?.share(step, inputs(step));
      let failure = null;
      try {
        record = await runWorkload({
          step, adapter, inputs: share ? share.inputs : inputs(step), expected, round, config, signal, progress, server, usage,
          embedded: description.kind === 'embedded',
          clientsOf, sharded: share, inProcesses: perOperation || config.clients > 1,
        });
      } catch (error) {
        failure = error;
      }
      // A shard reports its step done however it ended, unless the shards' meeting itself failed.
      if (share && !failure?.meeting) await share.done();
      if (failure) {
        recordRun(result, step.key, { ...failedRecord(step.run ?? round.run, failure, usage.resources), ...start });
        // A stalled server will stall every following workload too; shards that no longer meet cannot go on.
        if ((failure.code === ErrorCodes.TIMEOUT && !round.stallFailsRound) || failure.meeting) throw failure;
        if (round.chained || failure.code === ErrorCodes.TIMEOUT) broken = step.key;
        continue;
      }
      if (record) {
        if (start) Object.assign(record, start);
        recordRun(result, step.key, record);
        if (!record.valid && round.chained) broken = step.key;
      }
    }
    if (round.teardown && leader) {
      const untimed = answering(adapter, config.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS);
      await untimed.guard(round.teardown(untimed.adapter, expected), `ending ${round.label ?? 'the round'}`);
    }
  } finally {
    await adapter.close();
  }
}

// What the rounds kept for a next round that did not run (the mixed suite's collection, after an interruption or
// an error between rounds): removed on a connection of its own, bounded by the stall timeout.
async function dropLeftover(rounds, { description, adapterOptions, config, leader }) {
  if (!rounds.leftover || !leader || !rounds.keeping()) return;
  const adapter = await connectAdapter(description, { ...adapterOptions, concurrency: 1 });
  try {
    const untimed = answering(adapter, config.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS);
    await untimed.guard(rounds.leftover(untimed.adapter), 'removing the collection kept for the next run');
  } finally {
    await adapter.close();
  }
}

// The steps of a `--shard` run, numbered in plan order (the same on every shard): each one's share of the inputs,
// its start (shard 0 announces it, the first at --start-at at the earliest; the others wait for the announcement)
// and its end (every shard reports it; shard 0 waits for them all).
function shardSteps(shard, coordinator) {
  const leader = shard.index === 0;
  const shares = new Map();
  let next = 0;
  return {
    leader,
    share(step, all) {
      if (!shares.has(step.key)) shares.set(step.key, shareOf(all, shard));
      const number = next;
      next += 1;
      let announced = false;
      const startAt = async () => {
        announced = true;
        return leader ? coordinator.start(number, number === 0 ? shard.startAtMs ?? 0 : 0) : coordinator.awaitStart(number);
      };
      return {
        ...shares.get(step.key),
        startAt,
        async done() {
          // A step that failed before its start is still announced, or the others would wait for it in vain.
          if (leader && !announced) await startAt();
          await coordinator.done(number);
          if (leader) await coordinator.awaitDone(number);
        },
      };
    },
  };
}

// `suite`: the benchmark family (workloads/index.js), `dataset`: the data it prepared. `server`: the local server
// process to sample ({ pid, source, dataDir, and for source 'bench server' its family and cacheDir }), or null.
// `shard` (`bench run --shard`): { index, count, runId, startAtMs, waitMs }; only shard 0 loads, the others wait for
// its announcements in the namespace's marker (runner/shards.js).
export async function runBenchmark({
  suite = SUITES.social, description, adapterOptions, dataset, workloads, config, command, signal, progress,
  onUpdate = () => {}, reimport = false, server = null, shard = null, coldStart = null,
}) {
  if (shard) checkShardedSuite(suite.id);
  const leader = !shard || shard.index === 0;
  const rounds = suite.rounds({ config, workloads, sharded: Boolean(shard) });
  checkClients(description, config.clients ?? 1);
  // A driver whose calls block the process (description.blockingDrivers: pg-native) carries the timed operations
  // alone, each operation in flight in a client process of its own; this process, whose event loop must stay free
  // to end a client that stops answering, does the setup, loads and checks with the adapter's first driver.
  const clientOptions = adapterOptions;
  if (blockingDriver(description, adapterOptions.driver)) adapterOptions = { ...adapterOptions, driver: description.drivers[0] };
  const setupAdapter = await connectAdapter(description, adapterOptions);
  let result;
  try {
    // What this server lacks of `supports` (../adapters/server-supports.js) is planned as unsupported, with its reason.
    description = await serverSupports(description, setupAdapter);
    result = createResult({
      suite: suite.id,
      db: await describeDb(description, setupAdapter, clientOptions.driver),
      topology: await describeTopology(description, setupAdapter, adapterOptions, server),
      dataset: suite.describeData(dataset),
      config,
      command,
      server: server && { pid: server.pid, source: server.source },
      shard: shard && {
        index: shard.index,
        count: shard.count,
        runId: shard.runId,
        startAt: shard.startAtMs ? new Date(shard.startAtMs).toISOString() : null,
        clock: await measureClockOffset(description, adapterOptions),
      },
    });
    const durability = config.durability ?? DEFAULT_DURABILITY;
    const planned = planEntries(rounds);
    // A suite whose every step works on what one workload stored (crud's insert) runs none of them when that one
    // cannot run under the term.
    const base = suite.chainedOn && suite.workloads.find((workload) => workload.name === suite.chainedOn);
    const baseObstacle = base && isSupported(description, base) ? termObstacle(description, base, durability) : null;
    for (const step of planned) {
      const obstacle = isSupported(description, step.workload)
        ? termObstacle(description, step.workload, durability)
          ?? (baseObstacle ? `the ${suite.chainedOn} it works on cannot run: ${baseObstacle}` : null)
        : null;
      addWorkload(result, {
        ...step.workload,
        name: step.key,
        params: step.params,
        durability: workloadDurability(step.workload, durability),
        unsupported: obstacle ?? description.unsupported?.[step.workload.operation],
      }, isSupported(description, step.workload) && !obstacle);
    }
    result.terms = await settleTerms({
      description,
      adapter: setupAdapter,
      durability,
      source: config.durabilitySource ?? 'default',
      workloads: planned.filter((step) => result.workloads[step.key].supported).map((step) => step.workload),
      owned: server?.source === 'bench server',
      cacheBytes: config.cacheBytes ?? null,
      cold: coldStart ? { rounds: 0, restarted: 0, pageCacheDropped: 0, notes: [] } : null,
    });
    const loaded = leader ? await loadMeasured({
      suite, adapter: setupAdapter, description, options: adapterOptions, data: dataset, reimport, progress, server, config,
    }) : null;
    if (loaded) {
      const { sha256, ...imported } = loaded;
      // The checksums of the bytes the import read; a reused import's, which its marker matched to the manifest.
      result.dataset.sha256 = sha256;
      result.import = imported;
    }
  } finally {
    await setupAdapter.close();
  }
  await onUpdate(result);

  const supported = workloads.filter((workload) => isSupported(description, workload)
    && result.workloads[planEntries(rounds).find((step) => step.workload === workload)?.key]?.supported !== false);
  const expected = await suite.context(dataset, supported);
  // A step's inputs, made once per step and reused by its later runs; a step with inputs of its own per run (the
  // mixed suite's versions) names them by `inputsId`, and only the latest of a step is kept.
  const inputCache = new Map();
  const inputs = (step) => {
    const id = step.inputsId ?? step.key;
    const cached = inputCache.get(step.key);
    if (cached?.id === id) return cached.inputs;
    const made = step.inputs ? step.inputs(expected) : step.workload.inputs(expected, step.params);
    inputCache.set(step.key, { id, inputs: made });
    return made;
  };

  const coordinator = shard && createCoordinator({
    adapter: await connectAdapter(description, { ...adapterOptions, concurrency: 1 }),
    shard,
    runId: shard.runId,
    waitMs: shard.waitMs,
    log: progress?.log,
  });
  try {
    if (coordinator && leader) await coordinator.open();
    const sharding = coordinator && shardSteps(shard, coordinator);
    for (const [index, round] of rounds.entries()) {
      if (signal?.aborted) break;
      if (coldStart) {
        // --cold: the server restarted and the page cache dropped before every round, each said in the result.
        const cold = await coldStart();
        const record = result.terms.cache.cold;
        record.rounds += 1;
        if (cold.restarted) record.restarted += 1;
        if (cold.dropped) record.pageCacheDropped += 1;
        for (const note of cold.notes) if (!record.notes.includes(note)) record.notes.push(note);
        // The restarted server's process is the one sampled from now on.
        if (result.resources.server && server) result.resources.server.pid = server.pid;
      } else if (index > 0 && config.restartCmd) {
        progress?.log(`restarting the server: ${config.restartCmd}`);
        await restartServer(config.restartCmd);
      }
      await runRound({
        round, result, description, adapterOptions, clientOptions, expected, inputs, config, signal, progress, server, suiteId: suite.id, sharding,
      });
      if (!signal?.aborted) await onUpdate(result);
    }
    if (coordinator && leader) {
      if (signal?.aborted) await coordinator.abandon('interrupted');
      else await coordinator.close();
    }
    await dropLeftover(rounds, { description, adapterOptions, config, leader });
  } catch (error) {
    await dropLeftover(rounds, { description, adapterOptions, config, leader }).catch(() => {});
    if (coordinator && leader) await coordinator.abandon(error.message);
    finishResult(result, { complete: false, error });
    await onUpdate(result);
    throw Object.assign(error, { result });
  } finally {
    await coordinator?.release();
  }
  finishResult(result, { complete: !signal?.aborted, interrupted: Boolean(signal?.aborted) });
  await onUpdate(result);
  return result;
}
