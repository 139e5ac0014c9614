// The open-loop executor (runner/open-loop.js): sends at the scheduled times whatever the answers, latency from
// the scheduled time (a stall shows instead of hiding), target and achieved rates, the in-flight cap, errors,
// the stall watchdog and an interruption; and the closed loop's per-operation times for a timed workload.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { execute } from '../runner/execute.js';
import { executeOpenLoop, rateSummary } from '../runner/open-loop.js';
import { sleepAtLeast } from './helpers/time.js';

const range = (n) => Array.from({ length: n }, (_, i) => i);
const sorted = (latencies) => latencies.slice().sort();

describe('open loop', () => {
  test('sends every operation at its time while the earlier ones are still unanswered', async () => {
    const inputs = range(50);
    const sent = [];
    const begin = performance.now();
    // Each answer takes 200 ms: a closed loop of one would need 10 s, this sends one every 5 ms regardless.
    const call = async (adapter, i) => {
      sent.push(performance.now() - begin);
      await sleep(200);
      return i * 2;
    };
    const outcome = await executeOpenLoop({ inputs, call, adapter: null, rate: 200, times: true });
    assert.deepEqual(outcome.answers, inputs.map((i) => i * 2));
    assert.equal(outcome.completed, 50);
    // The last is due at 245 ms and answered 200 ms later; it was never waiting for the first 49 answers.
    assert.ok(sent[49] < 400, `the last operation left at ${sent[49]} ms`);
    assert.ok(outcome.wallMs >= 440 && outcome.wallMs < 3000, `span ${outcome.wallMs}`);
    for (const i of inputs) {
      assert.ok(outcome.times.starts[i] >= begin + i * 5 - 1, `operation ${i} left before its time`);
      assert.ok(outcome.times.ends[i] - outcome.times.starts[i] >= 195);
    }
    assert.equal(outcome.openLoop.targetRate, 200);
  });

  test('measures latency from the scheduled time, so a stalled harness or server shows in the percentiles', async () => {
    const inputs = range(400);
    let blocked = false;
    // The first call holds the event loop for 150 ms, as a stall of the client would: the 150 operations due
    // meanwhile go out late, and their latencies must count the wait.
    const call = async (adapter, i) => {
      if (!blocked) {
        blocked = true;
        const until = performance.now() + 150;
        while (performance.now() < until) { /* busy: nothing can be sent */ }
      }
      return i;
    };
    const outcome = await executeOpenLoop({ inputs, call, adapter: null, rate: 1000 });
    const latencies = sorted(outcome.latencies);
    assert.ok(latencies[latencies.length - 1] >= 140, `max ${latencies[latencies.length - 1]} ms`);
    assert.ok(outcome.latencies[1] >= 140, `operation 1, due at 1 ms, answered after ${outcome.latencies[1]} ms`);
    assert.ok(latencies[Math.floor(latencies.length * 0.9)] > 10, 'the 90th percentile shows the stall');
    assert.ok(outcome.openLoop.sendLagMs.max >= 140);
  });

  test('records the achieved rate, and says so when it falls more than 5% below the target', async () => {
    // 1.5 s, so that a pause of the shared machine near the end cannot take 5% off the span; and up to three
    // tries, as a machine loaded by other work may pause for longer than that (947 ops/s once, in a CI beside
    // two others): a scheduler that falls behind falls behind every time.
    const achieved = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const fast = await executeOpenLoop({ inputs: range(1500), call: async (a, i) => i, adapter: null, rate: 1000 });
      const { achievedRate, note } = fast.openLoop;
      assert.ok(achievedRate <= 1010, `achieved ${achievedRate}, above the schedule`);
      assert.equal(note === null, achievedRate >= 950, `achieved ${achievedRate}, note ${note}`);
      achieved.push(achievedRate);
      if (achievedRate >= 950) break;
    }
    assert.ok(achieved.at(-1) >= 950, `achieved ${achieved.join(', ')} ops/s against 1000`);

    // A server that answers one request at a time, 4 ms each: 250 ops/s at best, against 1000 asked.
    let queue = Promise.resolve();
    const serial = (adapter, i) => {
      queue = queue.then(() => sleep(4)).then(() => i);
      return queue;
    };
    const slow = await executeOpenLoop({ inputs: range(100), call: serial, adapter: null, rate: 1000 });
    assert.equal(slow.completed, 100);
    assert.ok(slow.openLoop.achievedRate < 300, `achieved ${slow.openLoop.achievedRate}`);
    assert.match(slow.openLoop.note, /% below the target of 1000 ops\/s/);
    // Latency from the schedule: the last operation, due at 99 ms, waited for the 99 before it.
    assert.ok(slow.latencies[99] > 250, `last latency ${slow.latencies[99]}`);
  });

  test('refuses to keep more than the cap in flight', async () => {
    const never = () => new Promise(() => {});
    await assert.rejects(
      executeOpenLoop({ inputs: range(100), call: never, adapter: null, rate: 10_000, maxInFlight: 20 }),
      /more than 20 operations in flight at 10000 ops\/s/,
    );
  });

  test('collects errors with their operation and still answers the others', async () => {
    const call = async (adapter, i) => {
      if (i % 10 === 3) throw new Error(`no ${i}`);
      return i;
    };
    const outcome = await executeOpenLoop({ inputs: range(40), call, adapter: null, rate: 2000 });
    assert.deepEqual(outcome.errors.map(({ index }) => index).sort((a, b) => a - b), [3, 13, 23, 33]);
    assert.equal(outcome.errors[0].error.message, 'no 3');
    assert.equal(outcome.completed, 40);
    assert.equal(outcome.answers[4], 4);
  });

  test('a stall ends in E_TIMEOUT; an interruption stops sending and returns at once', async () => {
    const never = () => new Promise(() => {});
    await assert.rejects(
      executeOpenLoop({ inputs: range(5), call: never, adapter: null, rate: 1000, stallTimeoutMs: 500 }),
      { code: 'E_TIMEOUT', message: /no operation completed .* 5 in flight/ },
    );
    const controller = new AbortController();
    let calls = 0;
    const call = async (adapter, i) => {
      calls += 1;
      if (i === 10) controller.abort();
      return i;
    };
    const outcome = await executeOpenLoop({ inputs: range(1000), call, adapter: null, rate: 1000, signal: controller.signal });
    assert.equal(outcome.aborted, true);
    assert.ok(calls < 100, `${calls} calls after the interruption`);
  });

  test('an empty input list finishes at once', async () => {
    const outcome = await executeOpenLoop({ inputs: [], call: async () => 1, adapter: null, rate: 10 });
    assert.equal(outcome.completed, 0);
    assert.equal(outcome.wallMs, 0);
  });
});

describe('closed loop with times', () => {
  test('keeps each operation\'s start and end when asked, and nothing more otherwise', async () => {
    const call = async (adapter, i) => {
      await sleep(i % 3);
      return i;
    };
    const outcome = await execute({ inputs: range(60), call, adapter: null, concurrency: 4, times: true });
    const { starts, ends } = outcome.times;
    for (let i = 0; i < 60; i += 1) {
      assert.ok(starts[i] > 0 && ends[i] >= starts[i], `operation ${i}`);
      assert.ok(Math.abs(ends[i] - starts[i] - outcome.latencies[i]) < 1e-9);
    }
    assert.equal((await execute({ inputs: range(5), call, adapter: null, concurrency: 2 })).times, null);
  });
});

describe('open loop, exactly', () => {
  test('the rate summary: the achieved rate, the send lag, and a note only when more than 5% below the target', () => {
    const note = (achieved, below, rate) => `achieved ${achieved} ops/s, ${below}% below the target of ${rate} ops/s: the answers (or the harness `
      + 'sending the operations) could not keep up with the schedule';
    assert.deepEqual(rateSummary({ rate: 100, completed: 50, spanMs: 500, lagSum: 10, lagMax: 0.12345 }),
      { targetRate: 100, achievedRate: 100, sendLagMs: { mean: 0.2, max: 0.123 }, note: null });
    assert.equal(rateSummary({ rate: 100, completed: 95, spanMs: 1000, lagSum: 0, lagMax: 0 }).note, null, 'exactly 95%: no note');
    assert.deepEqual(rateSummary({ rate: 100, completed: 94, spanMs: 1000, lagSum: 0.0004, lagMax: 0.0006 }),
      { targetRate: 100, achievedRate: 94, sendLagMs: { mean: 0, max: 0.001 }, note: note(94, 6, 100) });
    assert.deepEqual(rateSummary({ rate: 1000, completed: 1, spanMs: 3, lagSum: 2.5, lagMax: 2.5 }),
      { targetRate: 1000, achievedRate: 333, sendLagMs: { mean: 2.5, max: 2.5 }, note: note(333, 67, 1000) });
    // Nothing answered, or answers in no time at all: no rate, no mean lag.
    assert.deepEqual(rateSummary({ rate: 10, completed: 0, spanMs: 0, lagSum: 0, lagMax: 0 }),
      { targetRate: 10, achievedRate: 0, sendLagMs: { mean: 0, max: 0 }, note: note(0, 100, 10) });
    assert.equal(rateSummary({ rate: 10, completed: 5, spanMs: 0, lagSum: 1, lagMax: 1 }).achievedRate, 0);
  });

  test('a rate that is not a positive number is refused', async () => {
    for (const rate of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, undefined]) {
      await assert.rejects(executeOpenLoop({ inputs: range(3), call: async () => 1, adapter: null, rate }),
        { message: `internal: an open loop needs a positive rate, got ${rate}` });
    }
  });

  test('exactly the cap in flight is allowed; one more is refused with the counts', async () => {
    let release;
    const gate = new Promise((resolve) => { release = resolve; });
    let calls = 0;
    const call = (adapter, i) => {
      calls += 1;
      if (calls === 20) release();
      return gate.then(() => i);
    };
    const outcome = await executeOpenLoop({ inputs: range(20), call, adapter: null, rate: 10_000, maxInFlight: 20 });
    assert.equal(outcome.completed, 20);
    assert.deepEqual(outcome.answers, range(20));
    await assert.rejects(executeOpenLoop({ inputs: range(21), call: () => new Promise(() => {}), adapter: null, rate: 10_000, maxInFlight: 20 }),
      { message: 'more than 20 operations in flight at 10000 ops/s (0 of 21 answered): the database answers far more slowly than the rate asks; lower --rate' });
  });

  test('a stall names its time and counts; progress is reported each second while operations are answered', async () => {
    await assert.rejects(
      executeOpenLoop({ inputs: range(5), call: () => new Promise(() => {}), adapter: null, rate: 1000, stallTimeoutMs: 1400 }),
      { code: 'E_TIMEOUT', message: 'no operation completed for 1 s (0 of 5 done, 5 in flight); is the server still up?' },
    );
    const progress = [];
    const outcome = await executeOpenLoop({ inputs: range(12), call: async (a, i) => i, adapter: null, rate: 10, onProgress: (n) => progress.push(n) });
    assert.equal(outcome.completed, 12);
    assert.ok(progress.length >= 1 && progress.every((n) => Number.isInteger(n) && n > 0 && n <= 12), JSON.stringify(progress));
    // A low rate leaves nothing in flight between operations: that is no stall.
    const slow = await executeOpenLoop({ inputs: range(3), call: async (a, i) => i, adapter: null, rate: 1, stallTimeoutMs: 500 });
    assert.equal(slow.completed, 3);
  });

  test('errors stop the sending once there are a hundred; the operations in flight still answer', async () => {
    let calls = 0;
    const outcome = await executeOpenLoop({ inputs: range(2000), call: async (a, i) => { calls += 1; await sleep(5); throw new Error(`no ${i}`); }, adapter: null, rate: 4000 });
    assert.ok(outcome.errors.length >= 100 && outcome.errors.length < 2000, `${outcome.errors.length} errors`);
    // It returns once every operation sent has answered, and sends no more.
    assert.deepEqual([outcome.completed, calls], [outcome.errors.length, outcome.errors.length]);
    await sleep(50);
    assert.deepEqual([outcome.errors.length, calls], [outcome.completed, outcome.completed]);
    assert.equal(outcome.aborted, false);
  });

  test('the hundredth error stops the sending, not the hundred and first', async () => {
    // The first hundred operations fail at once, every later one answers: only a cap of exactly a hundred stops.
    const outcome = await executeOpenLoop({
      inputs: range(400), call: async (a, i) => { if (i < 100) throw new Error(`no ${i}`); return i; }, adapter: null, rate: 1000,
    });
    assert.equal(outcome.errors.length, 100);
    assert.ok(outcome.completed < 400, `${outcome.completed} operations completed`);
  });

  test('an interruption before the start sends nothing; the times are each operation\'s send and answer', async () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    const outcome = await executeOpenLoop({ inputs: range(10), call: async () => { calls += 1; }, adapter: null, rate: 1000, signal: controller.signal, times: true });
    assert.deepEqual([calls, outcome.completed, outcome.aborted, outcome.wallMs], [0, 0, true, 0]);
    // Each call lasts at least 3 ms by the clock the times are read from.
    const lasting = async (a, i) => {
      await sleepAtLeast(3);
      return i;
    };
    const timed = await executeOpenLoop({ inputs: range(10), call: lasting, adapter: null, rate: 500, times: true });
    for (let i = 0; i < 10; i += 1) {
      assert.ok(timed.times.ends[i] - timed.times.starts[i] >= 2.5, `operation ${i}`);
      assert.ok(i === 0 || timed.times.starts[i] >= timed.times.starts[i - 1], 'sent in order');
      assert.ok(timed.latencies[i] >= timed.times.ends[i] - timed.times.starts[i] - 1e-9, 'latency counts from the schedule, at least the send');
    }
    assert.equal((await executeOpenLoop({ inputs: range(3), call: async (a, i) => i, adapter: null, rate: 1000 })).times, null);
  });
});

describe('open loop, its clock', () => {
  test('a low rate sleeps between sends instead of spinning, and sends each operation on time', async () => {
    // Up to three tries: on a loaded machine a timer may fire tens of milliseconds late (31 ms once in a CI run
    // beside a CPU hog and another CI run), which is the machine's lag, not the schedule's. Never sending early
    // and never spinning hold in every try.
    for (let attempt = 1; ; attempt += 1) {
      const before = process.cpuUsage();
      const outcome = await executeOpenLoop({ inputs: range(10), call: async (a, i) => { await sleep(2); return i; }, adapter: null, rate: 20, times: true });
      const cpu = process.cpuUsage(before);
      assert.ok((cpu.user + cpu.system) / 1000 < 200, `${(cpu.user + cpu.system) / 1000} ms of CPU for 450 ms of schedule`);
      const { mean, max } = outcome.openLoop.sendLagMs;
      const lags = [];
      for (let i = 0; i < 10; i += 1) {
        const lag = outcome.latencies[i] - (outcome.times.ends[i] - outcome.times.starts[i]);
        assert.ok(lag >= -1e-9, `operation ${i}: its latency counted from before it was sent (${lag} ms)`);
        assert.ok(i === 0 || outcome.times.starts[i] - outcome.times.starts[0] >= i * 50 - 1, `operation ${i} sent before it was due`);
        lags.push(lag);
      }
      // Operation i is due at i * 50 ms: sent within a few milliseconds of it, its latency counted from then.
      const onTime = mean >= 0 && mean <= max && max < 25 && lags.every((lag) => lag < 25) && outcome.wallMs >= 450 && outcome.wallMs < 600;
      if (onTime) return;
      if (attempt === 3) {
        assert.fail(`send lag ${mean} ms on average, ${max} ms at most; operations sent ${lags.map((lag) => lag.toFixed(1)).join(', ')} ms late; span ${outcome.wallMs} ms`);
      }
    }
  });

  test('no stall while nothing is in flight between sends, nor while one operation is answered within the timeout', async () => {
    // Due at 0 and 2.5 s, answered at once: the watchdog's ticks at 1 and 2 s see nothing done and nothing waiting.
    const idle = await executeOpenLoop({ inputs: range(2), call: async (a, i) => i, adapter: null, rate: 0.4, stallTimeoutMs: 800 });
    assert.equal(idle.completed, 2);
    // One operation of 2.2 s: the ticks at 1 and 2 s see it waiting, less than the timeout since the last progress.
    const long = await executeOpenLoop({ inputs: range(1), call: async (a, i) => { await sleep(2200); return i; }, adapter: null, rate: 10, stallTimeoutMs: 1500 });
    assert.equal(long.completed, 1);
  });

  test('after a stall or an interruption nothing more is sent', async () => {
    let calls = 0;
    await assert.rejects(executeOpenLoop({ inputs: range(200), call: () => { calls += 1; return new Promise(() => {}); }, adapter: null, rate: 40, stallTimeoutMs: 1000 }),
      { code: 'E_TIMEOUT' });
    const atStall = calls;
    await sleep(300);
    assert.equal(calls, atStall, 'no operation sent after the stall');
    const controller = new AbortController();
    let sent = 0;
    const outcome = await executeOpenLoop({
      inputs: range(1000), call: async (a, i) => { sent += 1; if (i === 5) controller.abort(); return i; }, adapter: null, rate: 500, signal: controller.signal,
    });
    const atReturn = sent;
    await sleep(100);
    assert.deepEqual([outcome.aborted, sent], [true, atReturn], 'no operation sent after the interruption');
  });
});
