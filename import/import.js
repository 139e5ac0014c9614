// Bulk loading: stream the dataset's files through the adapter's batch import, build the indexes, check the
// counts. Reading a file hashes its bytes in the same pass, and a file that no longer hashes to the manifest's
// sha256 fails the import. A namespace whose marker says it holds this very dataset, completely imported from
// files with the manifest's checksums, is reused without reading the files. An adapter with an offline importer
// (Neo4j's) may take the batches into its own files instead, and load those itself, when it allows that for the
// run's server; the result records the path taken.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { readImportRows } from '../datasets/import-rows.js';
import { createReadStats, readProfiles, readRelations } from '../datasets/read.js';

export const PROFILE_BATCH = 1000;
export const RELATION_BATCH = 10000;

function foreignNamespace(description, options) {
  return new BenchError(ErrorCodes.NAMESPACE_FOREIGN,
    `${description.name}: namespace "${options.namespace}" holds objects that db-shootout did not create; `
    + 'it will not touch them. Choose another --namespace, or remove those objects yourself.');
}

// Makes the namespace one the harness may work in without importing anything (a suite whose data the workloads
// write themselves): created empty when absent, refused when foreign, kept as it is (with any dataset it holds)
// when the harness owns it.
export async function claimNamespace({ adapter, description, options }) {
  const { state } = await adapter.inspectNamespace();
  if (state === 'foreign') throw foreignNamespace(description, options);
  if (state === 'absent') await adapter.resetNamespace();
}

// What a marker records of the dataset it was written for.
function datasetIdentity(dataset) {
  return { dataset: dataset.id, name: dataset.name, scale: dataset.scale, seed: dataset.seed };
}

function describeIdentity({ dataset, name, scale, seed }) {
  return `the dataset ${dataset} (${name} ${scale}, seed ${seed})`;
}

// Why the namespace's data cannot stand for `dataset`; null when it can: its import finished, for this
// dataset, from files with the manifest's checksums, and it still holds the dataset's counts.
async function staleReason(adapter, marker, dataset) {
  if (!marker?.imported) return 'its last import did not finish';
  const identity = datasetIdentity(dataset);
  if (Object.entries(identity).some(([key, value]) => marker[key] !== value)) {
    return `it holds ${describeIdentity(marker)}, not ${describeIdentity(identity)}`;
  }
  if (marker.sha256?.profiles !== dataset.sha256.profiles || marker.sha256?.relations !== dataset.sha256.relations) {
    return "it was imported from files whose checksums differ from the dataset's manifest";
  }
  const counts = await adapter.counts();
  const difference = countsDifference(counts, dataset);
  if (difference !== null) {
    return `it holds ${counts.profiles} profiles and ${counts.relations} relations where the dataset has `
      + `${dataset.profiles} and ${dataset.relations}: ${difference}`;
  }
  return null;
}

// How the database's counts differ from the dataset's, as "250 more relations than the dataset" (a batch stored
// twice) or "1 fewer profile than the dataset"; null when they are equal. More rows are as wrong as fewer.
function countsDifference(counts, dataset) {
  const differences = ['profiles', 'relations'].filter((role) => counts[role] !== dataset[role]).map((role) => {
    const held = counts[role];
    if (!Number.isSafeInteger(held)) return `${role}: ${typeof held} ${String(held)} is not a count`;
    const delta = held - dataset[role];
    return `${Math.abs(delta)} ${delta > 0 ? 'more' : 'fewer'} ${Math.abs(delta) === 1 ? role.slice(0, -1) : role} than the dataset`;
  });
  return differences.length > 0 ? differences.join(' and ') : null;
}

function changedFile(dataset, role, sha256) {
  return new BenchError(ErrorCodes.DATASET, `${dataset.files[role]}: the file read hashes to sha256 ${sha256}, `
    + `but the dataset's manifest records ${dataset.sha256[role]}: the file changed after the dataset was prepared; `
    + `${dataset.changedFileHints[role]}. The data read from it is left in the namespace as an unfinished import, `
    + 'which the next import replaces');
}

// One file into the database, batch by batch, and then what reading it showed checked against the manifest:
// the sha256 of its bytes as stored (a file changed, even with its size kept) and its rows (a file that yields
// fewer or more). Resolves with the sha256. One batch is stored while the next one is read and parsed: for a
// server database the two run on different cores. The adapter still sees one call at a time, in file order (and
// with filesTogether, one call at a time of each file). A `signal` aborted stops it at the next batch.
// `read(file, options)` yields batches (arrays, or { rows, count }) and leaves the file's sha256 in
// `options.digest`.
async function importFile({ dataset, role, read, batchSize, stats, store, bar, signal }) {
  const total = dataset[role];
  const digest = { sha256: null };
  let done = 0;
  let storing = null;
  for await (const batch of read(dataset.files[role], { batchSize, ...dataset.readOptions, stats, digest })) {
    await storing;
    signal?.throwIfAborted();
    bar?.update(done);
    storing = store(batch);
    // Its failure is raised by the next `await storing`; until then it must not count as unhandled.
    storing.catch(() => {});
    done += batch.count ?? batch.length;
  }
  await storing;
  bar?.stop(done);
  const { sha256 } = digest;
  if (sha256 !== dataset.sha256[role]) throw changedFile(dataset, role, sha256);
  if (done !== total) {
    throw new BenchError(ErrorCodes.DATASET, `${dataset.files[role]}: read ${done} rows where the dataset's manifest says ${total}`);
  }
  return sha256;
}

// A reader on this thread, hashing as it reads.
function hashed(reader) {
  return async function* read(file, { digest, ...options }) {
    const hash = createHash('sha256');
    yield* reader(file, { ...options, hash });
    digest.sha256 = hash.digest('hex');
  };
}

// How a file reaches `store`: as documents or relations (importProfiles, importRelations), or, for an adapter
// that declares profileRows() or relationRows(), as the rows its format makes on the reader's thread
// (importProfileRows, importRelationRows), which leaves this thread free to send them.
async function fileReader(store, role) {
  const [declared, rows, plain, reader] = role === 'profiles'
    ? ['profileRows', 'importProfileRows', 'importProfiles', readProfiles]
    : ['relationRows', 'importRelationRows', 'importRelations', readRelations];
  const format = (await store[declared]?.()) ?? null;
  if (format === null) return { read: hashed(reader), store: (batch) => store[plain](batch) };
  return {
    read: (file, options) => readImportRows(file, { ...options, role, format }),
    store: (batch) => store[rows](batch.rows, batch.count),
  };
}

// Work without countable steps (the server's own, mostly), shown as a step of one: the time it has taken so far.
async function untilDone(progress, label, work) {
  const shown = progress?.bar(label, 1);
  try {
    return await work();
  } finally {
    shown?.stop();
  }
}

// Below this many profiles an offline importer's fixed costs (a JVM and an engine started, a server restarted or
// a database swapped: about a minute here) outweigh what it saves, so `auto` imports online.
export const OFFLINE_MIN_PROFILES = 100_000;
export const IMPORT_PATHS = Object.freeze(['auto', 'offline', 'online']);

// `--import-path` as importDataset takes it: 'auto', 'offline', 'online', or a boolean (true: 'offline').
function importPath(offline) {
  if (offline === true) return 'offline';
  if (offline === false) return 'online';
  return offline;
}

// The adapter's offline importer when it has one, the path asked for allows it (`auto`: for a dataset of at least
// OFFLINE_MIN_PROFILES profiles) and the adapter allows it for `server` (the local server process the run knows, as
// cli/options.js serverProcess gives it): `{ path: 'offline', importer }`. Otherwise the online path, with the
// reason when the database has an offline importer.
async function choosePath({ adapter, server, offline, marker, dataset }) {
  if (!adapter.offlineImport) return { path: 'online' };
  const mode = importPath(offline);
  if (mode === 'online') return { path: 'online', onlineBecause: 'the online path was asked for' };
  if (mode === 'auto' && dataset.profiles < OFFLINE_MIN_PROFILES) {
    return {
      path: 'online',
      onlineBecause: `the dataset has fewer than ${OFFLINE_MIN_PROFILES.toLocaleString('en-US')} profiles, where the offline importer's start-up costs more than it saves (--import-path offline takes it anyway)`,
    };
  }
  const { refused, importer } = await adapter.offlineImport({ server, marker });
  return refused ? { path: 'online', onlineBecause: refused } : { path: 'offline', importer };
}

// Resolves with the import's timings and `sha256`, the checksums of the files as this import read them, or as
// the reused import's marker records them (equal to the manifest's: reuse requires it). `server`: the local
// server process the run knows, or null; `offline`: the path asked for (`--import-path`: 'auto', 'offline' where
// the adapter allows it, 'online').
export async function importDataset({
  adapter, description, options, dataset, force = false, progress, server = null, offline = 'auto',
}) {
  const namespace = await adapter.inspectNamespace();
  if (namespace.state === 'foreign') throw foreignNamespace(description, options);

  if (!force && namespace.state === 'owned') {
    const reason = await staleReason(adapter, namespace.marker, dataset);
    if (reason === null) {
      const { importedAt, timings, sha256 } = namespace.marker;
      return { reused: true, importedAt, ...timings, sha256 };
    }
    progress?.log(`${description.name}: not reusing the data in the namespace (${reason}); importing again`);
  }

  // Written incomplete first, so that an import that fails on the way is never taken for a finished one.
  const marker = { harness: 'db-shootout', ...datasetIdentity(dataset), imported: false };
  const { path, onlineBecause, importer } = await choosePath({ adapter, server, offline, marker, dataset });
  if (onlineBecause) progress?.log(`${description.name}: importing online (${onlineBecause})`);
  // The offline importer replaces the whole database, the namespace's old data with it: nothing to clear first.
  if (!importer) await untilDone(progress, `${description.name}: clearing the namespace`, () => adapter.resetNamespace());
  await adapter.writeMarker(marker);
  try {
    const timings = await importFiles({ adapter, description, dataset, progress, importer });
    Object.assign(timings, { path, ...(onlineBecause && { onlineBecause }) });
    const importedAt = new Date().toISOString();
    await adapter.writeMarker({ ...marker, sha256: timings.sha256, imported: true, importedAt, timings: withoutSha(timings) });
    return { reused: false, importedAt, ...timings };
  } finally {
    await importer?.discard();
  }
}

function withoutSha({ sha256, ...timings }) {
  return timings;
}

// The files into the database: through the adapter's batches, or through the offline importer's files and its
// load. Resolves with the timings and the files' checksums, once the counts are checked. An adapter whose
// filesTogether() resolves true loads both files at once (its server on a session for each): the relations are
// read first, and the profiles as soon as the last relation batch is stored, while flushRelations() waits for
// the server to finish them (MySQL: sort their indexes). Reading both from the start measured slower (MySQL, full
// scale: 142.6 s against 130.6 s; the two files' readers and the two loads on two cores); a failure of either
// file stops the other.
async function importFiles({ adapter, description, dataset, progress, importer }) {
  const store = importer ?? adapter;
  const together = !importer && (await adapter.filesTogether?.()) === true;

  const begin = performance.now();
  // The dataset's own reading rules (skipBad for the real Pokec files), and what reading met on the way.
  const read = { profiles: createReadStats(), relations: createReadStats() };
  const sha256 = {};
  const halt = new AbortController();
  const profilesFile = async () => {
    const start = together ? performance.now() : begin;
    const profiles = await fileReader(store, 'profiles');
    sha256.profiles = await importFile({
      dataset, role: 'profiles', read: profiles.read, batchSize: PROFILE_BATCH, stats: read.profiles,
      store: profiles.store, signal: halt.signal,
      bar: progress?.bar(`${importer ? 'write profiles for' : 'import profiles into'} ${description.name}`, dataset.profiles),
    });
    if (!importer && adapter.flushProfiles) {
      await untilDone(progress, `${description.name}: finishing the profiles`, () => adapter.flushProfiles());
    }
    return { start, end: performance.now() };
  };
  const relationsFile = async (stored = () => {}) => {
    const relations = await fileReader(store, 'relations');
    sha256.relations = await importFile({
      dataset, role: 'relations', read: relations.read, batchSize: RELATION_BATCH, stats: read.relations,
      store: relations.store, signal: halt.signal,
      bar: progress?.bar(`${importer ? 'write relations for' : 'import relations into'} ${description.name}`, dataset.relations),
    });
    stored();
    if (!importer && adapter.flushRelations) {
      await untilDone(progress, `${description.name}: finishing the relations`, () => adapter.flushRelations({
        bar: progress && ((label, total) => progress.bar(`${label} (${description.name})`, total)),
      }));
    }
    return performance.now();
  };
  let profilesTime;
  let relationsDone;
  if (together) {
    const stored = deferred();
    let failed = false;
    const relations = relationsFile(stored.resolve).catch((error) => {
      failed = true;
      throw error;
    });
    // The profiles begin once the last relation batch is stored; never when the relations fail first.
    const begun = Promise.race([stored.promise, relations.then(() => {}, () => {})]);
    [relationsDone, profilesTime] = await allOrStop(halt, [relations, begun.then(() => (failed ? null : profilesFile()))]);
  } else {
    profilesTime = await profilesFile();
    relationsDone = await relationsFile();
  }
  // Each file's time runs from its first batch to its flush's end: together, they overlap.
  const profilesDone = profilesTime.end;
  const profilesMs = profilesTime.end - profilesTime.start;
  const relationsBegin = together ? begin : profilesDone;
  const filesDone = Math.max(profilesDone, relationsDone);
  const loadSteps = importer
    && await untilDone(progress, `${description.name}: importing the files offline and replacing the database`, () => importer.load());
  const loadDone = importer ? performance.now() : filesDone;
  await untilDone(progress, `${description.name}: creating indexes`, () => adapter.createIndexes());
  const end = performance.now();

  const counts = await untilDone(progress, `${description.name}: counting`, () => adapter.counts());
  const difference = countsDifference(counts, dataset);
  if (difference !== null) {
    throw new BenchError(ErrorCodes.IMPORT,
      `${description.name} holds ${counts.profiles} profiles and ${counts.relations} relations after import; `
      + `the dataset has ${dataset.profiles} and ${dataset.relations}: ${difference}`);
  }
  return {
    ms: round3(end - begin),
    ...(together && { filesTogether: true }),
    profilesMs: round3(profilesMs),
    relationsMs: round3(relationsDone - relationsBegin),
    // The offline importer's own time, the database's replacement included: the files above were only written.
    ...(importer && { loadMs: round3(loadDone - filesDone), loadSteps }),
    indexesMs: round3(end - loadDone),
    profilesPerSec: Math.round(dataset.profiles / (profilesMs / 1000)),
    relationsPerSec: Math.round(dataset.relations / ((relationsDone - relationsBegin) / 1000)),
    read: {
      profiles: { repairedLines: read.profiles.repairedLines, skippedLines: read.profiles.skippedLines },
      relations: { repairedLines: read.relations.repairedLines, skippedLines: read.relations.skippedLines },
    },
    sha256,
  };
}

function deferred() {
  let resolve;
  const promise = new Promise((done) => { resolve = done; });
  return { promise, resolve };
}

// The values of `works`, once all are done; the first failure stops the others (through `halt`) and, once
// they have stopped, is thrown.
async function allOrStop(halt, works) {
  const settled = await Promise.allSettled(works.map((work) => work.catch((error) => {
    halt.abort(error);
    throw error;
  })));
  if (settled.some(({ status }) => status === 'rejected')) throw halt.signal.reason;
  return settled.map(({ value }) => value);
}

function round3(value) {
  return Math.round(value * 1000) / 1000;
}
