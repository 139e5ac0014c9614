// The crud suite's document operations on one temporary collection, a Map from `_key` to document. Documents are
// stored as frozen copies, as singleWrite stores them, so an answer never aliases what the caller passed in.
// Every operation completes within its call, so concurrent callers always see whole documents.
import { lowerBound } from '../../core/sorted.js';

// Per collection, its keys in order once a scan asked for them, kept in order by the inserts and deletes after.
const orderedKeys = new WeakMap();

export function insertDocument(documents, doc) {
  if (documents.has(doc._key)) throw new Error(`memory adapter: duplicate key ${doc._key}`);
  documents.set(doc._key, Object.freeze({ ...doc }));
  const keys = orderedKeys.get(documents);
  if (keys) keys.splice(lowerBound(keys, doc._key), 0, doc._key);
}

// The documents from `fromKey` on, in the keys' order, at most `limit`.
export function scanDocuments(documents, fromKey, limit) {
  let keys = orderedKeys.get(documents);
  if (!keys) {
    keys = [...documents.keys()].sort();
    orderedKeys.set(documents, keys);
  }
  const first = lowerBound(keys, fromKey);
  return keys.slice(first, first + limit).map((key) => documents.get(key));
}

export function getDocument(documents, key) {
  return documents.get(key) ?? null;
}

// Replace semantics: the stored document becomes a copy of `doc`, whatever the previous one held.
export function updateDocument(documents, key, doc) {
  if (!documents.has(key)) throw missing('update', key);
  documents.set(key, Object.freeze({ ...doc }));
}

export function deleteDocument(documents, key) {
  if (!documents.delete(key)) throw missing('delete', key);
  const keys = orderedKeys.get(documents);
  if (keys) keys.splice(lowerBound(keys, key), 1);
}

function missing(operation, key) {
  return new Error(`memory adapter: cannot ${operation} ${key}: no document has that key`);
}
