// The crud suite's document operations on a temporary collection, through the document API: one HTTP request
// each. `durable` is the request's waitForSync, as singleWriteSync sends it. Each takes the arangojs collection.
import { contractDocument, writeOptions } from './model.js';

// A duplicate _key makes the server answer 409 (unique constraint violated) and arangojs reject.
export async function insertDocument(collection, doc, { durable }) {
  await collection.save(doc, writeOptions(durable));
}

// graceful: a missing document is null, not an error.
export async function getDocument(collection, key) {
  return contractDocument(await collection.document(key, { graceful: true }));
}

// PUT replaces the whole document: the fields absent from `doc` are gone. A missing key is answered with 404
// (document not found), and arangojs rejects.
export async function updateDocument(collection, key, doc, { durable }) {
  await collection.replace(key, doc, writeOptions(durable));
}

export async function deleteDocument(collection, key, { durable }) {
  await collection.remove(key, writeOptions(durable));
}
