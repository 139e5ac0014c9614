// A dataset file read, parsed and turned into an adapter's rows on a thread of its own (import-rows.js), so that
// the main thread only hands the rows to the database. `format` names a module and one of its exports,
// `rows(input, options)`, which makes the rows of a batch (strings, arrays of strings, bytes: anything a message
// can carry). The input is, for the profiles, the batch's documents, or, when `format.input` is 'lines', the
// batch as profile lines { bytes, count } (profile-lines.js); for the relations always lines { bytes, count }
// (read.js, readRelationLines).
// Messages out: { batch: { rows, count } }, then { done: { sha256, stats } }, or { error: { message, code, bench } }.
// Messages in: { next: true }, one per batch the main thread wants (it asks for a few ahead).
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { readProfileLines } from './profile-lines.js';
import { readProfiles, readRelationLines } from './read.js';
import { createReadStats } from './read-source.js';

const { file, role, batchSize, skipBad, hash: hashing, format } = workerData;
const hash = hashing ? createHash('sha256') : null;
const stats = createReadStats();

let credit = 0;
let wake = null;
parentPort.on('message', ({ next }) => {
  if (next) credit += 1;
  wake?.();
});

async function permission() {
  while (credit === 0) await new Promise((resolve) => { wake = resolve; });
  wake = null;
  credit -= 1;
}

// The ArrayBuffers in `rows` that a transfer may move: those of byte arrays that span the whole of theirs.
function transferable(rows) {
  const buffers = [];
  const visit = (value) => {
    if (ArrayBuffer.isView(value)) {
      if (value.byteOffset === 0 && value.byteLength === value.buffer.byteLength && !buffers.includes(value.buffer)) buffers.push(value.buffer);
    } else if (Array.isArray(value)) {
      value.forEach(visit);
    }
  };
  visit(rows);
  return buffers;
}

function batches() {
  const options = { skipBad, stats, hash };
  if (role === 'relations') return readRelationLines(file, options);
  if (format.input === 'lines') return readProfileLines(file, options);
  return readProfiles(file, { ...options, batchSize });
}

try {
  const toRows = (await import(format.module))[format.name];
  if (typeof toRows !== 'function') throw new Error(`${format.module} has no function ${format.name}`);
  for await (const batch of batches()) {
    const rows = toRows(batch, format.options);
    await permission();
    parentPort.postMessage({ batch: { rows, count: batch.count ?? batch.length } }, transferable(rows));
  }
  parentPort.postMessage({ done: { sha256: hash ? hash.digest('hex') : null, stats } });
} catch (error) {
  parentPort.postMessage({ error: { message: error.message, code: error.code ?? null, bench: error.name === 'BenchError' } });
}
