// The crud suite as data and through the one runner, over the in-process memory store: its documents, its
// plan of rounds, each phase's check fed wrong answers, and a chained round that stops at a failed phase.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import duckdb from '../../adapters/duckdb/description.js';
import memory from '../../adapters/memory/description.js';
import sqlite from '../../adapters/sqlite/description.js';
import { runBenchmark } from '../../runner/run.js';
import { crudDocuments, crudKey } from '../../workloads/crud/documents.js';
import crud, { stepKey } from '../../workloads/crud/suite.js';
import { COLLECTION, WORKLOADS } from '../../workloads/crud/workloads.js';
import { getSuite, suiteIds } from '../../workloads/index.js';

const byName = Object.fromEntries(WORKLOADS.map((workload) => [workload.name, workload]));
const options = { namespace: 'dbshootout_crudtest', concurrency: 4, connectTimeoutMs: 1000, dataDir: null };

describe('crud documents', () => {
  test('are the same for the same seed and differ for another', () => {
    assert.deepEqual(crudDocuments({ count: 50, shape: 'varied', seed: 7 }), crudDocuments({ count: 50, shape: 'varied', seed: 7 }));
    assert.notDeepEqual(crudDocuments({ count: 50, shape: 'varied', seed: 7 }).docs, crudDocuments({ count: 50, shape: 'varied', seed: 8 }).docs);
  });

  test('a smaller count is a prefix of a larger one', () => {
    const small = crudDocuments({ count: 10, shape: 'uniform', seed: 3 });
    const large = crudDocuments({ count: 100, shape: 'uniform', seed: 3 });
    assert.deepEqual(small.docs, large.docs.slice(0, 10));
    assert.deepEqual(small.updates, large.updates.slice(0, 10));
  });

  test('uniform documents share one shape of about 200 bytes; keys are C1..Cn', () => {
    const { docs, updates } = crudDocuments({ count: 1000, shape: 'uniform', seed: 1 });
    const shape = (doc) => Object.entries(doc).map(([name, value]) => `${name}:${typeof value}`).join();
    assert.equal(new Set(docs.map(shape)).size, 1);
    assert.equal(shape(updates[0]), shape(docs[0]));
    const mean = docs.reduce((sum, doc) => sum + JSON.stringify(doc).length, 0) / docs.length;
    assert.ok(mean > 150 && mean < 250, `mean size ${mean}`);
    assert.deepEqual(docs.slice(0, 3).map((doc) => doc._key), [crudKey(1), crudKey(2), crudKey(3)]);
    assert.ok(docs.every((doc, i) => updates[i]._key === doc._key && updates[i].version === 2 && doc.version === 1));
  });

  test('varied documents vary in names, number and types, with strings and safe integers only', () => {
    const { docs, updates } = crudDocuments({ count: 2000, shape: 'varied', seed: 1 });
    const names = new Set(docs.map((doc) => Object.keys(doc).sort().join()));
    assert.ok(names.size > 1900, `${names.size} distinct shapes`);
    const counts = new Set(docs.map((doc) => Object.keys(doc).length));
    assert.ok(counts.size >= 10);
    for (const doc of [...docs, ...updates]) {
      for (const [name, value] of Object.entries(doc)) {
        if (name === '_key') {
          assert.match(value, /^C\d+$/);
        } else {
          assert.match(name, /^[A-Za-z0-9][A-Za-z0-9_]{0,39}$/);
          assert.ok(typeof value === 'string' || Number.isSafeInteger(value), `${name}: ${value}`);
        }
      }
    }
    assert.ok(docs.some((doc) => Object.hasOwn(doc, 'constructor') || Object.hasOwn(doc, 'toString')));
    assert.ok(docs.some((doc) => Object.values(doc).includes('')));
  });

  test('an unknown shape is an internal error', () => {
    assert.throws(() => crudDocuments({ count: 1, shape: 'round', seed: 1 }), /unknown document shape/);
  });
});

describe('crud plan', () => {
  test('is a registered suite with the four document operations', () => {
    assert.ok(suiteIds().includes('crud'));
    assert.equal(getSuite('crud'), crud);
    assert.deepEqual(WORKLOADS.map((w) => [w.name, w.operation]), [
      ['insert', 'insertDocument'], ['get', 'getDocument'], ['update', 'updateDocument'], ['delete', 'deleteDocument']]);
    assert.throws(() => getSuite('nope'), { code: 'E_USAGE', message: /valid suites: social, crud/ });
  });

  test('one chained round per count, level and run, each at its level, each from an empty collection', async () => {
    const rounds = crud.rounds({ config: { ops: [10, 20], concurrency: [1, 4], runs: 2, durable: true }, workloads: WORKLOADS });
    assert.deepEqual(rounds.map((r) => [r.steps[0].params.ops, r.concurrency, r.run]), [
      [10, 1, 1], [10, 1, 2], [10, 4, 1], [10, 4, 2], [20, 1, 1], [20, 1, 2], [20, 4, 1], [20, 4, 2]]);
    assert.ok(rounds.every((r) => r.chained));
    assert.deepEqual(rounds[2].steps.map((s) => s.key), ['insert n=10 c=4', 'get n=10 c=4', 'update n=10 c=4', 'delete n=10 c=4']);
    assert.deepEqual(rounds[2].steps[0].params, { ops: 10, concurrency: 4, durable: true });
    const calls = [];
    const adapter = {
      createTempCollection: async (name) => calls.push(['create', name]),
      dropTempCollection: async (name) => calls.push(['drop', name]),
    };
    await rounds[0].setup(adapter);
    await rounds[0].teardown(adapter);
    assert.deepEqual(calls, [['create', COLLECTION], ['drop', COLLECTION]]);
    assert.equal(stepKey('get', { ops: 5, concurrency: 2 }), 'get n=5 c=2');
  });
});

describe('crud checks', () => {
  const ctx = crudDocuments({ count: 5, shape: 'varied', seed: 2 });
  const params = { ops: 5, concurrency: 1, durable: false };
  const stored = (docs) => ({ readCollection: async () => docs, getDocument: async () => null });

  test('insert: the collection must hold exactly the inserted documents', async () => {
    const inputs = byName.insert.inputs(ctx, params);
    assert.deepEqual(await byName.insert.check(ctx, inputs, [], stored(ctx.docs)), []);
    assert.equal((await byName.insert.check(ctx, inputs, [], stored(ctx.docs.slice(1)))).length, 2);
    const changed = ctx.docs.map((doc, i) => (i === 4 ? { ...doc, extra: 1 } : doc));
    assert.match((await byName.insert.check(ctx, inputs, [], stored(changed)))[0].problem, /unexpected field extra/);
    assert.equal((await byName.insert.check(ctx, inputs, [], stored([...ctx.docs, ctx.docs[0]]))).length, 2);
  });

  test('get: every answer must equal its document; null for a stored key is wrong', () => {
    const inputs = byName.get.inputs(ctx, params);
    assert.deepEqual(inputs, ctx.docs.map((doc) => doc._key));
    assert.deepEqual(byName.get.check(ctx, inputs, ctx.docs), []);
    const answers = [...ctx.docs];
    answers[4] = null;
    answers[2] = ctx.updates[2];
    assert.deepEqual(byName.get.check(ctx, inputs, answers).map((f) => f.input), [inputs[2], inputs[4]]);
  });

  test('update: the collection must hold exactly the new versions (replace, not merge)', async () => {
    const inputs = byName.update.inputs(ctx, params);
    assert.deepEqual(await byName.update.check(ctx, inputs, [], stored(ctx.updates)), []);
    const merged = ctx.updates.map((doc, i) => ({ ...ctx.docs[i], ...doc }));
    assert.ok((await byName.update.check(ctx, inputs, [], stored(merged))).length > 0);
    assert.equal((await byName.update.check(ctx, inputs, [], stored(ctx.docs))).length, 5);
  });

  test('delete: the collection must be empty and a get of every key must find nothing', async () => {
    const inputs = byName.delete.inputs(ctx, params);
    assert.deepEqual(await byName.delete.check(ctx, inputs, [], stored([])), []);
    assert.match((await byName.delete.check(ctx, inputs, [], stored([ctx.docs[3]])))[0].problem, /still holds/);
    const ghost = { readCollection: async () => [], getDocument: async (collection, key) => (key === inputs[1] ? ctx.docs[1] : null) };
    assert.deepEqual((await byName.delete.check(ctx, inputs, [], ghost)).map((f) => f.input), [inputs[1]]);
  });

  test('delete: a get after the delete must answer exactly null; undefined, false, {} or [] is wrong', async () => {
    const inputs = byName.delete.inputs(ctx, params);
    for (const [answer, text] of [[undefined, 'undefined'], [false, 'false'], [{}, '{}'], [[], '[]'], [0, '0'], ['', '""']]) {
      const almost = { readCollection: async () => [], getDocument: async (collection, key) => (key === inputs[2] ? answer : null) };
      assert.deepEqual(await byName.delete.check(ctx, inputs, [], almost),
        [{ input: inputs[2], problem: `a get after the delete returned ${text}` }], text);
    }
    // A collection read back as nothing at all is no empty collection.
    const noCollection = { readCollection: async () => undefined, getDocument: async () => null };
    assert.deepEqual(await byName.delete.check(ctx, inputs, [], noCollection),
      [{ input: '5 deletes', problem: 'the collection still holds undefined' }]);
  });

  test('get: undefined for a stored key is wrong, as null is', () => {
    const inputs = byName.get.inputs(ctx, params);
    const answers = [...ctx.docs];
    answers[1] = undefined;
    assert.deepEqual(byName.get.check(ctx, inputs, answers), [{ input: inputs[1], problem: 'expected a document, got undefined' }]);
  });

  test('the calls pass the collection, the key and the acknowledgement asked for', async () => {
    const calls = [];
    const adapter = {
      insertDocument: async (...args) => calls.push(['insert', ...args]),
      getDocument: async (...args) => calls.push(['get', ...args]),
      updateDocument: async (...args) => calls.push(['update', ...args]),
      deleteDocument: async (...args) => calls.push(['delete', ...args]),
    };
    const durable = { ...params, durable: true };
    await byName.insert.call(adapter, ctx.docs[0], durable);
    await byName.get.call(adapter, 'C1', durable);
    await byName.update.call(adapter, ctx.updates[0], durable);
    await byName.delete.call(adapter, 'C1', durable);
    assert.deepEqual(calls, [
      ['insert', COLLECTION, ctx.docs[0], { durable: true }],
      ['get', COLLECTION, 'C1'],
      ['update', COLLECTION, 'C1', ctx.updates[0], { durable: true }],
      ['delete', COLLECTION, 'C1', { durable: true }],
    ]);
  });
});

describe('a get after a delete on the embedded adapters', () => {
  const ctx = crudDocuments({ count: 6, shape: 'varied', seed: 4 });
  const params = { ops: 6, concurrency: 1, durable: false };
  const cases = [
    ['memory', () => memory.create({ ...options, namespace: 'dbshootout_crud_null' })],
    ['sqlite', (dir) => sqlite.create({ namespace: 'dbshootout', database: null, dataDir: dir, concurrency: 1 })],
    ['duckdb', (dir) => duckdb.create({ namespace: 'dbshootout', database: path.join(dir, 'crud.duckdb'), concurrency: 1 })],
  ];
  for (const [name, create] of cases) {
    test(`${name}: answers exactly null, and the delete check passes`, { timeout: 60_000 }, async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), `bench-crud-null-${name}-`));
      const adapter = create(dir);
      await adapter.connect();
      try {
        await adapter.resetNamespace?.();
        await adapter.createTempCollection(COLLECTION);
        for (const doc of ctx.docs) await adapter.insertDocument(COLLECTION, doc, { durable: false });
        const keys = byName.delete.inputs(ctx, params);
        for (const key of keys) await adapter.deleteDocument(COLLECTION, key, { durable: false });
        for (const key of [...keys, 'C404']) assert.strictEqual(await adapter.getDocument(COLLECTION, key), null, key);
        assert.deepEqual(await byName.delete.check(ctx, keys, [], adapter), []);
        await adapter.dropTempCollection(COLLECTION);
      } finally {
        await adapter.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe('crud through the runner (memory store)', async () => {
  const config = { ops: [300], concurrency: [1, 8], runs: 2, durable: false, stallTimeoutMs: 10_000 };
  const data = await crud.prepare({ ops: config.ops, shape: 'varied', seed: 5 });

  test('every phase at every level passes, with its params, runs and latencies recorded', async () => {
    const result = await runBenchmark({
      suite: crud, description: memory, adapterOptions: options, dataset: data, workloads: WORKLOADS, config, command: 'test',
    });
    assert.equal(result.suite, 'crud');
    assert.equal(result.dataset.id, 'crud-varied-s5');
    assert.equal(result.import, null);
    assert.equal(result.complete, true);
    assert.deepEqual(Object.keys(result.workloads), [
      'insert n=300 c=1', 'get n=300 c=1', 'update n=300 c=1', 'delete n=300 c=1',
      'insert n=300 c=8', 'get n=300 c=8', 'update n=300 c=8', 'delete n=300 c=8']);
    for (const entry of Object.values(result.workloads)) {
      assert.equal(entry.status, 'passed', JSON.stringify(entry.failures));
      assert.equal(entry.runs.length, 2);
      assert.equal(entry.ops, 300);
      assert.ok(entry.runs.every((run) => run.latencyMs.p99 >= run.latencyMs.p50));
    }
    assert.deepEqual(result.workloads['get n=300 c=8'].params, { ops: 300, concurrency: 8, durable: false });
  });

  test('a wrong insert fails its phase and leaves the later phases of its round unmeasured', async () => {
    const broken = {
      ...memory,
      create(opts) {
        const adapter = memory.create(opts);
        const insert = adapter.insertDocument.bind(adapter);
        adapter.insertDocument = (collection, doc, ack) => insert(collection, doc._key === 'C7' ? { ...doc, _key: 'C7x' } : doc, ack);
        return adapter;
      },
    };
    const result = await runBenchmark({
      suite: crud, description: broken, adapterOptions: options, dataset: data, workloads: WORKLOADS,
      config: { ...config, concurrency: [2], runs: 1 }, command: 'test',
    });
    const entries = result.workloads;
    assert.equal(entries['insert n=300 c=2'].status, 'failed');
    assert.match(entries['insert n=300 c=2'].failures[0].problem, /not written|not in the collection/);
    for (const phase of ['get', 'update', 'delete']) {
      const entry = entries[`${phase} n=300 c=2`];
      assert.equal(entry.status, 'failed');
      assert.match(entry.runs[0].reason, /not run: insert n=300 c=2 failed before it/);
    }
  });

  test('an adapter without the operations reports them unsupported and measures nothing', async () => {
    const social = { ...memory, supports: memory.supports.filter((op) => !op.endsWith('Document')) };
    const result = await runBenchmark({
      suite: crud, description: social, adapterOptions: options, dataset: data, workloads: WORKLOADS,
      config: { ...config, concurrency: [1], runs: 1 }, command: 'test',
    });
    assert.ok(Object.values(result.workloads).every((entry) => entry.status === 'unsupported'));
  });
});
