// What the graph suite's workloads operate on, drawn from the edge list with the seed: the vertices of the
// reads (most uniform among the vertices that touch an edge, a tenth among the highest-degree ones, as the
// publication's skewed datasets had), the pairs of findEdge (mostly existing edges, some reversed, which may
// or may not exist), and the inputs of the writes (upserts half of existing pairs with a new weight, half of
// new pairs; removals of existing edges). The sizes follow --scale.
import { usageError } from '../../core/errors.js';
import { createRandom } from '../../datasets/random.js';
import { BATCH_SIZE } from './operations.js';

export const GRAPH_SIZES = Object.freeze({
  tiny: Object.freeze({ reads: 1_000, writes: 500, batches: 4 }),
  small: Object.freeze({ reads: 5_000, writes: 1_000, batches: 10 }),
  medium: Object.freeze({ reads: 10_000, writes: 2_000, batches: 20 }),
  full: Object.freeze({ reads: 10_000, writes: 5_000, batches: 20 }),
});

export const HOT_VERTICES = 100;
export const HOT_SHARE = 0.1;
export const REVERSED_SHARE = 0.2;
export const NEW_SHARE = 0.5;
// A stream of the seed's generator of its own, so that the dataset's other draws stay as they were.
const STREAM = 7;
// The weight an upsert gives an existing edge: always another than it had.
export const newWeight = (weight, draw) => (weight + 1 + draw) % 2_000_000_000;

export function graphSizes(scale) {
  if (!Object.hasOwn(GRAPH_SIZES, scale)) throw usageError(`unknown scale "${scale}"; valid scales: ${Object.keys(GRAPH_SIZES).join(', ')}`);
  return GRAPH_SIZES[scale];
}

// The HOT_VERTICES vertices of highest degree (ties by id), ascending by id.
function hottest(reference, vertices) {
  const top = [];
  for (const id of vertices) {
    const degree = reference.degree(id);
    if (top.length < HOT_VERTICES || degree > top[top.length - 1].degree) {
      top.push({ id, degree });
      top.sort((a, b) => b.degree - a.degree || a.id - b.id);
      if (top.length > HOT_VERTICES) top.pop();
    }
  }
  return top.map(({ id }) => id).sort((a, b) => a - b);
}

// `count` distinct existing edges (indexes into the reference's out-order), or all of them when fewer exist.
function distinctEdges(random, reference, count, taken) {
  const picked = [];
  const wanted = Math.min(count, reference.length - taken.size);
  while (picked.length < wanted) {
    const i = random.int(reference.length);
    if (taken.has(i)) continue;
    taken.add(i);
    picked.push(i);
  }
  return picked;
}

// `count` distinct pairs of vertices that share no edge in that direction (and are not the same vertex).
function newPairs(random, reference, vertices, count) {
  const pairs = [];
  const seen = new Set();
  let tries = 0;
  while (pairs.length < count && tries < count * 100) {
    tries += 1;
    const source = vertices[random.int(vertices.length)];
    const target = vertices[random.int(vertices.length)];
    const key = `${source} ${target}`;
    if (source === target || seen.has(key) || reference.find(source, target) >= 0) continue;
    seen.add(key);
    pairs.push({ source, target });
  }
  return pairs;
}

// Inputs of one upsert workload: `count` edges, NEW_SHARE of them new pairs (with a derived weight), the rest
// existing pairs with another weight. Distinct pairs throughout.
function upserts(random, reference, vertices, count, taken) {
  const fresh = newPairs(random, reference, vertices, Math.round(count * NEW_SHARE))
    .map((pair) => ({ ...pair, weight: 1 + random.int(1000) }));
  const existing = distinctEdges(random, reference, count - fresh.length, taken)
    .map((i) => ({ source: reference.source[i], target: reference.target[i], weight: newWeight(reference.weight[i], random.int(1000)) }));
  const edges = [...existing, ...fresh];
  // Shuffled, so that the new and existing pairs interleave.
  for (let i = edges.length - 1; i > 0; i -= 1) {
    const j = random.int(i + 1);
    [edges[i], edges[j]] = [edges[j], edges[i]];
  }
  return { edges, existing: existing.length, new: fresh.length };
}

const chunks = (items, size) => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

export function drawGraphParams(reference, { reads, writes, batches }, seed) {
  const random = createRandom(seed, STREAM);
  const vertices = reference.vertices();
  if (vertices.length < 2) throw usageError('the edge list holds fewer than two vertices: nothing to measure');
  const hot = hottest(reference, vertices);
  const vertex = () => (random.chance(HOT_SHARE) ? hot[random.int(hot.length)] : vertices[random.int(vertices.length)]);
  const readVertices = Array.from({ length: reads }, vertex);
  const pairs = Array.from({ length: reads }, () => {
    const i = random.int(reference.length);
    const [source, target] = [reference.source[i], reference.target[i]];
    return random.chance(REVERSED_SHARE) ? { source: target, target: source } : { source, target };
  });
  const taken = new Set();
  const single = upserts(random, reference, vertices, writes, taken);
  const batched = upserts(random, reference, vertices, batches * BATCH_SIZE, taken);
  // Removals are drawn apart from the upserts' existing edges; every write workload restores what it changed,
  // so this only keeps the inputs of the four workloads independent.
  const removals = (count) => distinctEdges(random, reference, count, taken)
    .map((i) => ({ source: reference.source[i], target: reference.target[i] }));
  const removeOne = removals(writes);
  const removeBatched = removals(batches * BATCH_SIZE);
  return {
    hot,
    vertices: readVertices,
    pairs,
    upsertEdge: single,
    upsertEdges: { ...batched, batches: chunks(batched.edges, BATCH_SIZE) },
    removeEdge: { edges: removeOne },
    removeEdges: { edges: removeBatched, batches: chunks(removeBatched, BATCH_SIZE) },
  };
}
