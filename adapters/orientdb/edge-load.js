// The graph suite's bulk load bookkeeping: each vertex's RID, and the edges whose RIDs still have to enter
// their ends' link bags.
//
// A regular edge is a record of its own, and its RID belongs in two link bags: its source's out bag and its
// target's in bag. Every change to a bag rewrites its vertex, so the edges are created as records first (their
// `out` and `in` links set), and each vertex gets all its edges in one UPDATE after the last batch. An edge
// costs 16 bytes here until then (its ends as vertex numbers, its RID as one number).
const INITIAL_CAPACITY = 1 << 16;
// A RID as one number, cluster then position: a position is below 2^37 in any cluster of this adapter's.
const CLUSTER_FACTOR = 2 ** 37;

const ridKey = ({ cluster, position }) => cluster * CLUSTER_FACTOR + position;
const fromKey = (key) => ({ cluster: Math.floor(key / CLUSTER_FACTOR), position: key % CLUSTER_FACTOR });

function grown(array, capacity) {
  const larger = new array.constructor(capacity);
  larger.set(array);
  return larger;
}

export class EdgeLoad {
  // Vertex number by vertex id and by RID; each vertex's RID as one number.
  #byId = new Map();
  #byRid = new Map();
  #rids = new Float64Array(INITIAL_CAPACITY);
  // The edges: their ends as vertex numbers, their RIDs.
  #from = new Int32Array(INITIAL_CAPACITY);
  #to = new Int32Array(INITIAL_CAPACITY);
  #edges = new Float64Array(INITIAL_CAPACITY);
  #count = 0;

  // The ids of the batch that name no vertex yet, each once.
  newVertices({ length, source, target }) {
    const fresh = new Set();
    for (let i = 0; i < length; i += 1) {
      if (!this.#byId.has(source[i])) fresh.add(source[i]);
      if (!this.#byId.has(target[i])) fresh.add(target[i]);
    }
    return [...fresh];
  }

  addVertex(id, rid) {
    const vertex = this.#byId.size;
    if (vertex === this.#rids.length) this.#rids = grown(this.#rids, vertex * 2);
    const key = ridKey(rid);
    this.#byId.set(id, vertex);
    this.#byRid.set(key, vertex);
    this.#rids[vertex] = key;
  }

  rid(id) {
    const vertex = this.#byId.get(id);
    if (vertex === undefined) throw new Error(`the load holds no record of vertex ${id}`);
    return fromKey(this.#rids[vertex]);
  }

  addEdge(out, inn, rid) {
    if (this.#count === this.#from.length) {
      const capacity = this.#count * 2;
      this.#from = grown(this.#from, capacity);
      this.#to = grown(this.#to, capacity);
      this.#edges = grown(this.#edges, capacity);
    }
    this.#from[this.#count] = this.#byRid.get(ridKey(out));
    this.#to[this.#count] = this.#byRid.get(ridKey(inn));
    this.#edges[this.#count] = ridKey(rid);
    this.#count += 1;
  }

  // Every vertex with edges, once, as { rid, out, in }: the RIDs of its outgoing and incoming edges, sorted (an
  // append for a large bag's B-tree). Built as they are iterated.
  *takeBags() {
    const vertices = this.#byId.size;
    const outgoing = adjacency(vertices, this.#from, this.#edges, this.#count);
    const incoming = adjacency(vertices, this.#to, this.#edges, this.#count);
    for (let vertex = 0; vertex < vertices; vertex += 1) {
      const out = outgoing(vertex);
      const inn = incoming(vertex);
      if (out.length > 0 || inn.length > 0) {
        yield { rid: fromKey(this.#rids[vertex]), out: toRids(out), in: toRids(inn) };
      }
    }
  }
}

const toRids = (keys) => Array.from(keys.sort(), fromKey);

// The edge RIDs of each of `count` vertices, from the first `length` edges (one counting sort by `ends`).
function adjacency(count, ends, edges, length) {
  const offsets = new Int32Array(count + 1);
  for (let i = 0; i < length; i += 1) offsets[ends[i] + 1] += 1;
  for (let v = 0; v < count; v += 1) offsets[v + 1] += offsets[v];
  const next = offsets.slice(0, count);
  const lists = new Float64Array(length);
  for (let i = 0; i < length; i += 1) {
    lists[next[ends[i]]] = edges[i];
    next[ends[i]] += 1;
  }
  return (vertex) => lists.slice(offsets[vertex], offsets[vertex + 1]);
}
