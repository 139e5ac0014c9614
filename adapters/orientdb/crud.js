// The crud suite's document operations on a temporary collection (a document class with a unique hash index on
// _key, see createTempClassScript): one SQL command each. OrientDB 3.2 has no durable acknowledgement per write
// (README, Durability), so `durable` sends the same command, as singleWriteSync does; only the relaxed term is
// declared (description.js, terms), and the harness runs no write under the durable one.
import { content, parseDocument } from './documents.js';

// Times an update is sent again after losing OrientDB's optimistic version check to a concurrent update of the
// same record; the server applied nothing of a refused one.
const MAX_UPDATE_ATTEMPTS = 10;

// `store`: { label, statements, command(sql, params), query(sql, params) } for one temporary collection, where
// statements are the collection's (those of readDocument among them); command and query resolve to the rows.

// A duplicate key violates the unique index and the server rejects the insert.
export async function insertDocument(store, doc) {
  const { json, params } = content(store.label, doc);
  await store.command(`INSERT INTO ${store.statements.className} CONTENT ${json} RETURN @rid`, params);
}

export async function getDocument(store, key) {
  const rows = await store.query(store.statements.read, { key });
  return rows.length === 0 ? null : parseDocument(rows[0]);
}

// UPDATE ... CONTENT replaces the whole record: fields absent from the new version are removed. (OrientDB 3.2
// parses CONTENT with a JSON object only, not with a parameter, hence content().)
export async function updateDocument(store, key, doc) {
  const { json, params } = content(store.label, doc);
  const sql = `UPDATE ${store.statements.className} CONTENT ${json} WHERE _key = :key`;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const [{ count }] = await store.command(sql, { ...params, key });
      if (count !== 1) throw missing(store.label, 'update', key);
      return;
    } catch (error) {
      if (!(error.isMVCC?.() && attempt < MAX_UPDATE_ATTEMPTS)) throw error;
    }
  }
}

export async function deleteDocument(store, key) {
  const [{ count }] = await store.command(`DELETE FROM ${store.statements.className} WHERE _key = :key`, { key });
  if (count !== 1) throw missing(store.label, 'delete', key);
}

function missing(label, operation, key) {
  return new Error(`${label}: cannot ${operation} document "${key}": the collection holds no document with that key`);
}
