// The crud suite's document operations on a temporary collection, one prepared statement each. Crud documents
// have any field names, so both models keep them whole in the collection's `doc jsonb` column, mapped as the
// document model maps a profile: the JSON text of the whole document, `_key` included, parsed back by the driver.
// What the adapter lends them, `store`:
//   label                           the adapter's id, for messages;
//   table(collection)               the collection's quoted, schema-qualified table name;
//   rows(text, values)              the rows of a prepared statement, as arrays;
//   read(text, values)              as rows, for a document's read: on a replica when the run reads from them;
//   write(durable, text, values)    the result of a prepared statement run with singleWrite's (false) or
//                                   singleWriteSync's (true) synchronous_commit.
import { documentModel } from './document-model.js';

export async function insertDocument(store, collection, doc, { durable = false } = {}) {
  const insert = `INSERT INTO ${store.table(collection)} (_key, doc) VALUES ($1, $2)`;
  await store.write(durable, insert, documentModel.rowValues(doc));
}

export async function getDocument(store, collection, key) {
  const rows = await (store.read ?? store.rows)(`SELECT doc FROM ${store.table(collection)} WHERE _key = $1`, [key]);
  return rows.length === 0 ? null : rows[0][0];
}

// The documents from `fromKey` on, in the primary key's order, at most `limit`: one range read of its index (the
// harness's keys, one letter and digits, sort alike under every collation).
export async function scanDocuments(store, collection, fromKey, limit) {
  const rows = await (store.read ?? store.rows)(`SELECT doc FROM ${store.table(collection)} WHERE _key >= $1 ORDER BY _key LIMIT $2`, [fromKey, limit]);
  return rows.map((row) => row[0]);
}

// Replace semantics: the column takes the new document whole. rowCount counts the rows the UPDATE matched,
// changed or not, so 0 means there was no such key.
export async function updateDocument(store, collection, key, doc, { durable = false } = {}) {
  const [, json] = documentModel.rowValues(doc);
  const update = `UPDATE ${store.table(collection)} SET doc = $2 WHERE _key = $1`;
  const { rowCount } = await store.write(durable, update, [key, json]);
  if (rowCount === 0) throw missingKey(store, 'update', collection, key);
}

export async function deleteDocument(store, collection, key, { durable = false } = {}) {
  const remove = `DELETE FROM ${store.table(collection)} WHERE _key = $1`;
  const { rowCount } = await store.write(durable, remove, [key]);
  if (rowCount === 0) throw missingKey(store, 'delete', collection, key);
}

function missingKey(store, operation, collection, key) {
  return new Error(`${store.label}: cannot ${operation} ${JSON.stringify(key)} in collection ${collection}: `
    + 'no document has that key');
}
