// The timed loop. `concurrency` workers share one cursor over the inputs, so at most `concurrency`
// operations are in flight and none waits for a slower sibling. Per operation the hot path does one
// clock read and two array stores; answers are kept for validation after the clock has stopped. With `times`
// (a workload whose check needs them) it also keeps each operation's start and end.
import async from 'async';
import { performance } from 'node:perf_hooks';
import { BenchError, ErrorCodes } from '../core/errors.js';

export const DEFAULT_STALL_TIMEOUT_MS = 60_000;
// A dead server fails every operation; there is no point in collecting thousands of identical errors.
export const MAX_ERRORS = 100;
const WATCHDOG_INTERVAL_MS = 1000;
// An operation that resolves without an event-loop turn (a driver whose calls block, pg-native; an embedded
// database answering at once) would starve the timers: the stall check, the progress and a client process's
// messages. Each worker lets the loop turn at least this often, between operations and off their clock.
export const TURN_MS = 20;
const turn = () => new Promise((resolve) => { setImmediate(resolve); });

// `durationMs`: stop taking operations once this long has passed since the first began (those in flight finish);
// the outcome's `completed` then counts the operations taken, a prefix of the inputs, and `stoppedAtDuration` says so.
export async function execute({
  inputs, call, adapter, concurrency, signal, onProgress, stallTimeoutMs = DEFAULT_STALL_TIMEOUT_MS, times = false,
  durationMs = null,
}) {
  const count = inputs.length;
  const answers = new Array(count).fill(undefined);
  const latencies = new Float64Array(count);
  const starts = times ? new Float64Array(count) : null;
  const ends = times ? new Float64Array(count) : null;
  const errors = [];
  let next = 0;
  let completed = 0;
  let stopped = false;
  let begin = performance.now();

  async function worker() {
    // The end of one operation is the start of the next: only this loop's bookkeeping runs in between.
    let start = performance.now();
    let turned = start;
    while (next < count && !stopped && !(durationMs !== null && start - begin >= durationMs)) {
      const index = next;
      next += 1;
      try {
        answers[index] = await call(adapter, inputs[index]);
      } catch (error) {
        errors.push({ index, error });
        if (errors.length >= MAX_ERRORS) stopped = true;
      }
      const end = performance.now();
      latencies[index] = end - start;
      if (starts !== null) {
        starts[index] = start;
        ends[index] = end;
      }
      start = end;
      completed += 1;
      if (end - turned >= TURN_MS) {
        await turn();
        start = performance.now();
        turned = start;
      }
    }
  }

  let watchdog;
  let onAbort;
  const interrupted = new Promise((resolve, reject) => {
    let lastCompleted = -1;
    let lastProgressAt = performance.now();
    // One timer serves the stall check and the progress report, so neither costs anything per operation.
    watchdog = setInterval(() => {
      onProgress?.(completed);
      if (completed !== lastCompleted) {
        lastCompleted = completed;
        lastProgressAt = performance.now();
      } else if (performance.now() - lastProgressAt > stallTimeoutMs) {
        stopped = true;
        reject(new BenchError(ErrorCodes.TIMEOUT,
          `no operation completed for ${Math.round(stallTimeoutMs / 1000)} s (${completed} of ${count} done); is the server still up?`));
      }
    }, WATCHDOG_INTERVAL_MS);
    onAbort = () => {
      stopped = true;
      resolve();
    };
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
  });

  begin = performance.now();
  try {
    await Promise.race([async.times(Math.min(concurrency, count), worker), interrupted]);
  } finally {
    clearInterval(watchdog);
    signal?.removeEventListener('abort', onAbort);
  }
  const wallMs = performance.now() - begin;
  return {
    wallMs, answers, latencies, errors, completed, aborted: Boolean(signal?.aborted), times: times ? { starts, ends } : null,
    stoppedAtDuration: durationMs !== null && completed < count && !signal?.aborted && errors.length < MAX_ERRORS,
  };
}
