// The datasets: the synthetic Pokec, generated into the cache on first use (the default), or the real Pokec
// files that `bench data fetch pokec` downloads (pokec.js). Either way a directory of directory.js.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { usageError } from '../core/errors.js';
import { GENERATOR_VERSION, PROFILES_FILE, RELATIONS_FILE, generate } from './generate.js';
import { buildGraph } from './graph.js';
import { MANIFEST, completeDataset, deriveArtefacts, fileRecord, openDataset, preparedOnce, scanProfiles } from './directory.js';
import { preparePokec } from './pokec.js';
import { loadRelationIds } from './read.js';
import { DEFAULT_SEED, scaleSizes } from './scales.js';

export { openDataset };

const NAME = 'synthetic';
export const DATASET_NAMES = Object.freeze([NAME, 'pokec']);

// Generates the files into `dir` and derives everything else from the files as written.
export async function writeDataset({ dir, scale, seed = DEFAULT_SEED, onProgress }) {
  const sizes = scaleSizes(scale);
  const step = (phase) => onProgress?.({ phase, done: 0, total: 1 });
  await rm(path.join(dir, MANIFEST), { force: true });
  await generate({ dir, scale, seed, onProgress });
  const profilesFile = path.join(dir, PROFILES_FILE);
  const relationsFile = path.join(dir, RELATIONS_FILE);

  step('reading profiles');
  const ages = await scanProfiles(profilesFile);
  step('building the graph');
  const ids = await loadRelationIds(relationsFile);
  const g = buildGraph(ages.profiles, ids.from, ids.to);
  const artefacts = await deriveArtefacts({ dir, g, sizes, seed, histogram: ages.histogram, step });
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
  const dataset = await completeDataset(dir, manifest, artefacts);
  // The last phase ends here; the others end where the next one starts.
  onProgress?.({ phase: 'checksums', done: 1, total: 1 });
  return dataset;
}

async function prepareSynthetic({ scale, seed, cacheDir, onProgress }) {
  const dir = path.join(cacheDir, 'datasets', `${NAME}-${scale}-s${seed}`);
  return preparedOnce(dir, {
    current: (manifest) => manifest?.name === NAME && manifest.generatorVersion === GENERATOR_VERSION
      && manifest.scale === scale && manifest.seed === seed
      && JSON.stringify(manifest.sizes) === JSON.stringify(scaleSizes(scale)),
    open: () => openDataset(dir),
    write: () => writeDataset({ dir, scale, seed, onProgress }),
    onProgress,
  });
}

// The cached dataset of this scale and seed, prepared on first use. `dataset` is "synthetic" (generated) or
// "pokec" (the downloaded files; the scale then sets only the query parameters' sizes). `skipBad` skips and
// counts malformed lines of the real files instead of stopping at the first.
export async function prepareDataset({ scale, seed = DEFAULT_SEED, cacheDir, onProgress, dataset = NAME, skipBad = false }) {
  scaleSizes(scale);
  if (dataset === 'pokec') return preparePokec({ scale, seed, cacheDir, onProgress, skipBad });
  if (dataset !== NAME) throw usageError(`unknown dataset "${dataset}"; valid datasets: ${DATASET_NAMES.join(', ')}`);
  return prepareSynthetic({ scale, seed, cacheDir, onProgress });
}
