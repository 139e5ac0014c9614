// Many load clients (runner/clients.js, runner/client-worker.js, bench run --clients): the split of a step's
// inputs and concurrency, the exact merge of the workers' histograms, the client-bound flag over every process,
// end-to-end runs of the crud and mixed suites on SQLite from two client processes, the barrier, a worker killed
// mid-run, and the flag's refusals and warning.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import memory from '../adapters/memory/description.js';
import sqlite from '../adapters/sqlite/description.js';
import { ErrorCodes } from '../core/errors.js';
import { combineClients } from '../resources/client.js';
import { decodeHistogram, latencyParts, mergeLatencyParts, summarizeLatencies } from '../results/stats.js';
import {
  checkClients, clientsWarning, partition, splitConcurrency, startClients,
} from '../runner/clients.js';
import { connectAdapter, runBenchmark } from '../runner/run.js';
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
    // Forked at once, the two connect hundreds of milliseconds apart; the barrier starts them within a few (more
    // on a loaded machine, whose scheduler may hold either back).
    assert.ok(Math.abs(first - second) < 50, `started ${Math.abs(first - second).toFixed(1)} ms apart`);
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
  const cli = (args) => spawnBench(['run', '--suite', 'crud', '--ops', '50', '--concurrency', '2', '--out', path.join(work, 'out'), '--namespace', 'clients_cli', ...args], {
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
