// The crud suite's document operations on a temporary collection, one prepared statement each (mysql2's
// execute). A document is stored whole as JSON text, `_key` included, as singleWrite stores it (singleWrite,
// singleWriteSync and readDocument are these same statements). `durable` changes nothing: InnoDB's durability is
// the server's global innodb_flush_log_at_trx_commit, which no session can change (README.md), so both modes
// send the same statement, as singleWrite and singleWriteSync do. What the adapter lends them, `store`:
//   table(collection)      the collection's table name, checked and qualified with the namespace's database;
//   execute(sql, values)   mysql2's [result, fields] of a prepared statement on a connection of the pool.

export async function insertDocument(store, collection, doc) {
  await store.execute(`INSERT INTO ${store.table(collection)} (_key, doc) VALUES (?, ?)`,
    [doc._key ?? null, JSON.stringify(doc)]);
}

export async function getDocument(store, collection, key) {
  const [rows] = await store.execute(`SELECT doc FROM ${store.table(collection)} WHERE _key = ?`, [key]);
  return rows.length === 0 ? null : JSON.parse(rows[0].doc);
}

// The documents from `fromKey` on, in the primary key's order, at most `limit` (written into the statement: a
// placeholder in LIMIT is refused by some servers' prepared statements; the harness's limits are whole numbers).
export async function scanDocuments(store, collection, fromKey, limit) {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`mysql: a scan's limit must be a whole number, got ${limit}`);
  const [rows] = await store.execute(`SELECT doc FROM ${store.table(collection)} WHERE _key >= ? ORDER BY _key LIMIT ${limit}`, [fromKey]);
  return rows.map((row) => JSON.parse(row.doc));
}

// Replace semantics: the stored text becomes exactly the new document. mysql2 connects with the FOUND_ROWS flag
// (its default), so affectedRows counts the rows the UPDATE matched, changed or not: 0 means no such key.
export async function updateDocument(store, collection, key, doc) {
  const [{ affectedRows }] = await store.execute(`UPDATE ${store.table(collection)} SET doc = ? WHERE _key = ?`,
    [JSON.stringify(doc), key]);
  if (affectedRows === 0) throw missingKey('update', collection, key);
}

export async function deleteDocument(store, collection, key) {
  const [{ affectedRows }] = await store.execute(`DELETE FROM ${store.table(collection)} WHERE _key = ?`, [key]);
  if (affectedRows === 0) throw missingKey('delete', collection, key);
}

function missingKey(operation, collection, key) {
  return new Error(`mysql: cannot ${operation} ${JSON.stringify(key)} in collection ${collection}: no document has that key`);
}
