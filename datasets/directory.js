// A dataset directory, whatever made its files: the graph, the query parameters, the reference answers, and a
// manifest written last, so that a directory with a manifest is complete. The synthetic generator
// (dataset.js) and the real Pokec files (pokec.js) both derive these artefacts here, the same way.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { withLock } from '../core/lock.js';
import { loadGraph, saveGraph } from './graph.js';
import { deriveParams } from './params.js';
import { createReadStats, loadProfiles, readProfiles } from './read.js';
import { ageHistogram, neighbors, neighbors2, shortestPathLength } from './reference.js';
import { MAX_PATH_DEPTH } from './scales.js';

export const MANIFEST = 'manifest.json';
const PARAMS = 'params.json';
const REFERENCE = 'reference.json';
const GRAPH = 'graph.bin';

export async function sha256(file) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk);
  return hash.digest('hex');
}

// `name` is relative to `dir`: a dataset may read a file kept elsewhere in the cache (../pokec/...).
export async function fileRecord(dir, name) {
  const file = path.join(dir, name);
  return { name, bytes: (await stat(file)).size, sha256: await sha256(file) };
}

async function readJson(file) {
  return JSON.parse(await readFile(file, 'utf8'));
}

// Null when the directory holds no readable manifest.
export async function readManifest(dir) {
  try {
    return await readJson(path.join(dir, MANIFEST));
  } catch {
    return null;
  }
}

// The dataset in `dir`, prepared when `current(manifest)` says its manifest is not current: `open(manifest)` opens
// a current one, `write()` prepares it. The preparation holds `<dir>.lock`, so that two processes sharing a cache
// (two runs started together, `--clients`) never write one directory at once: the second waits, saying so
// through `onProgress`, and then opens what the first prepared.
export async function preparedOnce(dir, { current, open, write, onProgress }) {
  const manifest = await readManifest(dir);
  if (await current(manifest)) return open(manifest);
  await mkdir(path.dirname(dir), { recursive: true });
  return withLock(`${dir}.lock`, async () => {
    const now = await readManifest(dir);
    return (await current(now)) ? open(now) : write();
  }, { onWait: (holder) => onProgress?.({ phase: `waiting for ${holder}, which prepares it`, done: 0, total: null }) });
}

function regenerateHint(dir) {
  return `delete ${dir} to prepare the dataset again`;
}

// What to do about a file of the dataset that no longer matches the manifest: a file of the directory is
// prepared again with it; a file kept elsewhere is a download shared by prepared copies (../pokec/...), which
// `bench data fetch pokec` checks against the sha256 it recorded, deleting it when it differs.
function changedFileHint(dir, name) {
  if (!name.startsWith('..')) return regenerateHint(dir);
  return 'run `npx bench data fetch pokec`, which deletes a download that no longer matches its recorded sha256, '
    + 'then run it again to download that file anew';
}

async function readPart(dir, name) {
  const file = path.join(dir, name);
  try {
    return await readJson(file);
  } catch (error) {
    throw new BenchError(ErrorCodes.DATASET, `${file}: ${error.message}; ${regenerateHint(dir)}`, { cause: error });
  }
}

async function checkFileSizes(dir, manifest) {
  for (const { name, bytes } of Object.values(manifest.files)) {
    const file = path.join(dir, name);
    const size = await stat(file).then((info) => info.size, () => null);
    if (size !== bytes) {
      const found = size === null ? 'is missing' : `has ${size} bytes`;
      throw new BenchError(ErrorCodes.DATASET, `${file} ${found} where the dataset's manifest records ${bytes}: `
        + `the file changed after the dataset was prepared; ${regenerateHint(dir)}`);
    }
  }
}

// `readOptions` are what every reader of this dataset's files must pass (skipBad for the real Pokec files);
// `readStats` are the statistics of reading them when the dataset was prepared (lines repaired, skipped,
// relations dropped), null for a generated dataset.
function datasetObject(dir, manifest, params, reference) {
  const files = {
    profiles: path.join(dir, manifest.files.profiles.name),
    relations: path.join(dir, manifest.files.relations.name),
  };
  const readOptions = { skipBad: manifest.skipBad ?? false };
  return {
    id: manifest.id ?? `${manifest.name}-${manifest.scale}-s${manifest.seed}-g${manifest.generatorVersion}`,
    name: manifest.name,
    scale: manifest.scale,
    seed: manifest.seed,
    dir,
    profiles: manifest.profiles,
    relations: manifest.relations,
    files,
    sha256: { profiles: manifest.files.profiles.sha256, relations: manifest.files.relations.sha256 },
    // Per file, what to do when its bytes no longer hash to `sha256` (a check made by whoever reads it whole).
    changedFileHints: {
      profiles: changedFileHint(dir, manifest.files.profiles.name),
      relations: changedFileHint(dir, manifest.files.relations.name),
    },
    sizes: manifest.sizes,
    params,
    reference,
    readOptions,
    readStats: manifest.readStats ?? null,
    async loadGraph() {
      try {
        return await loadGraph(path.join(dir, GRAPH));
      } catch (error) {
        throw new BenchError(ErrorCodes.DATASET, `${error.message}; ${regenerateHint(dir)}`, { cause: error });
      }
    },
    loadProfiles: (ids) => loadProfiles(files.profiles, ids ? new Set(ids) : null, readOptions),
  };
}

export async function openDataset(dir) {
  const manifest = await readManifest(dir);
  if (!manifest) {
    throw new BenchError(ErrorCodes.DATASET, `${dir} holds no readable ${MANIFEST}: not a complete dataset directory`);
  }
  await checkFileSizes(dir, manifest);
  const [params, reference] = await Promise.all([readPart(dir, PARAMS), readPart(dir, REFERENCE)]);
  return datasetObject(dir, manifest, params, reference);
}

// One pass over the profiles: the AGE histogram, the count, and which ids hold a profile.
export async function scanProfiles(file, { skipBad = false } = {}) {
  const histogram = {};
  const stats = createReadStats();
  let present = new Uint8Array(1 << 16);
  let maxId = 0;
  for await (const batch of readProfiles(file, { skipBad, stats })) {
    ageHistogram(batch, histogram);
    for (const doc of batch) {
      const id = Number(doc._key.slice(1));
      if (id >= present.length) {
        const grown = new Uint8Array(Math.max(id + 1, present.length * 2));
        grown.set(present);
        present = grown;
      }
      present[id] = 1;
      if (id > maxId) maxId = id;
    }
  }
  return { histogram, profiles: stats.rows, present: present.subarray(0, maxId + 1), maxId, stats };
}

// The graph file, the parameters and the reference answers of graph `g`; `present` marks the ids that hold a
// profile when some id in 1..n does not.
export async function deriveArtefacts({ dir, g, sizes, seed, histogram, present = null, step }) {
  await saveGraph(g, path.join(dir, GRAPH));
  step('drawing parameters');
  const params = deriveParams(g, sizes, seed, present);
  step('computing reference answers');
  const reference = {
    ageHistogram: histogram,
    neighbors: params.neighborStarts.map((id) => neighbors(g, id)),
    neighbors2: params.neighborStarts.map((id) => neighbors2(g, id)),
    pathLengths: params.pathPairs.map(([s, t]) => shortestPathLength(g, s, t, MAX_PATH_DEPTH)),
  };
  return { params, reference };
}

// Writes the parameters, the reference answers and, last, the manifest.
export async function completeDataset(dir, manifest, { params, reference }) {
  await writeFile(path.join(dir, PARAMS), JSON.stringify(params));
  await writeFile(path.join(dir, REFERENCE), JSON.stringify(reference));
  await writeFile(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return datasetObject(dir, manifest, params, reference);
}
