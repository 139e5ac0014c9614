// The harness measuring itself during a run: its CPU (every thread of this process: JavaScript, the driver's
// native code, garbage collection; with an embedded database, the database too), how late its event loop
// ran, and its I/O (with an embedded database, the database's). A client that keeps a core busy is the limit of
// the run, whatever the database could do.
import { readdirSync, readFileSync } from 'node:fs';
import { createHistogram, performance } from 'node:perf_hooks';
import { ioDifference, noIo, sumIo } from './io.js';
import { hasIoAccounting, parseIo, parseStat } from './proc.js';

// Above this share of one core the harness itself is the likely bottleneck; the run is flagged client-bound.
export const CLIENT_BOUND_CPU_PCT = 85;
// Above this share of the wall time the event loop was busy (performance.eventLoopUtilization(): running code,
// or ready to and waiting for a core on a loaded machine): every answer waited for the harness. Flagged too.
export const CLIENT_BOUND_LOOP = 0.9;
// Above this share of an operation's mean latency spent in the harness's own CPU, the figure measures the client
// more than the database: a server adapter at concurrency 1 (at 74 us of a 128 us cycle, half of what the same server
// gives a leaner client) never reaches 85% of a core. Flagged too; not for an embedded database, whose own work is
// in that CPU.
export const CLIENT_BOUND_SHARE = 0.5;
// A shorter run is not flagged and has no CPU share: it is that of a handful of operations and their fixed costs,
// and the kernel's accounting of so short a span is not to be trusted.
export const CLIENT_BOUND_MIN_MS = 100;
// The period of the timer whose lateness is the event-loop delay.
export const LOOP_RESOLUTION_MS = 10;

const round1 = (value) => Math.round(value * 10) / 10;
const round3 = (value) => Math.round(value * 1000) / 1000;

export function isClientBound(cpuPct, wallMs, loop = null) {
  if (wallMs < CLIENT_BOUND_MIN_MS) return false;
  return (typeof cpuPct === 'number' && cpuPct > CLIENT_BOUND_CPU_PCT) || (typeof loop === 'number' && loop > CLIENT_BOUND_LOOP);
}

// Whether a run's cost per operation (clientCost) makes it client-bound: more than CLIENT_BOUND_SHARE of the mean
// latency, for a server only, over a run long enough to tell.
export function costIsBound(cost, { embedded, wallMs }) {
  return !embedded && wallMs >= CLIENT_BOUND_MIN_MS && typeof cost?.latencyShare === 'number' && cost.latencyShare > CLIENT_BOUND_SHARE;
}

// The harness's own cost per operation of a valid run, from its CPU (every process that ran operations, the
// harness's own included) and the run's mean latency: { cpuPerOpUs, latencyShare }, or null when the CPU was not
// measured. `resources` as a run records them.
export function clientCost(resources, { ops, ms, meanLatencyMs }) {
  const client = resources?.client;
  const shares = client?.processes ? client.processes.map((process) => process.cpuPct) : [client?.cpuPct];
  if (!client || ops <= 0 || shares.some((pct) => typeof pct !== 'number')) return null;
  const cpuMs = (shares.reduce((total, pct) => total + pct, 0) / 100) * ms;
  const cpuPerOpMs = cpuMs / ops;
  return {
    cpuPerOpUs: round1(cpuPerOpMs * 1000),
    latencyShare: meanLatencyMs > 0 ? round3(cpuPerOpMs / meanLatencyMs) : null,
  };
}

export function cpuPercent(usage, wallMs) {
  return wallMs > 0 ? round1((((usage.user + usage.system) / 1000) / wallMs) * 100) : null;
}

// The lateness of a timer that should fire every LOOP_RESOLUTION_MS, in a histogram of microseconds. Unlike
// perf_hooks.monitorEventLoopDelay this also counts the stall still going on when the run ends: a synchronous
// driver (better-sqlite3) holds the loop for a whole run, and its timer would only fire after the run.
function loopDelays() {
  const delays = createHistogram();
  const record = (ms) => delays.record(Math.max(1, Math.round(ms * 1000)));
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    record(now - last - LOOP_RESOLUTION_MS);
    last = now;
  }, LOOP_RESOLUTION_MS);
  timer.unref();
  return {
    // The 99th percentile in ms.
    stop() {
      clearInterval(timer);
      record(performance.now() - last - LOOP_RESOLUTION_MS);
      return delays.percentile(99) / 1000;
    },
  };
}

// This process's I/O counters per thread (keyed by thread id and start time), or null when unreadable. Read per
// thread because /proc/self/io also holds the counters of every child process this one has reaped, and a
// --clients worker that has exited before the run's end would count twice: in its own figures and in these.
// Read synchronously, so that a meter starts and stops where it is called: /proc answers from memory.
function threadIo() {
  if (!hasIoAccounting()) return null;
  const threads = new Map();
  let tids;
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return null;
  }
  for (const tid of tids) {
    try {
      const { startTime } = parseStat(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'));
      const io = parseIo(readFileSync(`/proc/self/task/${tid}/io`, 'utf8'));
      if (!io) return null;
      threads.set(`${tid}:${startTime}`, io);
    } catch (error) {
      if (error.code === 'EACCES' || error.code === 'EPERM') return null;
      // The thread ended while the list was read.
    }
  }
  return threads;
}

// The I/O of this process's threads from `before` to now: a thread started meanwhile counts whole, one that ended
// meanwhile is not counted (the harness's threads, and those of the embedded databases, live as long as it does).
function threadIoSince(before) {
  const now = threadIo();
  if (!now || !before) return null;
  return sumIo([...now].map(([thread, io]) => ioDifference(io, before.get(thread) ?? noIo()))) ?? noIo();
}

// This process's own I/O counters, its threads' summed; null when unreadable.
export function ownIo() {
  const threads = threadIo();
  return threads && (sumIo([...threads.values()]) ?? noIo());
}

export function meterClient() {
  const loop = loopDelays();
  const io = threadIo();
  const begin = performance.now();
  const usage = process.cpuUsage();
  const utilization = performance.eventLoopUtilization();
  return {
    // { cpuPct, eventLoopDelayP99Ms, eventLoopUtilization, wallMs, io }
    stop() {
      const cpu = process.cpuUsage(usage);
      const loopBusy = performance.eventLoopUtilization(utilization).utilization;
      const wallMs = performance.now() - begin;
      // Over a shorter span the kernel's accounting (ticks, and the user/system split it adjusts after the fact) can
      // put more CPU time in it than the cores had: 365% on two cores was seen. No figure is better than that one.
      const cpuPct = wallMs >= CLIENT_BOUND_MIN_MS ? cpuPercent(cpu, wallMs) : null;
      return {
        cpuPct, eventLoopDelayP99Ms: round3(loop.stop()),
        eventLoopUtilization: wallMs >= CLIENT_BOUND_MIN_MS ? round3(loopBusy) : null, wallMs, io: threadIoSince(io),
      };
    },
  };
}

// A run whose operations ran in client processes (bench run --clients): `figures` are meterClient()'s of each,
// the harness's own first. Each process is limited by its one core, so the run's figures are those of the busiest
// process, every process's are kept in `processes`, and the run is client-bound when any one process was. The
// I/O is the sum of every process's.
export function combineClients(figures) {
  const highest = (field) => {
    const values = figures.map((figure) => figure[field]).filter((value) => typeof value === 'number');
    return values.length > 0 ? Math.max(...values) : null;
  };
  const io = sumIo(figures.map((figure) => figure.io));
  return {
    client: {
      cpuPct: highest('cpuPct'),
      eventLoopDelayP99Ms: highest('eventLoopDelayP99Ms'),
      eventLoopUtilization: highest('eventLoopUtilization'),
      ...(io === undefined ? {} : { io }),
      processes: figures.map(({ cpuPct, eventLoopDelayP99Ms, eventLoopUtilization, io: own }) => (
        own === undefined ? { cpuPct, eventLoopDelayP99Ms, eventLoopUtilization } : { cpuPct, eventLoopDelayP99Ms, eventLoopUtilization, io: own })),
    },
    clientBound: figures.some((figure) => isClientBound(figure.cpuPct, figure.wallMs, figure.eventLoopUtilization)),
  };
}
