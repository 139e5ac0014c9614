// Many load clients (runner/clients.js, runner/client-worker.js, bench run --clients): the split of a step's
// inputs and concurrency, the exact merge of the workers' histograms, the client-bound flag over every process,
// end-to-end runs of the crud and mixed suites on SQLite from two client processes, the barrier, a worker killed
// mid-run, and the flag's refusals and warning.
import assert from 'node:assert/strict';
import { execFileSync, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import memory from '../adapters/memory/description.js';
import sqlite from '../adapters/sqlite/description.js';
import { ErrorCodes } from '../core/errors.js';
import { combineClients } from '../resources/client.js';
import { decodeHistogram, latencyParts, mergeLatencyParts, summarizeLatencies } from '../results/stats.js';
import { autoClients, checkClients, clientsOf, clientsWarning, monotonicOrigin, partition, splitConcurrency, startClients, STALL_GRACE_MS } from '../runner/clients.js';
import { connectAdapter, runBenchmark } from '../runner/run.js';
import { prepareDataset } from '../datasets/dataset.js';
import { WORKLOADS as SOCIAL } from '../workloads/social/workloads.js';
import { getSuite } from '../workloads/index.js';
import { spawnBench } from './helpers/cli.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-clients-'));
after(() => rmSync(work, { recursive: true, force: true }));
const options = (namespace) => ({
  namespace, concurrency: 4, connectTimeoutMs: 5000, dataDir: work, database: null,
});

// The pids of this process's children (pgrep leaves itself out; it exits with 1 when there are none).
function children() {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' }).trim().split('\n').map(Number);
  } catch (error) {
    if (error.status === 1) return [];
    throw error;
  }
}

describe('the split of a step over client processes', () => {
  test('inputs go round robin, each worker\'s in input order', () => {
    assert.deepEqual(partition(['a', 'b', 'c', 'd', 'e'], 2), [[0, 2, 4], [1, 3]]);
    assert.deepEqual(partition([1, 2, 3], 3), [[0], [1], [2]]);
  });

  test('an operation that waits for another (`after`) runs in that operation\'s worker', () => {
    const inputs = [{ kind: 'insert' }, { kind: 'get' }, { kind: 'get' }, { kind: 'update', after: 0 }, { kind: 'delete', after: 1 }];
    assert.deepEqual(partition(inputs, 2), [[0, 2, 3], [1, 4]]);
  });

  test('the concurrency is split with the first workers taking the remainder', () => {
    assert.deepEqual(splitConcurrency(25, 2), [13, 12]);
    assert.deepEqual(splitConcurrency(8, 4), [2, 2, 2, 2]);
    assert.equal(splitConcurrency(7, 3).reduce((a, b) => a + b), 7);
  });
});

describe('merged latencies', () => {
  test('are exactly the summary of every latency together, count included', () => {
    const latencies = Array.from({ length: 5000 }, (_, i) => 0.05 + ((i * 7919) % 1000) / 37);
    const parts = [latencies.slice(0, 1234), latencies.slice(1234, 4000), latencies.slice(4000)].map((slice) => latencyParts(slice));
    const merged = mergeLatencyParts(parts);
    const whole = summarizeLatencies(latencies);
    assert.deepEqual(merged.latencyMs, whole.latencyMs);
    const histogram = decodeHistogram(merged.histogram);
    assert.equal(histogram.totalCount, latencies.length);
    histogram.destroy();
  });
});

test('--clients auto: a process per core the server does not need; 1 for an embedded or unshareable database', () => {
  const server = { kind: 'server', name: 'PostgreSQL' };
  assert.equal(autoClients(server, { serverIsLocal: true, cores: 8 }), 7);
  assert.equal(autoClients(server, { serverIsLocal: false, cores: 8 }), 8);
  assert.equal(autoClients(server, { serverIsLocal: true, cores: 2 }), 1);
  assert.equal(autoClients(server, { serverIsLocal: true, cores: 1 }), 1, 'never none');
  assert.equal(autoClients({ kind: 'embedded', name: 'SQLite' }, { serverIsLocal: false, cores: 8 }), 1);
  assert.equal(autoClients({ ...server, multiProcess: false }, { serverIsLocal: false, cores: 8 }), 1);
  assert.equal(clientsOf('auto', server, { serverIsLocal: false, cores: 4 }), 4);
  assert.equal(clientsOf('3', server, {}), 3);
  assert.equal(clientsOf(undefined, server, {}), 1);
  assert.throws(() => clientsOf('two', server, {}), /--clients must be a whole number from 1 to 256, or auto, got two/);
});

describe('the client-bound flag over every client process', () => {
  test('is set when any one process used most of its core, and keeps each process\'s figures', () => {
    const idle = { cpuPct: 3, eventLoopDelayP99Ms: 1, wallMs: 2000 };
    const busy = { cpuPct: 97, eventLoopDelayP99Ms: 4, wallMs: 2000 };
    const calm = { cpuPct: 40, eventLoopDelayP99Ms: 2, wallMs: 2000 };
    assert.equal(combineClients([idle, calm, calm]).clientBound, false);
    const combined = combineClients([idle, calm, busy]);
    assert.equal(combined.clientBound, true);
    assert.equal(combined.client.cpuPct, 97);
    assert.equal(combined.client.eventLoopDelayP99Ms, 4);
    assert.deepEqual(combined.client.processes.map((p) => p.cpuPct), [3, 40, 97]);
  });
});

describe('--clients refusals', () => {
  test('a count outside 1..256 and the memory adapter are usage errors', () => {
    for (const bad of [0, 257, 1.5, Number.NaN]) {
      assert.throws(() => checkClients(sqlite, bad), { code: ErrorCodes.USAGE, message: /whole number from 1 to 256/ });
    }
    assert.throws(() => checkClients(memory, 2), { code: ErrorCodes.USAGE, message: /cannot be shared between processes/ });
    checkClients(memory, 1);
    checkClients(sqlite, 256);
  });

  test('more clients than cores warn', () => {
    assert.equal(clientsWarning(2, 2), null);
    assert.match(clientsWarning(3, 2), /more than the 2 cores/);
  });

  test('runBenchmark refuses --clients 2 on the memory adapter before connecting', async () => {
    const crud = getSuite('crud');
    await assert.rejects(runBenchmark({
      suite: crud,
      description: memory,
      adapterOptions: options('clients_memory'),
      dataset: await crud.prepare({ ops: [10], shape: 'uniform', seed: 1 }),
      workloads: crud.workloads,
      config: { ops: [10], concurrency: [2], runs: 1, durable: false, stallTimeoutMs: 10_000, clients: 2 },
      command: 'test',
    }), { code: ErrorCodes.USAGE, message: /In-process memory cannot be shared between processes/ });
  });
});

describe('runs from two client processes on SQLite', () => {
  // The mixed suite's settings at one level of two, from two client processes.
  const mixedConfig = (extra) => ({
    records: 100, concurrency: [2], runs: 1, durable: false, shape: 'varied', seed: 5, distribution: 'uniform', stallTimeoutMs: 20_000, clients: 2, ...extra,
  });

  test('social: workloads without params run from two client processes and pass', async () => {
    const dataset = await prepareDataset({ scale: 'tiny', cacheDir: work });
    const workloads = SOCIAL.filter(({ name }) => ['singleRead', 'neighbors'].includes(name));
    const result = await runBenchmark({
      description: sqlite, adapterOptions: options('clients_social'), dataset, workloads,
      config: { concurrency: 2, runs: 1, stallTimeoutMs: 20_000, clients: 2 }, command: 'test',
    });
    for (const name of ['singleRead', 'neighbors']) {
      assert.equal(result.workloads[name].status, 'passed', `${name}: ${JSON.stringify(result.workloads[name].failures)}`);
      assert.equal(result.workloads[name].runs[0].resources.client.processes.length, 3, name);
    }
  });

  test('two shards, each with two client processes: the span starts when the processes start', { timeout: 60_000 }, async () => {
    const mixed = getSuite('mixed');
    const config = mixedConfig({ ops: [600] });
    const results = await Promise.all([0, 1].map(async (index) => runBenchmark({
      suite: mixed, description: sqlite, adapterOptions: options('clients_shards'), dataset: await mixed.prepare(config),
      workloads: mixed.workloads.filter((workload) => workload.name === '50-50'), config, command: 'test',
      shard: { index, count: 2, runId: 'clients-shards', waitMs: 20_000, startAtMs: null },
    })));
    for (const result of results) {
      const [entry] = Object.values(result.workloads);
      assert.equal(entry.status, 'passed', JSON.stringify(entry.failures));
      const { span, ms } = entry.runs[0];
      assert.ok(span.lateMs >= 0 && span.lateMs < 1000, JSON.stringify(span));
      assert.ok(Math.abs(span.startMs - span.lateMs - Date.parse(span.startAt)) < 1, JSON.stringify(span));
      assert.ok(Math.abs(span.endMs - span.startMs - ms) < 0.01, JSON.stringify(span));
    }
    assert.deepEqual(children(), []);
  });

  test('an interruption and the progress reach the client processes', { timeout: 30_000 }, async () => {
    const mixed = getSuite('mixed');
    // Open loop at 100 operations a second: 800 operations would take 8 s. The run is interrupted as soon as the
    // progress shows an operation done, however long the client processes took to start: without the progress, the
    // run is not interrupted and ends after 8 s.
    const config = mixedConfig({ ops: [800], rates: [100] });
    const controller = new AbortController();
    const updates = [];
    let abortedAt = null;
    const progress = {
      bar: () => ({
        update: (done) => {
          updates.push(done);
          if (done > 0 && abortedAt === null) {
            abortedAt = performance.now();
            controller.abort();
          }
        },
        stop() {},
      }),
      log() {},
    };
    const result = await runBenchmark({
      suite: mixed, description: sqlite, adapterOptions: options('clients_abort'), dataset: await mixed.prepare(config),
      workloads: mixed.workloads.filter((workload) => workload.name === 'read-only'), config, command: 'test', signal: controller.signal, progress,
    });
    assert.ok(abortedAt !== null, `no operation shown done: ${JSON.stringify(updates)}`);
    assert.ok(performance.now() - abortedAt < 4000, `${performance.now() - abortedAt} ms after the interruption`);
    assert.deepEqual([result.interrupted, Object.values(result.workloads)[0].runs], [true, []]);
    assert.ok(updates.some((done) => done > 0 && done < 800), JSON.stringify(updates));
    assert.deepEqual(children(), []);
  });

  test('a shard whose meeting fails after its client processes started closes them', { timeout: 30_000 }, async () => {
    const mixed = getSuite('mixed');
    const config = mixedConfig({ ops: [400] });
    // Shard 1 of 2 with no shard 0: its client processes start, then the wait for shard 0's announcement fails.
    await assert.rejects(runBenchmark({
      suite: mixed, description: sqlite, adapterOptions: options('clients_shard'), dataset: await mixed.prepare(config),
      workloads: mixed.workloads.filter((workload) => workload.name === '50-50'), config, command: 'test',
      shard: { index: 1, count: 2, runId: 'no-shard-0', waitMs: 500, startAtMs: null },
    }), { code: ErrorCodes.TIMEOUT, message: /shard 0 did not announce step 1/ });
    assert.deepEqual(children(), [], 'no client process left');
  });

  test('crud: every phase at two levels passes with answers aligned, histograms merged exactly', async () => {
    const crud = getSuite('crud');
    const config = { ops: [600], concurrency: [1, 4], runs: 1, durable: false, stallTimeoutMs: 20_000, clients: 2 };
    const result = await runBenchmark({
      suite: crud,
      description: sqlite,
      adapterOptions: options('clients_crud'),
      dataset: await crud.prepare({ ops: config.ops, shape: 'varied', seed: 3 }),
      workloads: crud.workloads,
      config,
      command: 'test',
    });
    assert.equal(result.complete, true);
    assert.equal(result.config.clients, 2);
    for (const [key, entry] of Object.entries(result.workloads)) {
      assert.equal(entry.status, 'passed', `${key}: ${JSON.stringify(entry.failures)}`);
      const [run] = entry.runs;
      const histogram = decodeHistogram(run.histogram);
      assert.equal(histogram.totalCount, 600, key);
      histogram.destroy();
      assert.ok(run.latencyMs.p99 <= run.latencyMs.max && run.latencyMs.mean > 0, key);
      // c=1 runs in one client process, c=4 in two; the harness's own figures come first.
      assert.equal(run.resources.client.processes.length, key.endsWith('c=1') ? 2 : 3, key);
    }
  });

  test('exactly one failed operation in a client process fails its step, with the error it sent', { timeout: 60_000 }, async () => {
    const crud = getSuite('crud');
    const config = { ops: [40], concurrency: [2], runs: 1, durable: false, stallTimeoutMs: 20_000, clients: 2 };
    const dataset = await crud.prepare({ ops: config.ops, shape: 'uniform', seed: 1 });
    // One update of a key never inserted: SQLite rejects it, the 39 others succeed.
    dataset.updates[6] = { ...dataset.updates[6], _key: 'C999' };
    const result = await runBenchmark({
      suite: crud, description: sqlite, adapterOptions: options('clients_one_failed'), dataset, workloads: crud.workloads, config, command: 'test',
    });
    const update = result.workloads['update n=40 c=2'];
    assert.deepEqual([update.status, update.valid], ['failed', false]);
    assert.deepEqual(update.runs.map((r) => [r.valid, r.errors, r.failed, r.reason]), [[false, 1, 1, '1 operations failed']]);
    assert.equal(update.failures.length, 1);
    assert.match(update.failures[0].problem, /^error: sqlite: cannot update "C999" in collection crud: no document has that key$/);
    assert.equal(result.workloads['get n=40 c=2'].status, 'passed');
    assert.deepEqual(children(), [], 'no client process left');
  });

  test('a client process killed in the second round fails that step and the round; the first round is kept', async () => {
    const crud = getSuite('crud');
    const config = { ops: [400], concurrency: [2, 4], runs: 1, durable: false, stallTimeoutMs: 20_000, clients: 2 };
    let updates = 0;
    let killed = null;
    let poll = null;
    // After the load and the first round, the first client process that appears is killed.
    const onUpdate = () => {
      updates += 1;
      if (updates !== 2) return;
      poll = setInterval(() => {
        const found = children();
        if (found.length === 0) return;
        [killed] = found;
        process.kill(killed, 'SIGKILL');
        clearInterval(poll);
      }, 2);
    };
    let result;
    try {
      result = await runBenchmark({
        suite: crud,
        description: sqlite,
        adapterOptions: options('clients_killed'),
        dataset: await crud.prepare({ ops: config.ops, shape: 'uniform', seed: 1 }),
        workloads: crud.workloads,
        config,
        command: 'test',
        onUpdate,
      });
    } finally {
      clearInterval(poll);
    }
    assert.ok(killed, 'no client process was found to kill');
    for (const phase of ['insert', 'get', 'update', 'delete']) {
      assert.equal(result.workloads[`${phase} n=400 c=2`].status, 'passed', phase);
      assert.equal(result.workloads[`${phase} n=400 c=4`].status, 'failed', phase);
    }
    assert.match(result.workloads['insert n=400 c=4'].runs[0].reason, new RegExp(`client process \\d of 2 \\(pid ${killed}\\) was killed by SIGKILL`));
    assert.match(result.workloads['get n=400 c=4'].runs[0].reason, /not run: insert n=400 c=4 failed before it/);
  });

  test('mixed: operations of one timeline across processes pass the consistency check, closed and open loop', async () => {
    const mixed = getSuite('mixed');
    const settings = { records: 300, ops: [1400], concurrency: [4], distribution: 'zipfian', shape: 'uniform', seed: 2, runs: 1 };
    const dataset = await mixed.prepare(settings);
    const workloads = mixed.workloads.filter((workload) => ['50-50', 'igiugid'].includes(workload.name));
    for (const rates of [[], [3000]]) {
      const config = { ...mixed.configure({ ...settings, rate: rates.length > 0 ? rates.join(',') : undefined, sync: false }), runs: 1, stallTimeoutMs: 20_000, clients: 2 };
      const result = await runBenchmark({
        suite: mixed, description: sqlite, adapterOptions: options('clients_mixed'), dataset, workloads, config, command: 'test',
      });
      for (const [key, entry] of Object.entries(result.workloads)) {
        assert.equal(entry.status, 'passed', `${key}: ${JSON.stringify(entry.failures)}`);
        if (rates.length > 0) assert.equal(entry.runs[0].openLoop.targetRate, 3000, key);
      }
    }
  });
});

describe('the client processes of one step', () => {
  const crud = getSuite('crud');
  const insert = crud.workloads.find((workload) => workload.name === 'insert');
  const get = crud.workloads.find((workload) => workload.name === 'get');
  const params = { ops: 4000, concurrency: 2, durable: false };
  const adapterOptions = options('clients_step');

  // A collection of `params.ops` crud documents, through this process's own connection; the step: their gets.
  async function loaded() {
    const data = await crud.prepare({ ops: [params.ops], shape: 'uniform', seed: 1 });
    const adapter = await connectAdapter(sqlite, adapterOptions);
    await adapter.resetNamespace();
    await adapter.createTempCollection('crud');
    for (const doc of data.docs) await insert.call(adapter, doc, params);
    await adapter.close();
    return get.inputs(data, params);
  }
  const start = (inputs) => startClients({
    clients: 2, description: sqlite, adapterOptions, suiteId: 'crud', step: { workload: get, params }, inputs,
    concurrency: 2, rate: null, times: true, stallTimeoutMs: 20_000,
  });

  test('start together behind the barrier', async () => {
    const inputs = await loaded();
    // Forked at once, the two connect hundreds of milliseconds apart; the barrier starts them within a few. On a
    // loaded machine the scheduler may hold either back for tens of milliseconds at the instant, so the step is
    // tried up to three times: without the barrier every try would show the connection skew.
    const gaps = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const clients = await start(inputs);
      let outcome;
      try {
        outcome = await clients.run();
      } finally {
        await clients.close();
      }
      assert.equal(clients.count, 2);
      assert.equal(outcome.errors.length, 0);
      assert.equal(outcome.answers[17]._key, inputs[17]);
      const [first, second] = outcome.starts;
      gaps.push(Math.abs(first - second));
      if (gaps.at(-1) < 50) break;
    }
    assert.ok(gaps.at(-1) < 50, `started ${gaps.map((gap) => gap.toFixed(1)).join(', ')} ms apart in ${gaps.length} tries`);
  });

  test('a worker killed mid-run fails the step with its error and ends the other', async () => {
    const inputs = await loaded();
    const clients = await start([...inputs, ...inputs, ...inputs, ...inputs, ...inputs]);
    const pids = children();
    const running = clients.run();
    setTimeout(() => process.kill(pids[0], 'SIGKILL'), 30);
    await assert.rejects(running, { message: new RegExp(`client process \\d of 2 \\(pid ${pids[0]}\\) was killed by SIGKILL before its result`) });
    await clients.close();
    assert.equal(pids.length, 2);
    for (const pid of pids) assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `client process ${pid} still runs`);
  });
});

describe('bench run --clients', () => {
  const cli = (args) => spawnBench(['run', '--suite', 'crud', '--runs', '1', '--ops', '50', '--concurrency', '2', '--out', path.join(work, 'out'), '--namespace', 'clients_cli', ...args], {
    env: { BENCH_CACHE_DIR: work },
  });

  test('refuses the memory adapter with exit code 2', async () => {
    const { code, stderr } = await cli(['--db', 'memory', '--clients', '2']);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /--clients 2: In-process memory cannot be shared between processes/);
  });

  test('refuses the memory adapter among several databases before running any', async () => {
    const { code, stderr } = await cli(['--db', 'sqlite,memory', '--clients', '2']);
    assert.equal(code, 2, stderr);
    assert.doesNotMatch(stderr, /== sqlite/);
    assert.match(stderr, /--clients 2: In-process memory cannot be shared between processes/);
  });

  test('refuses a count out of range with exit code 2', async () => {
    const { code, stderr } = await cli(['--clients', '0']);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /--clients must be a whole number from 1 to 256, got 0/);
  });

  test('warns on stderr when there are more clients than cores, and runs', async () => {
    const clients = os.availableParallelism() + 1;
    const { code, stderr, stdout } = await cli(['--clients', String(clients), '--json']);
    assert.equal(code, 0, stderr);
    assert.match(stderr, new RegExp(`warning: --clients ${clients} is more than the ${os.availableParallelism()} cores`));
    assert.equal(JSON.parse(stdout).config.clients, clients);
  });
});

// A stand-in for child_process.fork: each "process" records how it was forked, what it was sent and the signals it
// was sent, and plays its side of the protocol through `reply(child, message)` (on the next turn, as an answer over
// the channel would come); `exit(code, signal)` ends it ('close' on the next turn, once).
function fakeFork(reply = () => {}) {
  const forked = [];
  const forkWorker = (file, args, forkOptions) => {
    const child = new EventEmitter();
    Object.assign(child, {
      file, args, forkOptions, pid: 9000 + forked.length, connected: true, exitCode: null, closed: false, sent: [], kills: [],
      encoding: null,
    });
    child.stderr = new EventEmitter();
    child.stderr.setEncoding = (encoding) => { child.encoding = encoding; };
    child.send = (message) => {
      assert.ok(child.connected, `sent ${message.type} to a disconnected process`);
      child.sent.push(message);
      setImmediate(() => reply(child, message));
    };
    child.exit = (code, signal = null) => {
      if (child.closing) return;
      child.closing = true;
      child.connected = false;
      child.exitCode = signal ? null : code;
      setImmediate(() => { child.closed = true; child.emit('close', child.exitCode, signal); });
    };
    child.kill = (signal) => {
      child.kills.push(signal);
      child.exit(null, signal);
    };
    child.say = (message) => child.emit('message', message);
    forked.push(child);
    return child;
  };
  return { forkWorker, forked };
}

const WORKER = fileURLToPath(new URL('../runner/client-worker.js', import.meta.url));
const tick = () => new Promise((resolve) => { setImmediate(resolve); });
const near = (actual, expected, what) => assert.ok(Math.abs(actual - expected) < 5, `${what}: ${actual}, not about ${expected}`);
const typesSent = (child) => child.sent.map((message) => message.type);

// What a worker answers for its slice: `answer(input)` of each, a start and end 10 ms apart from `begin` on.
function workerResult(inputs, {
  begin = 0, answer = (input) => input.toUpperCase(), errors = [], aborted = false, openLoop = null, completed = inputs.length,
} = {}) {
  const latencies = inputs.map((_, i) => 1 + i);
  return {
    type: 'result',
    answers: inputs.map(answer),
    errors,
    completed,
    aborted,
    begin,
    end: begin + 10 * inputs.length,
    starts: Float64Array.from(inputs, (_, i) => begin + 10 * i),
    ends: Float64Array.from(inputs, (_, i) => begin + 10 * (i + 1)),
    latency: latencyParts(latencies),
    client: { cpuPct: 10 + inputs.length, eventLoopDelayP99Ms: 1, wallMs: 100 },
    openLoop,
  };
}

describe('clients, exactly', () => {
  const step = { workload: { name: 'get' }, params: { ops: 5, concurrency: 4, durable: false } };
  const base = {
    clients: 2, description: sqlite, adapterOptions: { namespace: 'exact', concurrency: 4 }, suiteId: 'crud', step,
    inputs: ['a', 'b', 'c', 'd', 'e'], concurrency: 4, rate: null, times: true, stallTimeoutMs: 1234,
  };
  // Workers that report ready with their origin `shift` ms after this process's (the n-th one n * 1000 ms), and
  // answer `go` with `results[n]` (or the default result of their slice).
  function protocol({ results = [], shift = (n) => 1000 * (n + 1) } = {}) {
    const parentOrigin = monotonicOrigin();
    return fakeFork((child, message) => {
      const n = child.pid - 9000;
      if (message.type === 'start') child.say({ type: 'ready', origin: parentOrigin + shift(n) });
      if (message.type === 'go') child.say(results[n] ?? workerResult(message.inputs ?? child.sent[0].inputs));
      if (message.type === 'stop') child.exit(0);
    });
  }

  // The workers' side with every result held back until `release()`.
  function heldProtocol() {
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    const fake = fakeFork(async (child, message) => {
      if (message.type === 'start') child.say({ type: 'ready', origin: 0 });
      if (message.type === 'go') {
        await held;
        child.say(workerResult(child.sent[0].inputs));
      }
      if (message.type === 'stop') child.exit(0);
    });
    return { ...fake, release };
  }

  test('monotonicOrigin() is where performance.now() starts on the process\'s monotonic clock', () => {
    while (performance.now() < 200) { /* a clock far enough from its origin to tell them apart */ }
    const origin = monotonicOrigin();
    const now = Number(process.hrtime.bigint()) / 1e6 - performance.now();
    assert.ok(Math.abs(origin - now) < 20, `${origin} against ${now}`);
  });

  test('monotonicOrigin(): of five readings, the first whose two reads of performance.now() lie closest together', () => {
    // Each reading: performance.now() before, the monotonic clock, performance.now() after; the sixth is never read.
    const readings = [[100, 5000, 103], [200, 5100, 201], [300, 5300, 302], [400, 5400, 401], [500, 5500, 504], [600, 6000, 600]];
    const reads = { now: [], monotonic: [] };
    const now = () => {
      const [before, , after] = readings[Math.floor(reads.now.length / 2)];
      const value = reads.now.length % 2 === 0 ? before : after;
      reads.now.push(value);
      return value;
    };
    const monotonic = () => {
      const value = readings[reads.monotonic.length][1];
      reads.monotonic.push(value);
      return value;
    };
    assert.equal(monotonicOrigin(now, monotonic), 5100 - 200.5);
    assert.equal(reads.now.length, 10);
    assert.deepEqual(reads.monotonic, [5000, 5100, 5300, 5400, 5500]);
  });

  test('partition: `after` counts only as an earlier input\'s whole index; null, strings and functions go round robin', () => {
    const fn = Object.assign(() => {}, { after: 0 });
    assert.deepEqual(partition(['x', null, 'y', fn, 'z'], 2), [[0, 2, 4], [1, 3]]);
    assert.deepEqual(partition([{}, {}, { after: -1 }, { after: 1.5 }, { after: 4 }, { after: 5 }], 3), [[0, 3], [1, 4], [2, 5]]);
    assert.deepEqual(partition([{}, {}, {}, {}, { after: 1 }, { after: 4 }], 2), [[0, 2], [1, 3, 4, 5]]);
    assert.deepEqual(partition([{}, { after: 0 }, {}, { after: 2 }], 2), [[0, 1, 2, 3], []]);
    assert.deepEqual(partition([], 3), [[], [], []]);
  });

  test('splitConcurrency: whole shares, the remainder one each to the first', () => {
    assert.deepEqual(splitConcurrency(7, 3), [3, 2, 2]);
    assert.deepEqual(splitConcurrency(2, 3), [1, 1, 0]);
    assert.deepEqual(splitConcurrency(9, 1), [9]);
  });

  test('checkClients: its whole messages; an adapter that does not say multiProcess may be shared', () => {
    assert.throws(() => checkClients(sqlite, 0), { code: ErrorCodes.USAGE, message: '--clients must be a whole number from 1 to 256, got 0' });
    assert.throws(() => checkClients(sqlite, '2'), { code: ErrorCodes.USAGE, message: '--clients must be a whole number from 1 to 256, got 2' });
    assert.throws(() => checkClients(memory, 3), {
      code: ErrorCodes.USAGE, message: '--clients 3: In-process memory cannot be shared between processes; use --clients 1',
    });
    assert.equal(checkClients({ name: 'x' }, 2), undefined);
    assert.equal(checkClients({ name: 'x', multiProcess: true }, 1), undefined);
    checkClients(memory, 1);
    checkClients(sqlite, 1);
  });

  test('clientsWarning: its whole text, against this machine\'s cores by default', () => {
    assert.equal(clientsWarning(5, 4), '--clients 5 is more than the 4 cores of this machine: the client processes will compete '
      + 'for them (and with a local server), which limits what they can measure');
    assert.equal(clientsWarning(4, 4), null);
    assert.equal(clientsWarning(1, 1), null);
    const cores = os.availableParallelism();
    assert.equal(clientsWarning(cores), null);
    assert.match(clientsWarning(cores + 1), new RegExp(`^--clients ${cores + 1} is more than the ${cores} cores`));
  });

  test('each worker is forked from client-worker.js with the advanced serialization, and is started with its share', async () => {
    const { forkWorker, forked } = protocol();
    const clients = await startClients({ ...base, rate: 1000, times: false, forkWorker });
    assert.equal(clients.count, 2);
    assert.equal(forked.length, 2);
    for (const child of forked) {
      assert.equal(child.file, WORKER);
      assert.deepEqual(child.args, []);
      assert.deepEqual(child.forkOptions, { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      assert.equal(child.encoding, 'utf8');
    }
    const common = {
      type: 'start', adapterId: 'sqlite', suiteId: 'crud', workload: 'get', params: step.params, times: false, stallTimeoutMs: 1234,
    };
    assert.deepEqual(forked[0].sent, [{
      ...common, adapterOptions: { namespace: 'exact', concurrency: 2 }, inputs: ['a', 'c', 'e'], concurrency: 2, rate: 600,
    }]);
    assert.deepEqual(forked[1].sent, [{
      ...common, adapterOptions: { namespace: 'exact', concurrency: 2 }, inputs: ['b', 'd'], concurrency: 2, rate: 400,
    }]);
    await clients.close();
    assert.deepEqual(forked.map(typesSent), [['start', 'stop'], ['start', 'stop']]);
    assert.deepEqual(forked.map((child) => child.kills), [[], []]);
  });

  test('the number of workers: no more than the clients, the concurrency or the inputs, and at least one', async () => {
    const counts = [];
    for (const [clients, concurrency, inputs, rate] of [[3, 8, 5, null], [3, 2, 5, null], [4, 8, ['a'], null], [2, 3, [], 50]]) {
      const { forkWorker, forked } = protocol();
      const started = await startClients({
        ...base, clients, concurrency, inputs: Array.isArray(inputs) ? inputs : base.inputs.slice(0, inputs), rate, forkWorker,
      });
      counts.push([started.count, forked.length]);
      if (Array.isArray(inputs) && inputs.length === 0) {
        assert.deepEqual(forked[0].sent[0].inputs, []);
        assert.equal(forked[0].sent[0].rate, 50);
        assert.equal(forked[0].sent[0].concurrency, 3);
      } else {
        assert.equal(forked[0].sent[0].rate, null);
      }
      await started.close();
    }
    assert.deepEqual(counts, [[3, 3], [2, 2], [1, 1], [1, 1]]);
  });

  test('run() starts them together a little later, and merges their answers, errors and times in input order', async () => {
    const results = [
      workerResult(['a', 'c', 'e'], { begin: 10, errors: [{ index: 1, code: 'E_X', message: 'c failed' }, { index: 2, code: null, message: 'e failed' }] }),
      workerResult(['b', 'd'], { begin: 5, errors: [{ index: 0, code: null, message: 'b failed' }] }),
    ];
    const { forkWorker, forked } = protocol({ results });
    const clients = await startClients({ ...base, forkWorker });
    const before = monotonicOrigin() + performance.now();
    const outcome = await clients.run();
    const after = monotonicOrigin() + performance.now();
    const [go] = forked[0].sent.filter((message) => message.type === 'go');
    assert.deepEqual(forked[1].sent.filter((message) => message.type === 'go'), [go]);
    assert.ok(go.startAt >= before + 20 && go.startAt <= after + 30, `start at ${go.startAt - before} ms`);
    assert.deepEqual(outcome.answers, ['A', 'B', 'C', 'D', 'E']);
    assert.deepEqual(outcome.errors.map(({ index, error }) => [index, error.name, error.code, error.message]), [
      [1, 'BenchError', undefined, 'b failed'], [2, 'BenchError', 'E_X', 'c failed'], [4, 'BenchError', undefined, 'e failed'],
    ]);
    assert.equal(outcome.completed, 5);
    assert.equal(outcome.aborted, false);
    // Worker 1's times are 1000 ms later on this process's clock, worker 2's 2000 ms.
    near(outcome.starts[0], 1010, 'worker 1 began');
    near(outcome.starts[1], 2005, 'worker 2 began');
    assert.equal(outcome.starts.length, 2);
    near(outcome.wallMs, 2025 - 1010, 'the span, first start to last end');
    const expected = [[1010, 1020], [2005, 2015], [1020, 1030], [2015, 2025], [1030, 1040]];
    assert.ok(outcome.times.starts instanceof Float64Array && outcome.times.ends instanceof Float64Array);
    expected.forEach(([start, end], i) => {
      near(outcome.times.starts[i], start, `start ${i}`);
      near(outcome.times.ends[i], end, `end ${i}`);
    });
    assert.deepEqual(outcome.latency, mergeLatencyParts(results.map((result) => result.latency)));
    assert.equal(outcome.latency.latencyMs.max, 3);
    assert.deepEqual(outcome.clients, results.map((result) => result.client));
    assert.equal('openLoop' in outcome, false);
    await clients.close();
  });

  test('run(): the span from the earliest start to the latest end, whichever worker has them; aborted if any was', async () => {
    const results = [
      workerResult(['a', 'c', 'e'], { begin: 2000 }),
      workerResult(['b', 'd'], { begin: 0, aborted: true }),
    ];
    const { forkWorker } = protocol({ results, shift: () => 0 });
    const clients = await startClients({ ...base, times: false, forkWorker });
    const outcome = await clients.run({});
    near(outcome.wallMs, 2030, 'the span');
    near(outcome.starts[0], 2000, 'worker 1 began');
    near(outcome.starts[1], 0, 'worker 2 began');
    assert.equal(outcome.times, null);
    assert.equal(outcome.aborted, true);
    await clients.close();
  });

  test('run(): the open-loop summaries add up their targets, weigh their send lags, and say when the rate fell behind', async () => {
    const openLoop = (targetRate, mean, max) => ({ targetRate, achievedRate: 1, sendLagMs: { mean, max }, note: 'a worker\'s' });
    // 19 answers over one second: 19 ops/s, 95% of 20, not behind; of 24, 21% below.
    const cases = [
      [[12, 8], { targetRate: 20, achievedRate: 19, sendLagMs: { mean: 0.237, max: 2 }, note: null }],
      [[14, 10], {
        targetRate: 24,
        achievedRate: 19,
        sendLagMs: { mean: 0.237, max: 2 },
        note: 'achieved 19 ops/s, 21% below the target of 24 ops/s: the answers (or the client processes sending the operations) '
          + 'could not keep up with the schedule',
      }],
    ];
    for (const [[first, second], expected] of cases) {
      const results = [
        { ...workerResult(['a', 'c', 'e'], { begin: 0, openLoop: openLoop(first, 0.5, 2) }), completed: 9, end: 1000 },
        { ...workerResult(['b', 'd'], { begin: 0, openLoop: openLoop(second, 0, 1.5) }), completed: 10, end: 1000 },
      ];
      const { forkWorker } = protocol({ results, shift: () => 0 });
      const clients = await startClients({ ...base, rate: first + second, forkWorker });
      const outcome = await clients.run();
      assert.equal(outcome.completed, 19);
      // The span is measured on two clocks, so the rate may be a hair off 19 but rounds to it.
      assert.deepEqual(outcome.openLoop, expected);
      await clients.close();
    }
  });

  test('run(): no span gives no rate, no answers no send lag', async () => {
    const { forkWorker } = fakeFork((child, message) => {
      if (message.type === 'start') child.say({ type: 'ready', origin: 0 });
      if (message.type === 'go') {
        child.say({
          ...workerResult([], { openLoop: { targetRate: 5, achievedRate: 0, sendLagMs: { mean: 7, max: 0 }, note: null } }), begin: 3, end: 3,
        });
      }
      if (message.type === 'stop') child.exit(0);
    });
    const clients = await startClients({ ...base, inputs: [], rate: 5, forkWorker });
    const outcome = await clients.run();
    assert.equal(outcome.wallMs, 0);
    assert.deepEqual(outcome.openLoop, {
      targetRate: 5,
      achievedRate: 0,
      sendLagMs: { mean: 0, max: 0 },
      note: 'achieved 0 ops/s, 100% below the target of 5 ops/s: the answers (or the client processes sending the operations) '
        + 'could not keep up with the schedule',
    });
    await clients.close();
  });

  test('run(): progress is every worker\'s count added up; other messages are not progress', async () => {
    const { forkWorker, forked, release } = heldProtocol();
    const clients = await startClients({ ...base, forkWorker });
    const seen = [];
    const running = clients.run({ onProgress: (done) => seen.push(done) });
    forked[0].say({ type: 'progress', done: 2 });
    forked[1].say({ type: 'progress', done: 1 });
    forked[0].say({ type: 'progress', done: 3 });
    forked[1].say({ type: 'ready', done: 9 });
    release();
    await running;
    assert.deepEqual(seen, [2, 3, 4]);
    await clients.close();
  });

  test('run(): workers that complete nothing for the stall timeout and the grace are killed, and the run fails saying so', { timeout: 30_000 }, async () => {
    // Held results: workers blocked in a call that never returns, whose own stall check cannot run.
    const { forkWorker, forked, release } = heldProtocol();
    const clients = await startClients({ ...base, stallTimeoutMs: 200, forkWorker });
    const begin = performance.now();
    const running = clients.run();
    forked[0].say({ type: 'progress', done: 1 });
    await assert.rejects(running, (error) => error.code === ErrorCodes.TIMEOUT
      && /^no operation completed for 5 s in any client process \(1 of 5 done\); is the server still up\? The client processes were ended: 1 \(pid 9000, 1 of 3 done\), 2 \(pid 9001, 0 of 2 done\)$/.test(error.message));
    const waited = performance.now() - begin;
    assert.ok(waited >= 200 + STALL_GRACE_MS && waited < 200 + STALL_GRACE_MS + 3000, `ended after ${waited} ms`);
    assert.deepEqual(forked.map((child) => child.kills), [['SIGKILL'], ['SIGKILL']]);
    release();
    await clients.close();
  });

  test('run(): progress without onProgress is harmless', async () => {
    const { forkWorker, forked, release } = heldProtocol();
    const clients = await startClients({ ...base, forkWorker });
    const running = clients.run();
    await tick();
    forked[0].say({ type: 'progress', done: 2 });
    release();
    assert.deepEqual((await running).answers, ['A', 'B', 'C', 'D', 'E']);
    await clients.close();
  });

  test('run(): an abort, before or during the run, is one stop to every worker; one after it is none', async () => {
    const aborted = new AbortController();
    aborted.abort();
    let { forkWorker, forked } = protocol();
    let clients = await startClients({ ...base, forkWorker });
    await clients.run({ signal: aborted.signal });
    assert.deepEqual(forked.map(typesSent), [['start', 'go', 'stop'], ['start', 'go', 'stop']]);
    await clients.close();

    const during = new AbortController();
    ({ forkWorker, forked } = fakeFork((child, message) => {
      if (message.type === 'start') child.say({ type: 'ready', origin: 0 });
      if (message.type === 'go' && child.pid === 9000) {
        during.abort();
        // An 'abort' seen a second time still stops each worker once.
        during.signal.dispatchEvent(new Event('abort'));
      }
      if (message.type === 'stop') child.say({ ...workerResult(child.sent[0].inputs), aborted: true });
    }));
    clients = await startClients({ ...base, forkWorker });
    const outcome = await clients.run({ signal: during.signal });
    assert.equal(outcome.aborted, true);
    assert.deepEqual(forked.map(typesSent), [['start', 'go', 'stop'], ['start', 'go', 'stop']]);
    during.signal.dispatchEvent(new Event('abort'));
    assert.deepEqual(forked.map(typesSent), [['start', 'go', 'stop'], ['start', 'go', 'stop']]);
    for (const child of forked) child.exit(0);
    await clients.close();

    const later = new AbortController();
    ({ forkWorker, forked } = protocol());
    clients = await startClients({ ...base, forkWorker });
    await clients.run({ signal: later.signal });
    later.abort();
    assert.deepEqual(forked.map(typesSent), [['start', 'go'], ['start', 'go']]);
    await clients.close();
  });

  test('a worker\'s error message while connecting fails the start with its code, and every worker is killed and gone', async () => {
    const { forkWorker, forked } = fakeFork((child, message) => {
      if (message.type !== 'start') return;
      if (child.pid === 9001) {
        child.say({ type: 'error', code: 'E_CONNECT', message: 'cannot connect' });
        child.exit(1);
      }
    });
    await assert.rejects(startClients({ ...base, forkWorker }), (error) => {
      assert.equal(error.name, 'BenchError');
      assert.equal(error.code, 'E_CONNECT');
      assert.equal(error.message, 'client process 2 of 2: cannot connect');
      assert.deepEqual(forked.map((child) => child.closed), [true, true]);
      return true;
    });
    assert.deepEqual(forked.map((child) => child.kills), [['SIGKILL'], ['SIGKILL']]);
  });

  test('an error message without a code is a BenchError without one', async () => {
    const { forkWorker } = fakeFork((child, message) => {
      if (message.type === 'start') child.say({ type: 'error', code: null, message: 'no such workload' });
    });
    await assert.rejects(startClients({ ...base, forkWorker }), (error) => {
      assert.equal(error.name, 'BenchError');
      assert.equal(error.code, undefined);
      assert.equal(error.message, 'client process 1 of 2: no such workload');
      return true;
    });
  });

  test('a worker that fails to spawn, or dies, names itself, its pid, how it ended and the end of its stderr', async () => {
    let { forkWorker, forked } = fakeFork();
    let starting = startClients({ ...base, forkWorker });
    forked[1].emit('error', new Error('spawn EAGAIN'));
    await assert.rejects(starting, (error) => {
      assert.equal(error.message, 'client process 2 of 2: spawn EAGAIN');
      return true;
    });

    ({ forkWorker, forked } = fakeFork());
    starting = startClients({ ...base, forkWorker });
    forked[0].stderr.emit('data', 'first\nsecond\n');
    forked[0].stderr.emit('data', 'third\nfourth\n  \n');
    forked[0].exit(3);
    await assert.rejects(starting, { message: 'client process 1 of 2 (pid 9000) exited with code 3 before its result: second | third | fourth' });

    ({ forkWorker, forked } = fakeFork());
    starting = startClients({ ...base, forkWorker });
    forked[1].stderr.emit('data', ' \n ');
    forked[1].kill('SIGSEGV');
    await assert.rejects(starting, { message: 'client process 2 of 2 (pid 9001) was killed by SIGSEGV before its result' });

    // Only the last 1000 characters of stderr are kept.
    ({ forkWorker, forked } = fakeFork());
    starting = startClients({ ...base, forkWorker });
    forked[0].stderr.emit('data', `${'a'.repeat(600)}\n`);
    forked[0].stderr.emit('data', `${'b'.repeat(600)}\n`);
    forked[0].exit(1);
    await assert.rejects(starting, { message: `client process 1 of 2 (pid 9000) exited with code 1 before its result: ${'a'.repeat(398)} | ${'b'.repeat(600)}` });
  });

  test('the first failure of a worker is the one reported, also to a run() after it', async () => {
    const { forkWorker, forked } = protocol();
    const clients = await startClients({ ...base, forkWorker });
    forked[1].say({ type: 'error', code: 'E_TIMEOUT', message: 'stalled' });
    forked[1].exit(1);
    await tick();
    await tick();
    await assert.rejects(clients.run(), { code: 'E_TIMEOUT', message: 'client process 2 of 2: stalled' });
    assert.deepEqual(forked.map((child) => child.kills), [['SIGKILL'], ['SIGKILL']]);
    await clients.close();
  });

  test('a worker that dies during run() fails it, and every worker is killed', async () => {
    const { forkWorker, forked } = fakeFork((child, message) => {
      if (message.type === 'start') child.say({ type: 'ready', origin: 0 });
      if (message.type === 'go' && child.pid === 9000) child.exit(null, 'SIGKILL');
    });
    const clients = await startClients({ ...base, forkWorker });
    await assert.rejects(clients.run(), { message: 'client process 1 of 2 (pid 9000) was killed by SIGKILL before its result' });
    assert.deepEqual(forked.map((child) => child.kills), [['SIGKILL'], ['SIGKILL']]);
    await clients.close();
  });

  test('close() stops every worker still connected, and kills those not gone 5 s later', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { forkWorker, forked } = fakeFork((child, message) => {
      if (message.type === 'start') child.say({ type: 'ready', origin: 0 });
    });
    const clients = await startClients({ ...base, clients: 3, forkWorker });
    // The first has exited but its output is not all read; the second ignores the stop; the third is gone already.
    forked[2].exit(0);
    await tick();
    const closing = clients.close();
    forked[0].exitCode = 0;
    await tick();
    t.mock.timers.tick(4999);
    assert.deepEqual(forked.map((child) => child.kills), [[], [], []]);
    t.mock.timers.tick(1);
    assert.deepEqual(forked.map((child) => child.kills), [[], ['SIGKILL'], []]);
    forked[0].exit(0);
    await closing;
    assert.deepEqual(forked.map(typesSent), [['start', 'stop'], ['start', 'stop'], ['start']]);
  });

  test('close() leaves no timer behind once every worker is gone', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { forkWorker, forked } = fakeFork((child, message) => {
      if (message.type === 'start') child.say({ type: 'ready', origin: 0 });
      if (message.type === 'stop') child.exit(null, 'SIGTERM');
    });
    const clients = await startClients({ ...base, forkWorker });
    await clients.close();
    assert.deepEqual(forked.map((child) => child.closed), [true, true]);
    t.mock.timers.tick(10_000);
    assert.deepEqual(forked.map((child) => child.kills), [[], []]);
  });

  // The worker's tests fork a process each and mostly wait: side by side.
  describe('the worker process', { concurrency: true }, () => {
    // The worker itself, forked as clients.js forks it: `next(type)` is its first message of that type (received
    // already or to come), `ended` how it ended; it is killed after the test whatever happened.
    function worker(t) {
      const child = fork(WORKER, [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (text) => { stderr += text; });
      const messages = [];
      const waiting = [];
      child.on('message', (message) => {
        messages.push(message);
        for (const waiter of waiting.filter(({ type }) => type === message.type)) waiter.resolve(message);
      });
      // 'exit', not 'close': after this process's own disconnect() the channel never reports closed.
      const ended = new Promise((resolve) => { child.once('exit', (code, signal) => resolve({ code, signal })); });
      t.after(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
      const within = (promise, ms, what) => {
        let timer;
        const late = new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`${what} not within ${ms} ms; stderr: ${stderr}`)), ms);
        });
        return Promise.race([promise, late]).finally(() => clearTimeout(timer));
      };
      return {
        child,
        messages,
        next: (type, ms = 10_000) => within(new Promise((resolve) => {
          const found = messages.find((message) => message.type === type);
          if (found) resolve(found);
          else waiting.push({ type, resolve });
        }), ms, `a ${type} message`),
        ended: (ms = 5000) => within(ended, ms, 'the end of the process'),
      };
    }
    const NO_NAMESPACE = 'memory adapter: namespace "clients_worker_memory" does not exist; reset it first';
    const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });
    const docs = Array.from({ length: 20 }, (_, i) => ({ _key: `w${i}`, n: i }));
    const memoryStart = (rate, extra = {}) => ({
      type: 'start',
      adapterId: 'memory',
      adapterOptions: options('clients_worker_memory'),
      suiteId: 'crud',
      workload: 'insert',
      params: { ops: 200, concurrency: 1, durable: false },
      inputs: Array.from({ length: 200 }, (_, i) => ({ _key: `m${i}` })),
      concurrency: 1,
      rate,
      times: false,
      stallTimeoutMs: 20_000,
      ...extra,
    });

    test('the worker: connects, reports its clock, survives Ctrl-C, starts when told, answers in order, and exits', async (t) => {
      const adapterOptions = options('clients_worker');
      const own = await connectAdapter(sqlite, adapterOptions);
      await own.resetNamespace();
      await own.createTempCollection('crud');
      for (const doc of docs) await own.insertDocument('crud', doc, { durable: false });
      await own.close();
      const w = worker(t);
      const inputs = docs.map((doc) => doc._key);
      w.child.send({
        type: 'start', adapterId: 'sqlite', adapterOptions: { ...adapterOptions, concurrency: 2 }, suiteId: 'crud', workload: 'get',
        params: { ops: 20, concurrency: 2, durable: false }, inputs, concurrency: 2, rate: null, times: true, stallTimeoutMs: 20_000,
      });
      const parentOrigin = monotonicOrigin();
      const ready = await w.next('ready');
      // The worker's clock starts after this process's, and before now.
      assert.ok(ready.origin > parentOrigin && ready.origin < parentOrigin + performance.now(), `origin ${ready.origin - parentOrigin}`);
      w.child.kill('SIGINT');
      await sleep(100);
      const startAt = monotonicOrigin() + performance.now() + 150;
      w.child.send({ type: 'go', startAt });
      const result = await w.next('result');
      assert.deepEqual(await w.ended(), { code: 0, signal: null });
      assert.deepEqual(w.messages.map((message) => message.type), ['ready', 'result']);
      assert.deepEqual(result.answers, docs);
      assert.deepEqual(result.errors, []);
      assert.equal(result.completed, 20);
      assert.equal(result.aborted, false);
      assert.ok(result.begin + ready.origin >= startAt - 2, `began ${startAt - result.begin - ready.origin} ms before the start`);
      assert.ok(result.end > result.begin);
      assert.ok(result.starts instanceof Float64Array && result.starts.length === 20);
      assert.ok(result.ends instanceof Float64Array && result.ends.length === 20);
      for (let i = 0; i < 20; i += 1) assert.ok(result.starts[i] >= result.begin && result.ends[i] >= result.starts[i], `times of ${i}`);
      assert.equal(result.latency.count, 20);
      assert.ok(result.latency.sum > 0 && result.latency.max > 0 && typeof result.latency.histogram === 'string');
      assert.equal(decodeHistogram(mergeLatencyParts([result.latency]).histogram).totalCount, 20);
      assert.ok(result.client.wallMs > 0);
      // 20 reads are too short a span for a CPU share (under CLIENT_BOUND_MIN_MS): none is given.
      assert.equal(result.client.cpuPct, result.client.wallMs >= 100 ? result.client.cpuPct : null);
      assert.ok(result.client.cpuPct === null || typeof result.client.cpuPct === 'number');
      assert.equal(result.openLoop, null);
    });

    test('the worker: an open loop at its rate, reporting progress, and a stop ends it with what it did; errors in order', async (t) => {
      const w = worker(t);
      w.child.send(memoryStart(40));
      await w.next('ready');
      w.child.send({ type: 'go', startAt: monotonicOrigin() + performance.now() + 20 });
      const progress = await w.next('progress', 5000);
      w.child.send({ type: 'stop' });
      const result = await w.next('result');
      assert.deepEqual(await w.ended(), { code: 0, signal: null });
      assert.equal(result.aborted, true);
      assert.ok(result.completed >= progress.done && progress.done > 0 && result.completed < 200, `${progress.done}, ${result.completed}`);
      // The memory store has no such namespace in this process: every insert fails, each error as it was thrown.
      assert.deepEqual(result.errors, Array.from({ length: result.completed }, (_, index) => ({
        index, code: null, message: NO_NAMESPACE,
      })));
      assert.equal(result.starts, null);
      assert.equal(result.ends, null);
      assert.equal(result.openLoop.targetRate, 40);
      assert.equal(result.latency.count, 200);
    });

    test('the worker: a start it cannot run is an error message with its code, and exit code 1', async (t) => {
      await Promise.all([
        [{ workload: 'nope' }, null, 'the crud suite has no workload "nope"'],
        [{ adapterId: 'nosuch' }, ErrorCodes.UNKNOWN_DB, /^unknown database "nosuch"; valid databases: sqlite, /],
      ].map(async ([change, code, message]) => {
        const w = worker(t);
        w.child.send(memoryStart(null, change));
        const error = await w.next('error');
        assert.deepEqual(await w.ended(), { code: 1, signal: null });
        assert.equal(error.code, code);
        if (typeof message === 'string') assert.equal(error.message, message);
        else assert.match(error.message, message);
      }));
    });

    test('the worker: a closed loop without a rate, a step\'s params given to its call', async (t) => {
      const w = worker(t);
      w.child.send(memoryStart(null, { inputs: [{ _key: 'a' }, { _key: 'b' }], times: true }));
      await w.next('ready');
      w.child.send({ type: 'go', startAt: 0 });
      const result = await w.next('result');
      assert.deepEqual(await w.ended(), { code: 0, signal: null });
      assert.deepEqual(result.errors.map(({ message }) => message), Array(2).fill(NO_NAMESPACE));
      assert.equal(result.openLoop, null);
      assert.equal(result.starts.length, 2);
    });

    test('the worker: the parent gone mid-run, it exits at once', async (t) => {
      const w = worker(t);
      w.child.send(memoryStart(4));
      await w.next('ready');
      w.child.send({ type: 'go', startAt: 0 });
      await sleep(200);
      w.child.disconnect();
      assert.deepEqual(await w.ended(), { code: 0, signal: null });
    });
  });
});
