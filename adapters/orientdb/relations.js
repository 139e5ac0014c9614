// The bulk import's bookkeeping: each imported profile's RID, and the relations waiting to be written.
//
// A lightweight edge lives in two link bags, the source's out_Knows and the target's in_Knows, and every change
// to a bag rewrites its vertex, a whole profile document. CREATE EDGE per relation rewrites two vertices per
// relation; writing a batch of relations at once still rewrites most of its vertices for every batch. So the
// relations are collected, as pairs of vertex numbers in typed arrays, and written vertex by vertex: each
// touched vertex gets every new entry of both its bags in one UPDATE.

// Vertex numbers of relations held before they are written (8 bytes each, about 0.5 GB with the adjacency lists
// at this bound). Every round rewrites each vertex it touches, and nearly every vertex has relations in every
// part of the file, so the bound is above the 30.6 M relations of the whole Pokec network: every dataset the
// harness knows is written in one round. (Four rounds of 8 M made `full` rewrite every vertex four times; it
// had not finished after 31 minutes.)
export const MAX_PENDING_RELATIONS = 32_000_000;
const INITIAL_CAPACITY = 1 << 16;
// RIDs sort by cluster, then position; a position is below 2^37 in any cluster this adapter creates.
const CLUSTER_FACTOR = 2 ** 37;

function grown(array, capacity) {
  const larger = new array.constructor(capacity);
  larger.set(array);
  return larger;
}

export class ImportState {
  // Vertex number by profile key; the vertex's RID as two numbers.
  #vertexByKey = new Map();
  #clusters = new Int32Array(INITIAL_CAPACITY);
  #positions = new Float64Array(INITIAL_CAPACITY);
  #from = new Int32Array(INITIAL_CAPACITY);
  #to = new Int32Array(INITIAL_CAPACITY);
  #pending = 0;

  get vertices() {
    return this.#vertexByKey.size;
  }

  get pending() {
    return this.#pending;
  }

  addVertex(key, rid) {
    let vertex = this.#vertexByKey.get(key);
    if (vertex === undefined) {
      vertex = this.#vertexByKey.size;
      this.#vertexByKey.set(key, vertex);
    }
    if (vertex >= this.#clusters.length) {
      this.#clusters = grown(this.#clusters, this.#clusters.length * 2);
      this.#positions = grown(this.#positions, this.#positions.length * 2);
    }
    this.#clusters[vertex] = rid.cluster;
    this.#positions[vertex] = rid.position;
  }

  hasKey(key) {
    return this.#vertexByKey.has(key);
  }

  rid(vertex) {
    return { cluster: this.#clusters[vertex], position: this.#positions[vertex] };
  }

  // Call hasKey() first: an unknown key is the caller's error to report.
  addRelation(fromKey, toKey) {
    if (this.#pending === this.#from.length) {
      this.#from = grown(this.#from, this.#from.length * 2);
      this.#to = grown(this.#to, this.#to.length * 2);
    }
    this.#from[this.#pending] = this.#vertexByKey.get(fromKey);
    this.#to[this.#pending] = this.#vertexByKey.get(toKey);
    this.#pending += 1;
  }

  // Every vertex with pending relations, once, as { vertex, out, in }: the vertex numbers to add to its out_Knows
  // and in_Knows bags, duplicates kept (a relation listed twice is two edges) and sorted by RID, which makes
  // inserting them into a large bag's B-tree an append. Empties the pending relations at once; the updates are
  // built as they are iterated.
  takeVertexUpdates() {
    const count = this.vertices;
    const outgoing = adjacency(count, this.#from, this.#to, this.#pending);
    const incoming = adjacency(count, this.#to, this.#from, this.#pending);
    this.#pending = 0;
    return this.#updates(count, outgoing, incoming);
  }

  *#updates(count, outgoing, incoming) {
    const order = (a, b) => this.#ridOrder(a) - this.#ridOrder(b);
    for (let vertex = 0; vertex < count; vertex += 1) {
      const out = outgoing.of(vertex);
      const inn = incoming.of(vertex);
      if (out.length > 0 || inn.length > 0) yield { vertex, out: out.sort(order), in: inn.sort(order) };
    }
  }

  #ridOrder(vertex) {
    return this.#clusters[vertex] * CLUSTER_FACTOR + this.#positions[vertex];
  }
}

// Compressed adjacency lists of `count` vertices from the first `length` pairs (one counting sort).
function adjacency(count, sources, targets, length) {
  const offsets = new Int32Array(count + 1);
  for (let i = 0; i < length; i += 1) offsets[sources[i] + 1] += 1;
  for (let v = 0; v < count; v += 1) offsets[v + 1] += offsets[v];
  const next = offsets.slice(0, count);
  const lists = new Int32Array(length);
  for (let i = 0; i < length; i += 1) {
    lists[next[sources[i]]] = targets[i];
    next[sources[i]] += 1;
  }
  return { of: (vertex) => Array.from(lists.subarray(offsets[vertex], offsets[vertex + 1])) };
}
