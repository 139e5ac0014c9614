// The crud suite's document operations on a temporary collection, one prepared statement each on a connection
// of the adapter's pool. A document is stored whole as JSON text, `_key` included, as singleWrite stores it
// (singleWrite, singleWriteSync and readDocument are these same statements). `durable` changes nothing: DuckDB
// fsyncs its write-ahead log on every commit and has no weaker mode (README.md), so only the durable term is
// declared (description.js, terms) and the harness runs no write under the relaxed one. What the adapter lends
// them, `store`:
//   table(collection)    the collection's table name, checked;
//   read(sql, values)    a result reader of the query on a free connection;
//   write(sql, values)   the count of rows the statement changed, the statement sent again when DuckDB's
//                        optimistic concurrency control aborted it for a concurrent write of the same row.

export async function insertDocument(store, collection, doc) {
  await store.write(`INSERT INTO ${store.table(collection)} (_key, doc) VALUES ($1, $2)`,
    [doc._key, JSON.stringify(doc)]);
}

export async function getDocument(store, collection, key) {
  const rows = (await store.read(`SELECT doc FROM ${store.table(collection)} WHERE _key = $1`, [key])).getRowsJS();
  return rows.length === 0 ? null : JSON.parse(rows[0][0]);
}

// The documents from `fromKey` on, in the keys' order, at most `limit`.
export async function scanDocuments(store, collection, fromKey, limit) {
  const rows = (await store.read(`SELECT doc FROM ${store.table(collection)} WHERE _key >= $1 ORDER BY _key LIMIT $2`, [fromKey, limit])).getRowsJS();
  return rows.map((row) => JSON.parse(row[0]));
}

// Replace semantics: the stored text becomes exactly the new document. The count is of the rows the UPDATE
// matched, changed or not, so 0 means there was no such key.
export async function updateDocument(store, collection, key, doc) {
  const changed = await store.write(`UPDATE ${store.table(collection)} SET doc = $1 WHERE _key = $2`,
    [JSON.stringify(doc), key]);
  if (changed === 0) throw missingKey('update', collection, key);
}

export async function deleteDocument(store, collection, key) {
  const changed = await store.write(`DELETE FROM ${store.table(collection)} WHERE _key = $1`, [key]);
  if (changed === 0) throw missingKey('delete', collection, key);
}

function missingKey(operation, collection, key) {
  return new Error(`duckdb: cannot ${operation} ${JSON.stringify(key)} in collection ${collection}: no document has that key`);
}
