// The graph suite in MongoDB: an edge collection is a collection `g_<name>` of the namespace's database, so the
// reset and dropNamespace remove it with the rest, holding one document { source, target, weight } per edge (three
// int32, and an ObjectId `_id` the server gives it). It is loaded by unordered insertMany without any secondary
// index, then gets a unique index on (source, target) and an index on (target, source), both built by one
// createIndexes command. Each read is one find or one aggregation the server runs; each write one update or delete
// command. The builders are pure, for the unit tests. What the adapter lends, `store`:
//   collection(name)   the driver's collection of the edge collection `name` (`g_<name>`, checked)
//   create(name)       creates that collection
import { cursorOptions } from './social.js';
import { termWrite } from './terms.js';

export const INDEXES = Object.freeze([
  { name: 'source_target', key: { source: 1, target: 1 }, unique: true },
  { name: 'target_source', key: { target: 1, source: 1 } },
].map((index) => Object.freeze(index)));

// Edges per batch of scan().
const SCAN_BATCH = 10_000;
// An edge as the contract has it: the stored document without `_id`.
export const EDGE_PROJECTION = Object.freeze({ _id: 0, source: 1, target: 1, weight: 1 });

// The documents of a batch of the bulk import (typed arrays): numbers, which BSON stores as int32.
export function edgeDocuments({ length, source, target, weight }) {
  const documents = new Array(length);
  for (let i = 0; i < length; i += 1) documents[i] = { source: source[i], target: target[i], weight: weight[i] };
  return documents;
}

// The edges touching `vertex`, as a filter: each branch of the $or is a lookup in one of the two indexes. With no
// self-loops, no edge matches both.
export const touchingFilter = (vertex) => ({ $or: [{ source: vertex }, { target: vertex }] });
export const inFilter = (vertex) => ({ target: vertex });

// The other end of each edge touching `vertex`, each id once.
export function friendsPipeline(vertex) {
  return [
    { $match: touchingFilter(vertex) },
    { $group: { _id: { $cond: [{ $eq: ['$source', vertex] }, '$target', '$source'] } } },
  ];
}

// One document { count, weight } over the edges `filter` matches; none when it matches nothing. $sum of int32
// turns into a long where the sum passes 2^31, which the driver returns as a number up to 2^53.
export function tallyPipeline(filter) {
  return [
    { $match: filter },
    { $group: { _id: null, count: { $sum: 1 }, weight: { $sum: '$weight' } } },
  ];
}

// An upsert by pair: the unique (source, target) index finds the edge; a new one is inserted with the filter's
// fields and the weight.
export function upsertOperation({ source, target, weight }) {
  return { filter: { source, target }, update: { $set: { weight } }, upsert: true };
}

export const upsertOperations = (edges) => edges.map((edge) => ({ updateOne: upsertOperation(edge) }));
export const removeOperations = (pairs) => pairs.map(({ source, target }) => ({ deleteOne: { filter: { source, target } } }));

// The pairs of a batch are distinct, so the server may apply its statements in any order; the write concern is the
// run's durability term.
export const bulkOptions = (durable) => ({ ordered: false, ...termWrite(durable) });
const IMPORT_OPTIONS = Object.freeze({ ordered: false, forceServerObjectId: true });

const tally = ([row]) => ({ count: row?.count ?? 0, weight: row?.weight ?? 0 });

export function graphOperations(store) {
  const find = (name, filter) => store.collection(name).find(filter, { projection: EDGE_PROJECTION, ...cursorOptions() }).toArray();
  const aggregate = (name, pipeline) => store.collection(name).aggregate(pipeline, cursorOptions()).toArray();

  return {
    async create(name) {
      await store.collection(name).drop();
      await store.create(name);
    },
    // There is no index yet but `_id`, which the server assigns (forceServerObjectId): an ObjectId made by the
    // driver for each document costs the client more than the rest of the document's serialization.
    async importEdges(name, batch) {
      if (batch.length === 0) return;
      await store.collection(name).insertMany(edgeDocuments(batch), IMPORT_OPTIONS);
    },
    // One command builds both indexes in one scan of the collection. The planner keeps no statistics to update.
    async index(name) {
      await store.collection(name).createIndexes(INDEXES.map((index) => ({ ...index })));
    },
    // Exact: the write workloads' checks compare it. An absent collection counts 0.
    async count(name) {
      return store.collection(name).countDocuments({});
    },
    async drop(name) {
      await store.collection(name).drop();
    },
    // The space WiredTiger allocated to the collection and to its indexes.
    async diskUsage(name) {
      const [stats] = await aggregate(name, [{ $collStats: { storageStats: {} } }]);
      const { storageSize, totalIndexSize } = stats?.storageStats ?? {};
      return Number.isFinite(storageSize) && Number.isFinite(totalIndexSize) ? storageSize + totalIndexSize : null;
    },
    // One cursor over the whole collection (a collection scan), handed over in batches of SCAN_BATCH; an absent
    // collection yields nothing.
    async scan(name, visit) {
      let batch = [];
      for await (const edge of store.collection(name).find({}, { projection: EDGE_PROJECTION, batchSize: SCAN_BATCH })) {
        batch.push(edge);
        if (batch.length === SCAN_BATCH) {
          await visit(batch);
          batch = [];
        }
      }
      if (batch.length > 0) await visit(batch);
    },
    async findEdge(name, source, target) {
      return store.collection(name).findOne({ source, target }, { projection: EDGE_PROJECTION });
    },
    async edgesOf(name, vertex) {
      return find(name, touchingFilter(vertex));
    },
    async inEdges(name, vertex) {
      return find(name, inFilter(vertex));
    },
    async friends(name, vertex) {
      return (await aggregate(name, friendsPipeline(vertex))).map(({ _id }) => _id);
    },
    async countFriends(name, vertex) {
      return tally(await aggregate(name, tallyPipeline(touchingFilter(vertex))));
    },
    async countFollowers(name, vertex) {
      return tally(await aggregate(name, tallyPipeline(inFilter(vertex))));
    },
    // `durable`: the run's durability term, the write concern { w: 1, j: true }; else { w: 1, j: false }, as
    // singleWrite's (terms.js), never the deployment's default.
    async upsertEdge(name, edge, { durable = false } = {}) {
      const { filter, update, upsert } = upsertOperation(edge);
      await store.collection(name).updateOne(filter, update, { upsert, ...termWrite(durable) });
    },
    // One update command of up to 500 statements (see the README: not a transaction on a standalone server).
    async upsertEdges(name, edges, { durable = false } = {}) {
      if (edges.length === 0) return;
      await store.collection(name).bulkWrite(upsertOperations(edges), bulkOptions(durable));
    },
    async removeEdge(name, { source, target }, { durable = false } = {}) {
      await store.collection(name).deleteOne({ source, target }, termWrite(durable));
    },
    async removeEdges(name, pairs, { durable = false } = {}) {
      if (pairs.length === 0) return;
      await store.collection(name).bulkWrite(removeOperations(pairs), bulkOptions(durable));
    },
  };
}
