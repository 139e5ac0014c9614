// How long readCollection() takes for a temporary collection of written profile-like documents: the read that
// checks every document of a write workload, after its clock has stopped.
//
//   node benchmarks/read-collection.js [--db postgresql,sqlite] [--docs 100000] [--rounds 3] [--scale medium]
//
// The documents are the dataset's first profiles with the write workloads' keys W1, W2, ..., written through
// singleWrite at concurrency 25 (not timed). Each round reads the whole collection once; every answer is checked
// against what was written. Server databases are reached like `bench run` reaches them.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import async from 'async';
import { loadAdapter } from '../adapters/index.js';
import { adapterOptions } from '../cli/options.js';
import { environment } from '../core/environment.js';
import { defaultCacheDir } from '../core/paths.js';
import { prepareDataset } from '../datasets/dataset.js';
import { readProfiles } from '../datasets/read.js';
import { documentDifference } from '../workloads/compare.js';
import { connectAdapter } from '../runner/run.js';

const COLLECTION = 'readbench';
const CONCURRENCY = 25;

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgresql,sqlite' },
    docs: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    scale: { type: 'string', default: 'medium' },
    host: { type: 'string' },
    port: { type: 'string' },
    namespace: { type: 'string', default: 'dbshootout_readbench' },
  },
});
const count = Number(values.docs);
const rounds = Number(values.rounds);
const cacheDir = defaultCacheDir();
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

async function writtenDocuments(dataset) {
  if (count > dataset.profiles) throw new Error(`--docs ${count}: the ${values.scale} dataset has ${dataset.profiles} profiles`);
  const documents = [];
  for await (const batch of readProfiles(dataset.files.profiles, { batchSize: 10_000 })) {
    for (const profile of batch) {
      if (documents.length === count) return documents;
      documents.push({ ...profile, _key: `W${documents.length + 1}` });
    }
  }
  return documents;
}

// null when the answer holds exactly the written documents, else the first difference.
function answerDifference(documents, answer) {
  if (answer.length !== documents.length) return `${answer.length} documents read, ${documents.length} written`;
  const byKey = new Map(answer.map((doc) => [doc._key, doc]));
  for (const doc of documents) {
    const difference = documentDifference(doc, byKey.get(doc._key));
    if (difference) return `${doc._key}: ${difference}`;
  }
  return null;
}

async function measure(adapter, documents) {
  await adapter.resetNamespace();
  await adapter.createTempCollection(COLLECTION);
  const begin = performance.now();
  await async.eachLimit(documents, CONCURRENCY, async (doc) => adapter.singleWrite(COLLECTION, doc));
  const writeMs = performance.now() - begin;
  const times = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = performance.now();
    const answer = await adapter.readCollection(COLLECTION);
    times.push(performance.now() - start);
    const difference = answerDifference(documents, answer);
    if (difference) throw new Error(`round ${round + 1}: ${difference}`);
  }
  await adapter.dropTempCollection(COLLECTION);
  return { writeMs, times };
}

const dataset = await prepareDataset({ scale: values.scale, cacheDir });
const documents = await writtenDocuments(dataset);
const bytes = documents.reduce((sum, doc) => sum + Buffer.byteLength(JSON.stringify(doc)), 0);
const env = environment();
console.log(`readCollection of ${documents.length.toLocaleString('en-US')} documents from ${dataset.id} (${(bytes / documents.length).toFixed(0)} bytes of JSON each), ${rounds} rounds`);
console.log(`machine: ${env.cpu}, ${env.cores} cores, ${Math.round(env.memoryBytes / 2 ** 30)} GiB, node ${env.node}`);

for (const id of values.db.split(',')) {
  const description = await loadAdapter(id);
  const options = adapterOptions(description, {
    host: values.host, port: values.port === undefined ? undefined : Number(values.port),
    namespace: values.namespace, concurrency: CONCURRENCY, 'connect-timeout': 10, 'cache-dir': cacheDir,
  });
  let adapter;
  try {
    adapter = await connectAdapter(description, options);
  } catch (error) {
    console.log(`${id}: skipped, ${error.message}`);
    continue;
  }
  try {
    const { writeMs, times } = await measure(adapter, documents);
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(`${id} (${await adapter.serverVersion()}): readCollection median ${seconds(median)}, best ${seconds(sorted[0])} `
      + `(${times.map(seconds).join(', ')}; ${Math.round(documents.length / (median / 1000)).toLocaleString('en-US')} documents/s); `
      + `writing them took ${seconds(writeMs)}`);
    await description.testSupport?.dropNamespace?.(options);
  } finally {
    await adapter.close();
  }
}
