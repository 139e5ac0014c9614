// Samples the CPU, resident memory and I/O of a process tree (a database server and every process it forks)
// about once a second while a workload runs, plus once at the start and once at the stop, so that even a
// run shorter than a second has one measured interval. The first reading is the baseline of the CPU times
// and I/O counters, so the caller waits for it (`await sampler.ready`) before the work to be measured begins.
// The sampler never throws into the run: a process that has gone ends the sampling, and the summary covers
// what was seen until then.
import { IO_FIELDS, ioDifference, noIo } from './io.js';
import { clockTicksPerSecond, readTree } from './proc.js';

export const SAMPLE_INTERVAL_MS = 1000;
// The kernel accounts CPU time in ticks of 10 ms, so the CPU% of a short interval is mostly rounding: only
// intervals at least this long can set the peak (which is never below the mean of the whole run).
export const MIN_PEAK_INTERVAL_MS = 500;

const round1 = (value) => Math.round(value * 10) / 10;

// CPU time (in ticks) the tree spent between two readings. A process first seen now counts with all of its
// time, since it started after the previous reading; a process that exited in between counts up to the last
// reading that saw it. `known` holds the last ticks of every process ever seen.
export function ticksSince(known, ticks) {
  let spent = 0;
  for (const [process, now] of ticks) {
    spent += Math.max(0, now - (known.get(process) ?? 0));
    known.set(process, now);
  }
  return spent;
}

// I/O counted between two readings, as ticksSince counts CPU time: a process first seen now counts whole, one
// that exited counts up to the last reading that saw it. Unlike CPU time, a parent that reaps an exited child adds
// the child's whole counters to its own /proc/<pid>/io (a PostgreSQL postmaster reaping a backend), so what was
// counted of an exited process (its last counters) is owed by its nearest ancestor still in the tree and taken
// off that ancestor's increase, in this reading or, when the reaping came just after it, the next. `state` is
// ioTracker()'s: the last counters and parent of every live process, the debts, and whether any process's
// counters were unreadable (then the tree's figure is unknown). `io`: readTree()'s.
export function ioTracker() {
  return { known: new Map(), owed: new Map(), unknown: false };
}

export function ioSince(state, io) {
  const { known, owed } = state;
  const exited = [...known].filter(([process]) => !io.has(process));
  for (const [process, { counters }] of exited) {
    let ancestor = known.get(process).parent;
    while (ancestor !== null && !io.has(ancestor)) ancestor = known.get(ancestor)?.parent ?? null;
    const debt = [counters, owed.get(process)?.counters].filter(Boolean);
    if (ancestor !== null && debt.length > 0) {
      const total = owed.get(ancestor)?.counters ?? noIo();
      for (const part of debt) for (const field of IO_FIELDS) total[field] += part[field];
      owed.set(ancestor, { counters: total, readings: 0 });
    }
  }
  for (const [process] of exited) {
    known.delete(process);
    owed.delete(process);
  }
  const spent = noIo();
  for (const [process, reading] of io) {
    if (reading.counters === null) state.unknown = true;
    const change = ioDifference(reading.counters, known.get(process)?.counters ?? noIo());
    const debt = owed.get(process);
    for (const field of change ? IO_FIELDS : []) {
      const paid = debt ? Math.min(change[field], debt.counters[field]) : 0;
      if (debt) debt.counters[field] -= paid;
      spent[field] += change[field] - paid;
    }
    known.set(process, reading);
  }
  for (const [process, debt] of owed) {
    if (debt.readings >= 1 || IO_FIELDS.every((field) => debt.counters[field] === 0)) owed.delete(process);
    else debt.readings += 1;
  }
  return spent;
}

export function sampleTree(pid, { intervalMs = SAMPLE_INTERVAL_MS, read = readTree } = {}) {
  const hz = clockTicksPerSecond();
  const known = new Map();
  const ioState = ioTracker();
  const totals = { samples: 0, rssPeak: 0, rssSum: 0, ticks: 0, elapsedMs: 0, cpuPeakPct: null, io: noIo() };
  let previousAt = null;
  let ended = false;
  let queue = Promise.resolve();

  function record(reading) {
    totals.samples += 1;
    totals.rssPeak = Math.max(totals.rssPeak, reading.rssBytes);
    totals.rssSum += reading.rssBytes;
    const spent = ticksSince(known, reading.ticks);
    // A reader that reports no I/O knows none.
    if (!reading.io) ioState.unknown = true;
    const io = reading.io ? ioSince(ioState, reading.io) : null;
    if (previousAt !== null) {
      const elapsedMs = reading.at - previousAt;
      totals.ticks += spent;
      for (const field of io ? IO_FIELDS : []) totals.io[field] += io[field];
      totals.elapsedMs += elapsedMs;
      if (elapsedMs >= MIN_PEAK_INTERVAL_MS) {
        totals.cpuPeakPct = Math.max(totals.cpuPeakPct ?? 0, percent(spent, elapsedMs));
      }
    }
    previousAt = reading.at;
  }

  function percent(ticks, elapsedMs) {
    return ((ticks / hz) / (elapsedMs / 1000)) * 100;
  }

  // Readings are queued, so two never overlap and `known` always moves forward in time.
  function take() {
    queue = queue.then(async () => {
      if (ended) return;
      let reading = null;
      try {
        reading = await read(pid);
      } catch {
        // An unreadable /proc is treated like a vanished process.
      }
      if (reading) record(reading);
      else stopTimer();
    });
    return queue;
  }

  const timer = setInterval(take, intervalMs);
  // Sampling must never keep the process alive.
  timer.unref();
  function stopTimer() {
    ended = true;
    clearInterval(timer);
  }

  return {
    ready: take(),
    // Takes the closing reading and resolves with the summary, or null when the process was never seen. With
    // `ioSettleMs`, the I/O counters are read once more that long after the closing reading (the memory and CPU
    // figures stay the run's): a server that defers its writes (PostgreSQL's WAL writer every 200 ms under
    // synchronous_commit=off, InnoDB's log once a second) writes a short run's bytes after it ended.
    async stop({ ioSettleMs = 0 } = {}) {
      clearInterval(timer);
      await take();
      stopTimer();
      if (totals.samples === 0) return null;
      let settled = null;
      if (ioSettleMs > 0 && totals.samples > 1 && !ioState.unknown) {
        await new Promise((resolve) => { setTimeout(resolve, ioSettleMs); });
        let reading = null;
        try {
          reading = await read(pid);
        } catch {
          // Gone or unreadable: the run's own figures stand.
        }
        if (reading?.io) {
          const io = ioSince(ioState, reading.io);
          for (const field of IO_FIELDS) totals.io[field] += io[field];
          settled = ioSettleMs;
        }
      }
      const cpuMeanPct = totals.elapsedMs > 0 ? percent(totals.ticks, totals.elapsedMs) : null;
      // The mean of a span shorter than a peak's interval is ticks' rounding too: it cannot set the peak.
      const meanCounts = cpuMeanPct !== null && totals.elapsedMs >= MIN_PEAK_INTERVAL_MS;
      const cpuPeakPct = meanCounts ? Math.max(totals.cpuPeakPct ?? 0, cpuMeanPct) : totals.cpuPeakPct;
      return {
        rssPeakBytes: totals.rssPeak,
        rssMeanBytes: Math.round(totals.rssSum / totals.samples),
        cpuPeakPct: cpuPeakPct === null ? null : round1(cpuPeakPct),
        cpuMeanPct: cpuMeanPct === null ? null : round1(cpuMeanPct),
        samples: totals.samples,
        ms: Math.round(totals.elapsedMs),
        // Null when no interval was measured or any process's counters were unreadable.
        io: totals.samples > 1 && !ioState.unknown ? totals.io : null,
        ...(settled ? { ioSettleMs: settled } : {}),
      };
    },
  };
}
