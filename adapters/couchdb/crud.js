// The crud suite's document operations, one HTTP request each when the document's revision is known. CouchDB
// replaces or deletes a document only given its current `_rev`, so the adapter keeps the last revision each of
// its writes was answered with (`store.revisions`); an update or delete of a key it holds no revision for
// (written by another connection) first reads the revision with GET, and one that loses to a concurrent write
// (409 conflict: its revision is no longer current) reads it again and retries. A missing key is told by that
// GET's 404, so an update never creates a document. Both durability terms send the same request: the server
// decides how durable a write is, Apache CouchDB 3 always durable, PouchDB Server always relaxed (terms.js, which
// reports before any work the term the server cannot give).
// What the adapter lends them, `store`:
//   label                        the adapter's id, for messages;
//   database(collection)         the nano scope of the collection's database, its name checked;
//   revisions                    a Map from `<database> <key>` to the last revision known.
import { documentBody, fromStored } from './documents.js';

// Retries after a conflict, per operation; only writers racing for one key ever conflict, and one of them wins
// each round, so this bounds a pathological race, not the normal case.
export const MAX_CONFLICT_RETRIES = 100;
const CONFLICT = 409;

// A 404 that is about the document, not its database: CouchDB says `missing` or `deleted`, and so does PouchDB
// Server (whose missing database is `no_db_file`, CouchDB's `Database does not exist.`).
export const isMissingDocument = (error) => error.statusCode === 404 && ['missing', 'deleted'].includes(error.reason);

const revisionKey = (scope, key) => `${scope.config.db} ${key}`;

export async function insertDocument(store, collection, doc) {
  const scope = store.database(collection);
  let answer;
  try {
    answer = await scope.insert(documentBody(doc), doc._key);
  } catch (error) {
    throw failed(store, 'insert', collection, doc._key, error,
      error.statusCode === CONFLICT ? 'a document has that key' : undefined);
  }
  store.revisions.set(revisionKey(scope, doc._key), answer.rev);
}

export async function getDocument(store, collection, key) {
  try {
    return fromStored(await store.database(collection).get(key));
  } catch (error) {
    if (isMissingDocument(error)) return null;
    throw failed(store, 'get', collection, key, error);
  }
}

// Replace semantics: a PUT with the current revision stores the new body whole.
export async function updateDocument(store, collection, key, doc) {
  const scope = store.database(collection);
  await withRevision(store, scope, collection, 'update', key, async (rev) => {
    const answer = await scope.insert(documentBody(doc, rev), key);
    store.revisions.set(revisionKey(scope, key), answer.rev);
  });
}

export async function deleteDocument(store, collection, key) {
  const scope = store.database(collection);
  await withRevision(store, scope, collection, 'delete', key, async (rev) => {
    await scope.destroy(key, rev);
    store.revisions.delete(revisionKey(scope, key));
  });
}

// Runs `write(rev)` with the revision known, else the current one, and again with the current one after each
// conflict.
async function withRevision(store, scope, collection, operation, key, write) {
  let rev = store.revisions.get(revisionKey(scope, key));
  for (let attempt = 0; ; attempt += 1) {
    rev ??= await currentRevision(store, scope, collection, operation, key);
    try {
      await write(rev);
      return;
    } catch (error) {
      // A delete with the revision of a document deleted meanwhile is answered 404.
      if (isMissingDocument(error)) throw missingKey(store, operation, collection, key);
      if (error.statusCode !== CONFLICT || attempt === MAX_CONFLICT_RETRIES) {
        throw failed(store, operation, collection, key, error,
          error.statusCode === CONFLICT ? `still in conflict after ${MAX_CONFLICT_RETRIES} retries` : undefined);
      }
      store.revisions.delete(revisionKey(scope, key));
      rev = undefined;
    }
  }
}

async function currentRevision(store, scope, collection, operation, key) {
  try {
    return (await scope.get(key))._rev;
  } catch (error) {
    if (isMissingDocument(error)) throw missingKey(store, operation, collection, key);
    throw failed(store, operation, collection, key, error);
  }
}

function missingKey(store, operation, collection, key) {
  return new Error(`${store.label}: cannot ${operation} ${JSON.stringify(key)} in collection ${collection}: `
    + 'no document has that key');
}

function failed(store, operation, collection, key, error, reason = error.message) {
  const status = error.statusCode ? ` (HTTP ${error.statusCode})` : '';
  return new Error(`${store.label}: cannot ${operation} ${JSON.stringify(key)} in collection ${collection}: `
    + `${reason}${status}`, { cause: error });
}
