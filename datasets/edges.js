// The graph suite's datasets: a weighted directed edge list `source, target, weight`, from the synthetic or the
// real Pokec's relations, SNAP's cit-Patents, or any local edge file (`file:<path>`). Every source is normalised
// once (edge-build.js) into <cache>/datasets/graph-<key>/: edges.tsv and, written last, manifest.json. An edge
// list without weights gets derivedWeight's, from the pair and the seed. What a prepared directory holds,
// exactly: datasets/README.md, "Edge lists (the graph suite)".
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { BenchError, ErrorCodes, usageError } from '../core/errors.js';
import { derivedWeight, buildEdges } from './edge-build.js';
import { prepareDataset } from './dataset.js';
import { MANIFEST, preparedOnce, sha256 } from './directory.js';
import { CIT_PATENTS_GZ, readFetchManifest, snapDir } from './fetch.js';
import { createReadStats } from './read-source.js';
import { DEFAULT_SEED } from './scales.js';
import { workerInbox } from './worker-inbox.js';

export { derivedWeight };

export const EDGE_DATASETS = Object.freeze(['synthetic', 'pokec', 'cit-patents']);
const FILE_PREFIX = 'file:';
// Bump whenever the preparation of the same source gives a different edges.tsv: prepared copies carry it.
const EDGES_VERSION = 1;
const EDGES_FILE = 'edges.tsv';
const DEFAULT_BATCH = 100_000;
// Buffer sets of the reader's thread: the batch the caller holds, and up to two parsed ahead of it.
const BATCH_SETS = 3;

function datasetError(message) {
  return new BenchError(ErrorCodes.DATASET, message);
}

async function fileSize(file) {
  return stat(file).then((info) => info.size, () => null);
}

// A source: its name, its edge file, the file's size and sha256, and the key of its prepared directory.

// The relations of the synthetic or the real Pokec dataset: distinct and sorted already, unweighted.
async function relationsSource({ dataset, scale, seed, cacheDir, skipBad, onProgress }) {
  const relations = await prepareDataset({ scale, seed, cacheDir, dataset, skipBad, onProgress });
  const file = relations.files.relations;
  const hash = relations.sha256.relations;
  const key = dataset === 'synthetic' ? `synthetic-${scale}-s${seed}` : `pokec-s${seed}-${hash.slice(0, 8)}`;
  return { name: dataset, file, bytes: await fileSize(file), sha256: hash, key };
}

// SNAP's cit-Patents, gzip'd as `bench data fetch cit-patents` leaves it, or unpacked by hand.
async function citPatentsSource({ dataset, seed, cacheDir }) {
  const dir = snapDir(cacheDir, dataset);
  const candidates = [CIT_PATENTS_GZ, CIT_PATENTS_GZ.replace(/\.gz$/, '')].map((name) => path.join(dir, name));
  const sizes = await Promise.all(candidates.map(fileSize));
  const found = sizes.findIndex((size) => size !== null);
  if (found === -1) {
    throw datasetError(`SNAP's cit-Patents is not in ${dir} (${CIT_PATENTS_GZ} is missing): `
      + 'run `bench data fetch cit-patents` to download it');
  }
  const file = candidates[found];
  const bytes = sizes[found];
  // The download's manifest holds the sha256 when the size still matches it: no 80 MB to hash again.
  const record = (await readFetchManifest(dir)).files?.[path.basename(file)];
  const hash = record?.bytes === bytes && record.sha256 ? record.sha256 : await sha256(file);
  return { name: dataset, file, bytes, sha256: hash, key: `cit-patents-s${seed}-${hash.slice(0, 8)}` };
}

// Any local edge file: hashed whole every time, as its key is its content.
async function fileSource({ dataset, seed }) {
  const file = path.resolve(dataset.slice(FILE_PREFIX.length));
  let hash;
  try {
    hash = await sha256(file);
  } catch (error) {
    const reason = error.code === 'ENOENT' ? 'no such file' : error.message;
    throw new BenchError(ErrorCodes.DATASET, `cannot read the edge file ${file}: ${reason}`, { cause: error });
  }
  return { name: 'file', file, bytes: await fileSize(file), sha256: hash, key: `file-${hash.slice(0, 8)}-s${seed}` };
}

function resolveSource(options) {
  const { dataset } = options;
  if (dataset === 'synthetic' || dataset === 'pokec') return relationsSource(options);
  if (dataset === 'cit-patents') return citPatentsSource(options);
  if (dataset?.startsWith(FILE_PREFIX) && dataset.length > FILE_PREFIX.length) return fileSource(options);
  throw usageError(`unknown edge dataset "${dataset}"; valid: ${EDGE_DATASETS.join(', ')}, file:<path>`);
}

function isCurrent(manifest, { source, seed, skipBad }) {
  return manifest?.preparationVersion === EDGES_VERSION && manifest.name === source.name
    && manifest.seed === seed && manifest.skipBad === skipBad && manifest.source?.sha256 === source.sha256;
}

// As datasets/directory.js does: a prepared file of another size was changed after its manifest was written.
async function checkEdgesFile(dir, manifest) {
  const file = path.join(dir, manifest.files.edges.name);
  const size = await fileSize(file);
  if (size !== manifest.files.edges.bytes) {
    const found = size === null ? 'is missing' : `has ${size} bytes`;
    throw datasetError(`${file} ${found} where the edge dataset's manifest records ${manifest.files.edges.bytes}: `
      + `the file changed after the dataset was prepared; delete ${dir} to prepare it again`);
  }
}

async function writeEdgeDataset({ dir, source, seed, skipBad, onProgress }) {
  await mkdir(dir, { recursive: true });
  await rm(path.join(dir, MANIFEST), { force: true });
  const stats = createReadStats();
  const built = await buildEdges({
    file: source.file, bytes: source.bytes, out: path.join(dir, EDGES_FILE), seed, skipBad, stats, onProgress,
  });
  const manifest = {
    name: source.name,
    id: `graph-${source.key}${skipBad ? '-skip-bad' : ''}-${built.sha256.slice(0, 8)}`,
    preparationVersion: EDGES_VERSION,
    source: { file: source.file, sha256: source.sha256 },
    seed,
    skipBad,
    edges: built.edges,
    vertices: built.vertices,
    maxId: built.maxId,
    weights: built.weights,
    files: { edges: { name: EDGES_FILE, bytes: built.bytes, sha256: built.sha256 } },
    readStats: { ...stats, duplicates: built.duplicates, selfLoops: built.selfLoops },
  };
  await writeFile(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

// The edges of edges.tsv in file order, in batches of `batchSize`: { length, source, target, weight }, valid
// until the next batch is asked for. They are read and parsed on a worker thread (edge-batch-worker.js), up to
// BATCH_SETS - 1 batches ahead, so that the parse overlaps with what the caller does with each batch. `digest`,
// when given, gets `sha256`: the hex sha256 of the bytes as read, once the last batch has been taken.
async function* readBatches(file, { batchSize = DEFAULT_BATCH, digest = null } = {}) {
  const worker = new Worker(new URL('./edge-batch-worker.js', import.meta.url), {
    workerData: { file, batchSize, sets: BATCH_SETS, hash: digest !== null },
  });
  const receive = workerInbox(worker);
  try {
    for (;;) {
      const { batch, done, error } = await receive();
      if (error) {
        throw error.bench ? new BenchError(error.code, error.message) : datasetError(`${file}: ${error.message}`);
      }
      if (done) {
        if (digest) digest.sha256 = done.sha256;
        return;
      }
      yield batch;
      const whole = (array) => new Int32Array(array.buffer);
      const set = { source: whole(batch.source), target: whole(batch.target), weight: whole(batch.weight) };
      worker.postMessage({ free: set }, [set.source.buffer, set.target.buffer, set.weight.buffer]);
    }
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}

function edgeDataset(dir, manifest, { scale, source }) {
  const file = path.join(dir, manifest.files.edges.name);
  return {
    id: manifest.id,
    name: manifest.name,
    scale,
    seed: manifest.seed,
    dir,
    file,
    bytes: manifest.files.edges.bytes,
    sha256: manifest.files.edges.sha256,
    source: { path: source.file, sha256: source.sha256 },
    edges: manifest.edges,
    vertices: manifest.vertices,
    maxId: manifest.maxId,
    weights: manifest.weights,
    readStats: manifest.readStats,
    // Every edge, sorted by source then target, in arrays of exactly `edges` values.
    async loadEdges() {
      const all = {
        length: manifest.edges,
        source: new Int32Array(manifest.edges),
        target: new Int32Array(manifest.edges),
        weight: new Int32Array(manifest.edges),
      };
      let at = 0;
      for await (const batch of readBatches(file)) {
        if (at + batch.length > manifest.edges) break;
        all.source.set(batch.source, at);
        all.target.set(batch.target, at);
        all.weight.set(batch.weight, at);
        at += batch.length;
      }
      if (at !== manifest.edges) {
        throw datasetError(`${file} does not hold the ${manifest.edges} edges its manifest records; delete ${dir} to prepare it again`);
      }
      return all;
    },
    readBatches: (options) => readBatches(file, options),
  };
}

// The edge dataset `dataset` ("synthetic", "pokec", "cit-patents" or "file:<path>"), prepared on first use and
// again when its source file changed. `scale` selects the synthetic dataset (and the Pokec dataset's query
// parameters, prepared on the way); `seed` the derived weights; `skipBad` skips and counts malformed lines.
export async function prepareEdges({ dataset, scale, seed = DEFAULT_SEED, cacheDir, skipBad = false, onProgress }) {
  const source = await resolveSource({ dataset, scale, seed, cacheDir, skipBad, onProgress });
  const dir = path.join(cacheDir, 'datasets', `graph-${source.key}${skipBad ? '-skip-bad' : ''}`);
  const manifest = await preparedOnce(dir, {
    current: (found) => isCurrent(found, { source, seed, skipBad }),
    open: async (found) => { await checkEdgesFile(dir, found); return found; },
    write: () => writeEdgeDataset({ dir, source, seed, skipBad, onProgress }),
    onProgress,
  });
  return edgeDataset(dir, manifest, { scale: scale ?? null, source });
}

// The parse floor: the time to read and parse edges.tsv alone, through the reader an import uses; with
// `passes`, the fastest of that many. The first pass may read the file from disk (a file written long ago, or a
// page cache dropped by --cold) while the import after it reads it from memory: timed alone, it made an import
// look faster than reading its own file. `passMs` lists every pass.
export async function parseFloor(edgeDataset, { passes = 1 } = {}) {
  const passMs = [];
  let edges = 0;
  for (let pass = 0; pass < passes; pass += 1) {
    const begin = performance.now();
    edges = 0;
    for await (const batch of edgeDataset.readBatches()) edges += batch.length;
    passMs.push(performance.now() - begin);
  }
  const ms = Math.min(...passMs);
  return { ms, edges, edgesPerSec: edges / (ms / 1000), passMs };
}
