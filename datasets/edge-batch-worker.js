// An edge file read and parsed into batches on a thread of its own (edge-batches.js), so the parse overlaps with
// what the main thread does with the batch before (an import's statements). Batches travel in buffer sets that
// go back and forth: the worker fills a free set and transfers it, the main thread hands it back when it has
// done with the batch. Messages out: { batch: { length, source, target, weight } }, then { done: { sha256 } }, or
// { error: { message, code } }. Messages in: { free: { source, target, weight } }.
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { readEdgeChunks } from './edge-parser.js';

const { file, batchSize, sets, hash: hashing } = workerData;
const hash = hashing ? createHash('sha256') : null;

const free = [];
let wake = null;
parentPort.on('message', ({ free: set }) => {
  free.push(set);
  wake?.();
});

async function freeSet() {
  while (free.length === 0) await new Promise((resolve) => { wake = resolve; });
  wake = null;
  return free.pop();
}

const newSet = () => ({ source: new Int32Array(batchSize), target: new Int32Array(batchSize), weight: new Int32Array(batchSize) });
for (let i = 0; i < sets; i += 1) free.push(newSet());

function send(set, length) {
  const view = (array) => (length === batchSize ? array : array.subarray(0, length));
  parentPort.postMessage({ batch: { length, source: view(set.source), target: view(set.target), weight: view(set.weight) } },
    [set.source.buffer, set.target.buffer, set.weight.buffer]);
}

try {
  let set = await freeSet();
  let length = 0;
  for await (const chunk of readEdgeChunks(file, { hash })) {
    for (let at = 0; at < chunk.count;) {
      const take = Math.min(chunk.count - at, batchSize - length);
      set.source.set(chunk.source.subarray(at, at + take), length);
      set.target.set(chunk.target.subarray(at, at + take), length);
      set.weight.set(chunk.weight.subarray(at, at + take), length);
      length += take;
      at += take;
      if (length === batchSize) {
        send(set, length);
        set = await freeSet();
        length = 0;
      }
    }
  }
  if (length > 0) send(set, length);
  parentPort.postMessage({ done: { sha256: hash ? hash.digest('hex') : null } });
} catch (error) {
  parentPort.postMessage({ error: { message: error.message, code: error.code ?? null, bench: error.name === 'BenchError' } });
}
