// The open-loop executor: operation i is due at begin + i / rate and is sent then, whatever the answers to the
// others, so the number in flight grows when the database slows down. Its latency runs from the time it was due,
// not from when it was sent: a stall, or a harness that fell behind, shows in the percentiles instead of hiding
// behind requests that were never made (coordinated omission). Per operation the hot path does one clock read at
// its answer and three array stores; sends are batched: every operation due by one clock read goes out at once.
import { performance } from 'node:perf_hooks';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { DEFAULT_STALL_TIMEOUT_MS, MAX_ERRORS } from './execute.js';

// Unbounded in flight would melt the machine long before it says anything about the database.
export const MAX_IN_FLIGHT = 100_000;
// A run whose achieved rate falls further below its target than this says so.
export const BEHIND_RATIO = 0.95;
// A timer fires up to a millisecond late: the dispatcher sleeps on one only until a millisecond before the next
// send is due, and yields with setImmediate (which lets answers in) for the rest.
const TIMER_SLACK_MS = 1;
// The most sends of one dispatch: after a pause (a GC, a slow callback) many are due at once, and their answers
// must get in between batches, or the in-flight count would only say how long the pause was.
const MAX_BATCH = 1000;
const WATCHDOG_INTERVAL_MS = 1000;

const round3 = (value) => Math.round(value * 1000) / 1000;

// What the result records under `openLoop`, from the run's counts and sums.
export function rateSummary({ rate, completed, spanMs, lagSum, lagMax }) {
  const achievedRate = spanMs > 0 ? Math.round((completed / spanMs) * 1000) : 0;
  const summary = {
    targetRate: rate,
    achievedRate,
    sendLagMs: { mean: completed > 0 ? round3(lagSum / completed) : 0, max: round3(lagMax) },
    note: null,
  };
  if (achievedRate < rate * BEHIND_RATIO) {
    const below = Math.round((1 - achievedRate / rate) * 100);
    summary.note = `achieved ${achievedRate} ops/s, ${below}% below the target of ${rate} ops/s: the answers (or the `
      + 'harness sending the operations) could not keep up with the schedule';
  }
  return summary;
}

// `rate`: operations per second. The result is execute()'s (`wallMs` from the first due time to the last answer)
// plus `openLoop`: { targetRate, achievedRate, sendLagMs: { mean, max } (how late the sends were), note }. With
// `times`, `times.starts` are the moments the operations were sent (not when they were due) and `times.ends`
// their answers.
export async function executeOpenLoop({
  inputs, call, adapter, rate, signal, onProgress, stallTimeoutMs = DEFAULT_STALL_TIMEOUT_MS, times = false,
  maxInFlight = MAX_IN_FLIGHT,
}) {
  if (!(Number.isFinite(rate) && rate > 0)) throw new Error(`internal: an open loop needs a positive rate, got ${rate}`);
  const count = inputs.length;
  const interval = 1000 / rate;
  const answers = new Array(count).fill(undefined);
  const latencies = new Float64Array(count);
  const starts = times ? new Float64Array(count) : null;
  const ends = times ? new Float64Array(count) : null;
  const errors = [];
  let next = 0;
  let completed = 0;
  let inFlight = 0;
  let stopped = false;
  let lagSum = 0;
  let lagMax = 0;
  let begin = 0;
  let lastAnswer = 0;
  let finish;
  let fail;
  const finished = new Promise((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });

  async function send(index, sentAt) {
    try {
      answers[index] = await call(adapter, inputs[index]);
    } catch (error) {
      errors.push({ index, error });
      if (errors.length >= MAX_ERRORS) stopped = true;
    }
    const end = performance.now();
    latencies[index] = end - (begin + index * interval);
    if (starts !== null) {
      starts[index] = sentAt;
      ends[index] = end;
    }
    lastAnswer = end;
    completed += 1;
    inFlight -= 1;
    if (inFlight === 0 && (stopped || next === count)) finish();
  }

  function dispatch() {
    if (stopped) {
      if (inFlight === 0) finish();
      return;
    }
    const now = performance.now();
    const due = Math.min(count, Math.floor((now - begin) / interval) + 1, next + MAX_BATCH);
    while (next < due) {
      const index = next;
      next += 1;
      const lag = now - (begin + index * interval);
      lagSum += lag;
      if (lag > lagMax) lagMax = lag;
      inFlight += 1;
      if (inFlight > maxInFlight) {
        stopped = true;
        // Not a stall: a lower rate, or another workload, may still run.
        fail(new Error(`more than ${maxInFlight} operations in flight at ${rate} ops/s (${completed} of ${count} `
          + 'answered): the database answers far more slowly than the rate asks; lower --rate'));
        return;
      }
      send(index, now);
    }
    if (next === count) return;
    const wait = begin + next * interval - performance.now();
    if (wait > TIMER_SLACK_MS) setTimeout(dispatch, wait - TIMER_SLACK_MS);
    else setImmediate(dispatch);
  }

  let lastCompleted = -1;
  let lastProgressAt = performance.now();
  // One timer serves the stall check and the progress report. Only an operation waiting for its answer can stall:
  // at a low rate nothing may be in flight for a long time.
  const watchdog = setInterval(() => {
    onProgress?.(completed);
    if (completed !== lastCompleted || inFlight === 0) {
      lastCompleted = completed;
      lastProgressAt = performance.now();
    } else if (performance.now() - lastProgressAt > stallTimeoutMs) {
      stopped = true;
      fail(new BenchError(ErrorCodes.TIMEOUT,
        `no operation completed for ${Math.round(stallTimeoutMs / 1000)} s (${completed} of ${count} done, ${inFlight} in flight); is the server still up?`));
    }
  }, WATCHDOG_INTERVAL_MS);
  const onAbort = () => {
    stopped = true;
    finish();
  };
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });

  begin = performance.now();
  try {
    if (count === 0) finish();
    else dispatch();
    await finished;
  } finally {
    clearInterval(watchdog);
    signal?.removeEventListener('abort', onAbort);
  }
  // Nothing answered (no operation, or an interruption before the first answer): no span.
  const wallMs = completed === 0 ? 0 : lastAnswer - begin;
  return {
    wallMs,
    answers,
    latencies,
    errors,
    completed,
    aborted: Boolean(signal?.aborted),
    times: times ? { starts, ends } : null,
    openLoop: rateSummary({ rate, completed, spanMs: wallMs, lagSum, lagMax }),
  };
}
