// The relation graph in compressed sparse rows: ids 1..n, the neighbours of `id` are
// targets[offsets[id] .. offsets[id + 1]), sorted ascending and distinct. Index 0 is unused.
import { open } from 'node:fs/promises';
import { BenchError, ErrorCodes } from '../core/errors.js';

const MAGIC = 'DBSGRAPH';
const FORMAT_VERSION = 1;
// magic, format version, n, out edges, in edges: the file's layout follows from these.
const HEADER_BYTES = 8 + 4 * 4;

// Counting sort by source, then each row sorted and its duplicates dropped.
export function adjacency(n, sources, targets) {
  const count = sources.length;
  const offsets = new Int32Array(n + 2);
  for (let i = 0; i < count; i += 1) {
    const s = sources[i];
    const t = targets[i];
    if (!(s >= 1 && s <= n && t >= 1 && t <= n)) {
      throw new BenchError(ErrorCodes.DATASET, `relation ${s} -> ${t} names an id outside 1..${n}`);
    }
    offsets[s + 1] += 1;
  }
  for (let v = 1; v <= n + 1; v += 1) offsets[v] += offsets[v - 1];
  const cursor = offsets.slice();
  const rows = new Int32Array(count);
  for (let i = 0; i < count; i += 1) rows[cursor[sources[i]]++] = targets[i];

  let written = 0;
  for (let v = 1; v <= n; v += 1) {
    const start = offsets[v];
    const end = offsets[v + 1];
    offsets[v] = written;
    if (end - start > 1) rows.subarray(start, end).sort();
    for (let i = start; i < end; i += 1) {
      if (i === start || rows[i] !== rows[i - 1]) rows[written++] = rows[i];
    }
  }
  offsets[n + 1] = written;
  // A view, not a copy: copying would double the peak memory of the full graph for a few percent of duplicates.
  return { offsets, targets: rows.subarray(0, written) };
}

export function buildGraph(n, from, to) {
  const out = adjacency(n, from, to);
  const incoming = adjacency(n, to, from);
  return { n, outOffsets: out.offsets, outTargets: out.targets, inOffsets: incoming.offsets, inTargets: incoming.targets };
}

export function outNeighbors(g, id) {
  return g.outTargets.subarray(g.outOffsets[id], g.outOffsets[id + 1]);
}

export function inNeighbors(g, id) {
  return g.inTargets.subarray(g.inOffsets[id], g.inOffsets[id + 1]);
}

export function outDegree(g, id) {
  return g.outOffsets[id + 1] - g.outOffsets[id];
}

export function inDegree(g, id) {
  return g.inOffsets[id + 1] - g.inOffsets[id];
}

export function hasEdge(g, a, b) {
  if (!(a >= 1 && a <= g.n)) return false;
  let lo = g.outOffsets[a];
  let hi = g.outOffsets[a + 1] - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const value = g.outTargets[mid];
    if (value === b) return true;
    if (value < b) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

function sections(g) {
  return [g.outOffsets, g.outTargets, g.inOffsets, g.inTargets];
}

// Little-endian header; the arrays follow in the machine's byte order, as typed arrays hold them.
export async function saveGraph(g, file) {
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(FORMAT_VERSION, 8);
  header.writeUInt32LE(g.n, 12);
  header.writeUInt32LE(g.outTargets.length, 16);
  header.writeUInt32LE(g.inTargets.length, 20);
  const handle = await open(file, 'w');
  try {
    await handle.write(header);
    for (const array of sections(g)) {
      await handle.write(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    }
  } finally {
    await handle.close();
  }
}

function corrupt(file, problem) {
  return new BenchError(ErrorCodes.DATASET, `${file}: not a valid graph file (${problem})`);
}

async function readExactly(handle, file, array, position) {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  let done = 0;
  while (done < bytes.length) {
    const { bytesRead } = await handle.read(bytes, done, bytes.length - done, position + done);
    if (bytesRead === 0) throw corrupt(file, 'truncated');
    done += bytesRead;
  }
}

function checkRows(file, n, offsets, targets, name) {
  if (offsets[0] !== 0 || offsets[1] !== 0 || offsets[n + 1] !== targets.length) {
    throw corrupt(file, `${name} offsets do not span the ${name} edges`);
  }
  for (let v = 1; v <= n; v += 1) {
    if (offsets[v + 1] < offsets[v]) throw corrupt(file, `${name} offsets decrease at id ${v}`);
  }
  for (let i = 0; i < targets.length; i += 1) {
    if (!(targets[i] >= 1 && targets[i] <= n)) throw corrupt(file, `${name} edge ${i} names id ${targets[i]}`);
  }
}

export async function loadGraph(file) {
  const handle = await open(file, 'r').catch((error) => {
    throw new BenchError(ErrorCodes.DATASET, `${file}: cannot open the graph file: ${error.message}`, { cause: error });
  });
  try {
    const { size } = await handle.stat();
    if (size < HEADER_BYTES) throw corrupt(file, 'shorter than its header');
    const header = Buffer.alloc(HEADER_BYTES);
    await readExactly(handle, file, header, 0);
    if (header.toString('latin1', 0, 8) !== MAGIC) throw corrupt(file, 'wrong magic');
    const version = header.readUInt32LE(8);
    if (version !== FORMAT_VERSION) throw corrupt(file, `format version ${version}, expected ${FORMAT_VERSION}`);
    const n = header.readUInt32LE(12);
    const g = {
      n,
      outOffsets: new Int32Array(n + 2),
      outTargets: new Int32Array(header.readUInt32LE(16)),
      inOffsets: new Int32Array(n + 2),
      inTargets: new Int32Array(header.readUInt32LE(20)),
    };
    const expected = HEADER_BYTES + sections(g).reduce((sum, array) => sum + array.byteLength, 0);
    if (size !== expected) throw corrupt(file, `${size} bytes where the header implies ${expected}`);
    let position = HEADER_BYTES;
    for (const array of sections(g)) {
      await readExactly(handle, file, array, position);
      position += array.byteLength;
    }
    checkRows(file, n, g.outOffsets, g.outTargets, 'out');
    checkRows(file, n, g.inOffsets, g.inTargets, 'in');
    return g;
  } finally {
    await handle.close();
  }
}
