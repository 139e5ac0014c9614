// runBenchmark's orchestration (runner/run.js) and --restart-cmd (runner/restart.js), over an adapter and a
// dataset made up here: a namespace that already holds the dataset (so nothing is imported) and workloads
// that are nothing but their inputs, their call and their check.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ErrorCodes } from '../core/errors.js';
import { runBenchmark } from '../runner/run.js';
import { restartServer } from '../runner/restart.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-run-'));
after(() => rmSync(work, { recursive: true, force: true }));

const dataset = {
  id: 'made-up-s1', name: 'made-up', scale: 'tiny', seed: 1, profiles: 3, relations: 2, sha256: { profiles: 'p', relations: 'r' },
};

// Every adapter instance of one test shares `log`: what was connected, closed and called.
function fakeDb({ supports = ['double', 'wrong', 'throws', 'crash', 'many'] } = {}) {
  const log = { connects: 0, closes: 0, calls: 0 };
  const description = {
    id: 'fake', name: 'Fake', kind: 'embedded', execution: 'serial', driver: null, durability: {}, supports,
    create: () => ({
      connect: async () => { log.connects += 1; },
      close: async () => { log.closes += 1; },
      serverVersion: async () => '1.0',
      inspectNamespace: async () => ({
        state: 'owned',
        marker: {
          imported: true, dataset: dataset.id, name: dataset.name, scale: dataset.scale, seed: dataset.seed,
          sha256: dataset.sha256, importedAt: '2026-01-01T00:00:00.000Z', timings: { ms: 5 },
        },
      }),
      counts: async () => ({ profiles: dataset.profiles, relations: dataset.relations }),
      double: async (n) => { log.calls += 1; return 2 * n; },
    }),
  };
  return { description, log };
}

const workload = (name, call, overrides = {}) => ({
  name, operation: name, compared: true, description: name,
  inputs: () => [1, 2, 3, 4],
  call,
  check: async (expected, inputs, answers) => inputs.flatMap((input, i) => (answers[i] === 2 * input ? [] : [{ input, problem: `expected ${2 * input}, got ${answers[i]}` }])),
  ...overrides,
});

const double = workload('double', (adapter, n) => adapter.double(n));
const wrong = workload('wrong', async (adapter, n) => (n === 3 ? 7 : 2 * n));
const throws = workload('throws', async (adapter, n) => {
  if (n % 2 === 0) throw new Error(`no ${n}`);
  return 2 * n;
});
// The check itself fails: the run is recorded as failed with the error, and the suite goes on.
const crash = workload('crash', async (adapter, n) => 2 * n, { check: async () => { throw new Error('check broke'); } });
const unsupported = workload('elsewhere', async () => 0);

function run(description, workloads, { runs = 2, ...options } = {}) {
  const updates = [];
  const promise = runBenchmark({
    description, adapterOptions: { connectTimeoutMs: 1000 }, dataset, workloads,
    config: { concurrency: 2, runs, stallTimeoutMs: 10_000, ...options.config },
    command: 'test', signal: options.signal, progress: options.progress, server: options.server,
    onUpdate: (result) => updates.push(structuredClone(result)),
  });
  return { promise, updates };
}

test('each workload is timed and validated in every run, from a fresh connection per run', async () => {
  const { description, log } = fakeDb();
  const { promise, updates } = run(description, [double, wrong, throws, crash, unsupported], { runs: 3 });
  const result = await promise;
  assert.equal(log.connects, 4, 'one connection for the import, one per run');
  assert.equal(log.closes, 4);
  assert.equal(log.calls, 12);
  assert.deepEqual(result.import, { reused: true, importedAt: '2026-01-01T00:00:00.000Z', ms: 5, diskBytes: null, diskScope: null, resources: null });
  assert.equal(result.dataset.sha256, dataset.sha256);
  assert.deepEqual(result.db, {
    id: 'fake', name: 'Fake', version: '1.0', kind: 'embedded', execution: 'serial', driver: null, durability: {}, durablePerWrite: [], settings: {},
  });
  assert.deepEqual(result.dataset, { ...dataset, readStats: null });
  assert.deepEqual(result.config, { concurrency: 2, runs: 3, stallTimeoutMs: 10_000 });
  assert.deepEqual([result.complete, result.interrupted, result.error], [true, false, null]);

  const { double: ok, wrong: bad, throws: failing, crash: broken, elsewhere } = result.workloads;
  assert.deepEqual([ok.status, ok.runs.length, ok.ops], ['passed', 3, 4]);
  for (const r of ok.runs) {
    assert.ok(r.ms > 0 && r.opsPerSec > 0 && r.latencyMs.max > 0 && typeof r.histogram === 'string', JSON.stringify(r));
    // What the harness used during the run: a few operations are too short a span for a CPU share (null).
    assert.ok('cpuPct' in r.resources.client && (r.resources.client.cpuPct === null || r.ms >= 100), JSON.stringify(r.resources));
    assert.equal(typeof r.resources.client.eventLoopDelayP99Ms, 'number');
  }
  assert.deepEqual(ok.runs.map((r) => r.run), [1, 2, 3]);

  assert.equal(bad.status, 'failed');
  assert.deepEqual(bad.runs.map((r) => [r.valid, r.errors, r.failed, r.reason]), Array(3).fill([false, 0, 1, '1 wrong answers']));
  assert.deepEqual(bad.failures[0], { run: 1, input: '3', problem: 'expected 6, got 7' });

  assert.equal(failing.status, 'failed');
  assert.deepEqual(failing.runs.map((r) => [r.errors, r.failed, r.reason]), Array(3).fill([2, 2, '2 operations failed']));
  assert.deepEqual(failing.failures.slice(0, 2).map((f) => [f.input, f.problem]), [['2', 'error: no 2'], ['4', 'error: no 4']]);

  assert.equal(broken.status, 'failed');
  assert.deepEqual(broken.runs.map((r) => [r.valid, r.ops, r.reason]), Array(3).fill([false, undefined, 'check broke']));
  assert.equal(broken.ops, 0);
  assert.deepEqual(broken.failures[0], { run: 1, input: null, problem: 'error: check broke' });

  assert.deepEqual([elsewhere.supported, elsewhere.status, elsewhere.runs], [false, 'unsupported', []]);

  // After the import, after each of the 3 runs, and the finished document.
  assert.equal(updates.length, 5);
  assert.deepEqual(updates.map((u) => u.workloads.double.runs.length), [0, 1, 2, 3, 3]);
  assert.deepEqual(updates.map((u) => u.complete), [false, false, false, false, true]);
});

test('the document names the driver\'s version and the settings the adapter reads', async () => {
  const { description } = fakeDb();
  const create = description.create;
  const described = {
    ...description, driver: 'yargs', create: () => ({ ...create(), settings: async () => ({ shared_buffers: '128MB' }) }),
  };
  const result = await run(described, [double], { runs: 1 }).promise;
  assert.deepEqual(result.db.driver, { name: 'yargs', version: JSON.parse(readFileSync(new URL('../node_modules/yargs/package.json', import.meta.url), 'utf8')).version });
  assert.deepEqual(result.db.settings, { shared_buffers: '128MB' });
});

test('setup runs before and teardown after each run of its workload', async () => {
  const { description } = fakeDb();
  const order = [];
  const staged = workload('double', async (adapter, n) => { order.push(`call ${n}`); return 2 * n; }, {
    inputs: () => [1],
    setup: async () => { order.push('setup'); },
    teardown: async () => { order.push('teardown'); },
  });
  await run(description, [staged], { runs: 2 }).promise;
  assert.deepEqual(order, ['setup', 'call 1', 'teardown', 'setup', 'call 1', 'teardown']);
});

test('a stalled server ends the invocation: the error carries the result so far, marked incomplete', async () => {
  const { description } = fakeDb();
  const stalls = workload('double', (adapter, n) => (n === 1 ? new Promise(() => {}) : 2 * n), { inputs: () => [1] });
  const { promise, updates } = run(description, [stalls, wrong], { runs: 2, config: { stallTimeoutMs: 1200 } });
  const error = await promise.then(() => null, (e) => e);
  assert.equal(error?.code, ErrorCodes.TIMEOUT);
  assert.equal(error.result.complete, false);
  assert.deepEqual(error.result.error, { code: ErrorCodes.TIMEOUT, message: error.message });
  assert.deepEqual(error.result.workloads.double.runs.map((r) => [r.run, r.valid]), [[1, false]]);
  assert.equal(error.result.workloads.wrong.status, 'not run', 'nothing after the stall is run');
  assert.equal(updates.at(-1).complete, false);
  assert.ok(updates.at(-1).finishedAt);
});

test('an abort stops after the operations in flight and keeps the runs completed before it', async () => {
  const { description, log } = fakeDb();
  const controller = new AbortController();
  let calls = 0;
  let inputsMade = 0;
  let setups = 0;
  const aborts = workload('double', async (adapter, n) => {
    calls += 1;
    if (calls === 6) controller.abort();
    return 2 * n;
  }, { inputs: () => { inputsMade += 1; return [1, 2, 3, 4]; } });
  const after = { ...wrong, setup: async () => { setups += 1; } };
  const { promise, updates } = run(description, [aborts, after], { runs: 5, signal: controller.signal });
  const result = await promise;
  assert.deepEqual([result.complete, result.interrupted], [false, true]);
  assert.deepEqual(result.workloads.double.runs.map((r) => r.run), [1], 'the aborted second run is not recorded');
  assert.deepEqual(result.workloads.wrong.runs.map((r) => r.run), [1]);
  assert.equal(setups, 1, 'no workload starts after the abort');
  assert.equal(log.connects, 3, 'no run starts after the abort');
  assert.equal(inputsMade, 1, 'a workload\'s inputs are made once for all runs');
  // After the import, after run 1, and the finished document; not after the aborted run.
  assert.deepEqual(updates.map((u) => u.interrupted), [false, false, true]);
});

test('progress: a bar per step, named by its run, updated while it runs and stopped; the restart is logged', async () => {
  const { description } = fakeDb();
  const bars = [];
  const logs = [];
  const progress = {
    bar: (label, total) => {
      const bar = { label, total, updates: [], stops: 0, update: (done) => bar.updates.push(done), stop: () => { bar.stops += 1; } };
      bars.push(bar);
      return bar;
    },
    log: (line) => logs.push(line),
  };
  let slow = true;
  // The first operation of the first run outlasts the one-second progress tick.
  const ticking = workload('double', async (adapter, n) => {
    if (slow) {
      slow = false;
      await new Promise((resolve) => setTimeout(resolve, 1100));
    }
    return 2 * n;
  });
  await run(description, [ticking], { runs: 2, progress, config: { restartCmd: 'true' } }).promise;
  assert.deepEqual(bars.map((b) => [b.label, b.total, b.stops]), [['run 1/2 double', 4, 1], ['run 2/2 double', 4, 1]]);
  assert.ok(bars[0].updates.length >= 1 && bars[0].updates.every((done) => done >= 0 && done <= 4), `${bars[0].updates}`);
  assert.deepEqual(logs, ['restarting the server: true']);
});

test('a run whose operations all fail stops after MAX_ERRORS and keeps three examples per run', async () => {
  const { description } = fakeDb();
  const many = workload('many', async (adapter, n) => { throw new Error(`no ${n}`); }, { inputs: () => Array.from({ length: 300 }, (_, i) => i) });
  const result = await run(description, [many], { runs: 2 }).promise;
  for (const r of result.workloads.many.runs) {
    const [, failed, completed] = r.reason.match(/^(\d+) operations failed; stopped after (\d+) operations$/);
    assert.ok(Number(failed) >= 100 && Number(failed) < 300 && failed === completed, r.reason);
  }
  assert.deepEqual(result.workloads.many.failures.map((f) => f.run), [1, 1, 1, 2, 2]);
});

test('a server process named by the caller is sampled and named in the document', async () => {
  const { description } = fakeDb();
  const result = await run(description, [double], { runs: 1, server: { pid: process.pid, source: '--server-pid' } }).promise;
  assert.deepEqual([result.resources.server.pid, result.resources.server.source], [process.pid, '--server-pid']);
  assert.equal(typeof result.workloads.double.runs[0].resources.server.rssPeakBytes, 'number');
});

test('--restart-cmd runs between runs, never before the first, and a failing one ends the invocation', async () => {
  const { description } = fakeDb();
  const marker = path.join(work, 'restarts.txt');
  await run(description, [double], { runs: 3, config: { restartCmd: `echo restarted >> '${marker}'` } }).promise;
  assert.equal(readFileSync(marker, 'utf8'), 'restarted\nrestarted\n');

  const failing = await run(description, [double], { runs: 2, config: { restartCmd: 'exit 3' } }).promise.then(() => null, (e) => e);
  assert.equal(failing?.code, ErrorCodes.RESTART);
  assert.match(failing.message, /^--restart-cmd exited with code 3: exit 3$/);
  assert.equal(failing.result.workloads.double.runs.length, 1);
});

test('restartServer: the command\'s output goes to stderr, never to stdout (which --json keeps for the document)', async () => {
  const module = new URL('../runner/restart.js', import.meta.url).href;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', `(await import(${JSON.stringify(module)})).restartServer('echo out; echo err >&2')`], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stdout, '');
  assert.equal(child.stderr, 'out\nerr\n');
});

test('restartServer: exit code 0 resolves, a signal or a code rejects, a command that hangs is cut off', async () => {
  await restartServer('true');
  await assert.rejects(restartServer('kill -TERM $$'), { code: ErrorCodes.RESTART, message: '--restart-cmd exited with SIGTERM: kill -TERM $$' });
  await assert.rejects(restartServer('exec sleep 5', { timeoutMs: 200 }), { code: ErrorCodes.TIMEOUT, message: '--restart-cmd did not finish within 0.2 s: exec sleep 5' });
});

// A suite made up here: nothing to load, two rounds of two chained steps with params, each round with its own
// setup and teardown.
function madeUpSuite({ load, failIn = null }) {
  const order = [];
  const step = (name, params) => ({
    key: `${name}@${params.size}`,
    params,
    workload: workload(name, async (adapter, n, p) => { order.push(`${name} ${n}×${p.size}`); return name === failIn ? -1 : 2 * n; }, {
      inputs: (expected, p) => [p.size],
    }),
  });
  const round = (run) => ({
    run, label: `round ${run}`, concurrency: 1, chained: true,
    setup: async () => { order.push(`setup ${run}`); },
    teardown: async () => { order.push(`teardown ${run}`); },
    steps: [step('double', { size: run }), step('wrong', { size: run })],
  });
  return {
    order,
    suite: {
      id: 'made-up', describeData: (data) => ({ id: data.id }), load, context: (data) => data,
      rounds: () => [round(1), round(2)],
    },
  };
}

function runSuite(suite, description) {
  return runBenchmark({
    suite, description, adapterOptions: { connectTimeoutMs: 1000 }, dataset, workloads: [],
    config: { concurrency: 1, runs: 2, stallTimeoutMs: 10_000 }, command: 'test',
  });
}

test('a suite\'s rounds: setup, steps with their params, teardown; a suite that loads nothing records no import', async () => {
  const { description } = fakeDb();
  const { suite, order } = madeUpSuite({});
  const result = await runSuite(suite, description);
  assert.deepEqual(order, ['setup 1', 'double 1×1', 'wrong 1×1', 'teardown 1', 'setup 2', 'double 2×2', 'wrong 2×2', 'teardown 2']);
  assert.deepEqual(Object.keys(result.workloads), ['double@1', 'wrong@1', 'double@2', 'wrong@2']);
  assert.equal(result.import, null);
  assert.deepEqual(result.dataset, { id: dataset.id });
  const loaded = madeUpSuite({ load: async () => null });
  assert.equal((await runSuite(loaded.suite, description)).import, null, 'a load that resolves with nothing');
});

test('in a chained round a failed step leaves the later steps unmeasured, failed with the reason', async () => {
  const { description } = fakeDb();
  const { suite, order } = madeUpSuite({ failIn: 'double' });
  const result = await runSuite(suite, description);
  assert.deepEqual(order, ['setup 1', 'double 1×1', 'teardown 1', 'setup 2', 'double 2×2', 'teardown 2']);
  assert.equal(result.workloads['double@1'].runs[0].reason, '1 wrong answers');
  assert.deepEqual(result.workloads['wrong@1'].runs.map((r) => [r.valid, r.reason]), [[false, 'not run: double@1 failed before it in this round']]);
  // A step that throws breaks the chain too.
  const throwing = madeUpSuite({});
  throwing.suite.rounds = () => [{
    run: 1, label: 'round 1', concurrency: 1, chained: true,
    steps: [{ key: 'crash', params: null, workload: crash }, { key: 'double', params: null, workload: double }],
  }];
  const thrown = await runSuite(throwing.suite, description);
  assert.equal(thrown.workloads.double.runs[0].reason, 'not run: crash failed before it in this round');
  // Unchained, the next step runs as usual.
  const [chainedRound] = throwing.suite.rounds();
  throwing.suite.rounds = () => [{ ...chainedRound, chained: false }];
  assert.equal((await runSuite(throwing.suite, description)).workloads.double.status, 'passed');
});

test('a suite\'s fresh load is measured: its figures, the size on disk and what the server used', async () => {
  const { description } = fakeDb();
  const { suite } = madeUpSuite({ load: async () => ({ reused: false, ms: 12, sha256: { profiles: 'p2' } }) });
  const result = await runBenchmark({
    suite, description, adapterOptions: { connectTimeoutMs: 1000 }, dataset, workloads: [], server: { pid: process.pid, source: '--server-pid' },
    config: { concurrency: 1, runs: 1, stallTimeoutMs: 10_000 }, command: 'test',
  });
  assert.deepEqual(result.dataset.sha256, { profiles: 'p2' });
  assert.deepEqual([result.import.reused, result.import.ms, result.import.diskBytes, 'sha256' in result.import], [false, 12, null, false]);
  assert.equal(typeof result.import.resources.server.rssPeakBytes, 'number');
});

// A suite of one round whose one step is `workload`, with `extra` on the step (its warm-ups).
function oneStepSuite(stepWorkload, extra = {}) {
  return {
    id: 'one-step', describeData: (data) => ({ id: data.id }), context: (data) => data,
    rounds: () => [{ run: 1, label: 'round 1', concurrency: 1, steps: [{ key: 'step', params: null, workload: stepWorkload, ...extra }] }],
  };
}

test('warm-ups run the step\'s operations unmeasured first; an error in one fails the step, an abort in one records nothing', async () => {
  const { description } = fakeDb();
  let calls = 0;
  const counted = workload('double', async (adapter, n) => { calls += 1; return 2 * n; });
  const warmed = await runSuite(oneStepSuite(counted, { warmups: 2 }), description);
  assert.equal(calls, 12, 'two warm-ups and the measured execution, four operations each');
  assert.deepEqual([warmed.workloads.step.status, warmed.workloads.step.runs.length, warmed.workloads.step.ops], ['passed', 1, 4]);

  let failures = 0;
  const failsOnce = workload('double', async (adapter, n) => {
    if (n === 3 && failures === 0) {
      failures += 1;
      throw new Error('cold');
    }
    return 2 * n;
  });
  const failed = await runSuite(oneStepSuite(failsOnce, { warmups: 1 }), description);
  assert.deepEqual(failed.workloads.step.runs.map((r) => [r.valid, r.reason]), [[false, 'warm-up: cold']]);

  const controller = new AbortController();
  const bars = [];
  const aborts = workload('double', async (adapter, n) => {
    controller.abort();
    return 2 * n;
  });
  const aborted = await runBenchmark({
    suite: oneStepSuite(aborts, { warmups: 1 }), description, adapterOptions: { connectTimeoutMs: 1000 }, dataset, workloads: [],
    config: { concurrency: 1, runs: 1, stallTimeoutMs: 10_000 }, command: 'test', signal: controller.signal,
    progress: { bar: (label) => { bars.push(label); return { update() {}, stop() {} }; }, log() {} },
  });
  assert.deepEqual([aborted.workloads.step.runs, aborted.interrupted], [[], true]);
  assert.deepEqual(bars, [], 'the measured execution is not begun');
});

test('a valid run records the workload\'s tally and figures; every run reads its figures before the teardown', async () => {
  const { description } = fakeDb();
  const order = [];
  const extras = {
    tally: (inputs, answers) => ({ rows: answers.filter((answer) => answer > 4).length }),
    figures: async () => { order.push('figures'); return { diskBytes: 42 }; },
    teardown: async () => { order.push('teardown'); },
  };
  const passed = await runSuite(oneStepSuite(workload('double', async (adapter, n) => 2 * n, extras)), description);
  assert.deepEqual(order, ['figures', 'teardown']);
  const [valid] = passed.workloads.step.runs;
  assert.deepEqual([valid.valid, valid.rows, valid.diskBytes], [true, 2, 42]);
  const wrongOnes = await runSuite(oneStepSuite(workload('wrong', async () => 0, extras)), description);
  assert.deepEqual(wrongOnes.workloads.step.runs.map((r) => r.valid), [false]);
  assert.deepEqual(order, ['figures', 'teardown', 'figures', 'teardown']);
});

test('a load: an embedded database\'s I/O is the harness\'s own, a server\'s is not; a workload unsupported says why', async () => {
  const loaded = async () => ({ reused: false, ms: 1, sha256: {} });
  const measured = async (description, workloads = []) => runBenchmark({
    suite: { ...madeUpSuite({ load: loaded }).suite, rounds: () => [] }, description, adapterOptions: { connectTimeoutMs: 1000 }, dataset, workloads,
    config: { concurrency: 1, runs: 1, stallTimeoutMs: 10_000 }, command: 'test',
  });
  const { description } = fakeDb();
  const embedded = await measured(description);
  assert.equal(typeof embedded.import.resources.client.io, 'object');
  const server = await measured({ ...description, kind: 'server' });
  assert.deepEqual(Object.keys(server.import.resources), ['server']);

  const { suite } = madeUpSuite({});
  const step = { key: 'elsewhere', params: null, workload: unsupported };
  const result = await runBenchmark({
    suite: { ...suite, rounds: () => [{ run: 1, label: 'round 1', concurrency: 1, steps: [step] }] },
    description: { ...description, unsupported: { elsewhere: 'no such operation here' } }, adapterOptions: { connectTimeoutMs: 1000 },
    dataset, workloads: [], config: { concurrency: 1, runs: 1, stallTimeoutMs: 10_000 }, command: 'test',
  });
  assert.deepEqual([result.workloads.elsewhere.status, result.workloads.elsewhere.reason], ['unsupported', 'no such operation here']);
});

test('--clients 1 runs in this process; a run without --shard has no span', async () => {
  const { description } = fakeDb();
  // A client process could not run the made-up database: only this process can.
  const result = await run(description, [double], { runs: 1, config: { clients: 1 } }).promise;
  assert.equal(result.workloads.double.status, 'passed');
  assert.equal('span' in result.workloads.double.runs[0], false);
});

test('wrong answers keep three examples per run', async () => {
  const { description } = fakeDb();
  const allWrong = workload('wrong', async () => 0, { inputs: () => [1, 2, 3, 4, 5] });
  const result = await run(description, [allWrong], { runs: 2 }).promise;
  assert.deepEqual(result.workloads.wrong.runs.map((r) => r.failed), [5, 5]);
  assert.deepEqual(result.workloads.wrong.failures.map((f) => [f.run, f.input]), [[1, '1'], [1, '2'], [1, '3'], [2, '1'], [2, '2']]);
});

test('a chained round\'s unmeasured steps carry the round\'s run; a stall in a round that says so ends that round alone', async () => {
  const { description } = fakeDb();
  const { suite } = madeUpSuite({ failIn: 'double' });
  const chained = await runSuite(suite, description);
  assert.deepEqual(chained.workloads['wrong@2'].runs.map((r) => [r.run, r.valid]), [[2, false]]);

  const stalls = workload('double', () => new Promise(() => {}), { inputs: () => [1] });
  const round = (run) => ({
    run, label: `round ${run}`, concurrency: 1, stallFailsRound: true,
    steps: [{ key: `stall@${run}`, params: null, workload: stalls }, { key: `double@${run}`, params: null, workload: double }],
  });
  const result = await runBenchmark({
    suite: { ...suite, rounds: () => [round(1), round(2)] }, description, adapterOptions: { connectTimeoutMs: 1000 }, dataset, workloads: [],
    config: { concurrency: 1, runs: 1, stallTimeoutMs: 1100 }, command: 'test',
  });
  assert.equal(result.complete, true);
  for (const run of [1, 2]) {
    assert.match(result.workloads[`stall@${run}`].runs[0].reason, /^no operation completed for 1 s/);
    assert.deepEqual(result.workloads[`double@${run}`].runs.map((r) => r.reason), [`not run: stall@${run} failed before it in this round`]);
  }
});

test('runBenchmark refuses a shard of a suite that cannot be sharded; the reference is made for the supported workloads only', async () => {
  const { description } = fakeDb();
  await assert.rejects(runBenchmark({
    suite: madeUpSuite({}).suite, description, adapterOptions: { connectTimeoutMs: 1000 }, dataset, workloads: [],
    config: { concurrency: 1, runs: 1, stallTimeoutMs: 10_000 }, command: 'test', shard: { index: 0, count: 2, runId: 'x', waitMs: 1000, startAtMs: null },
  }), { code: ErrorCodes.USAGE, message: /^--shard runs the mixed suite; the made-up suite's checks/ });
  const given = [];
  const { suite } = madeUpSuite({});
  await runBenchmark({
    suite: { ...suite, context: (data, workloads) => { given.push(workloads.map((w) => w.name)); return data; } }, description,
    adapterOptions: { connectTimeoutMs: 1000 }, dataset, workloads: [double, unsupported], config: { concurrency: 1, runs: 1, stallTimeoutMs: 10_000 }, command: 'test',
  });
  assert.deepEqual(given, [['double']]);
});

test('exactly one failed operation fails the run, closed loop or open loop, with its one example', async () => {
  const { description } = fakeDb({ supports: ['once', 'double'] });
  // Its check finds nothing wrong, as crud's delete check finds nothing wrong after a delete that rejected: the
  // failed operation alone must fail the run.
  const once = workload('once', async (adapter, n) => {
    if (n === 3) throw new Error('no 3');
    return 2 * n;
  }, { check: async () => [] });
  const closed = (await run(description, [once], { runs: 1 }).promise).workloads.once;
  const suite = {
    id: 'made-up', describeData: (data) => ({ id: data.id }), context: (data) => data,
    rounds: () => [{
      run: 1, label: 'round 1', concurrency: 1,
      steps: [{ key: 'once', params: { rate: 2000 }, workload: once }, { key: 'double', params: { rate: 2000 }, workload: double }],
    }],
  };
  const { workloads } = await runSuite(suite, description);
  const open = workloads.once;
  assert.equal(workloads.double.runs[0].openLoop.targetRate, 2000, 'the steps ran open loop');
  for (const [loop, entry] of [['closed', closed], ['open', open]]) {
    assert.deepEqual([entry.status, entry.valid, entry.summary], ['failed', false, null], loop);
    assert.deepEqual(entry.runs.map((r) => [r.valid, r.errors, r.failed, r.reason, 'ms' in r]), [[false, 1, 1, '1 operations failed', false]], loop);
    assert.deepEqual(entry.failures, [{ run: 1, input: '3', problem: 'error: no 3' }], loop);
  }
});
