// A validation context made by hand (what workloads/social/expected.js loads from a dataset), over a graph small enough
// to check on paper, and the memory store holding the same data, whose answers are right by construction.
import { profileKey } from '../../datasets/columns.js';
import { buildGraph } from '../../datasets/graph.js';
import { ageHistogram, neighbors, neighbors2, shortestPathLength } from '../../datasets/reference.js';
import { MAX_PATH_DEPTH } from '../../datasets/scales.js';
import { MemoryAdapter } from '../../adapters/memory/store.js';

const PROFILES = [
  { _key: 'P1', public: 1, completion_percentage: 50, gender: 1, AGE: 25, region: 'zilinsky kraj' },
  { _key: 'P2', public: 0, gender: 0, AGE: 30, hobbies: 'čítanie kníh' },
  { _key: 'P3', public: 1, AGE: 0, region: 'bratislavsky kraj' },
  { _key: 'P4', public: 1, AGE: 25, pets: 'pes' },
  { _key: 'P5', public: 0, I_like_books: '5' },
  { _key: 'P6', public: 1, AGE: 30, gender: 1 },
  { _key: 'P7', public: 1, AGE: 19 },
];

// 1 -> 2 -> 3 -> 4 and the shorter 1 -> 5 -> 4; 4 -> 6 -> 1 closes a cycle; nobody points to 7.
const EDGES = [[1, 2], [2, 3], [3, 4], [1, 5], [5, 4], [4, 6], [6, 1], [7, 1]];

// The hop counts of PATH_PAIRS, by hand: 1->5->4, 1->2->3, 4->6->1, 1->5->4->6, and none to 7.
export const PATH_PAIRS = [[1, 4], [1, 3], [4, 1], [1, 6], [1, 7]];
export const PATH_LENGTHS = [2, 2, 2, 3, -1];

export function makeContext() {
  const graph = buildGraph(PROFILES.length, EDGES.map(([a]) => a), EDGES.map(([, b]) => b));
  const params = {
    readIds: [1, 3, 5],
    warmupIds: [2, 7],
    writeIds: [3, 1, 5],
    neighborStarts: [1, 2, 4],
    neighbors2dataStarts: [1, 2],
    pathPairs: PATH_PAIRS,
    hardPair: [1, 7],
  };
  const reference = {
    neighbors: params.neighborStarts.map((id) => neighbors(graph, id)),
    neighbors2: params.neighborStarts.map((id) => neighbors2(graph, id)),
    pathLengths: PATH_PAIRS.map(([s, t]) => shortestPathLength(graph, s, t, MAX_PATH_DEPTH)),
    ageHistogram: ageHistogram(PROFILES),
  };
  const dataset = { params, reference, sizes: { writes: 3, writesSync: 2 } };
  const profiles = new Map(PROFILES.map((doc, i) => [i + 1, doc]));
  return { dataset, profiles, graph };
}

let stores = 0;

export async function makeStore() {
  const adapter = new MemoryAdapter({ database: `workload-checks-${(stores += 1)}`, namespace: 'fixture' });
  await adapter.connect();
  await adapter.resetNamespace();
  await adapter.importProfiles(PROFILES);
  await adapter.importRelations(EDGES.map(([a, b]) => ({ _from: profileKey(a), _to: profileKey(b) })));
  return adapter;
}

// JSON.parse makes an own field of any name, "__proto__" included, as a driver decoding JSON does; an object
// literal or an assignment would not.
export function withField(doc, field, value) {
  return JSON.parse(`${JSON.stringify(doc).slice(0, -1)},${JSON.stringify(field)}:${JSON.stringify(value)}}`);
}

export function withoutField(doc, field) {
  const copy = { ...doc };
  delete copy[field];
  return copy;
}
