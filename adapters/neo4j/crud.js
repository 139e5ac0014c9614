// The crud suite's document operations on a temporary collection (a label with a uniqueness constraint on
// _key, see createTempCollection): one auto-commit Cypher query each. Neo4j has no acknowledgement weaker than a
// durable commit, so `durable` changes nothing, as singleWrite and singleWriteSync are the same commit; only the
// durable term is declared (description.js, terms), and the harness runs no write under the relaxed one.
import { toProperties } from './documents.js';

// A property no document field can have (fields are letters, digits and `_`). Setting it takes the node's write
// lock: Neo4j reads without locks (read committed), so without it a read during the commit of an update saw
// some old and some new properties, and `SET d = $doc` of two concurrent updates, each removing the properties
// it had seen before the other committed, left a mix of both versions (the conformance case of concurrent
// updates caught both). With the lock each query sees one whole version. `SET d = $doc` removes the property
// again with every other one the new version lacks, and the read removes it itself, so it is never stored (2,000
// reads at concurrency 25 took no longer than with a plain MATCH).
const LOCK_PROPERTY = '`db-shootout lock`';

// `SET d = $doc` replaces every property of the node: fields absent from the new version are removed.
export function crudStatements(quotedLabel) {
  return {
    get: `MATCH (d:${quotedLabel} {_key: $key}) SET d.${LOCK_PROPERTY} = true REMOVE d.${LOCK_PROPERTY}
      RETURN properties(d)`,
    update: `MATCH (d:${quotedLabel} {_key: $key}) SET d.${LOCK_PROPERTY} = true SET d = $doc`,
    delete: `MATCH (d:${quotedLabel} {_key: $key}) DELETE d`,
  };
}

// `store`: { run(query, params, mode) resolving to the driver's result, statements } for one temporary
// collection, where statements holds the collection's insert (that of singleWrite) and crudStatements().

// A duplicate key violates the constraint and the server rejects the query.
export async function insertDocument(store, doc) {
  await store.run(store.statements.insert, { doc: toProperties(doc) }, 'write');
}

export async function getDocument(store, key) {
  const [record] = (await store.run(store.statements.get, { key }, 'write')).records;
  return record?.get(0) ?? null;
}

// A MATCH that finds nothing sets nothing and succeeds: the counters tell a missing key. A matched node counts
// at least the lock property as set, even when the new version equals the stored one.
export async function updateDocument(store, key, doc) {
  const { summary } = await store.run(store.statements.update, { key, doc: toProperties(doc) }, 'write');
  if (summary.counters.updates().propertiesSet === 0) throw missing('update', key);
}

export async function deleteDocument(store, key) {
  const { summary } = await store.run(store.statements.delete, { key }, 'write');
  if (summary.counters.updates().nodesDeleted !== 1) throw missing('delete', key);
}

function missing(operation, key) {
  return new Error(`neo4j: cannot ${operation} document "${key}": the collection holds no document with that key`);
}
