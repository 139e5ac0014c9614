// Bulk loading: stream the dataset's files through the adapter's batch import, build the indexes,
// check the counts. A namespace that already holds this very dataset, completely imported, is reused.
import { performance } from 'node:perf_hooks';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { createReadStats, readProfiles, readRelations } from '../datasets/read.js';

export const PROFILE_BATCH = 1000;
export const RELATION_BATCH = 10000;

function foreignNamespace(description, options) {
  return new BenchError(ErrorCodes.NAMESPACE_FOREIGN,
    `${description.name}: namespace "${options.namespace}" holds objects that db-shootout did not create; `
    + 'it will not touch them. Choose another --namespace, or remove those objects yourself.');
}

// One batch is stored while the next one is read and parsed: for a server database the two run on
// different cores. The adapter still sees one call at a time, in file order.
async function importFile(batches, store, total, bar) {
  let done = 0;
  let storing = null;
  for await (const batch of batches) {
    await storing;
    bar?.update(done);
    storing = store(batch);
    // Its failure is raised by the next `await storing`; until then it must not count as unhandled.
    storing.catch(() => {});
    done += batch.length;
  }
  await storing;
  bar?.stop(done);
  if (done !== total) {
    throw new BenchError(ErrorCodes.DATASET, `read ${done} rows where the dataset's manifest says ${total}`);
  }
}

export async function importDataset({ adapter, description, options, dataset, force = false, progress }) {
  const namespace = await adapter.inspectNamespace();
  if (namespace.state === 'foreign') throw foreignNamespace(description, options);
  const expected = { profiles: dataset.profiles, relations: dataset.relations };

  if (!force && namespace.state === 'owned' && namespace.marker?.dataset === dataset.id && namespace.marker?.imported) {
    const counts = await adapter.counts();
    if (counts.profiles === expected.profiles && counts.relations === expected.relations) {
      return { reused: true, importedAt: namespace.marker.importedAt, ...namespace.marker.timings };
    }
    progress?.log(`${description.name}: the imported data no longer matches the dataset's counts; importing again`);
  }

  const marker = { harness: 'db-shootout', dataset: dataset.id, imported: false };
  await adapter.resetNamespace();
  await adapter.writeMarker(marker);

  const begin = performance.now();
  // The dataset's own reading rules (skipBad for the real Pokec files), and what reading met on the way.
  const readOptions = dataset.readOptions ?? {};
  const read = { profiles: createReadStats(), relations: createReadStats() };
  await importFile(readProfiles(dataset.files.profiles, { batchSize: PROFILE_BATCH, ...readOptions, stats: read.profiles }),
    (batch) => adapter.importProfiles(batch), expected.profiles,
    progress?.bar(`import profiles into ${description.name}`, expected.profiles));
  await adapter.flushProfiles?.();
  const profilesDone = performance.now();
  await importFile(readRelations(dataset.files.relations, { batchSize: RELATION_BATCH, ...readOptions, stats: read.relations }),
    (batch) => adapter.importRelations(batch), expected.relations,
    progress?.bar(`import relations into ${description.name}`, expected.relations));
  if (adapter.flushRelations) {
    progress?.log(`${description.name}: finishing the relations`);
    await adapter.flushRelations({ bar: progress && ((label, total) => progress.bar(`${label} (${description.name})`, total)) });
  }
  const relationsDone = performance.now();
  progress?.log(`${description.name}: creating indexes`);
  await adapter.createIndexes();
  const end = performance.now();

  const counts = await adapter.counts();
  if (counts.profiles !== expected.profiles || counts.relations !== expected.relations) {
    throw new BenchError(ErrorCodes.IMPORT,
      `${description.name} holds ${counts.profiles} profiles and ${counts.relations} relations after import; `
      + `the dataset has ${expected.profiles} and ${expected.relations}`);
  }
  const timings = {
    ms: round3(end - begin),
    profilesMs: round3(profilesDone - begin),
    relationsMs: round3(relationsDone - profilesDone),
    indexesMs: round3(end - relationsDone),
    profilesPerSec: Math.round(expected.profiles / ((profilesDone - begin) / 1000)),
    relationsPerSec: Math.round(expected.relations / ((relationsDone - profilesDone) / 1000)),
    read: {
      profiles: { repairedLines: read.profiles.repairedLines, skippedLines: read.profiles.skippedLines },
      relations: { repairedLines: read.relations.repairedLines, skippedLines: read.relations.skippedLines },
    },
  };
  const importedAt = new Date().toISOString();
  await adapter.writeMarker({ ...marker, imported: true, importedAt, timings });
  return { reused: false, importedAt, ...timings };
}

function round3(value) {
  return Math.round(value * 1000) / 1000;
}
