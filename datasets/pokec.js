// The real Pokec: SNAP's two files as `bench data fetch pokec` leaves them in <cache>/datasets/pokec/ (gzip'd,
// read as they are; unpacked copies are accepted too), and the artefacts of directory.js derived from them
// into <cache>/datasets/pokec-<scale>-s<seed>. The scale sets only the sizes of the query parameters: the
// profiles and relations are the files'. What the dataset holds, exactly (datasets/README.md):
// - the profiles: every line of the profile file; with skipBad, every well-formed one;
// - the relations: the distinct pairs of the relation file whose two ids both hold a profile. They are written
//   once more, distinct and sorted, into the dataset directory, and that file is what the databases import,
//   so the databases, the graph and the reference answers hold the same relations. The lines dropped on the
//   way (duplicates, ids without a profile) are counted in the manifest's readStats.
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { MANIFEST, completeDataset, deriveArtefacts, fileRecord, openDataset, preparedOnce, scanProfiles, sha256 } from './directory.js';
import { POKEC_PROFILES_GZ, POKEC_RELATIONS_GZ, pokecDir, readFetchManifest } from './fetch.js';
import { writeRelations } from './generate.js';
import { buildGraph } from './graph.js';
import { createReadStats, loadRelationIds } from './read.js';
import { scaleSizes } from './scales.js';

const NAME = 'pokec';
// Bump whenever the preparation of the same files gives a different dataset: prepared copies carry it.
export const POKEC_VERSION = 1;
const RELATIONS_FILE = 'soc-pokec-relationships.distinct.txt';

async function fileSize(file) {
  return stat(file).then((info) => info.size, () => null);
}

// The two source files, as manifest records relative to the dataset directory `dir`. The sha256 comes from the
// download's manifest when the size still matches it, so that preparing again does not read 540 MB to hash.
async function sourceFiles(cacheDir, dir) {
  const sourceDir = pokecDir(cacheDir);
  const fetched = await readFetchManifest(sourceDir);
  const found = {};
  for (const [role, gzName] of [['profiles', POKEC_PROFILES_GZ], ['relations', POKEC_RELATIONS_GZ]]) {
    let name = null;
    let bytes = null;
    for (const candidate of [gzName, gzName.replace(/\.gz$/, '')]) {
      bytes = await fileSize(path.join(sourceDir, candidate));
      if (bytes !== null) { name = candidate; break; }
    }
    if (name === null) {
      throw new BenchError(ErrorCodes.DATASET, `the real Pokec files are not in ${sourceDir} (${gzName} is missing): `
        + 'run `bench data fetch pokec` to download them, or leave out --dataset pokec to use the synthetic dataset');
    }
    const file = path.join(sourceDir, name);
    const record = fetched.files?.[name];
    found[role] = {
      name: path.relative(dir, file),
      bytes,
      sha256: record?.bytes === bytes && record.sha256 ? record.sha256 : await sha256(file),
    };
  }
  return found;
}

function isCurrent(manifest, { scale, seed, skipBad, sources }) {
  return manifest?.name === NAME && manifest.preparationVersion === POKEC_VERSION
    && manifest.scale === scale && manifest.seed === seed && manifest.skipBad === skipBad
    && JSON.stringify(manifest.sizes) === JSON.stringify(scaleSizes(scale))
    && manifest.files.profiles.sha256 === sources.profiles.sha256
    && manifest.source?.relations?.sha256 === sources.relations.sha256;
}

// Keeps, in place, the pairs whose two ids hold a profile; returns how many.
function keepProfilePairs(from, to, present) {
  const n = present.length - 1;
  let kept = 0;
  for (let i = 0; i < from.length; i += 1) {
    const a = from[i];
    const b = to[i];
    if (a <= n && b <= n && present[a] === 1 && present[b] === 1) {
      from[kept] = a;
      to[kept] = b;
      kept += 1;
    }
  }
  return kept;
}

async function writePokec({ dir, scale, seed, skipBad, sources, onProgress }) {
  const sizes = scaleSizes(scale);
  const step = (phase) => onProgress?.({ phase, done: 0, total: 1 });
  await mkdir(dir, { recursive: true });
  await rm(path.join(dir, MANIFEST), { force: true });

  step('reading profiles');
  const scan = await scanProfiles(path.join(dir, sources.profiles.name), { skipBad });
  if (scan.profiles === 0) throw new BenchError(ErrorCodes.DATASET, `${path.join(dir, sources.profiles.name)} holds no profile`);
  step('reading relations');
  const relationStats = createReadStats();
  const ids = await loadRelationIds(path.join(dir, sources.relations.name), { skipBad, stats: relationStats });
  step('building the graph');
  const kept = keepProfilePairs(ids.from, ids.to, scan.present);
  const g = buildGraph(scan.maxId, ids.from.subarray(0, kept), ids.to.subarray(0, kept));
  await writeRelations(path.join(dir, RELATIONS_FILE), { offsets: g.outOffsets, targets: g.outTargets }, g.n);
  const dense = scan.profiles === scan.maxId;
  const artefacts = await deriveArtefacts({
    dir, g, sizes, seed, histogram: scan.histogram, present: dense ? null : scan.present, step,
  });
  step('checksums');
  const fingerprint = `${sources.profiles.sha256.slice(0, 8)}${sources.relations.sha256.slice(0, 8)}`;
  const manifest = {
    name: NAME,
    id: `${NAME}-${scale}-s${seed}-p${POKEC_VERSION}-${fingerprint}${skipBad ? '-skip-bad' : ''}`,
    preparationVersion: POKEC_VERSION,
    scale,
    seed,
    sizes,
    skipBad,
    profiles: scan.profiles,
    relations: g.outTargets.length,
    files: { profiles: sources.profiles, relations: await fileRecord(dir, RELATIONS_FILE) },
    source: { relations: sources.relations },
    readStats: {
      profiles: scan.stats,
      relations: relationStats,
      relationsDropped: { withoutProfile: ids.count - kept, duplicates: kept - g.outTargets.length },
    },
  };
  const dataset = await completeDataset(dir, manifest, artefacts);
  // The last phase ends here; the others end where the next one starts.
  onProgress?.({ phase: 'checksums', done: 1, total: 1 });
  return dataset;
}

export async function preparePokec({ scale, seed, cacheDir, onProgress, skipBad = false }) {
  const dir = path.join(cacheDir, 'datasets', `${NAME}-${scale}-s${seed}${skipBad ? '-skip-bad' : ''}`);
  const sources = await sourceFiles(cacheDir, dir);
  return preparedOnce(dir, {
    current: (manifest) => isCurrent(manifest, { scale, seed, skipBad, sources }),
    open: () => openDataset(dir),
    write: () => writePokec({ dir, scale, seed, skipBad, sources, onProgress }),
    onProgress,
  });
}
