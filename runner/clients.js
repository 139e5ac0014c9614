// Many load clients (`bench run --clients <n>`): one Node.js process saturates its core long before a server does,
// so a step's operations run in n worker processes (client-worker.js), each with its own connections and its share
// of the concurrency (and of the rate, open loop). They connect, report ready, and start together at one moment the
// parent names. Their answers and operation times come back in the order of the step's inputs, so the workload's
// check (in the parent) sees them as if one process had run them; their latency histograms are added (exact
// percentiles, not averaged ones) and the run's time spans the first start to the last end.
import { fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BenchError, ErrorCodes, usageError } from '../core/errors.js';
import { mergeLatencyParts } from '../results/stats.js';
import { BEHIND_RATIO } from './open-loop.js';

export const MAX_CLIENTS = 256;
// The common start lies this far after the last worker reported ready: time for the message to reach each one.
const GO_DELAY_MS = 25;
// How long a worker may take to close its connections and exit after its result before it is killed.
const EXIT_GRACE_MS = 5000;
// A client process whose operations stop is ended by its own stall check (runner/execute.js); one that cannot run
// it, blocked in a call that never returns (a blocking driver, pg-native, on a server that stopped answering), is
// ended by the parent this long after the stall timeout.
export const STALL_GRACE_MS = 5000;
const STALL_CHECK_MS = 1000;
// What a worker that died printed last is quoted in the error.
const STDERR_TAIL_CHARS = 1000;
const WORKER = fileURLToPath(new URL('./client-worker.js', import.meta.url));

const round3 = (value) => Math.round(value * 1000) / 1000;

// `--clients`: a whole number 1..256, and only for an adapter whose connections several processes can share
// (its description's `multiProcess`, true unless it says false: the memory adapter's data lives in one process).
export function checkClients(description, clients) {
  if (!Number.isInteger(clients) || clients < 1 || clients > MAX_CLIENTS) {
    throw usageError(`--clients must be a whole number from 1 to ${MAX_CLIENTS}, got ${clients}`);
  }
  if (clients > 1 && description.multiProcess === false) {
    throw usageError(`--clients ${clients}: ${description.name} cannot be shared between processes; use --clients 1`);
  }
}

// `--clients auto`: one load process per core the database does not need: every core of this machine, less one
// when the server runs here too (a local server `bench server` runs, or one named by --server-pid); 1 for an
// adapter whose database cannot be shared between processes (an embedded one runs inside the harness itself).
export function autoClients(description, { serverIsLocal, cores = availableParallelism() }) {
  if (description.multiProcess === false || description.kind === 'embedded') return 1;
  return Math.max(1, Math.min(MAX_CLIENTS, cores - (serverIsLocal ? 1 : 0)));
}

// --clients as typed: a whole number, or `auto` (autoClients).
export function clientsOf(value, description, context) {
  if (value === undefined) return 1;
  if (String(value).trim() === 'auto') return autoClients(description, context);
  const number = Number(value);
  if (!Number.isInteger(number)) throw usageError(`--clients must be a whole number from 1 to ${MAX_CLIENTS}, or auto, got ${value}`);
  return number;
}

// More client processes than cores are allowed, but they then share cores with each other (and the server).
export function clientsWarning(clients, cores = availableParallelism()) {
  if (clients <= cores) return null;
  return `--clients ${clients} is more than the ${cores} cores of this machine: the client processes will compete `
    + 'for them (and with a local server), which limits what they can measure';
}

// Where this process's performance.now() starts on the machine's monotonic clock (which every process shares), in
// ms: a worker's times plus its origin minus the parent's are times on the parent's clock. Of a few readings, the
// one whose two performance.now() calls lie closest together: a process preempted between its two clock reads
// (milliseconds on a busy machine) would shift every time of a worker by as much.
const ORIGIN_READINGS = 5;

// `now` and `monotonic`: the two clocks, in ms (the tests' own readings in their place).
export function monotonicOrigin(now = () => performance.now(), monotonic = () => Number(process.hrtime.bigint()) / 1e6) {
  let origin = 0;
  let width = Infinity;
  for (let i = 0; i < ORIGIN_READINGS; i += 1) {
    const before = now();
    const reading = monotonic();
    const after = now();
    if (after - before < width) {
      width = after - before;
      origin = reading - (before + after) / 2;
    }
  }
  return origin;
}

// Which worker runs each input: round robin, so each gets the same mix; except that an operation that waits for
// another (`after`, the mixed suite's writes of a key its stream inserted) runs in that operation's worker, which
// alone can see it complete. Each worker's list is in input order.
export function partition(inputs, count) {
  const owner = new Int32Array(inputs.length);
  const slices = Array.from({ length: count }, () => []);
  inputs.forEach((input, index) => {
    const after = input !== null && typeof input === 'object' ? input.after : undefined;
    owner[index] = Number.isInteger(after) && after >= 0 && after < index ? owner[after] : index % count;
    slices[owner[index]].push(index);
  });
  return slices;
}

// `concurrency` operations in flight split over `count` workers, the first ones taking one more.
export function splitConcurrency(concurrency, count) {
  return Array.from({ length: count }, (_, i) => Math.floor(concurrency / count) + (i < concurrency % count ? 1 : 0));
}

// The open-loop summary of every worker's: the targets add up, the achieved rate is every answer over the span.
function mergeOpenLoop(parts, completed, spanMs) {
  const targetRate = parts.reduce((total, part) => total + part.targetRate, 0);
  const achievedRate = spanMs > 0 ? Math.round((completed / spanMs) * 1000) : 0;
  const answered = parts.reduce((total, part) => total + part.completed, 0);
  const lagMean = answered > 0 ? parts.reduce((total, part) => total + part.sendLagMs.mean * part.completed, 0) / answered : 0;
  const summary = {
    targetRate,
    achievedRate,
    sendLagMs: { mean: round3(lagMean), max: Math.max(...parts.map((part) => part.sendLagMs.max)) },
    note: null,
  };
  if (achievedRate < targetRate * BEHIND_RATIO) {
    const below = Math.round((1 - achievedRate / targetRate) * 100);
    summary.note = `achieved ${achievedRate} ops/s, ${below}% below the target of ${targetRate} ops/s: the answers (or the `
      + 'client processes sending the operations) could not keep up with the schedule';
  }
  return summary;
}

// One worker process: its messages as promises of the one it is waiting for, and its death as their rejection.
// `forkWorker`: child_process.fork, or a stand-in of the tests.
function spawnWorker(number, count, forkWorker) {
  const child = forkWorker(WORKER, [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text) => { stderr = (stderr + text).slice(-STDERR_TAIL_CHARS); });
  const waiting = new Map();
  let failure = null;
  const fail = (error) => {
    failure ??= error;
    for (const { reject } of waiting.values()) reject(failure);
    waiting.clear();
  };
  const name = `client process ${number} of ${count}`;
  child.on('message', (message) => {
    if (message.type === 'error') {
      fail(new BenchError(message.code ?? undefined, `${name}: ${message.message}`));
      return;
    }
    waiting.get(message.type)?.resolve(message);
    waiting.delete(message.type);
  });
  child.on('error', (error) => fail(new Error(`${name}: ${error.message}`)));
  // 'close' rather than 'exit': it comes after the last message the process sent has been read.
  child.on('close', (code, signal) => {
    const tail = stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : '';
    fail(new Error(`${name} (pid ${child.pid}) ${signal ? `was killed by ${signal}` : `exited with code ${code}`} before its result${tail}`));
  });
  return {
    child,
    // The next message of `type`, or the worker's error.
    next(type) {
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => waiting.set(type, { resolve, reject }));
    },
    send(message) {
      if (child.connected) child.send(message);
    },
    exited: new Promise((resolve) => { child.once('close', resolve); }),
  };
}

// Forks the workers of one step and resolves once each has connected (its pool sized by its share of
// `concurrency`) and is waiting for the start. `step`: { workload, params } of a suite's plan; the workers rebuild
// its call from `suiteId` and the workload's name. Then run() starts them together and resolves with what
// execute() would have (answers, errors, times on this process's clock, the run's span) plus `latency`, the
// merged summary, and `clients`, each worker's meterClient() figures; close() ends whatever is left of them.
export async function startClients({
  clients, description, adapterOptions, suiteId, step, inputs, concurrency, rate, times, stallTimeoutMs, forkWorker = fork,
}) {
  const count = Math.max(1, Math.min(clients, concurrency, inputs.length));
  const slices = partition(inputs, count);
  const shares = splitConcurrency(concurrency, count);
  const workers = slices.map((_, i) => spawnWorker(i + 1, count, forkWorker));
  const close = async () => {
    for (const worker of workers) worker.send({ type: 'stop' });
    const timer = setTimeout(() => { for (const { child } of workers) if (child.exitCode === null) child.kill('SIGKILL'); }, EXIT_GRACE_MS);
    await Promise.all(workers.map((worker) => worker.exited));
    clearTimeout(timer);
  };
  let ready;
  try {
    const readies = workers.map((worker) => worker.next('ready'));
    workers.forEach((worker, i) => worker.send({
      type: 'start',
      adapterId: description.id,
      // Its connections follow those of the workers before it, so that all of them spread over a cluster's
      // endpoints as one pool's would (adapters/spread.js).
      adapterOptions: {
        ...adapterOptions, concurrency: shares[i],
        ...(adapterOptions.endpoints?.length > 1 && { endpointOffset: shares.slice(0, i).reduce((a, b) => a + b, 0) }),
      },
      suiteId,
      workload: step.workload.name,
      params: step.params,
      inputs: slices[i].map((index) => inputs[index]),
      concurrency: shares[i],
      // Its share of the rate; never 0, which the open loop refuses (a share of no inputs ends at once anyway).
      rate: rate ? (rate * Math.max(1, slices[i].length)) / Math.max(1, inputs.length) : null,
      times,
      stallTimeoutMs,
    }));
    ready = await Promise.all(readies);
  } catch (error) {
    for (const { child } of workers) child.kill('SIGKILL');
    await Promise.all(workers.map((worker) => worker.exited));
    throw error;
  }
  const origin = monotonicOrigin();
  const shifts = ready.map((message) => message.origin - origin);

  async function run({ signal, onProgress } = {}) {
    const done = new Array(count).fill(0);
    for (const worker of workers) {
      worker.child.on('message', (message) => {
        if (message.type !== 'progress') return;
        done[workers.indexOf(worker)] = message.done;
        onProgress?.(done.reduce((total, n) => total + n, 0));
      });
    }
    const onAbort = () => { for (const worker of workers) worker.send({ type: 'stop' }); };
    signal?.addEventListener('abort', onAbort, { once: true });
    // The parent's own stall check: no operation completed in any client process for the stall timeout and the
    // grace, and a result still missing.
    let lastTotal = -1;
    let lastChange = performance.now();
    let watchdog;
    const stalled = new Promise((resolve, reject) => {
      watchdog = setInterval(() => {
        const total = done.reduce((sum, n) => sum + n, 0);
        if (total !== lastTotal) {
          lastTotal = total;
          lastChange = performance.now();
        } else if (stallTimeoutMs && performance.now() - lastChange > stallTimeoutMs + STALL_GRACE_MS) {
          const silent = workers.map((worker, i) => `${i + 1} (pid ${worker.child.pid}, ${done[i]} of ${slices[i].length} done)`);
          reject(new BenchError(ErrorCodes.TIMEOUT, `no operation completed for ${Math.round((stallTimeoutMs + STALL_GRACE_MS) / 1000)} s in any `
            + `client process (${total} of ${inputs.length} done); is the server still up? The client processes were ended: ${silent.join(', ')}`));
        }
      }, STALL_CHECK_MS);
    });
    let results;
    let pending;
    try {
      pending = Promise.all(workers.map((worker) => worker.next('result')));
      const startAt = origin + performance.now() + GO_DELAY_MS;
      for (const worker of workers) worker.send({ type: 'go', startAt });
      if (signal?.aborted) onAbort();
      results = await Promise.race([pending, stalled]);
    } catch (error) {
      for (const { child } of workers) child.kill('SIGKILL');
      pending?.catch(() => {});
      throw error;
    } finally {
      clearInterval(watchdog);
      signal?.removeEventListener('abort', onAbort);
    }
    return merge(results);
  }

  function merge(results) {
    const answers = new Array(inputs.length).fill(undefined);
    const starts = times ? new Float64Array(inputs.length) : null;
    const ends = times ? new Float64Array(inputs.length) : null;
    const errors = [];
    let begin = Infinity;
    let end = -Infinity;
    results.forEach((result, w) => {
      const slice = slices[w];
      const shift = shifts[w];
      slice.forEach((index, local) => {
        answers[index] = result.answers[local];
        if (times) {
          starts[index] = result.starts[local] + shift;
          ends[index] = result.ends[local] + shift;
        }
      });
      for (const { index, code, message } of result.errors) {
        errors.push({ index: slice[index], error: new BenchError(code ?? undefined, message) });
      }
      begin = Math.min(begin, result.begin + shift);
      end = Math.max(end, result.end + shift);
    });
    errors.sort((a, b) => a.index - b.index);
    const completed = results.reduce((total, result) => total + result.completed, 0);
    const wallMs = end - begin;
    const outcome = {
      wallMs,
      answers,
      errors,
      completed,
      aborted: results.some((result) => result.aborted),
      times: times ? { starts, ends } : null,
      latency: mergeLatencyParts(results.map((result) => result.latency)),
      clients: results.map((result) => result.client),
      spread: addSpreads(results.map((result) => result.spread)),
      starts: results.map((result, w) => result.begin + shifts[w]),
    };
    if (rate) outcome.openLoop = mergeOpenLoop(results.map((result) => ({ ...result.openLoop, completed: result.completed })), completed, wallMs);
    return outcome;
  }

  return { count, run, close };
}

// The operations each endpoint served, over every client process (each process's own connections: see
// adapters/spread.js); null when none spread.
export function addSpreads(spreads) {
  const known = spreads.filter(Boolean);
  if (known.length === 0) return null;
  const byEndpoint = new Map();
  for (const spread of known) {
    for (const { endpoint, connections, operations } of spread) {
      const sum = byEndpoint.get(endpoint) ?? { endpoint, connections: 0, operations: 0 };
      sum.connections += connections;
      sum.operations += operations;
      byEndpoint.set(endpoint, sum);
    }
  }
  return [...byEndpoint.values()];
}
