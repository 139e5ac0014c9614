// The graph suite's check of the whole edge collection (workloads/graph/verify.js) against hand-made faults: an
// upsertEdge with a side effect on an edge it was not asked to write, damage to edges no read sees (before the
// run and by a write), a lost edge, a pair stored twice (in SQLite, a table without its key), and a "no edge"
// answered undefined. Each is named where it happened: the writing workload's failure, or the load's words before
// it loads the collection again.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import memory from '../adapters/memory/description.js';
import sqlite from '../adapters/sqlite/description.js';
import { createRandom } from '../datasets/random.js';
import { runBenchmark } from '../runner/run.js';
import { edgeProblem } from '../workloads/graph/check.js';
import { COLLECTION, loadEdgeCollection } from '../workloads/graph/load.js';
import { BATCH_SIZE, UNDO_BATCH_SIZE } from '../workloads/graph/operations.js';
import suite from '../workloads/graph/suite.js';
import { EdgeReference } from '../workloads/graph/reference.js';
import { verifyStore, writtenState } from '../workloads/graph/verify.js';
import { WORKLOADS, writtenEdges } from '../workloads/graph/workloads.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-graph-verify-'));
after(() => rmSync(work, { recursive: true, force: true }));

// 12,000 distinct edges among 1,500 vertices: enough existing edges for every write workload at tiny scale.
const file = path.join(work, 'edges.tsv');
{
  const random = createRandom(8, 1);
  const lines = [];
  for (let i = 0; i < 12_500; i += 1) lines.push(`${1 + random.int(1500)}\t${1 + random.int(1500)}\t${random.int(1000)}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
}
const settings = { dataset: `file:${file}`, scale: 'tiny', seed: 3, 'cache-dir': path.join(work, 'cache') };
const dataset = await suite.prepare(settings, {});
const ctx = await suite.context(dataset);
const byName = Object.fromEntries(WORKLOADS.map((workload) => [workload.name, workload]));
const pairKey = ({ source, target }) => `${source} ${target}`;

// An edge of the edge list that no workload reads or writes: no read's vertex touches it, no findEdge pair is it.
function unseenEdge() {
  const vertices = new Set(ctx.params.vertices);
  const pairs = new Set([...ctx.params.pairs, ...writtenEdges(ctx)].map(pairKey));
  for (let i = 0; i < ctx.reference.length; i += 1) {
    const edge = ctx.reference.edge(i);
    if (!vertices.has(edge.source) && !vertices.has(edge.target) && !pairs.has(pairKey(edge))) return edge;
  }
  throw new Error('no unseen edge in the edge list');
}

const logs = () => {
  const lines = [];
  return { lines, progress: { log: (line) => lines.push(line), bar: () => null, phases: () => () => {} } };
};

let namespaces = 0;
const memoryOptions = () => ({ namespace: `verify_${(namespaces += 1)}`, database: 'graph-verify', concurrency: 1 });

// The memory adapter with `fault(adapter)` applied to each instance the run creates.
const faulty = (fault) => ({ ...memory, create: (options) => fault(memory.create(options)) });

const run = ({ description = memory, options, runs = 1, workloads = WORKLOADS, progress = null }) => runBenchmark({
  suite, description, adapterOptions: options, dataset, workloads, progress,
  config: { ...suite.configure({ ...settings, concurrency: [1], clients: 1 }), runs, clients: 1, stallTimeoutMs: 30_000 },
  command: 'test',
});

const failuresOf = (result, name) => result.workloads[name].failures.map(({ input, problem }) => `${input}: ${problem}`);

test('an upsertEdge that also changes an edge it was not asked to write fails, naming that edge; its undo puts it back, so the second run\'s reads pass', { timeout: 120_000 }, async () => {
  const victim = unseenEdge();
  const options = memoryOptions();
  const description = faulty((adapter) => {
    const { upsertEdge } = adapter.graph;
    adapter.graph.upsertEdge = async (name, edge) => {
      await upsertEdge(name, edge);
      await upsertEdge(name, { ...victim, weight: victim.weight + 1 });
    };
    return adapter;
  });
  const result = await run({ description, options, runs: 2 });
  const upsert = result.workloads.upsertEdge;
  assert.equal(upsert.status, 'failed');
  assert.deepEqual(upsert.runs.map((r) => r.valid), [false, false], 'each run of the writing workload fails');
  assert.deepEqual(failuresOf(result, 'upsertEdge'), [1, 2].map(() => `"${victim.source}->${victim.target}": the whole collection, checked after the writes: `
    + `edge ${victim.source}->${victim.target} holds weight ${victim.weight + 1}, expected ${victim.weight} (an edge the workload was not asked to write)`));
  for (const name of Object.keys(result.workloads).filter((key) => key !== 'upsertEdge')) {
    assert.equal(result.workloads[name].status, 'passed', `${name}: ${JSON.stringify(result.workloads[name].failures)}`);
  }
  const adapter = memory.create(options);
  await adapter.connect();
  assert.equal((await verifyStore(adapter, COLLECTION, ctx.reference)).count, 0, 'the collection is the edge list again');
});

test('a removeEdge that also removes an edge no read sees fails, naming the edge as missing', { timeout: 120_000 }, async () => {
  const victim = unseenEdge();
  const description = faulty((adapter) => {
    const { removeEdge } = adapter.graph;
    adapter.graph.removeEdge = async (name, pair) => {
      await removeEdge(name, pair);
      await removeEdge(name, victim);
    };
    return adapter;
  });
  const result = await run({ description, options: memoryOptions(), workloads: [byName.removeEdge, byName.findEdge] });
  assert.deepEqual(failuresOf(result, 'removeEdge'), [
    `"${ctx.params.removeEdge.edges.length} writes": the collection holds ${ctx.reference.length - ctx.params.removeEdge.edges.length - 1} edges, expected ${ctx.reference.length - ctx.params.removeEdge.edges.length}`,
    `"${victim.source}->${victim.target}": the whole collection, checked after the writes: `
    + `edge ${victim.source}->${victim.target} (weight ${victim.weight}) is missing (an edge the workload was not asked to write)`]);
});

test('a write that stores a pair twice fails, naming the pair', { timeout: 120_000 }, async () => {
  const twice = ctx.params.upsertEdges.edges[0];
  const description = faulty((adapter) => {
    const { scan, upsertEdges, removeEdges } = adapter.graph;
    let stored = false;
    // What a store without its unique key holds after an upsert that inserted: the pair once more, until removed.
    adapter.graph.upsertEdges = async (name, edges) => {
      if (edges.some((edge) => pairKey(edge) === pairKey(twice))) stored = true;
      return upsertEdges(name, edges);
    };
    adapter.graph.removeEdges = async (name, pairs) => {
      if (pairs.some((pair) => pairKey(pair) === pairKey(twice))) stored = false;
      return removeEdges(name, pairs);
    };
    adapter.graph.scan = async (name, visit) => {
      await scan(name, visit);
      if (stored) await visit([{ ...twice }]);
    };
    return adapter;
  });
  const result = await run({ description, options: memoryOptions(), workloads: [byName.upsertEdges] });
  assert.deepEqual(failuresOf(result, 'upsertEdges'), [`"${twice.source}->${twice.target}": the whole collection, checked after the writes: `
    + `edge ${twice.source}->${twice.target} is stored more than once (again with weight ${twice.weight})`]);
});

test('a reused collection with a damaged edge no read sees, a lost edge, or a written pair of a third weight is named, then loaded again', { timeout: 120_000 }, async () => {
  const options = memoryOptions();
  const adapter = memory.create(options);
  await adapter.connect();
  const load = async () => {
    const { lines, progress } = logs();
    const loaded = await suite.load({ adapter, description: memory, options, data: dataset, reimport: false, progress });
    return { loaded, lines };
  };
  assert.equal((await load()).loaded.reused, false);
  const first = await load();
  assert.equal(first.loaded.reused, true);
  assert.match(first.lines.at(-1), /^reusing the edge collection: [\d,]+ edges, loaded before, checked whole in \d+\.\d\d s$/);

  const victim = unseenEdge();
  await adapter.graph.upsertEdge(COLLECTION, { ...victim, weight: victim.weight + 5 });
  const damaged = await load();
  assert.equal(damaged.loaded.reused, false);
  assert.ok(damaged.lines.includes(`the edge collection differs from the edge list: edge ${victim.source}->${victim.target} `
    + `holds weight ${victim.weight + 5}, expected ${victim.weight}: loading it again`), damaged.lines.join('\n'));

  await adapter.graph.removeEdge(COLLECTION, victim);
  const count = ctx.reference.length.toLocaleString('en-US');
  const lost = await load();
  assert.equal(lost.loaded.reused, false);
  assert.ok(lost.lines.includes(`the edge collection holds ${(ctx.reference.length - 1).toLocaleString('en-US')} edges of ${count} `
    + `(edge ${victim.source}->${victim.target} (weight ${victim.weight}) is missing): loading it again`), lost.lines.join('\n'));

  // A pair the writes touch, as they wrote it (a run interrupted before its undo) is reused and put back by the
  // round; with a weight neither the edge list nor the writes give it, it is named.
  const written = ctx.params.upsertEdge.edges.find((edge) => ctx.reference.findEdge(edge.source, edge.target));
  await adapter.graph.upsertEdge(COLLECTION, written);
  assert.equal((await load()).loaded.reused, true);
  await adapter.graph.upsertEdge(COLLECTION, { ...written, weight: written.weight + 1 });
  const third = await load();
  assert.equal(third.loaded.reused, false);
  assert.ok(third.lines.includes(`the edge collection differs from the edge list: edge ${written.source}->${written.target} `
    + `holds weight ${written.weight + 1}, expected ${ctx.reference.findEdge(written.source, written.target).weight} or ${written.weight}: loading it again`), third.lines.join('\n'));
  await adapter.close();
});

test('SQLite: a collection holding a pair twice (a table without its key) is named and loaded again, and the run passes', { timeout: 120_000 }, async () => {
  const dataDir = path.join(work, 'sqlite');
  const options = { namespace: 'verify_sqlite', dataDir, database: null, concurrency: 1 };
  const loadOnce = async () => {
    const adapter = sqlite.create(options);
    await adapter.connect();
    const { lines, progress } = logs();
    try {
      const loaded = await loadEdgeCollection({ adapter, description: sqlite, options, data: dataset.edges, reimport: false, progress, expected: () => suite.context(dataset) });
      return { loaded, lines };
    } finally {
      await adapter.close();
    }
  };
  assert.equal((await loadOnce()).loaded.reused, false);
  // The table made again without its primary key, one edge stored twice and another lost: the count agrees.
  const twice = ctx.reference.edge(10);
  const lost = ctx.reference.edge(20);
  const db = new Database(path.join(dataDir, 'sqlite', 'bench.sqlite'));
  const table = 'verify_sqlite_tmp_g_edges';
  db.exec(`CREATE TABLE copy AS SELECT * FROM ${table}; DROP TABLE ${table}; ALTER TABLE copy RENAME TO ${table};`);
  db.prepare(`DELETE FROM ${table} WHERE source = ? AND target = ?`).run(lost.source, lost.target);
  db.prepare(`INSERT INTO ${table} (source, target, weight) VALUES (?, ?, ?)`).run(twice.source, twice.target, twice.weight);
  db.close();
  const again = await loadOnce();
  assert.equal(again.loaded.reused, false);
  assert.ok(again.lines.includes(`the edge collection differs from the edge list: edge ${twice.source}->${twice.target} is stored more than once `
    + `(again with weight ${twice.weight}); edge ${lost.source}->${lost.target} (weight ${lost.weight}) is missing: loading it again`), again.lines.join('\n'));
  const result = await run({ description: sqlite, options, workloads: [byName.findEdge, byName.upsertEdge, byName.upsertEdges] });
  for (const name of ['findEdge', 'upsertEdge', 'upsertEdges']) assert.equal(result.workloads[name].status, 'passed', name);
});

test('"no edge" is null: undefined fails the answer check and the read-back of a removal', { timeout: 60_000 }, async () => {
  assert.equal(edgeProblem(null, null), null);
  assert.equal(edgeProblem(null, undefined), 'expected no edge (null), got undefined');
  const options = memoryOptions();
  const adapter = memory.create(options);
  await adapter.connect();
  await suite.load({ adapter, description: memory, options, data: dataset, reimport: false, progress: null });
  const removal = byName.removeEdge;
  const inputs = removal.inputs(ctx);
  for (const pair of inputs) await removal.call(adapter, pair, { collection: COLLECTION });
  const lenient = Object.create(adapter);
  const missing = pairKey(inputs[0]);
  lenient.graph = {
    ...adapter.graph,
    findEdge: async (name, source, target) => (pairKey({ source, target }) === missing ? undefined : adapter.graph.findEdge(name, source, target)),
  };
  const failures = await removal.check(ctx, inputs, [], lenient, { collection: COLLECTION });
  assert.deepEqual(failures, [{ input: `${inputs[0].source}->${inputs[0].target}`, problem: 'after the removal, findEdge returned undefined' }]);
  await adapter.close();
});

test('verifyStore: every kind of difference named once, a tolerant check accepting the written state, and the pending count', () => {
  const reference = new EdgeReference({ length: 3, source: Int32Array.of(1, 1, 2), target: Int32Array.of(2, 3, 1), weight: Int32Array.of(5, 6, 7) });
  const store = (edges) => ({ graph: { scan: async (name, visit) => { await visit(edges); } } });
  const exact = [{ source: 1, target: 2, weight: 5 }, { source: 1, target: 3, weight: 6 }, { source: 2, target: 1, weight: 7 }];
  return (async () => {
    assert.deepEqual(await verifyStore(store(exact), 'edges', reference), { edges: 3, differences: [], count: 0, pending: 0 });
    const wrong = [{ source: 1, target: 2, weight: 4 }, { source: 2, target: 1, weight: 7 }, { source: 2, target: 1, weight: 7 }, { source: 3, target: 1, weight: 1 }, { source: 1, target: '3', weight: 6 }];
    const found = await verifyStore(store(wrong), 'edges', reference);
    assert.deepEqual(found.differences.map(({ problem }) => problem), [
      'edge 1->2 holds weight 4, expected 5',
      'edge 2->1 is stored more than once (again with weight 7)',
      'edge 3->1 (weight 1) is stored, but is not in the edge list',
      'edge 1->3 is stored as {"source":1,"target":"3","weight":6}, not { source, target, weight } of integer numbers',
      'edge 1->3 (weight 6) is missing',
    ]);
    const written = writtenState({ upserted: [{ source: 1, target: 2, weight: 9 }, { source: 3, target: 2, weight: 8 }], removed: [{ source: 2, target: 1 }] });
    const applied = [{ source: 1, target: 2, weight: 9 }, { source: 1, target: 3, weight: 6 }, { source: 3, target: 2, weight: 8 }];
    assert.equal((await verifyStore(store(applied), 'edges', reference, { written })).count, 0, 'the writes applied');
    assert.deepEqual((await verifyStore(store(exact), 'edges', reference, { written })).differences.map(({ problem }) => problem), [
      'edge 1->2 holds weight 5, expected 9', 'edge 2->1 (weight 7) is stored, but was removed', 'edge 3->2 (weight 8) is missing',
    ]);
    for (const state of [exact, applied]) {
      const tolerant = await verifyStore(store(state), 'edges', reference, { written, tolerant: true });
      assert.deepEqual([tolerant.count, tolerant.pending], [0, state === exact ? 0 : 3]);
    }
    const gone = await verifyStore(store([exact[2]]), 'edges', reference, { written, tolerant: true });
    assert.deepEqual(gone.differences.map(({ problem }) => problem), ['edge 1->2 (weight 5) is missing', 'edge 1->3 (weight 6) is missing']);
  })();
});

test('the undo after the batched writes sends at most UNDO_BATCH_SIZE edges per request, one request at a time, while the timed batches stay at 500', { timeout: 120_000 }, async () => {
  const timed = [];
  const undo = [];
  let inFlight = 0;
  let most = 0;
  const description = faulty((adapter) => {
    const { upsertEdges, removeEdges } = adapter.graph;
    const watch = (write, name) => async (collection, edges, ...rest) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      (edges.length === BATCH_SIZE ? timed : undo).push(`${name} ${edges.length}`);
      try {
        return await write(collection, edges, ...rest);
      } finally {
        inFlight -= 1;
      }
    };
    adapter.graph.upsertEdges = watch(upsertEdges, 'upsertEdges');
    adapter.graph.removeEdges = watch(removeEdges, 'removeEdges');
    return adapter;
  });
  const result = await run({ description, options: memoryOptions(), workloads: ['upsertEdges', 'removeEdges'].map((name) => byName[name]) });
  assert.equal(result.workloads.upsertEdges.status, 'passed');
  assert.equal(result.workloads.removeEdges.status, 'passed');
  assert.ok(timed.length > 0, 'the timed batches are of 500');
  assert.ok(undo.length > 0, 'the undo ran');
  assert.ok(undo.every((entry) => Number(entry.split(' ')[1]) <= UNDO_BATCH_SIZE), undo.join(', '));
  assert.ok(undo.some((entry) => entry.startsWith('upsertEdges')) && undo.some((entry) => entry.startsWith('removeEdges')), undo.join(', '));
  assert.equal(most, 1, 'one request at a time (concurrency 1 for the timed ones too)');
});
