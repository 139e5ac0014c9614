// Validation must catch wrong answers. A deliberately wrong adapter (the memory adapter with a few
// subtle mistakes) runs the real suite on the tiny dataset; exactly the broken workloads must fail,
// with concrete examples and no time.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import memory from '../adapters/memory/description.js';
import { MemoryAdapter } from '../adapters/memory/store.js';
import { prepareDataset } from '../datasets/dataset.js';
import { runBenchmark } from '../runner/run.js';
import { WORKLOADS } from '../workloads/social/workloads.js';

class WrongAdapter extends MemoryAdapter {
  // Drops the last neighbour: a plausible off-by-one.
  async neighbors(key) {
    return (await super.neighbors(key)).slice(0, -1);
  }

  // Includes the start itself, which the definition excludes.
  async neighbors2(key) {
    return [...(await super.neighbors2(key)), key];
  }

  // Returns a stale value of one field.
  async singleRead(key) {
    const doc = await super.singleRead(key);
    return doc && doc._key.endsWith('7') ? { ...doc, AGE: doc.AGE + 1 } : doc;
  }

  // Stores a stale AGE in a few documents that a sample of every fifth write would not read back.
  async singleWrite(collection, doc) {
    return super.singleWrite(collection, doc._key.endsWith('99') ? { ...doc, AGE: (doc.AGE ?? 0) + 1 } : doc);
  }

  async singleWriteSync(collection, doc) {
    return super.singleWrite(collection, doc);
  }

  // Adds a field named like an inherited property to the last document of each answer.
  async neighbors2data(key) {
    const docs = await super.neighbors2data(key);
    return docs.map((doc, i) => (i === docs.length - 1 ? { ...doc, constructor: 'Profile' } : doc));
  }

  // A valid path, but not a shortest one, whenever a detour through a neighbour exists.
  async shortestPath(from, to, maxDepth) {
    const path = await super.shortestPath(from, to, maxDepth);
    if (!path || path.length < 3) return path;
    return [from, path[1], from, ...path.slice(1)];
  }
}

// It claims a durable term the memory store has not, so that its (correct) singleWriteSync runs beside the broken
// singleWrite.
const wrong = {
  ...memory,
  id: 'wrong',
  name: 'Wrong',
  terms: { durability: { ...memory.terms.durability, durable: { how: 'a test double: the memory store, said to be durable' } } },
  create: (options) => new WrongAdapter(options),
};
let cacheDir;
let result;

before(async () => {
  cacheDir = mkdtempSync(path.join(os.tmpdir(), 'bench-validation-'));
  const dataset = await prepareDataset({ scale: 'tiny', seed: 1, cacheDir });
  result = await runBenchmark({
    description: wrong,
    adapterOptions: { database: 'validation', namespace: 'dbshootout', concurrency: 8, connectTimeoutMs: 1000, dataDir: cacheDir },
    dataset,
    workloads: WORKLOADS,
    config: { concurrency: 8, runs: 2, workloads: WORKLOADS.map((w) => w.name), stallTimeoutMs: 10_000 },
    command: 'test',
  });
});
after(() => rmSync(cacheDir, { recursive: true, force: true }));

test('exactly the workloads with wrong answers fail', () => {
  const failed = Object.entries(result.workloads).filter(([, w]) => w.status === 'failed').map(([name]) => name).sort();
  assert.deepEqual(failed, ['neighbors', 'neighbors2', 'neighbors2data', 'shortestPath', 'singleRead', 'singleWrite', 'warmup'].sort());
  for (const name of ['singleWriteSync', 'aggregation', 'neighborsData', 'hardPath']) {
    assert.equal(result.workloads[name].status, 'passed', name);
  }
});

test('a failed workload gets no time, only concrete examples', () => {
  for (const name of ['neighbors', 'neighbors2', 'neighbors2data', 'shortestPath', 'singleRead', 'singleWrite']) {
    const workload = result.workloads[name];
    assert.equal(workload.valid, false);
    assert.equal(workload.summary, null);
    assert.equal(workload.runs.length, 2);
    for (const run of workload.runs) {
      assert.equal(run.valid, false);
      assert.equal(run.ms, undefined);
      assert.ok(run.failed > 0);
    }
    assert.ok(workload.failures.length > 0);
  }
  assert.match(result.workloads.singleRead.failures[0].problem, /field AGE: expected \d+, got \d+/);
  assert.match(result.workloads.neighbors.failures[0].problem, /missing \["P\d+"\]/);
  assert.match(result.workloads.neighbors2.failures[0].problem, /extra \["P\d+"\]/);
  assert.match(result.workloads.shortestPath.failures[0].problem, /expected a path of \d+ hops, got \d+/);
  assert.match(result.workloads.neighbors2data.failures[0].problem, /^P\d+: unexpected field constructor: "Profile"$/);
});

test('every written document is checked, not a sample', () => {
  const workload = result.workloads.singleWrite;
  for (const run of workload.runs) {
    assert.equal(run.failed, 5, 'W99, W199, W299, W399 and W499 of 500 writes');
    assert.equal(run.reason, '5 wrong answers');
  }
  assert.deepEqual(workload.failures.slice(0, 3).map((f) => f.input), ['"W99"', '"W199"', '"W299"']);
  for (const { problem } of workload.failures) assert.match(problem, /^(field AGE: expected \d+, got \d+|unexpected field AGE: 1)$/);
});

test('valid workloads carry per-run timings and a summary', () => {
  const workload = result.workloads.neighborsData;
  assert.equal(workload.runs.length, 2);
  for (const run of workload.runs) {
    assert.ok(run.ms > 0);
    assert.ok(run.opsPerSec > 0);
    assert.ok(run.latencyMs.p50 > 0 && run.latencyMs.p99 >= run.latencyMs.p50 && run.latencyMs.max >= run.latencyMs.p99);
  }
  assert.ok(workload.summary.medianMs > 0);
  assert.equal(result.complete, true);
});
