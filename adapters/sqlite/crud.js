// The crud suite's document operations on a temporary collection, each one prepared statement on the adapter's
// connection. A document is stored whole as JSON text, `_key` included, as singleWrite stores it (singleWrite,
// singleWriteSync and readDocument are these same statements). What the adapter lends them, `store`:
//   statement(sql)         the statement of that text, prepared once on the connection;
//   table(collection)      the collection's table name, checked;
//   write(durable, work)   runs a write with singleWrite's (false) or singleWriteSync's (true) synchronous mode.

export function insertDocument(store, collection, doc, { durable = false } = {}) {
  const insert = store.statement(`INSERT INTO ${store.table(collection)} (_key, doc) VALUES (?, ?)`);
  store.write(durable, () => insert.run(doc._key ?? null, JSON.stringify(doc)));
}

export function getDocument(store, collection, key) {
  const doc = store.statement(`SELECT doc FROM ${store.table(collection)} WHERE _key = ?`).pluck().get(key);
  return doc === undefined ? null : JSON.parse(doc);
}

// The documents from `fromKey` on in key order (the primary key's BINARY collation: the keys' bytes), at most `limit`.
export function scanDocuments(store, collection, fromKey, limit) {
  return store.statement(`SELECT doc FROM ${store.table(collection)} WHERE _key >= ? ORDER BY _key LIMIT ?`).pluck().all(fromKey, limit)
    .map((doc) => JSON.parse(doc));
}

// Replace semantics: the stored text becomes exactly the new document. `changes` counts the rows the UPDATE
// matched, whether or not their text changed, so 0 means there was no such key.
export function updateDocument(store, collection, key, doc, { durable = false } = {}) {
  const update = store.statement(`UPDATE ${store.table(collection)} SET doc = ? WHERE _key = ?`);
  const { changes } = store.write(durable, () => update.run(JSON.stringify(doc), key));
  if (changes === 0) throw missingKey('update', collection, key);
}

export function deleteDocument(store, collection, key, { durable = false } = {}) {
  const remove = store.statement(`DELETE FROM ${store.table(collection)} WHERE _key = ?`);
  const { changes } = store.write(durable, () => remove.run(key));
  if (changes === 0) throw missingKey('delete', collection, key);
}

function missingKey(operation, collection, key) {
  return new Error(`sqlite: cannot ${operation} ${JSON.stringify(key)} in collection ${collection}: no document has that key`);
}
