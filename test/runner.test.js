import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { ErrorCodes } from '../core/errors.js';
import { MAX_ERRORS, execute } from '../runner/execute.js';
import { sleepAtLeast } from './helpers/time.js';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function trackingAdapter() {
  const state = { inFlight: 0, maxInFlight: 0 };
  state.op = async (input) => {
    state.inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    await sleep(1 + (input % 3));
    state.inFlight -= 1;
    return input * 2;
  };
  return state;
}

test('keeps exactly `concurrency` operations in flight and aligns answers with inputs', async () => {
  // Each worker's latencies tile its busy time, so together they cover about 7 x the wall time, less the moments
  // between one answer and the next call. A loaded machine stretches those moments (CI, beside a CPU hog: 572 ms
  // of 725), so the tiling is tried up to three times; latencies that left out part of each operation never tile.
  const tilings = [];
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const adapter = trackingAdapter();
    const inputs = Array.from({ length: 200 }, (_, i) => i);
    const outcome = await execute({ inputs, call: (a, input) => a.op(input), adapter, concurrency: 7 });
    assert.equal(adapter.maxInFlight, 7);
    assert.deepEqual(outcome.answers, inputs.map((i) => i * 2));
    assert.equal(outcome.completed, 200);
    assert.equal(outcome.errors.length, 0);
    assert.ok(outcome.latencies.every((ms) => ms > 0), 'every operation has a latency');
    const busy = outcome.latencies.reduce((sum, ms) => sum + ms, 0);
    assert.ok(busy <= 7 * outcome.wallMs + 1, `busy ${busy} ms, more than 7 x the wall ${outcome.wallMs} ms`);
    tilings.push(busy / (7 * outcome.wallMs));
    if (tilings.at(-1) >= 0.8) break;
  }
  assert.ok(tilings.at(-1) >= 0.8, `the latencies covered ${tilings.map((share) => `${(share * 100).toFixed(0)}%`).join(', ')} of the workers' time`);
});

test('an operation\'s latency runs until its answer arrived, the first operation of each worker included', async () => {
  // Every call takes at least 20 ms by the same clock the runner reads.
  const call = async (a, input) => {
    await sleepAtLeast(20);
    return input;
  };
  const outcome = await execute({ inputs: [1, 2, 3, 4, 5, 6], call, adapter: null, concurrency: 2 });
  assert.deepEqual(outcome.answers, [1, 2, 3, 4, 5, 6]);
  assert.ok(outcome.latencies.every((ms) => ms >= 20), `latencies ${[...outcome.latencies].map((ms) => ms.toFixed(1)).join(', ')} ms`);
  // Three operations per worker, one after the other.
  assert.ok(outcome.wallMs >= 60, `wall ${outcome.wallMs} ms`);
});

test('a failed operation is timed too, and its answer stays empty', async () => {
  const outcome = await execute({
    inputs: [1, 2], adapter: null, concurrency: 1,
    call: async (a, input) => {
      await sleep(25);
      if (input === 2) throw new Error('boom');
      return input;
    },
  });
  assert.deepEqual(outcome.answers, [1, undefined]);
  assert.deepEqual(outcome.errors.map(({ index, error }) => [index, error.message]), [[1, 'boom']]);
  assert.equal(outcome.completed, 2);
  assert.ok(outcome.latencies[1] >= 20, `${outcome.latencies[1]} ms`);
});

test('never runs more workers than operations', async () => {
  const adapter = trackingAdapter();
  await execute({ inputs: [1, 2, 3], call: (a, input) => a.op(input), adapter, concurrency: 25 });
  assert.equal(adapter.maxInFlight, 3);
});

test('counts failed operations and stops collecting after MAX_ERRORS', async () => {
  const inputs = Array.from({ length: 1000 }, (_, i) => i);
  const outcome = await execute({
    inputs, adapter: null, concurrency: 4,
    call: async (a, input) => {
      if (input % 2 === 1 || input > 10) throw new Error(`boom ${input}`);
      return input;
    },
  });
  // The operations already in flight when the limit is reached still finish and count.
  assert.ok(outcome.errors.length >= MAX_ERRORS && outcome.errors.length < MAX_ERRORS + 4, `${outcome.errors.length} errors`);
  assert.ok(outcome.completed < inputs.length);
  assert.match(outcome.errors[0].error.message, /^boom /);
});

test('an abort signal stops issuing operations and reports the run as aborted', async () => {
  const controller = new AbortController();
  const inputs = Array.from({ length: 10_000 }, (_, i) => i);
  const outcome = await execute({
    inputs, adapter: null, concurrency: 5, signal: controller.signal,
    call: async (a, input) => {
      if (input === 50) controller.abort();
      await sleep(1);
      return input;
    },
  });
  assert.equal(outcome.aborted, true);
  assert.ok(outcome.completed < 100, `stopped early (${outcome.completed} completed)`);
});

test('a server that stops answering is declared stalled instead of hanging', async () => {
  const begin = performance.now();
  const progress = [];
  await assert.rejects(
    execute({
      inputs: [1, 2, 3], adapter: null, concurrency: 2, stallTimeoutMs: 1500, onProgress: (done) => progress.push(done),
      call: (a, input) => (input === 1 ? Promise.resolve(1) : new Promise(() => {})),
    }),
    (error) => error.code === ErrorCodes.TIMEOUT && error.message === 'no operation completed for 2 s (1 of 3 done); is the server still up?',
  );
  // The watchdog ticks each second; the first tick starts the stall clock (one operation done by then), the
  // third finds 2 s without progress: not before 2.5 s, not after 5 s.
  assert.ok(performance.now() - begin >= 2500 && performance.now() - begin < 5000, `${performance.now() - begin} ms`);
  assert.ok(progress.length >= 1 && progress.every((done) => done === 1), `progress reports ${progress}`);
});

test('a slow but steady run is no stall: the stall clock restarts with every completed operation', async () => {
  const outcome = await execute({
    inputs: Array.from({ length: 9 }, (_, i) => i), adapter: null, concurrency: 1, stallTimeoutMs: 1000,
    call: async (a, input) => {
      await sleep(250);
      return input;
    },
  });
  assert.equal(outcome.completed, 9);
  assert.equal(outcome.errors.length, 0);
});

test('one long operation is no stall while it is within the stall timeout', async () => {
  // The watchdog ticks each second: at 1 s it sees the first state, at 2 s no progress for 1 s (< 3 s).
  const outcome = await execute({
    inputs: [1], adapter: null, concurrency: 1, stallTimeoutMs: 3000,
    call: async (a, input) => {
      await sleep(2300);
      return input;
    },
  });
  assert.deepEqual([outcome.completed, outcome.answers], [1, [1]]);
});

test('once stalled, no further operation is issued, even when the stalled one answers at last', async () => {
  let calls = 0;
  const begin = performance.now();
  await assert.rejects(execute({
    inputs: [1, 2, 3], adapter: null, concurrency: 1, stallTimeoutMs: 500,
    call: async (a, input) => {
      calls += 1;
      if (input === 1) await sleep(3000);
      return input;
    },
  }), { code: ErrorCodes.TIMEOUT });
  await sleep(3300 - (performance.now() - begin));
  assert.equal(calls, 1);
});

test('a signal aborted before the start runs nothing', async () => {
  let calls = 0;
  const outcome = await execute({
    inputs: [1, 2, 3], adapter: null, concurrency: 2, signal: AbortSignal.abort(),
    call: async () => { calls += 1; },
  });
  assert.deepEqual([calls, outcome.completed, outcome.aborted], [0, 0, true]);
  const free = await execute({ inputs: [1], adapter: null, concurrency: 1, call: async (a, input) => input });
  assert.equal(free.aborted, false, 'no signal, no abort');
  // The signal outlives the run: the run's listener must not.
  const signal = new AbortController().signal;
  await execute({ inputs: [1], adapter: null, concurrency: 1, signal, call: async (a, input) => input });
  assert.equal(getEventListeners(signal, 'abort').length, 0);
});

test('a connection that fails is closed and reported as E_CONNECT, naming the database and, when given, host:port', async () => {
  const { connectAdapter } = await import('../runner/run.js');
  let closed = 0;
  const failing = (error) => ({
    name: 'Failing',
    create: () => ({ connect: async () => { throw error; }, close: async () => { closed += 1; } }),
  });
  const refused = new Error('refused');
  await assert.rejects(connectAdapter(failing(refused), { connectTimeoutMs: 500 }), (error) => error.code === ErrorCodes.CONNECT
    && error.message === 'cannot connect to Failing: refused' && error.cause === refused);
  await assert.rejects(connectAdapter(failing(new Error('refused')), { host: 'db', connectTimeoutMs: 500 }), { message: 'cannot connect to Failing at db: refused' });
  const own = Object.assign(new Error('the adapter\'s own words'), { code: ErrorCodes.CONNECT });
  await assert.rejects(connectAdapter(failing(own), { connectTimeoutMs: 500 }), (error) => error === own);
  assert.equal(closed, 3);
});

test('a connection that never completes fails with E_CONNECT naming host:port in bounded time', async () => {
  const { connectAdapter } = await import('../runner/run.js');
  const hanging = {
    name: 'Hanging',
    create: () => ({ connect: () => new Promise(() => {}), close: async () => {} }),
  };
  const begin = performance.now();
  await assert.rejects(
    connectAdapter(hanging, { host: '127.0.0.1', port: 1, connectTimeoutMs: 500 }),
    (error) => error.code === ErrorCodes.CONNECT && error.message === 'cannot connect to Hanging at 127.0.0.1:1: connecting took longer than 500 ms',
  );
  assert.ok(performance.now() - begin < 3000);
  // The adapter honours its own timeout; the harness's bound is a second later, so a slow connect still counts.
  const slow = { name: 'Slow', create: () => ({ connect: () => sleep(700), close: async () => {} }) };
  await connectAdapter(slow, { connectTimeoutMs: 500 });
});

test('operations that resolve without an event-loop turn (a blocking driver) still let the progress and stall timers run', { timeout: 30_000 }, async () => {
  // Each call holds the thread for 1 ms, as a blocking driver's call waits for its server, and resolves at once.
  const call = () => {
    const until = performance.now() + 1;
    while (performance.now() < until) { /* held */ }
    return Promise.resolve(1);
  };
  const seen = [];
  const outcome = await execute({ inputs: new Array(1500).fill(0), call, adapter: null, concurrency: 1, onProgress: (done) => seen.push(done) });
  assert.equal(outcome.completed, 1500);
  assert.ok(seen.some((done) => done > 0 && done < 1500), `progress during the run: ${seen.join(', ')}`);
});
