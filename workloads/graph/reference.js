// The reference of the graph suite: the edge list held as two compressed adjacency arrays (out-edges in the
// list's own order, sorted by source then target; in-edges counting-sorted by target), from which every read
// operation's answer is computed by plain lookups. Vertex ids index the offsets directly when they are dense
// enough, and through a sorted table of the ids present otherwise (a file's ids may reach 2^31 - 1).
import { lowerBound } from '../../core/sorted.js';

const DIRECT_MAX_ID = 1 << 26;

function distinctIds(source, target, length) {
  const all = new Int32Array(length * 2);
  all.set(source.subarray(0, length));
  all.set(target.subarray(0, length), length);
  all.sort();
  let count = 0;
  for (let i = 0; i < all.length; i += 1) if (i === 0 || all[i] !== all[i - 1]) all[count++] = all[i];
  return all.slice(0, count);
}

export class EdgeReference {
  // `edges`: { length, source, target, weight }, sorted by source then target, pairs distinct, no self-loops
  // (as datasets/edges.js prepares them). The arrays are kept, not copied.
  constructor({ length, source, target, weight }) {
    this.length = length;
    this.source = source;
    this.target = target;
    this.weight = weight;
    let maxId = 0;
    for (let i = 0; i < length; i += 1) maxId = Math.max(maxId, source[i], target[i]);
    this.maxId = maxId;
    this.ids = maxId <= DIRECT_MAX_ID ? null : distinctIds(source, target, length);
    const slots = (this.ids ? this.ids.length : maxId + 1) + 1;
    this.outStart = new Int32Array(slots);
    this.inStart = new Int32Array(slots);
    for (let i = 0; i < length; i += 1) {
      this.outStart[this.slot(source[i]) + 1] += 1;
      this.inStart[this.slot(target[i]) + 1] += 1;
    }
    for (let v = 1; v < slots; v += 1) {
      this.outStart[v] += this.outStart[v - 1];
      this.inStart[v] += this.inStart[v - 1];
    }
    // In-edges: the index of each edge in the out-order, grouped by target (and within a target by source,
    // since the out-order is sorted by source).
    this.inEdge = new Int32Array(length);
    const fill = this.inStart.slice(0, slots - 1);
    for (let i = 0; i < length; i += 1) this.inEdge[fill[this.slot(target[i])]++] = i;
  }

  // The offsets' index of a vertex id, or -1 for an id that touches no edge.
  slot(id) {
    if (!this.ids) return Number.isInteger(id) && id >= 0 && id <= this.maxId ? id : -1;
    const at = lowerBound(this.ids, id, 0, this.ids.length);
    return this.ids[at] === id ? at : -1;
  }

  outRange(vertex) {
    const v = this.slot(vertex);
    return v < 0 ? [0, 0] : [this.outStart[v], this.outStart[v + 1]];
  }

  inRange(vertex) {
    const v = this.slot(vertex);
    return v < 0 ? [0, 0] : [this.inStart[v], this.inStart[v + 1]];
  }

  edge(i) {
    return { source: this.source[i], target: this.target[i], weight: this.weight[i] };
  }

  // The index of the edge source -> target in the out-order, or -1.
  find(source, target) {
    const [from, to] = this.outRange(source);
    const at = lowerBound(this.target, target, from, to);
    return at < to && this.target[at] === target ? at : -1;
  }

  findEdge(source, target) {
    const i = this.find(source, target);
    return i < 0 ? null : this.edge(i);
  }

  degree(vertex) {
    const [outFrom, outTo] = this.outRange(vertex);
    const [inFrom, inTo] = this.inRange(vertex);
    return (outTo - outFrom) + (inTo - inFrom);
  }

  inEdges(vertex) {
    const [from, to] = this.inRange(vertex);
    const edges = [];
    for (let k = from; k < to; k += 1) edges.push(this.edge(this.inEdge[k]));
    return edges;
  }

  edgesOf(vertex) {
    const [from, to] = this.outRange(vertex);
    const edges = [];
    for (let i = from; i < to; i += 1) edges.push(this.edge(i));
    return edges.concat(this.inEdges(vertex));
  }

  friends(vertex) {
    const ids = new Set();
    const [from, to] = this.outRange(vertex);
    for (let i = from; i < to; i += 1) ids.add(this.target[i]);
    const [inFrom, inTo] = this.inRange(vertex);
    for (let k = inFrom; k < inTo; k += 1) ids.add(this.source[this.inEdge[k]]);
    return [...ids];
  }

  countFollowers(vertex) {
    const [from, to] = this.inRange(vertex);
    let weight = 0;
    for (let k = from; k < to; k += 1) weight += this.weight[this.inEdge[k]];
    return { count: to - from, weight };
  }

  countFriends(vertex) {
    const [from, to] = this.outRange(vertex);
    let weight = 0;
    for (let i = from; i < to; i += 1) weight += this.weight[i];
    const followers = this.countFollowers(vertex);
    return { count: to - from + followers.count, weight: weight + followers.weight };
  }

  // Every vertex id that touches an edge, ascending.
  vertices() {
    if (this.ids) return this.ids;
    const ids = [];
    for (let v = 0; v <= this.maxId; v += 1) if (this.outStart[v + 1] > this.outStart[v] || this.inStart[v + 1] > this.inStart[v]) ids.push(v);
    return Int32Array.from(ids);
  }
}
