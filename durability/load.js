// The load a crash test puts on a database: profile-like documents inserted through one write operation of
// the adapter with `concurrency` inserts in flight, each key logged once its insert resolved.
import { performance } from 'node:perf_hooks';
import { readProfiles } from '../datasets/read.js';
import { connectAdapter } from '../runner/run.js';

// How many distinct documents the inserts cycle through (each under a key of its own).
const DOCUMENTS = 1000;
const FAILURE_PAUSE_MS = 10;

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

// Inserts with `insert(adapter, collection, doc)` (see insertFor) until stop() or until an insert fails; with
// `throughFailures`, past a failed insert too (counted in `failures`, its key never logged: a failure is not an
// acknowledgement), the next one a moment later. `firstAck` resolves with the first acknowledgement (or once the
// load ended without any); `done` once no insert is in flight: { acknowledged, error }. `acks` holds every
// acknowledgement's time. Acknowledgements that arrive after stop() are logged too: the database sent them before it
// went away.
export function streamInserts({ adapter, insert, collection, documents, concurrency, log, trial, throughFailures = false }) {
  let next = 0;
  let stopping = false;
  let acknowledged = 0;
  let error = null;
  let firstAck;
  const acks = [];
  const failures = [];
  const first = new Promise((resolve) => { firstAck = resolve; });
  const worker = async () => {
    while (!stopping) {
      const i = next;
      next += 1;
      const key = insertKey(trial, i);
      try {
        await insert(adapter, collection, { ...documents[i % documents.length], _key: key });
      } catch (failure) {
        if (throughFailures) {
          failures.push({ at: performance.now(), message: failure.message });
          // A node that refuses at once would otherwise spin.
          await sleep(FAILURE_PAUSE_MS);
          continue;
        }
        error ??= failure;
        stopping = true;
        return;
      }
      log.record(key);
      acknowledged += 1;
      acks.push(performance.now());
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
    acks,
    failures,
    stop() {
      stopping = true;
    },
    get acknowledged() {
      return acknowledged;
    },
  };
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Whether `promise` settled within `ms`: a driver whose server died may never settle some promises, and a crash test
// goes on without them.
export function settled(promise, ms) {
  return Promise.race([promise.then(() => true, () => true), sleep(ms).then(() => false)]);
}

// `use(adapter)` on an adapter connected for it alone, closed however it ends.
export async function withAdapter(description, options, use) {
  const adapter = await connectAdapter(description, options);
  try {
    return await use(adapter);
  } finally {
    await adapter.close();
  }
}
