// The load a crash test puts on a database: profile-like documents inserted through one write operation of
// the adapter with `concurrency` inserts in flight, each key logged once its insert resolved.
import { readProfiles } from '../datasets/read.js';

// How many distinct documents the inserts cycle through (each under a key of its own).
const DOCUMENTS = 1000;

// The first profiles of a dataset's file, as the bodies of the inserts.
export async function loadDocuments(file) {
  for await (const batch of readProfiles(file, { batchSize: DOCUMENTS })) return batch;
  return [];
}

export const insertKey = (trial, i) => `C${trial}x${i}`;

export const WRITE_MODES = Object.freeze(['singleWrite', 'singleWriteSync']);

// How a write mode inserts one document: through the operation of that name, or, for an adapter of the crud
// suite, through insertDocument with the acknowledgement the mode stands for (singleWriteSync: durable). Null
// when the adapter offers neither.
export function insertFor(description, mode) {
  if (description.supports.includes(mode)) return (adapter, collection, doc) => adapter[mode](collection, doc);
  if (description.supports.includes('insertDocument')) {
    const durable = mode === 'singleWriteSync';
    return (adapter, collection, doc) => adapter.insertDocument(collection, doc, { durable });
  }
  return null;
}

// The write modes a crash test can load the database with.
export const crashModes = (description) => WRITE_MODES.filter((mode) => insertFor(description, mode) !== null);

// Inserts with `insert(adapter, collection, doc)` (see insertFor) until stop() or until an insert fails.
// `firstAck` resolves with the first acknowledgement (or once the load ended without any); `done` once no insert
// is in flight: { acknowledged, error }. Acknowledgements that arrive after stop() are logged too: the database
// sent them before it went away.
export function streamInserts({ adapter, insert, collection, documents, concurrency, log, trial }) {
  let next = 0;
  let stopping = false;
  let acknowledged = 0;
  let error = null;
  let firstAck;
  const first = new Promise((resolve) => { firstAck = resolve; });
  const worker = async () => {
    while (!stopping) {
      const i = next;
      next += 1;
      const key = insertKey(trial, i);
      try {
        await insert(adapter, collection, { ...documents[i % documents.length], _key: key });
      } catch (failure) {
        error ??= failure;
        stopping = true;
        return;
      }
      log.record(key);
      acknowledged += 1;
      firstAck();
    }
  };
  const done = Promise.all(Array.from({ length: concurrency }, worker)).then(() => {
    firstAck();
    return { acknowledged, error };
  });
  return {
    firstAck: first,
    done,
    stop() {
      stopping = true;
    },
    get acknowledged() {
      return acknowledged;
    },
  };
}
