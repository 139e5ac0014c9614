// The graph suite's workloads as data: six reads over vertices and pairs drawn from the edge list, each answer
// checked against the reference, then four writes (one edge or a batch of 500 per request, upserted or
// removed), each checked afterwards by reading back every edge it wrote or removed, counting the collection and
// checking the whole of it against the edge list with the writes applied (verify.js), then undone (`restore`,
// and any edge found changed elsewhere put back), so that the next workload and the next run start from the same
// edges.
import { mapLimit } from 'async';
import { abbreviate } from '../compare.js';
import { countProblem, edgeListProblem, edgeProblem, idListProblem } from './check.js';
import { BATCH_SIZE, UNDO_BATCH_SIZE } from './operations.js';
import { describeDifferences, repairStore, verifyStore, writtenState } from './verify.js';

// The untimed read-backs of a write workload run this many at a time.
const CHECK_CONCURRENCY = 16;

const chunks = (items, size) => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
const pairText = ({ source, target }) => `${source}->${target}`;

function read(operation, problemOf, inputsOf, edgesIn) {
  return {
    name: operation,
    operation,
    compared: true,
    inputs: inputsOf,
    check(ctx, inputs, answers) {
      const failures = [];
      answers.forEach((got, i) => {
        const problem = problemOf(ctx.reference, inputs[i], got);
        if (problem) failures.push({ input: inputs[i], problem });
      });
      return failures;
    },
    // The edges (or ids) the answers held: the logical bytes the amplification is measured against.
    tally: (inputs, answers) => ({ edges: answers.reduce((sum, answer) => sum + edgesIn(answer), 0) }),
  };
}

const vertexRead = (operation, check, edgesIn) => ({
  ...read(operation, (reference, vertex, got) => check(reference[operation](vertex), got), (ctx) => ctx.params.vertices, edgesIn),
  call: (adapter, vertex, { collection }) => adapter.graph[operation](collection, vertex),
});

const listLength = (answer) => (Array.isArray(answer) ? answer.length : 0);
const counted = (answer) => (Number.isInteger(answer?.count) ? answer.count : 0);

// What a write workload changed, as the original edges to put back and the new pairs to take out.
function changes(ctx, written) {
  const originals = [];
  const fresh = [];
  for (const { source, target } of written) {
    const original = ctx.reference.findEdge(source, target);
    if (original) originals.push(original);
    else fresh.push({ source, target });
  }
  return { originals, fresh };
}

// Puts the edges the writes of `written` changed back as the edge list has them, off the clock, one request at a
// time of at most UNDO_BATCH_SIZE edges.
export async function restore(adapter, collection, ctx, written) {
  const { originals, fresh } = changes(ctx, written);
  for (const batch of chunks(originals, UNDO_BATCH_SIZE)) await adapter.graph.upsertEdges(collection, batch);
  for (const batch of chunks(fresh, UNDO_BATCH_SIZE)) await adapter.graph.removeEdges(collection, batch);
}

// Per adapter instance (a round's): what the last write check found wrong, for its undo to put back.
const found = new WeakMap();

// Every edge a write workload touched, read back: upserted ones as written, removed ones gone; the count; then the
// whole collection, which must hold the edge list with exactly these writes applied, each edge once.
async function writeCheck(adapter, collection, ctx, { upserted = [], removed = [] }) {
  const failures = [];
  const expectedCount = ctx.edges + changes(ctx, upserted).fresh.length - removed.length;
  const got = await mapLimit([...upserted, ...removed], CHECK_CONCURRENCY,
    async ({ source, target }) => adapter.graph.findEdge(collection, source, target));
  upserted.forEach((edge, i) => {
    const problem = edgeProblem(edge, got[i]);
    if (problem) failures.push({ input: pairText(edge), problem: `after the upsert, findEdge: ${problem}` });
  });
  removed.forEach((pair, i) => {
    const answer = got[upserted.length + i];
    if (answer !== null) failures.push({ input: pairText(pair), problem: `after the removal, findEdge returned ${abbreviate(answer)}` });
  });
  const count = await adapter.graph.count(collection);
  if (count !== expectedCount) failures.push({ input: `${upserted.length + removed.length} writes`, problem: `the collection holds ${abbreviate(count)} edges, expected ${expectedCount}` });
  const written = writtenState({ upserted, removed });
  const whole = await verifyStore(adapter, collection, ctx.reference, { written });
  found.set(adapter, whole.differences);
  const named = new Set(failures.map(({ input }) => input));
  for (const { source, target, problem } of whole.differences) {
    const input = pairText({ source, target });
    if (named.has(input)) continue;
    const unasked = written.has(`${source} ${target}`) ? '' : ' (an edge the workload was not asked to write)';
    failures.push({ input, problem: `the whole collection, checked after the writes: ${problem}${unasked}` });
  }
  if (whole.count > whole.differences.length) {
    failures.push({ input: 'the whole collection', problem: `${whole.count} edges differ from the edge list with the writes applied, the first ${whole.differences.length} named` });
  }
  return failures;
}

// Puts back what a write workload changed and, when its check found the collection changed elsewhere, those
// edges too; then the collection must be the edge list again, or the run stops naming what is still wrong.
async function undo(adapter, collection, ctx, written) {
  await restore(adapter, collection, ctx, written);
  const differences = found.get(adapter) ?? [];
  found.delete(adapter);
  if (differences.length === 0) return;
  await repairStore(adapter, collection, ctx.reference, differences);
  const after = await verifyStore(adapter, collection, ctx.reference);
  if (after.count > 0) {
    throw new Error(`after the writes the whole collection differed from the edge list (${describeDifferences({ differences, count: differences.length })}), `
      + `and it could not be put back: ${describeDifferences(after)}; load it again with --reimport`);
  }
}

// A round's start, before its reads: the collection must hold the edge list, each pair an earlier run wrote either
// as the edge list has it or as written (a run interrupted before its undo), which is then put back and checked.
export async function prepareRound(adapter, collection, ctx) {
  const { upsertEdge, upsertEdges, removeEdge, removeEdges } = ctx.params;
  const before = await verifyStore(adapter, collection, ctx.reference, {
    written: writtenState({ upserted: [...upsertEdge.edges, ...upsertEdges.edges], removed: [...removeEdge.edges, ...removeEdges.edges] }),
    tolerant: true,
  });
  if (before.count > 0) throw new Error(`the edge collection differs from the edge list before the reads: ${describeDifferences(before)}`);
  if (before.pending === 0) return;
  await restore(adapter, collection, ctx, writtenEdges(ctx));
  const after = await verifyStore(adapter, collection, ctx.reference);
  if (after.count > 0) throw new Error(`the edge collection differs from the edge list after the earlier writes were undone: ${describeDifferences(after)}`);
}

export const IO_SETTLE_MS = 1000;

function write(operation, { batched, inputsOf, edgesOf, removes }) {
  return {
    name: operation,
    operation,
    compared: true,
    // Each write is committed under the run's durability term.
    durability: 'run',
    // A server's I/O is read again a second after the run: under the relaxed term PostgreSQL's WAL writer and
    // InnoDB write a short run's log after it ended (a batched removal once showed 0 B written).
    ioSettleMs: IO_SETTLE_MS,
    inputs: inputsOf,
    call: (adapter, input, { collection, durable }) => adapter.graph[operation](collection, input, { durable }),
    check: (ctx, inputs, answers, adapter, { collection }) => {
      const edges = edgesOf(ctx);
      return writeCheck(adapter, collection, ctx, removes ? { removed: edges } : { upserted: edges });
    },
    // The size on disk with the writes applied, before they are undone.
    figures: async (adapter, { collection }) => ({ diskBytes: (await adapter.graph.diskUsage?.(collection)) ?? null }),
    teardown: (adapter, { collection }, ctx) => undo(adapter, collection, ctx, edgesOf(ctx)),
    tally: (inputs) => ({ edges: batched ? inputs.reduce((sum, batch) => sum + batch.length, 0) : inputs.length }),
  };
}

export const WORKLOADS = [
  {
    ...read('findEdge', (reference, { source, target }, got) => edgeProblem(reference.findEdge(source, target), got),
      (ctx) => ctx.params.pairs, (answer) => (answer ? 1 : 0)),
    call: (adapter, { source, target }, { collection }) => adapter.graph.findEdge(collection, source, target),
  },
  vertexRead('edgesOf', edgeListProblem, listLength),
  vertexRead('inEdges', edgeListProblem, listLength),
  vertexRead('friends', idListProblem, listLength),
  vertexRead('countFriends', countProblem, counted),
  vertexRead('countFollowers', countProblem, counted),
  write('upsertEdge', { inputsOf: (ctx) => ctx.params.upsertEdge.edges, edgesOf: (ctx) => ctx.params.upsertEdge.edges }),
  write('upsertEdges', { batched: true, inputsOf: (ctx) => ctx.params.upsertEdges.batches, edgesOf: (ctx) => ctx.params.upsertEdges.edges }),
  write('removeEdge', { removes: true, inputsOf: (ctx) => ctx.params.removeEdge.edges, edgesOf: (ctx) => ctx.params.removeEdge.edges }),
  write('removeEdges', { batched: true, removes: true, inputsOf: (ctx) => ctx.params.removeEdges.batches, edgesOf: (ctx) => ctx.params.removeEdges.edges }),
];

// Every edge any write workload touches: what a round's setup puts back before the reads.
export function writtenEdges(ctx) {
  const { upsertEdge, upsertEdges, removeEdge, removeEdges } = ctx.params;
  return [...upsertEdge.edges, ...upsertEdges.edges, ...removeEdge.edges, ...removeEdges.edges];
}

export const WORKLOAD_DESCRIPTIONS = {
  findEdge: 'the edge from source to target with its weight, or null (mostly existing edges, a fifth reversed)',
  edgesOf: 'every edge touching the vertex, both directions',
  inEdges: 'every edge into the vertex',
  friends: 'the distinct ids sharing an edge with the vertex, either direction',
  countFriends: 'the number of edges touching the vertex and the sum of their weights',
  countFollowers: 'the number of edges into the vertex and the sum of their weights',
  upsertEdge: 'insert an edge or set the weight of an existing one, one request each (half new pairs, half existing)',
  upsertEdges: `the same, ${BATCH_SIZE} edges per request in one transaction`,
  removeEdge: 'remove an existing edge, one request each',
  removeEdges: `remove ${BATCH_SIZE} existing edges per request in one transaction`,
};
for (const workload of WORKLOADS) workload.description = WORKLOAD_DESCRIPTIONS[workload.name];
