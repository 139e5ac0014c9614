// A dataset directory: the two SNAP files, the graph, the query parameters, the reference answers, and a
// manifest written last, so that a directory with a manifest is complete.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { GENERATOR_VERSION, PROFILES_FILE, RELATIONS_FILE, generate } from './generate.js';
import { buildGraph, loadGraph, saveGraph } from './graph.js';
import { deriveParams } from './params.js';
import { loadProfiles, loadRelationIds, readProfiles } from './read.js';
import { ageHistogram, neighbors, neighbors2, shortestPathLength } from './reference.js';
import { DEFAULT_SEED, MAX_PATH_DEPTH, scaleSizes } from './scales.js';

const NAME = 'synthetic';
const MANIFEST = 'manifest.json';
const PARAMS = 'params.json';
const REFERENCE = 'reference.json';
const GRAPH = 'graph.bin';

async function sha256(file) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk);
  return hash.digest('hex');
}

async function fileRecord(dir, name) {
  const file = path.join(dir, name);
  return { name, bytes: (await stat(file)).size, sha256: await sha256(file) };
}

async function readJson(file) {
  return JSON.parse(await readFile(file, 'utf8'));
}

// Null when the directory holds no readable manifest.
async function readManifest(dir) {
  try {
    return await readJson(path.join(dir, MANIFEST));
  } catch {
    return null;
  }
}

function regenerateHint(dir) {
  return `delete ${dir} to generate the dataset again`;
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
        + `the file changed after it was generated; ${regenerateHint(dir)}`);
    }
  }
}

function datasetObject(dir, manifest, params, reference) {
  const files = {
    profiles: path.join(dir, manifest.files.profiles.name),
    relations: path.join(dir, manifest.files.relations.name),
  };
  return {
    id: `${manifest.name}-${manifest.scale}-s${manifest.seed}-g${manifest.generatorVersion}`,
    name: manifest.name,
    scale: manifest.scale,
    seed: manifest.seed,
    dir,
    profiles: manifest.profiles,
    relations: manifest.relations,
    files,
    sha256: { profiles: manifest.files.profiles.sha256, relations: manifest.files.relations.sha256 },
    sizes: manifest.sizes,
    params,
    reference,
    async loadGraph() {
      try {
        return await loadGraph(path.join(dir, GRAPH));
      } catch (error) {
        throw new BenchError(ErrorCodes.DATASET, `${error.message}; ${regenerateHint(dir)}`, { cause: error });
      }
    },
    loadProfiles: (ids) => loadProfiles(files.profiles, ids ? new Set(ids) : null),
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

async function countAges(file) {
  const histogram = {};
  let profiles = 0;
  for await (const batch of readProfiles(file)) {
    ageHistogram(batch, histogram);
    profiles += batch.length;
  }
  return { histogram, profiles };
}

// Generates the files into `dir` and derives everything else from the files as written.
export async function writeDataset({ dir, scale, seed = DEFAULT_SEED, onProgress }) {
  const sizes = scaleSizes(scale);
  const step = (phase) => onProgress?.({ phase, done: 0, total: 1 });
  await rm(path.join(dir, MANIFEST), { force: true });
  await generate({ dir, scale, seed, onProgress });
  const profilesFile = path.join(dir, PROFILES_FILE);
  const relationsFile = path.join(dir, RELATIONS_FILE);

  step('reading profiles');
  const ages = await countAges(profilesFile);
  step('building the graph');
  const ids = await loadRelationIds(relationsFile);
  const g = buildGraph(ages.profiles, ids.from, ids.to);
  await saveGraph(g, path.join(dir, GRAPH));
  step('drawing parameters');
  const params = deriveParams(g, sizes, seed);
  step('computing reference answers');
  const reference = {
    ageHistogram: ages.histogram,
    neighbors: params.neighborStarts.map((id) => neighbors(g, id)),
    neighbors2: params.neighborStarts.map((id) => neighbors2(g, id)),
    pathLengths: params.pathPairs.map(([s, t]) => shortestPathLength(g, s, t, MAX_PATH_DEPTH)),
  };
  step('checksums');
  const manifest = {
    name: NAME,
    generatorVersion: GENERATOR_VERSION,
    scale,
    seed,
    sizes,
    profiles: ages.profiles,
    relations: ids.count,
    files: { profiles: await fileRecord(dir, PROFILES_FILE), relations: await fileRecord(dir, RELATIONS_FILE) },
  };
  await writeFile(path.join(dir, PARAMS), JSON.stringify(params));
  await writeFile(path.join(dir, REFERENCE), JSON.stringify(reference));
  await writeFile(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return datasetObject(dir, manifest, params, reference);
}

// The cached dataset of this scale and seed, generated on first use.
export async function prepareDataset({ scale, seed = DEFAULT_SEED, cacheDir, onProgress }) {
  scaleSizes(scale);
  const dir = path.join(cacheDir, 'datasets', `${NAME}-${scale}-s${seed}`);
  const manifest = await readManifest(dir);
  const current = manifest?.name === NAME && manifest.generatorVersion === GENERATOR_VERSION
    && manifest.scale === scale && manifest.seed === seed
    && JSON.stringify(manifest.sizes) === JSON.stringify(scaleSizes(scale));
  return current ? openDataset(dir) : writeDataset({ dir, scale, seed, onProgress });
}
