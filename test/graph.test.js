// The graph suite's pure parts: the reference against brute force (dense and sparse ids), the answer checks fed
// wrong answers of every kind they exist to catch, the parameter draws, and the write workloads' checks and undo
// against the memory adapter, including a store that loses a write.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRandom } from '../datasets/random.js';
import memory from '../adapters/memory/description.js';
import { countProblem, edgeListProblem, edgeProblem, idListProblem } from '../workloads/graph/check.js';
import { BATCH_SIZE, EDGE_BYTES, GRAPH_METHODS, GRAPH_OPERATIONS, READ_OPERATIONS, UNDO_BATCH_SIZE, WRITE_OPERATIONS } from '../workloads/graph/operations.js';
import { GRAPH_SIZES, HOT_VERTICES, drawGraphParams, graphSizes, newWeight } from '../workloads/graph/params.js';
import { EdgeReference } from '../workloads/graph/reference.js';
import { WORKLOADS, restore, writtenEdges } from '../workloads/graph/workloads.js';

function edgeList(pairs) {
  const map = new Map();
  for (const [source, target, weight] of pairs) if (source !== target && !map.has(`${source} ${target}`)) map.set(`${source} ${target}`, { source, target, weight });
  const sorted = [...map.values()].sort((a, b) => a.source - b.source || a.target - b.target);
  return {
    length: sorted.length,
    source: Int32Array.from(sorted, (e) => e.source),
    target: Int32Array.from(sorted, (e) => e.target),
    weight: Int32Array.from(sorted, (e) => e.weight),
    list: sorted,
  };
}

function randomEdges(count, ids, seed = 1) {
  const random = createRandom(seed, 1);
  return edgeList(Array.from({ length: count }, () => [random.pick(ids), random.pick(ids), random.int(1000)]));
}

const sortEdges = (edges) => [...edges].sort((a, b) => a.source - b.source || a.target - b.target);

for (const [label, ids] of [['dense ids', Array.from({ length: 60 }, (_, i) => i + 1)],
  ['sparse ids beyond 2^26', Array.from({ length: 60 }, (_, i) => 2 ** 31 - 1 - i * 1_000_003)]]) {
  test(`the reference answers every operation as brute force does (${label})`, () => {
    const edges = randomEdges(900, ids);
    const reference = new EdgeReference(edges);
    for (const v of [...ids, 12345]) {
      const out = edges.list.filter((e) => e.source === v);
      const into = edges.list.filter((e) => e.target === v);
      assert.deepEqual(sortEdges(reference.edgesOf(v)), sortEdges([...out, ...into]));
      assert.deepEqual(sortEdges(reference.inEdges(v)), sortEdges(into));
      assert.deepEqual(reference.friends(v).sort((a, b) => a - b), [...new Set([...out.map((e) => e.target), ...into.map((e) => e.source)])].sort((a, b) => a - b));
      const sum = (list) => list.reduce((total, e) => total + e.weight, 0);
      assert.deepEqual(reference.countFriends(v), { count: out.length + into.length, weight: sum(out) + sum(into) });
      assert.deepEqual(reference.countFollowers(v), { count: into.length, weight: sum(into) });
      for (const w of ids.slice(0, 10)) {
        const found = edges.list.find((e) => e.source === v && e.target === w) ?? null;
        assert.deepEqual(reference.findEdge(v, w), found);
      }
    }
    assert.deepEqual([...reference.vertices()], [...new Set(edges.list.flatMap((e) => [e.source, e.target]))].sort((a, b) => a - b));
  });
}

test('edgeProblem: null for right, a reason for a missing, extra, inherited-name or mistyped field, and for null mix-ups', () => {
  const edge = { source: 1, target: 2, weight: 3 };
  assert.equal(edgeProblem(edge, { ...edge }), null);
  assert.equal(edgeProblem(null, null), null);
  assert.match(edgeProblem(null, edge), /expected no edge/);
  assert.match(edgeProblem(edge, null), /expected 1->2 \(3\), got null/);
  assert.equal(edgeProblem(edge, undefined), 'expected 1->2 (3), got undefined');
  assert.match(edgeProblem(edge, { source: 1, target: 2 }), /missing field weight/);
  assert.match(edgeProblem(edge, { ...edge, weight: '3' }), /field weight/);
  assert.match(edgeProblem(edge, { ...edge, weight: 4 }), /field weight: expected 3, got 4/);
  for (const name of ['constructor', 'toString', 'hasOwnProperty']) {
    assert.match(edgeProblem(edge, { ...edge, [name]: 'x' }), new RegExp(`unexpected field ${name}`));
  }
  assert.match(edgeProblem(edge, JSON.parse('{"source":1,"target":2,"weight":3,"__proto__":1}')), /unexpected field __proto__/);
});

test('edgeListProblem: any order passes; a missing, extra, duplicated, changed or malformed edge fails', () => {
  const a = { source: 1, target: 2, weight: 3 };
  const b = { source: 2, target: 1, weight: 4 };
  assert.equal(edgeListProblem([a, b], [b, a]), null);
  assert.equal(edgeListProblem([], []), null);
  assert.match(edgeListProblem([a, b], [a]), /missing 2->1 \(4\)/);
  assert.match(edgeListProblem([a], [a, b]), /edge 2->1 \(4\) is not expected/);
  assert.match(edgeListProblem([a, b], [a, a]), /edge 1->2 \(3\) is not expected/);
  assert.match(edgeListProblem([a, b], [a, { ...b, weight: 5 }]), /2->1 \(5\) is not expected/);
  assert.match(edgeListProblem([a], [{ ...a, extra: 1 }]), /not an edge/);
  assert.match(edgeListProblem([a], [{ ...a, weight: 3.5 }]), /not an edge/);
  assert.match(edgeListProblem([a], [[1, 2, 3]]), /not an edge/);
  assert.match(edgeListProblem([a], [null]), /an element is null, not an edge/);
  assert.match(edgeListProblem([a, b], [a]), /\(expected 2 items, got 1\)/);
  assert.equal(/expected \d+ items/.test(edgeListProblem([a, b], [a, { ...b, weight: 5 }])), false, 'same length: no count in the message');
  assert.match(edgeListProblem([a], null), /expected an array of 1 edges/);
  assert.equal(edgeListProblem([a], [a, b]), 'edge 2->1 (4) is not expected (expected 1 items, got 2)');
  assert.equal(edgeListProblem([a, b], [a, { ...b, weight: 5 }]), 'edge 2->1 (5) is not expected');
  for (const element of [undefined, 7, 'abc']) {
    assert.match(edgeListProblem([a], [element]), /^an element is .+, not an edge \{ source, target, weight \} of integer numbers$/, String(element));
  }
});

test('the edges each write workload sends and each read answered, and every edge a round puts back', () => {
  const e = (n) => ({ source: n, target: n + 1, weight: n });
  const ctx = {
    params: {
      upsertEdge: { edges: [e(1), e(2)] }, upsertEdges: { edges: [e(3), e(4), e(5)], batches: [[e(3), e(4)], [e(5)]] },
      removeEdge: { edges: [e(6)] }, removeEdges: { edges: [e(7), e(8)], batches: [[e(7), e(8)]] },
    },
  };
  const tally = (name) => byName[name].tally(byName[name].inputs(ctx, params)).edges;
  assert.deepEqual(['upsertEdge', 'upsertEdges', 'removeEdge', 'removeEdges'].map(tally), [2, 3, 1, 2]);
  assert.deepEqual(writtenEdges(ctx), [1, 2, 3, 4, 5, 6, 7, 8].map(e));
  // Answers a check fails are tallied as holding nothing.
  assert.deepEqual(byName.countFriends.tally([1, 2, 3, 4], [null, { count: 2, weight: 5 }, { count: 1.5 }, undefined]), { edges: 2 });
  assert.deepEqual(byName.edgesOf.tally([1, 2], [null, [e(1), e(2)]]), { edges: 2 });
  assert.deepEqual(byName.findEdge.tally([1, 2], [null, e(1)]), { edges: 1 });
});

test('idListProblem: any order passes; a duplicate, missing, extra or non-number id fails', () => {
  assert.equal(idListProblem([1, 2, 3], [3, 1, 2]), null);
  assert.match(idListProblem([1, 2], [1, 1]), /id 1 is not expected/);
  assert.match(idListProblem([1, 2], [1]), /missing 2/);
  assert.match(idListProblem([1], [1, 2]), /id 2 is not expected/);
  assert.match(idListProblem([1], ['1']), /an id is "1"/);
  assert.match(idListProblem([1], [1n]), /an id is 1n/);
  assert.match(idListProblem([1], [1.5]), /an id is 1.5, not an integer number/);
  assert.match(idListProblem([1], {}), /expected an array/);
});

test('countProblem: the count and the weight must both match, as numbers', () => {
  assert.equal(countProblem({ count: 2, weight: 9 }, { count: 2, weight: 9 }), null);
  assert.match(countProblem({ count: 2, weight: 9 }, { count: 2, weight: 8 }), /field weight/);
  assert.match(countProblem({ count: 2, weight: 9 }, { count: '2', weight: 9 }), /field count/);
  assert.match(countProblem({ count: 0, weight: 0 }, { count: 0, weight: null }), /field weight/);
  assert.match(countProblem({ count: 0, weight: 0 }, null), /expected a document/);
});

test('parameters: deterministic per seed, hot vertices among the reads, distinct write pairs, new pairs new, batches of 500', () => {
  const edges = randomEdges(20_000, Array.from({ length: 3000 }, (_, i) => i + 1), 5);
  const reference = new EdgeReference(edges);
  const sizes = { reads: 2000, writes: 400, batches: 3 };
  const params = drawGraphParams(reference, sizes, 9);
  assert.deepEqual(drawGraphParams(reference, sizes, 9), params, 'the same seed draws the same');
  assert.notDeepEqual(drawGraphParams(reference, sizes, 10).vertices, params.vertices);
  assert.equal(params.vertices.length, 2000);
  assert.equal(params.hot.length, HOT_VERTICES);
  const hot = params.vertices.filter((v) => params.hot.includes(v)).length;
  assert.ok(hot > 150 && hot < 400, `about a tenth of the reads are hot vertices (${hot})`);
  const existing = params.pairs.filter(({ source, target }) => reference.find(source, target) >= 0).length;
  assert.ok(existing > 1500 && existing < 2000, `most findEdge pairs exist (${existing})`);
  for (const name of ['upsertEdge', 'upsertEdges']) {
    const { edges: written, existing: old, new: fresh } = params[name];
    assert.equal(new Set(written.map((e) => `${e.source} ${e.target}`)).size, written.length, `${name}: distinct pairs`);
    assert.equal(written.filter((e) => reference.find(e.source, e.target) < 0).length, fresh);
    assert.equal(old + fresh, written.length);
    assert.ok(fresh > 0 && old > 0, `${name}: a mix of new and existing pairs`);
    for (const e of written) {
      const original = reference.findEdge(e.source, e.target);
      assert.notEqual(e.source, e.target);
      if (original) assert.notEqual(e.weight, original.weight, 'an existing pair gets another weight');
    }
  }
  assert.equal(params.upsertEdges.batches.length, 3);
  assert.ok(params.upsertEdges.batches.every((batch) => batch.length === BATCH_SIZE));
  assert.ok(params.removeEdge.edges.every(({ source, target }) => reference.find(source, target) >= 0), 'removals remove existing edges');
  assert.equal(params.removeEdges.batches.flat().length, 3 * BATCH_SIZE);
});

test('parameters: the hot vertices are the hundred of highest degree, ties by id; exact shares; removals apart from the upserts', () => {
  // Vertex v (1..400) has v mod 37 edges out to the vertices after it: degrees repeat, so ties are broken by id.
  const pairs = [];
  for (let v = 1; v <= 400; v += 1) for (let k = 1; k <= v % 37; k += 1) pairs.push([v, ((v + k * 7) % 400) + 1, k]);
  const edges = edgeList([...new Map(pairs.map((pair) => [`${pair[0]} ${pair[1]}`, pair])).values()].filter(([a, b]) => a !== b));
  const reference = new EdgeReference(edges);
  const degree = new Map();
  for (const { source, target } of edges.list) for (const v of [source, target]) degree.set(v, (degree.get(v) ?? 0) + 1);
  const expected = [...degree.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, HOT_VERTICES).map(([id]) => id).sort((a, b) => a - b);
  const params = drawGraphParams(reference, { reads: 300, writes: 100, batches: 1 }, 4);
  assert.deepEqual([...params.hot], expected);
  assert.deepEqual([params.upsertEdge.new, params.upsertEdge.existing], [50, 50]);
  assert.deepEqual([params.upsertEdges.new, params.upsertEdges.existing], [BATCH_SIZE / 2, BATCH_SIZE / 2]);
  const key = ({ source, target }) => `${source} ${target}`;
  const upserted = new Set([...params.upsertEdge.edges, ...params.upsertEdges.edges].filter((e) => reference.find(e.source, e.target) >= 0).map(key));
  const removed = [...params.removeEdge.edges, ...params.removeEdges.edges].map(key);
  assert.equal(new Set(removed).size, removed.length, 'each edge removed once');
  assert.ok(removed.every((edge) => !upserted.has(edge)), 'no removal of an edge an upsert rewrites');
  assert.deepEqual([params.removeEdge.edges.length, params.removeEdges.edges.length, params.removeEdges.batches.length], [100, BATCH_SIZE, 1]);
});

test('parameters: an edge list with fewer edges than the writes want gives what it has; fewer than two vertices is refused', () => {
  const reference = new EdgeReference(edgeList([[1, 2, 5], [2, 3, 6], [3, 1, 7], [1, 3, 8]]));
  const params = drawGraphParams(reference, { reads: 10, writes: 6, batches: 1 }, 1);
  // 3 vertices, 6 directed pairs, 4 of them edges: 2 new pairs at most, found after a bounded number of tries.
  assert.deepEqual([params.upsertEdge.new, params.upsertEdge.existing], [2, 4], '6 writes: the 2 new pairs, then the 4 edges');
  assert.deepEqual([params.upsertEdges.new, params.upsertEdges.existing], [2, 0], 'no edge left for the batched upserts');
  assert.deepEqual([params.removeEdge.edges, params.removeEdges.edges], [[], []], 'nothing left to remove');
  // One vertex: a self-loop, which the dataset reader drops, given here directly.
  const loop = new EdgeReference({ length: 1, source: Int32Array.of(4), target: Int32Array.of(4), weight: Int32Array.of(1) });
  assert.throws(() => drawGraphParams(loop, { reads: 1, writes: 1, batches: 1 }, 1),
    { code: 'E_USAGE', message: 'the edge list holds fewer than two vertices: nothing to measure' });
});

test('parameters: the sizes per scale, and an upsert\'s new weight always another than the edge had', () => {
  assert.equal(graphSizes('tiny'), GRAPH_SIZES.tiny);
  assert.deepEqual(graphSizes('full'), { reads: 10_000, writes: 5_000, batches: 20 });
  for (const scale of ['huge', 'constructor']) {
    assert.throws(() => graphSizes(scale), { code: 'E_USAGE', message: `unknown scale "${scale}"; valid scales: tiny, small, medium, full` });
  }
  assert.deepEqual([newWeight(5, 3), newWeight(1_999_999_999, 0), newWeight(0, 999)], [9, 0, 1000]);
});

// The memory adapter loaded with `edges`, and the suite's context over them.
async function loaded(edges, sizes = { reads: 50, writes: 40, batches: 1 }) {
  const options = { namespace: `graph_test_${Math.random().toString(36).slice(2)}`, database: 'graph-test' };
  const adapter = memory.create(options);
  await adapter.connect();
  await adapter.resetNamespace();
  await adapter.graph.create('edges');
  await adapter.graph.importEdges('edges', edges);
  await adapter.graph.index('edges');
  const reference = new EdgeReference(edges);
  return { adapter, ctx: { reference, edges: reference.length, params: drawGraphParams(reference, sizes, 3) } };
}

const byName = Object.fromEntries(WORKLOADS.map((workload) => [workload.name, workload]));
const params = { collection: 'edges', concurrency: 1 };

async function runWrite(name, adapter, ctx) {
  const workload = byName[name];
  const inputs = workload.inputs(ctx, params);
  for (const input of inputs) await workload.call(adapter, input, params);
  const failures = await workload.check(ctx, inputs, [], adapter, params);
  await workload.teardown(adapter, params, ctx);
  return failures;
}

test('reads: right answers pass, and a wrong answer of each read fails with the input', async () => {
  const { adapter, ctx } = await loaded(randomEdges(3000, Array.from({ length: 300 }, (_, i) => i + 1)));
  for (const workload of WORKLOADS.slice(0, 6)) {
    const inputs = workload.inputs(ctx, params);
    const answers = await Promise.all(inputs.map((input) => workload.call(adapter, input, params)));
    assert.deepEqual(await workload.check(ctx, inputs, answers, adapter, params), [], `${workload.name}: right answers pass`);
    const wrong = [...answers];
    wrong[3] = workload.name === 'findEdge' ? (answers[3] ? null : { source: 1, target: 2, weight: 3 })
      : workload.name.startsWith('count') ? { ...answers[3], weight: answers[3].weight + 1 } : [...answers[3], answers[3][0] ?? 1];
    const failures = await workload.check(ctx, inputs, wrong, adapter, params);
    assert.equal(failures.length, 1, `${workload.name}: one wrong answer, one failure`);
    assert.deepEqual(failures[0].input, inputs[3]);
    // The edges the answers held: what amplification is measured against.
    const held = answers.reduce((sum, answer) => sum + (workload.name === 'findEdge' ? (answer ? 1 : 0)
      : workload.name.startsWith('count') ? answer.count : answer.length), 0);
    assert.deepEqual(workload.tally(inputs, answers), { edges: held }, `${workload.name}: tally`);
  }
});

test('writes: a store whose count is off fails the count check even when every read-back is right', async () => {
  const { adapter, ctx } = await loaded(randomEdges(3000, Array.from({ length: 300 }, (_, i) => i + 1)));
  for (const name of ['upsertEdge', 'removeEdges']) {
    const counting = Object.create(adapter);
    counting.graph = { ...adapter.graph, count: async (collection) => (await adapter.graph.count(collection)) + 1 };
    const failures = await runWrite(name, counting, ctx);
    assert.equal(failures.length, 1, name);
    const expected = name === 'upsertEdge' ? ctx.edges + ctx.params.upsertEdge.new : ctx.edges - ctx.params.removeEdges.edges.length;
    assert.equal(failures[0].problem, `the collection holds ${expected + 1} edges, expected ${expected}`);
    assert.equal(failures[0].input, `${ctx.params[name].edges.length} writes`);
    const workload = byName[name];
    const inputs = workload.inputs(ctx, params);
    assert.deepEqual(workload.tally(inputs), { edges: name === 'upsertEdge' ? inputs.length : inputs.flat().length });
  }
  assert.deepEqual(await byName.upsertEdges.figures(adapter, params), { diskBytes: null }, 'no size where the adapter cannot tell');
  const sized = Object.create(adapter);
  sized.graph = { ...adapter.graph, diskUsage: async () => 4096 };
  assert.deepEqual(await byName.upsertEdges.figures(sized, params), { diskBytes: 4096 });
});

test('writes: each workload passes, is undone, and a store that loses one write fails the check', async () => {
  const edges = randomEdges(3000, Array.from({ length: 300 }, (_, i) => i + 1));
  const { adapter, ctx } = await loaded(edges);
  const snapshot = async () => sortEdges((await Promise.all(ctx.reference.vertices().map((v) => adapter.graph.inEdges('edges', v)))).flat());
  const before = await snapshot();
  for (const name of ['upsertEdge', 'upsertEdges', 'removeEdge', 'removeEdges']) {
    assert.deepEqual(await runWrite(name, adapter, ctx), [], `${name} passes`);
    assert.deepEqual(await snapshot(), before, `${name} is undone`);
  }
  const lossy = Object.create(adapter);
  lossy.graph = { ...adapter.graph };
  let calls = 0;
  for (const name of ['upsertEdge', 'removeEdge']) {
    lossy.graph[name] = async (...args) => { calls += 1; return calls === 7 ? undefined : adapter.graph[name](...args); };
    calls = 0;
    const failures = await runWrite(name, lossy, ctx);
    assert.ok(failures.length >= 1, `${name}: a lost write fails`);
    assert.match(failures[0].problem, name === 'upsertEdge' ? /after the upsert, findEdge/ : /after the removal, findEdge returned/);
    assert.match(failures[0].input, /^\d+->\d+$/);
  }
  await restore(adapter, 'edges', ctx, writtenEdges(ctx));
  assert.deepEqual(await snapshot(), before, 'restore puts every written edge back');
});

test('each workload states what it asks for, in the words a report prints beside it', () => {
  assert.deepEqual(Object.fromEntries(WORKLOADS.map((workload) => [workload.name, workload.description])), {
    findEdge: 'the edge from source to target with its weight, or null (mostly existing edges, a fifth reversed)',
    edgesOf: 'every edge touching the vertex, both directions',
    inEdges: 'every edge into the vertex',
    friends: 'the distinct ids sharing an edge with the vertex, either direction',
    countFriends: 'the number of edges touching the vertex and the sum of their weights',
    countFollowers: 'the number of edges into the vertex and the sum of their weights',
    upsertEdge: 'insert an edge or set the weight of an existing one, one request each (half new pairs, half existing)',
    upsertEdges: 'the same, 500 edges per request in one transaction',
    removeEdge: 'remove an existing edge, one request each',
    removeEdges: 'remove 500 existing edges per request in one transaction',
  });
});

test('every graph workload is compared; a round puts edges back in requests of UNDO_BATCH_SIZE (40), one at a time', async () => {
  assert.ok(WORKLOADS.every((workload) => workload.compared === true));
  const calls = [];
  const adapter = { graph: { upsertEdges: async (collection, batch) => calls.push(['upsert', batch.length]), removeEdges: async (collection, batch) => calls.push(['remove', batch.length]) } };
  const written = Array.from({ length: 1100 }, (_, i) => ({ source: i, target: i + 1 }));
  const reference = { findEdge: (source, target) => (source < 600 ? { source, target, weight: 1 } : null) };
  await restore(adapter, 'edges', { reference }, written);
  // 600 originals put back, then 500 new pairs taken out: 15 requests of 40, then 12 of 40 and one of 20.
  assert.equal(UNDO_BATCH_SIZE, 40);
  assert.deepEqual(calls, [...Array(15).fill(['upsert', 40]), ...Array(12).fill(['remove', 40]), ['remove', 20]]);
});

test('the reference: vertex 0 is a vertex; a negative or fractional id touches no edge', () => {
  const reference = new EdgeReference(edgeList([[0, 1, 5], [1, 2, 6]]));
  assert.deepEqual(reference.findEdge(0, 1), { source: 0, target: 1, weight: 5 });
  assert.equal(reference.degree(0), 1);
  assert.deepEqual([...reference.vertices()], [0, 1, 2]);
  for (const id of [-1, 1.5, 3]) {
    assert.deepEqual(reference.countFriends(id), { count: 0, weight: 0 }, String(id));
    assert.deepEqual(reference.edgesOf(id), [], String(id));
    assert.equal(reference.findEdge(id, 2), null, String(id));
  }
});

test('parameters: every scale\'s sizes as published; two vertices are enough to measure', () => {
  assert.deepEqual(Object.fromEntries(Object.keys(GRAPH_SIZES).map((scale) => [scale, { ...graphSizes(scale) }])), {
    tiny: { reads: 1_000, writes: 500, batches: 4 },
    small: { reads: 5_000, writes: 1_000, batches: 10 },
    medium: { reads: 10_000, writes: 2_000, batches: 20 },
    full: { reads: 10_000, writes: 5_000, batches: 20 },
  });
  const two = new EdgeReference(edgeList([[1, 2, 5], [2, 1, 6]]));
  const params = drawGraphParams(two, { reads: 3, writes: 2, batches: 1 }, 1);
  assert.equal(params.vertices.length, 3);
  assert.ok(params.vertices.every((v) => v === 1 || v === 2));
  assert.deepEqual([params.upsertEdge.new, params.upsertEdge.existing], [0, 2], 'no pair is left that is not an edge');
});

test('parameters: findEdge pairs are edges or their reverse, new pairs weigh 1 to 1,000, and the upserts are shuffled', () => {
  const edges = randomEdges(20_000, Array.from({ length: 3000 }, (_, i) => i + 1), 5);
  const reference = new EdgeReference(edges);
  const params = drawGraphParams(reference, { reads: 2000, writes: 400, batches: 3 }, 9);
  let reversed = 0;
  for (const pair of params.pairs) {
    assert.deepEqual(Object.keys(pair), ['source', 'target']);
    assert.ok(Number.isInteger(pair.source) && Number.isInteger(pair.target), JSON.stringify(pair));
    const forward = reference.find(pair.source, pair.target) >= 0;
    assert.ok(forward || reference.find(pair.target, pair.source) >= 0, `${JSON.stringify(pair)}: an edge or an edge's reverse`);
    if (!forward) reversed += 1;
  }
  assert.ok(reversed > 250 && reversed < 550, `about a fifth reversed, most of them not edges (${reversed})`);
  for (const name of ['upsertEdge', 'upsertEdges']) {
    const written = params[name].edges;
    const fresh = written.map((e) => reference.find(e.source, e.target) < 0);
    assert.ok(written.filter((e, i) => fresh[i]).every((e) => Number.isInteger(e.weight) && e.weight >= 1 && e.weight <= 1000), `${name}: new pairs weigh 1 to 1,000`);
    const half = written.length / 2;
    const freshFirst = fresh.slice(0, half).filter(Boolean).length;
    assert.ok(freshFirst > half * 0.35 && freshFirst < half * 0.65, `${name}: new and existing pairs interleave (${freshFirst} new of the first ${half})`);
  }
});

test('parameters: the draws of a seed on a small edge list, exactly (the new pairs run out, the upserts shuffled)', () => {
  const reference = new EdgeReference(edgeList([[1, 2, 5], [2, 3, 6], [3, 1, 7], [1, 3, 8]]));
  const params = drawGraphParams(reference, { reads: 4, writes: 6, batches: 1 }, 1);
  assert.deepEqual([...params.vertices], [3, 3, 3, 1]);
  assert.deepEqual(params.pairs, [{ source: 3, target: 1 }, { source: 1, target: 2 }, { source: 3, target: 1 }, { source: 3, target: 2 }]);
  assert.deepEqual(params.upsertEdge, {
    edges: [
      { source: 3, target: 1, weight: 752 }, { source: 1, target: 3, weight: 690 }, { source: 1, target: 2, weight: 842 },
      { source: 3, target: 2, weight: 36 }, { source: 2, target: 3, weight: 962 }, { source: 2, target: 1, weight: 342 },
    ],
    existing: 4,
    new: 2,
  });
  // The draws after the shuffle: the batched upserts' new pairs and their weights.
  const batched = [{ source: 2, target: 1, weight: 887 }, { source: 3, target: 2, weight: 40 }];
  assert.deepEqual(params.upsertEdges, { edges: batched, existing: 0, new: 2, batches: [batched] });
});

test('the reference indexes dense ids directly and sparse ones through their sorted table', () => {
  const dense = new EdgeReference(edgeList([[4, 9, 1], [9, 2, 1]]));
  assert.deepEqual([dense.maxId, dense.ids], [9, null]);
  const sparse = new EdgeReference(edgeList([[4, 2 ** 30, 1], [2 ** 30, 2, 1]]));
  assert.deepEqual([sparse.maxId, [...sparse.ids]], [2 ** 30, [2, 4, 2 ** 30]]);
});

test('the graph suite\'s operations in their order, the methods an adapter\'s graph offers, the batch and the edge\'s size', () => {
  assert.deepEqual(READ_OPERATIONS, ['findEdge', 'edgesOf', 'inEdges', 'friends', 'countFriends', 'countFollowers']);
  assert.deepEqual(WRITE_OPERATIONS, ['upsertEdge', 'upsertEdges', 'removeEdge', 'removeEdges']);
  assert.deepEqual(GRAPH_OPERATIONS, [...READ_OPERATIONS, ...WRITE_OPERATIONS]);
  assert.deepEqual(GRAPH_METHODS, ['create', 'importEdges', 'index', 'count', 'drop', 'scan', ...GRAPH_OPERATIONS]);
  assert.ok([READ_OPERATIONS, WRITE_OPERATIONS, GRAPH_OPERATIONS, GRAPH_METHODS].every(Object.isFrozen));
  assert.deepEqual([BATCH_SIZE, EDGE_BYTES], [500, 12]);
  assert.deepEqual(WORKLOADS.map((w) => w.operation), GRAPH_OPERATIONS);
});
