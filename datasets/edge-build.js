// Normalises an edge list into the graph suite's edges.tsv: "source\ttarget\tweight\n" sorted by source then
// target, each pair once (the first in file order kept), no self-loop. Built in typed arrays, as the full
// Pokec has 30.5 M edges: the edges are read into fixed-size blocks (no array is grown by copying), counted per
// source, placed by a counting sort (each block released once placed), and each source's row is then sorted
// and its duplicates dropped. Ids may be sparse anywhere up to 2^31-1: when the largest id would make the
// per-source counts larger than the edges themselves, the sort runs over the ids' ranks instead.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { readEdgeChunks } from './edge-parser.js';

const BLOCK_EDGES = 1 << 20;
const WRITE_BYTES = 1 << 20;
// Three ids or weights of at most ten digits, two tabs and a newline.
const LINE_BYTES = 33;
// Ranks replace ids when the counts by id would take more than this many entries per edge.
const SPARSE_FACTOR = 2;
// Rows this short are sorted by insertion (stable, no allocation).
const INSERTION_ROW = 16;
const PROGRESS_STEPS = 20;

// A deterministic weight 1..1000 for the edge source -> target: MurmurHash3 (x86, 32 bit) of the two ids as
// 32-bit words, seeded with `seed`, modulo 1000, plus 1. The same pair and seed give the same weight on every
// machine, and weights of neighbouring pairs are unrelated.
export function derivedWeight(source, target, seed) {
  const h = murmurFinal(murmurMix(murmurMix(seed | 0, source), target), 8);
  return (h % 1000) + 1;
}

// MurmurHash3's step for one 32-bit word.
function murmurMix(hash, word) {
  let k = Math.imul(word | 0, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  let h = hash ^ k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

// MurmurHash3's finaliser, over a hash of `length` bytes; unsigned.
function murmurFinal(hash, length) {
  let h = hash ^ length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function newBlock(columns) {
  return {
    length: 0,
    source: new Int32Array(BLOCK_EDGES),
    target: new Int32Array(BLOCK_EDGES),
    weight: columns === 3 ? new Int32Array(BLOCK_EDGES) : null,
  };
}

// Appends the edges of one parsed chunk to `list` but its self-loops, which it counts. Kept apart from the async
// reader, whose variables, living across its awaits, would be slow to reach in this loop.
function appendChunk(list, { count, columns, source, target, weight }) {
  const { blocks } = list;
  let block = blocks.at(-1);
  let { maxId, selfLoops } = list;
  for (let i = 0; i < count; i += 1) {
    const s = source[i];
    const t = target[i];
    if (s === t) {
      selfLoops += 1;
      continue;
    }
    if (block === undefined || block.length === BLOCK_EDGES) {
      block = newBlock(columns);
      blocks.push(block);
    }
    const at = block.length;
    block.source[at] = s;
    block.target[at] = t;
    if (block.weight) block.weight[at] = weight[i];
    block.length = at + 1;
    if (s > maxId) maxId = s;
    if (t > maxId) maxId = t;
  }
  list.edges += count - (selfLoops - list.selfLoops);
  Object.assign(list, { maxId, selfLoops, columns });
}

// Every edge of `file` but its self-loops, in blocks of BLOCK_EDGES; `weight` blocks only for three columns.
async function readBlocks(file, { skipBad, stats, onBytes }) {
  const list = { blocks: [], edges: 0, selfLoops: 0, maxId: 0, columns: 0 };
  // openBytes hands `hash` the bytes as stored: counting them follows a gzip'd file's progress too.
  const hash = { update: (bytes) => onBytes(bytes.length) };
  for await (const chunk of readEdgeChunks(file, { skipBad, stats, hash })) appendChunk(list, chunk);
  return list;
}

// The distinct ids of the edges, ascending: their positions are the ranks the sort uses for sparse ids.
function distinctIds(blocks, edges) {
  const all = new Int32Array(edges * 2);
  let at = 0;
  for (const { length, source, target } of blocks) {
    all.set(source.subarray(0, length), at);
    all.set(target.subarray(0, length), at + length);
    at += 2 * length;
  }
  all.sort();
  let distinct = 0;
  for (let i = 0; i < all.length; i += 1) {
    if (i === 0 || all[i] !== all[i - 1]) all[distinct++] = all[i];
  }
  return all.slice(0, distinct);
}

function rankOf(ids, id) {
  let low = 0;
  let high = ids.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ids[middle] < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

// Sorts a row's targets ascending, carrying their weights, stably (of equal targets the first stays first).
function sortRow(targets, weights, start, end) {
  let sorted = true;
  for (let i = start + 1; i < end && sorted; i += 1) sorted = targets[i - 1] <= targets[i];
  if (sorted) return;
  if (weights === null) {
    targets.subarray(start, end).sort();
  } else if (end - start <= INSERTION_ROW) {
    for (let i = start + 1; i < end; i += 1) {
      const t = targets[i];
      const w = weights[i];
      let j = i - 1;
      for (; j >= start && targets[j] > t; j -= 1) {
        targets[j + 1] = targets[j];
        weights[j + 1] = weights[j];
      }
      targets[j + 1] = t;
      weights[j + 1] = w;
    }
  } else {
    const order = Array.from({ length: end - start }, (_, i) => start + i);
    order.sort((a, b) => targets[a] - targets[b] || a - b);
    const t = order.map((i) => targets[i]);
    const w = order.map((i) => weights[i]);
    targets.set(t, start);
    weights.set(w, start);
  }
}

// The CSR of the edges by source (or by source rank): rows sorted by target, duplicates dropped.
function sortEdges({ blocks, edges, maxId, columns }) {
  const ids = maxId > SPARSE_FACTOR * edges ? distinctIds(blocks, edges) : null;
  const n = ids === null ? maxId : ids.length - 1;
  const rank = ids === null ? (id) => id : (id) => rankOf(ids, id);
  const offsets = new Int32Array(n + 2);
  for (const { length, source } of blocks) {
    for (let i = 0; i < length; i += 1) offsets[rank(source[i]) + 1] += 1;
  }
  for (let v = 1; v <= n + 1; v += 1) offsets[v] += offsets[v - 1];
  const cursor = offsets.slice();
  const targets = new Int32Array(edges);
  const weights = columns === 3 ? new Int32Array(edges) : null;
  for (let b = 0; b < blocks.length; b += 1) {
    const { length, source, target, weight } = blocks[b];
    for (let i = 0; i < length; i += 1) {
      const at = cursor[rank(source[i])]++;
      targets[at] = target[i];
      if (weights) weights[at] = weight[i];
    }
    blocks[b] = null;
  }

  let written = 0;
  for (let v = 0; v <= n; v += 1) {
    const start = offsets[v];
    const end = offsets[v + 1];
    offsets[v] = written;
    sortRow(targets, weights, start, end);
    for (let i = start; i < end; i += 1) {
      if (i > start && targets[i] === targets[i - 1]) continue;
      if (weights) weights[written] = weights[i];
      targets[written++] = targets[i];
    }
  }
  offsets[n + 1] = written;
  return { ids, n, offsets, targets, weights, edges: written, duplicates: edges - written };
}

// Every value here is below 2^31, so `| 0` truncates the division exactly.
function writeDecimal(buffer, position, value) {
  let end = position + 1;
  for (let rest = value; rest >= 10; rest = (rest / 10) | 0) end += 1;
  let i = end;
  let rest = value;
  do {
    const next = (rest / 10) | 0;
    buffer[--i] = 0x30 + rest - next * 10;
    rest = next;
  } while (rest > 0);
  return end;
}

// Fills `buffer` with the lines of the CSR from `cursor` ({ v, e }: a row and an edge) on, as long as a whole
// line fits; advances the cursor and returns the bytes written. Kept apart from the async writer, whose
// variables, living across its awaits, would be slow to reach in this loop.
function fillLines(buffer, cursor, { ids, n, offsets, targets, weights }, seed, seen) {
  const limit = buffer.length - LINE_BYTES;
  let position = 0;
  let { v, e } = cursor;
  for (; v <= n && position <= limit; v += 1) {
    const s = ids === null ? v : ids[v];
    const end = offsets[v + 1];
    if (seen && e < end) seen[s] = 1;
    for (; e < end && position <= limit; e += 1) {
      const t = targets[e];
      if (seen) seen[t] = 1;
      position = writeDecimal(buffer, position, s);
      buffer[position++] = 0x09;
      position = writeDecimal(buffer, position, t);
      buffer[position++] = 0x09;
      position = writeDecimal(buffer, position, weights ? weights[e] : derivedWeight(s, t, seed));
      buffer[position++] = 0x0a;
    }
    if (e < end) break;
  }
  cursor.v = v;
  cursor.e = e;
  return position;
}

// Writes the CSR as edges.tsv; resolves with its size, sha256 and the number of distinct ids it names.
async function writeEdges(out, csr, seed, onEdges) {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(WRITE_BYTES);
  // Without ranks, the ids that occur are marked to count them; with ranks, every rank is one.
  const seen = csr.ids === null ? new Uint8Array(csr.n + 1) : null;
  const cursor = { v: 0, e: 0 };
  let bytes = 0;
  const handle = await open(out, 'w');
  try {
    for (let length = fillLines(buffer, cursor, csr, seed, seen); length > 0; length = fillLines(buffer, cursor, csr, seed, seen)) {
      hash.update(buffer.subarray(0, length));
      await handle.write(buffer, 0, length);
      bytes += length;
      onEdges(cursor.e);
    }
  } finally {
    await handle.close();
  }
  let vertices = csr.ids === null ? 0 : csr.ids.length;
  if (seen) for (let v = 1; v <= csr.n; v += 1) vertices += seen[v];
  return { bytes, sha256: hash.digest('hex'), vertices };
}

// Calls onProgress at the start, about every twentieth of the total, and at the end of a phase.
function progress(onProgress, phase, total) {
  if (!onProgress) return () => {};
  const step = Math.max(1, Math.ceil(total / PROGRESS_STEPS));
  let next = step;
  onProgress({ phase, done: 0, total });
  return (done) => {
    if (done >= next || done === total) {
      onProgress({ phase, done, total });
      next = (Math.floor(done / step) + 1) * step;
    }
  };
}

// Reads `file` (`bytes` long as stored) and writes its edges, normalised, to `out`. `stats` (createReadStats)
// is filled in as the file is read. Resolves with the counts and the weights' origin.
export async function buildEdges({ file, bytes, out, seed, skipBad, stats, onProgress }) {
  let read = 0;
  const reading = progress(onProgress, 'reading the edge file (bytes)', bytes);
  const list = await readBlocks(file, { skipBad, stats, onBytes: (length) => reading(read += length) });
  if (list.edges === 0) {
    throw new BenchError(ErrorCodes.DATASET, `${file}: holds no edge (${list.selfLoops} self-loops, which are left out)`);
  }
  progress(onProgress, 'sorting edges', 1);
  const csr = sortEdges(list);
  const written = await writeEdges(out, csr, seed, progress(onProgress, 'writing edges', csr.edges));
  return {
    edges: csr.edges,
    vertices: written.vertices,
    maxId: list.maxId,
    duplicates: csr.duplicates,
    selfLoops: list.selfLoops,
    weights: list.columns === 3 ? 'file' : 'derived',
    bytes: written.bytes,
    sha256: written.sha256,
  };
}
