// The query parameters of every workload, drawn from the graph with their own random stream: the same graph
// and seed always give the same ids.
import { BenchError, ErrorCodes } from '../core/errors.js';
import { inDegree, outDegree } from './graph.js';
import { createRandom } from './random.js';
import { reachableCount, shortestPathLength } from './reference.js';
import { MAX_PATH_DEPTH } from './scales.js';

const PARAMS_STREAM = 3;
// A random pair has no path when its start lists nobody or its target is listed by nobody; a few percent of
// pairs on the generated graphs. Give up long before an endless search.
const PATH_ATTEMPTS_PER_PAIR = 100;
// The hard path starts at the best-connected of a few high-out-degree candidates, so that its search has to
// exhaust a large reachable set before it can answer "no path".
const HARD_START_SAMPLES = 32;
const HARD_START_CANDIDATES = 4;

// `count` ids not marked in `taken`, marking them; the caller makes sure that enough are free. `present`, when
// given, marks the ids that hold a profile: the others are never drawn.
function distinctIds(rng, n, count, taken, present) {
  const ids = [];
  while (ids.length < count) {
    const id = 1 + rng.int(n);
    if (!taken[id] && (present === null || present[id])) {
      taken[id] = 1;
      ids.push(id);
    }
  }
  return ids;
}

function pathPairs(g, rng, count) {
  const pairs = [];
  for (let attempt = 0; pairs.length < count; attempt += 1) {
    if (attempt >= count * PATH_ATTEMPTS_PER_PAIR) {
      throw new BenchError(ErrorCodes.DATASET,
        `found only ${pairs.length} of ${count} connected pairs in ${attempt} random pairs`);
    }
    const s = 1 + rng.int(g.n);
    const t = 1 + rng.int(g.n);
    if (s !== t && shortestPathLength(g, s, t, MAX_PATH_DEPTH) > 0) pairs.push([s, t]);
  }
  return pairs;
}

function hardPair(g, rng, present) {
  const samples = Array.from({ length: HARD_START_SAMPLES }, () => 1 + rng.int(g.n));
  const candidates = samples.sort((a, b) => outDegree(g, b) - outDegree(g, a) || a - b).slice(0, HARD_START_CANDIDATES);
  let start = candidates[0];
  let bestReach = -1;
  for (const candidate of candidates) {
    const reach = reachableCount(g, candidate);
    if (reach > bestReach) {
      start = candidate;
      bestReach = reach;
    }
  }
  const unlisted = [];
  for (let id = 1; id <= g.n; id += 1) {
    if (id !== start && inDegree(g, id) === 0 && (present === null || present[id])) unlisted.push(id);
  }
  if (unlisted.length === 0) {
    throw new BenchError(ErrorCodes.DATASET, 'no profile has in-degree 0: the hard path has no unreachable target');
  }
  const target = rng.pick(unlisted);
  if (shortestPathLength(g, start, target, g.n) !== -1) {
    throw new BenchError(ErrorCodes.DATASET, `internal: P${target} has in-degree 0 but is reachable from P${start}`);
  }
  return [start, target];
}

function checkSizes(n, sizes) {
  const needed = Math.max(sizes.reads + sizes.warmups, sizes.writes, sizes.writesSync);
  if (needed > n) {
    throw new BenchError(ErrorCodes.DATASET, `the parameters need ${needed} distinct profiles; there are ${n}`);
  }
}

// `present` marks the ids in 1..g.n that hold a profile, when some do not (the real Pokec files may lack some).
export function deriveParams(g, sizes, seed, present = null) {
  checkSizes(present === null ? g.n : present.reduce((sum, flag) => sum + flag, 0), sizes);
  const rng = createRandom(seed, PARAMS_STREAM);
  const read = new Uint8Array(g.n + 1);
  const readIds = distinctIds(rng, g.n, sizes.reads, read, present);
  const warmupIds = distinctIds(rng, g.n, sizes.warmups, read, present);
  const writeIds = distinctIds(rng, g.n, Math.max(sizes.writes, sizes.writesSync), new Uint8Array(g.n + 1), present);
  return {
    readIds,
    warmupIds,
    writeIds,
    neighborStarts: readIds.slice(0, sizes.neighborStarts),
    neighbors2dataStarts: readIds.slice(0, sizes.neighbors2dataStarts),
    pathPairs: pathPairs(g, rng, sizes.pathPairs),
    hardPair: hardPair(g, rng, present),
  };
}
