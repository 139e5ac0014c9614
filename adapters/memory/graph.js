// The graph suite over plain maps: an edge collection is a Map from "source target" to the weight, with a Set
// of neighbours per vertex in each direction standing for the indexes on both ends. Each operation is the plain
// loop a database would run. What the adapter lends, `store`:
//   collections()   the namespace's Map of edge collections (name -> collection)
// Edges per batch of scan().
const SCAN_BATCH = 10_000;
const pairKey = (source, target) => `${source} ${target}`;

function createCollection() {
  return { weights: new Map(), out: new Map(), in: new Map() };
}

function link(map, from, to) {
  let set = map.get(from);
  if (!set) {
    set = new Set();
    map.set(from, set);
  }
  set.add(to);
}

function unlink(map, from, to) {
  const set = map.get(from);
  set?.delete(to);
  if (set?.size === 0) map.delete(from);
}

function put(collection, { source, target, weight }) {
  collection.weights.set(pairKey(source, target), weight);
  link(collection.out, source, target);
  link(collection.in, target, source);
}

function remove(collection, { source, target }) {
  if (!collection.weights.delete(pairKey(source, target))) return;
  unlink(collection.out, source, target);
  unlink(collection.in, target, source);
}

const edge = (collection, source, target) => ({ source, target, weight: collection.weights.get(pairKey(source, target)) });

function outEdges(collection, vertex) {
  return [...(collection.out.get(vertex) ?? [])].map((target) => edge(collection, vertex, target));
}

function inEdges(collection, vertex) {
  return [...(collection.in.get(vertex) ?? [])].map((source) => edge(collection, source, vertex));
}

function tally(edges) {
  return { count: edges.length, weight: edges.reduce((sum, { weight }) => sum + weight, 0) };
}

export function graphOperations(store) {
  const collection = (name) => {
    const found = store.collections().get(name);
    if (!found) throw new Error(`memory adapter: no edge collection "${name}"`);
    return found;
  };
  return {
    async create(name) {
      store.collections().set(name, createCollection());
    },
    async importEdges(name, { length, source, target, weight }) {
      const into = collection(name);
      for (let i = 0; i < length; i += 1) put(into, { source: source[i], target: target[i], weight: weight[i] });
    },
    async index() {},
    async count(name) {
      return store.collections().get(name)?.weights.size ?? 0;
    },
    async drop(name) {
      store.collections().delete(name);
    },
    // The edges in batches of SCAN_BATCH, in the map's order.
    async scan(name, visit) {
      const found = store.collections().get(name);
      if (!found) return;
      let batch = [];
      for (const [key, weight] of found.weights) {
        const [source, target] = key.split(' ').map(Number);
        batch.push({ source, target, weight });
        if (batch.length === SCAN_BATCH) {
          await visit(batch);
          batch = [];
        }
      }
      if (batch.length > 0) await visit(batch);
    },
    async findEdge(name, source, target) {
      const found = collection(name);
      return found.weights.has(pairKey(source, target)) ? edge(found, source, target) : null;
    },
    async edgesOf(name, vertex) {
      const found = collection(name);
      return [...outEdges(found, vertex), ...inEdges(found, vertex)];
    },
    async inEdges(name, vertex) {
      return inEdges(collection(name), vertex);
    },
    async friends(name, vertex) {
      const found = collection(name);
      return [...new Set([...(found.out.get(vertex) ?? []), ...(found.in.get(vertex) ?? [])])];
    },
    async countFriends(name, vertex) {
      const found = collection(name);
      return tally([...outEdges(found, vertex), ...inEdges(found, vertex)]);
    },
    async countFollowers(name, vertex) {
      return tally(inEdges(collection(name), vertex));
    },
    async upsertEdge(name, edgeToWrite) {
      put(collection(name), edgeToWrite);
    },
    async upsertEdges(name, edges) {
      const into = collection(name);
      for (const one of edges) put(into, one);
    },
    async removeEdge(name, pair) {
      remove(collection(name), pair);
    },
    async removeEdges(name, pairs) {
      const from = collection(name);
      for (const pair of pairs) remove(from, pair);
    },
  };
}
