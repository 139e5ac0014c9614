// A profile file read, parsed and turned into an adapter's rows on a thread of its own (profile-rows.js), so
// that the main thread only hands the rows to the database. `format` names a module and one of its exports,
// `rows(docs, options)`, which makes the rows of a batch of documents (strings, arrays of strings, bytes: anything
// a message can carry). Byte arrays that own their whole buffer are transferred, not copied.
// Messages out: { batch: { rows, count } }, then { done: { sha256, stats } }, or { error: { message, code, bench } }.
// Messages in: { next: true }, one per batch the main thread wants (it asks for a few ahead).
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { readProfiles } from './read.js';
import { createReadStats } from './read-source.js';

const { file, batchSize, skipBad, hash: hashing, format } = workerData;
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

try {
  const toRows = (await import(format.module))[format.name];
  if (typeof toRows !== 'function') throw new Error(`${format.module} has no function ${format.name}`);
  for await (const docs of readProfiles(file, { batchSize, skipBad, stats, hash })) {
    const rows = toRows(docs, format.options);
    await permission();
    parentPort.postMessage({ batch: { rows, count: docs.length } }, transferable(rows));
  }
  parentPort.postMessage({ done: { sha256: hash ? hash.digest('hex') : null, stats } });
} catch (error) {
  parentPort.postMessage({ error: { message: error.message, code: error.code ?? null, bench: error.name === 'BenchError' } });
}
