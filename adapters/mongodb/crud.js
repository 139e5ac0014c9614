// The crud suite's document operations on a temporary collection: one command each, by `_id` (the key, as
// documents.js stores it). `durable` is the run's durability term (terms.js): false asks for { w: 1, j: false }, as
// singleWrite does, never the deployment's default; true for { w: 1, j: true }, as singleWriteSync does. Each takes
// the driver's Collection.
import { fromStored, toStored } from './documents.js';
import { termWrite } from './terms.js';

// A duplicate _id is a duplicate key error (E11000), and the driver rejects.
export async function insertDocument(collection, doc, { durable }) {
  await collection.insertOne(toStored(doc), termWrite(durable));
}

export async function getDocument(collection, key) {
  const stored = await collection.findOne({ _id: key });
  return stored === null ? null : fromStored(stored);
}

// The documents from `fromKey` on, in _id order (strings compare by their bytes), at most `limit`.
export async function scanDocuments(collection, fromKey, limit) {
  const stored = await collection.find({ _id: { $gte: fromKey } }).sort({ _id: 1 }).limit(limit).toArray();
  return stored.map(fromStored);
}

// replaceOne replaces the whole document but its _id (the same key); a filter that matches nothing is no error
// for the server, so the matched count tells a missing key.
export async function updateDocument(collection, key, doc, { durable }) {
  const { matchedCount } = await collection.replaceOne({ _id: key }, toStored(doc), termWrite(durable));
  if (matchedCount !== 1) throw missing('update', key);
}

export async function deleteDocument(collection, key, { durable }) {
  const { deletedCount } = await collection.deleteOne({ _id: key }, termWrite(durable));
  if (deletedCount !== 1) throw missing('delete', key);
}

function missing(operation, key) {
  return new Error(`mongodb: cannot ${operation} document "${key}": the collection holds no document with that key`);
}
