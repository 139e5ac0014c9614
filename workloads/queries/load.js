// Loading the queries suite's collections: per size, one collection in the namespace, filled through the
// adapter's bulk path in batches, indexed, counted. A collection the namespace's marker records for the same
// documents (count, groups, generation) and whose count still matches is reused; any other is loaded again, one
// whose count differs after saying so.
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { claimNamespace } from '../../import/import.js';
import { GENERATION, SIZES, collectionName, groupsOf, queryDocuments } from './data.js';

export const BATCH = 10_000;

const identity = (documents) => ({ documents, groups: groupsOf(documents), generation: GENERATION });

function sameIdentity(stored, wanted) {
  return Boolean(stored) && Object.entries(wanted).every(([name, value]) => stored[name] === value);
}

async function storedMarker(adapter) {
  const { marker } = await adapter.inspectNamespace();
  return marker ?? {};
}

async function loadCollection({ adapter, name, documents, progress }) {
  const started = performance.now();
  await adapter.createQueryCollection(name);
  const bar = progress?.bar(`loading ${name}`, documents);
  try {
    for (let from = 0; from < documents; from += BATCH) {
      const to = Math.min(documents, from + BATCH);
      await adapter.importQueryDocuments(name, queryDocuments(from, to, documents));
      bar?.update(to);
    }
  } finally {
    bar?.stop();
  }
  const documentsMs = performance.now() - started;
  await adapter.indexQueryCollection(name);
  const ms = performance.now() - started;
  const count = await adapter.countQueryDocuments(name);
  if (count !== documents) {
    throw new BenchError(ErrorCodes.IMPORT, `loading ${name} stored ${count} documents, not ${documents}`);
  }
  return {
    documents, reused: false, ms: round1(ms), documentsMs: round1(documentsMs), indexesMs: round1(ms - documentsMs),
    documentsPerSec: Math.round((documents / ms) * 1000),
  };
}

// Resolves { reused, ms, collections: { <size>: { documents, reused, ms, documentsMs, indexesMs, documentsPerSec } } }.
export async function loadQueryCollections({ adapter, description, options, sizes, reimport, progress }) {
  await claimNamespace({ adapter, description, options });
  const collections = {};
  for (const size of sizes) {
    const name = collectionName(size);
    const documents = SIZES[size];
    const marker = await storedMarker(adapter);
    const wanted = identity(documents);
    if (!reimport && sameIdentity(marker.queries?.[name], wanted)) {
      const count = await adapter.countQueryDocuments(name);
      if (count === documents) {
        progress?.log(`reusing ${name}: ${documents.toLocaleString('en-US')} documents, loaded before`);
        collections[size] = { documents, reused: true };
        continue;
      }
      progress?.log(`${name} holds ${count.toLocaleString('en-US')} documents of ${documents.toLocaleString('en-US')}: loading it again`);
    }
    // The marker forgets the collection first, so that a load that stops half way is never taken for a whole one.
    const { [name]: previous, ...others } = marker.queries ?? {};
    if (previous) await adapter.writeMarker({ ...marker, queries: others });
    collections[size] = await loadCollection({ adapter, name, documents, progress });
    const current = await storedMarker(adapter);
    await adapter.writeMarker({ ...current, queries: { ...current.queries, [name]: wanted } });
  }
  const loaded = Object.values(collections).filter((entry) => !entry.reused);
  return {
    reused: loaded.length === 0,
    ms: round1(loaded.reduce((sum, entry) => sum + entry.ms, 0)),
    collections,
  };
}

function round1(value) {
  return Math.round(value * 10) / 10;
}
