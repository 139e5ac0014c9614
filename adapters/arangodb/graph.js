// The graph suite in AQL: an edge collection is a document collection `g_<name>` of the namespace's database, so
// the reset and dropNamespace remove it with the rest, holding one document per edge with the ids as plain
// numbers, { _key: "<source>-<target>", source, target, weight }, not an edge collection of vertex handles: the
// vertices exist as ids only, and `_from`/`_to` would store them as strings "v/<id>" with an edge index built on
// every insert. The key derived from the pair makes the primary index the pair's unique key, so an upsert is an
// INSERT that replaces the document of that key (overwriteMode), atomic without a read first. The collection is
// loaded through the bulk import API, then gets a unique persistent index on [source, target] and one on
// [target, source], each storing the weight (storedValues), so that every read is answered from an index alone.
// Each operation is one AQL query (or one import request), its collection bound as @@c and every input a bind
// parameter. The builders are pure, for the unit tests. What the adapter lends, `store`:
//   collectionName(name)  the ArangoDB collection of the edge collection `name` (`g_<name>`, checked)
//   collection(name)      the arangojs collection of that name
//   create(name)          creates the empty document collection `name`
//   drop(name)            drops it; nothing when it does not exist
//   all({ query, bindVars })  runs a query and resolves every row of its result
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { ARANGO_ERRORS, isArangoErrorNumber } from './connection.js';
import { ADAPTER_ID } from './model.js';

export const INDEXES = Object.freeze([
  { type: 'persistent', name: 'source_target', fields: ['source', 'target'], unique: true, storedValues: ['weight'] },
  { type: 'persistent', name: 'target_source', fields: ['target', 'source'], storedValues: ['weight'] },
].map((index) => Object.freeze(index)));

// complete: a batch is imported whole or not at all; details: the server says why not. A key that exists already
// is an error (onDuplicate's default): the pairs of an edge list are distinct.
const IMPORT_OPTIONS = Object.freeze({ waitForSync: false, complete: true, details: true });

// Edges per page of scan().
const SCAN_PAGE = 50_000;

export const IMPORT_HEADER = Object.freeze(['_key', 'source', 'target', 'weight']);

export const edgeKey = (source, target) => `${source}-${target}`;

export const storedEdge = ({ source, target, weight }) => ({ _key: edgeKey(source, target), source, target, weight });

// A batch of the bulk import (typed arrays) as the import API's compact form: the attribute names, then one array
// of values per document.
export function importRows({ length, source, target, weight }) {
  const rows = new Array(length + 1);
  rows[0] = IMPORT_HEADER;
  for (let i = 0; i < length; i += 1) rows[i + 1] = [edgeKey(source[i], target[i]), source[i], target[i], weight[i]];
  return rows;
}

const EDGE = (variable) => `{ source: ${variable}.source, target: ${variable}.target, weight: ${variable}.weight }`;
// The edges out of and into @vertex, each a lookup in one of the indexes.
const OUT = (expression) => `(FOR o IN @@c FILTER o.source == @vertex RETURN ${expression('o')})`;
const IN = (expression) => `(FOR i IN @@c FILTER i.target == @vertex RETURN ${expression('i')})`;
const weightOf = (variable) => `${variable}.weight`;
// The count and the sum of a list of weights, computed by the server: SUM([]) is 0.
const TALLY = 'RETURN { count: LENGTH(weights), weight: SUM(weights) }';

export const QUERIES = Object.freeze({
  findEdge: `FOR e IN @@c FILTER e.source == @source AND e.target == @target LIMIT 1 RETURN ${EDGE('e')}`,
  // A page of the whole collection along the primary index, after the key @after.
  scan: 'FOR e IN @@c FILTER e._key > @after SORT e._key LIMIT @limit RETURN [e._key, e.source, e.target, e.weight]',
  // With no self-loops, no edge is both out of and into the vertex: each appears once.
  edgesOf: `FOR e IN UNION(${OUT(EDGE)}, ${IN(EDGE)}) RETURN e`,
  inEdges: `FOR i IN @@c FILTER i.target == @vertex RETURN ${EDGE('i')}`,
  friends: `FOR id IN UNION_DISTINCT(${OUT((o) => `${o}.target`)}, ${IN((i) => `${i}.source`)}) RETURN id`,
  countFriends: `LET weights = UNION(${OUT(weightOf)}, ${IN(weightOf)}) ${TALLY}`,
  countFollowers: `LET weights = ${IN(weightOf)} ${TALLY}`,
  ...writeQueries(false),
});

// The writes, each with the waitForSync of its durability term written into its OPTIONS (a literal: the options of
// a modification are fixed when the query is compiled): true fsyncs the write-ahead log before the query returns
// (durable), false leaves it to the background sync (relaxed; the collections are created with waitForSync false,
// since a collection's true would sync every write whatever the query asks).
function writeQueries(waitForSync) {
  return {
    // One document by its key: inserted, or replacing the one of that pair.
    upsertEdge: `INSERT @edge INTO @@c OPTIONS { overwriteMode: 'replace', waitForSync: ${waitForSync} }`,
    upsertEdges: `FOR edge IN @edges INSERT edge INTO @@c OPTIONS { overwriteMode: 'replace', waitForSync: ${waitForSync} }`,
    // An absent pair is nothing to remove, as in the reference.
    removeEdge: `REMOVE @key IN @@c OPTIONS { ignoreErrors: true, waitForSync: ${waitForSync} }`,
    removeEdges: `FOR key IN @keys REMOVE key IN @@c OPTIONS { ignoreErrors: true, waitForSync: ${waitForSync} }`,
  };
}

// The writes under the durable term (QUERIES holds them under the relaxed one).
export const DURABLE_WRITES = Object.freeze(writeQueries(true));

// The `{ query, bindVars }` of an operation on the collection `collection` (the ArangoDB name); `durable` picks a
// write's durable form.
export function graphQuery(operation, collection, bindVars, durable = false) {
  const query = durable && Object.hasOwn(DURABLE_WRITES, operation) ? DURABLE_WRITES[operation] : QUERIES[operation];
  return { query, bindVars: { ...bindVars, '@c': collection } };
}

const pairKeys = (pairs) => pairs.map(({ source, target }) => edgeKey(source, target));

export function graphOperations(store) {
  const run = (operation, name, bindVars, durable = false) => store.all(
    graphQuery(operation, store.collectionName(name), bindVars, durable),
  );

  return {
    async create(name) {
      await store.drop(name);
      await store.create(name);
    },
    async importEdges(name, batch) {
      if (batch.length === 0) return;
      const result = await store.collection(name).import(importRows(batch), IMPORT_OPTIONS);
      if (result.created !== batch.length) {
        const detail = result.details?.length > 0 ? `: ${result.details[0]}` : '';
        throw new BenchError(ErrorCodes.IMPORT, `${ADAPTER_ID}: importing ${batch.length} edges into `
          + `"${store.collectionName(name)}" created ${result.created}, with ${result.errors} errors${detail}`);
      }
    },
    // One index after the other: each build holds the collection exclusively. The selectivity estimates are kept
    // up to date by the server itself: there is no ANALYZE.
    async index(name) {
      const collection = store.collection(name);
      for (const index of INDEXES) await collection.ensureIndex({ ...index });
    },
    async count(name) {
      try {
        return (await store.collection(name).count()).count;
      } catch (error) {
        if (isArangoErrorNumber(error, ARANGO_ERRORS.collectionNotFound)) return 0;
        throw error;
      }
    },
    async drop(name) {
      await store.drop(name);
    },
    // The RocksDB engine's estimates of the documents' and the indexes' size.
    async diskUsage(name) {
      const { figures } = await store.collection(name).figures();
      const documents = figures?.documentsSize;
      const indexes = figures?.indexes?.size;
      return Number.isFinite(documents) && Number.isFinite(indexes) ? documents + indexes : null;
    },
    // Pages of SCAN_PAGE edges along the primary index; an absent collection holds none.
    async scan(name, visit) {
      let after = '';
      for (;;) {
        let rows;
        try {
          rows = await run('scan', name, { after, limit: SCAN_PAGE });
        } catch (error) {
          if (isArangoErrorNumber(error, ARANGO_ERRORS.collectionNotFound)) return;
          throw error;
        }
        if (rows.length > 0) await visit(rows.map(([, source, target, weight]) => ({ source, target, weight })));
        if (rows.length < SCAN_PAGE) return;
        after = rows.at(-1)[0];
      }
    },
    async findEdge(name, source, target) {
      return (await run('findEdge', name, { source, target }))[0] ?? null;
    },
    async edgesOf(name, vertex) {
      return run('edgesOf', name, { vertex });
    },
    async inEdges(name, vertex) {
      return run('inEdges', name, { vertex });
    },
    async friends(name, vertex) {
      return run('friends', name, { vertex });
    },
    async countFriends(name, vertex) {
      return (await run('countFriends', name, { vertex }))[0];
    },
    async countFollowers(name, vertex) {
      return (await run('countFollowers', name, { vertex }))[0];
    },
    // `durable`: the run's durability term, waitForSync true; else false, as singleWrite's.
    async upsertEdge(name, edge, { durable = false } = {}) {
      await run('upsertEdge', name, { edge: storedEdge(edge) }, durable);
    },
    // One query: on a single server one transaction, all or nothing.
    async upsertEdges(name, edges, { durable = false } = {}) {
      await run('upsertEdges', name, { edges: edges.map(storedEdge) }, durable);
    },
    async removeEdge(name, pair, { durable = false } = {}) {
      await run('removeEdge', name, { key: edgeKey(pair.source, pair.target) }, durable);
    },
    async removeEdges(name, pairs, { durable = false } = {}) {
      await run('removeEdges', name, { keys: pairKeys(pairs) }, durable);
    },
  };
}
