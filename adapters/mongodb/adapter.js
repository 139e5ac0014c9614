// The MongoDB adapter: one database per namespace, profiles keyed by `_id`, relations with two covering indexes,
// neighbourhoods as one query or aggregation each, and the shortest path as server-side queries driven level by
// level from here (shortest-path.js); the graph suite's edge collections in graph.js.
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { InFlight, OPERATION_METHODS } from '../in-flight.js';
import { capabilityDecision, probeServer } from './capabilities.js';
import { openClient } from './connection.js';
import {
  deleteDocument, getDocument, insertDocument, scanDocuments, updateDocument,
} from './crud.js';
import { ageHistogram, fromStored, toStored, toStoredRelation } from './documents.js';
import { graphOperations } from './graph.js';
import { shortestPath } from './shortest-path.js';
import {
  COLLECTIONS, INDEXES, LABEL, MARKER_ID, databaseName, graphCollectionName, namespaceState, queryCollectionName,
  strangers, tempCollectionName,
} from './namespace.js';
import * as queries from './queries.js';
import {
  agePipeline, cursorOptions, neighbors2Pipeline, neighbors2dataPipeline, neighborsDataPipeline, relationQueries,
  warmupIndexScans, warmupProfilesPipeline,
} from './social.js';
import { readSettings } from './settings.js';
import { mongoCache, mongoTerms, readTermAnswers, termWrite } from './terms.js';

// How counts() counts a collection: exactly (countDocuments reads every document, or index entry), or from the
// collection's metadata (estimatedDocumentCount), which an unclean shutdown can leave wrong.
export function collectionCount(exact) {
  return exact ? (collection) => collection.countDocuments({}) : (collection) => collection.estimatedDocumentCount();
}

export class MongoAdapter {
  #options;
  #database;
  // The client and the handles of one connection: { client, db, admin, profiles, relations, pathQueries, temp }.
  #session = null;
  // Whether this instance reset the namespace, i.e. imports into it: its counts() are exact (see counts()).
  #importing = false;
  // What queries.js needs: a query collection is a collection `q_<name>` of the namespace's database, so the
  // reset drops it with the others.
  #queryStore = {
    collection: (name) => this.#db.collection(queryCollectionName(this.#database, name)),
    create: (name) => this.#db.createCollection(queryCollectionName(this.#database, name)),
    // Whether the server builds hashed indexes (capabilities.js); without, the equality indexes are ascending ones.
    hashed: async () => !(await this.#capabilities()).decision.parts.equalityIndex,
  };

  // The operations in flight, which close() lets finish (../in-flight.js).
  #inFlight = new InFlight();
  // The capability probe's answer, asked once per connection: { outcomes, queryPlanner, decision } (capabilities.js).
  #probe = null;

  constructor(options) {
    this.#options = options;
    this.#database = databaseName(options.namespace);
    // The graph suite's operations (graph.js) on the edge collections `g_<name>` of the namespace's database.
    const edgeCollection = (name) => graphCollectionName(this.#database, name);
    this.graph = graphOperations({
      collection: (name) => this.#db.collection(edgeCollection(name)),
      create: (name) => this.#db.createCollection(edgeCollection(name)),
    });
    this.#inFlight.wrap(this, OPERATION_METHODS);
    this.#inFlight.wrap(this.graph);
  }

  async connect() {
    if (this.#session) return;
    this.#probe = null;
    const client = await openClient(this.#options);
    const db = client.db(this.#database);
    const relations = db.collection(COLLECTIONS.relations);
    this.#session = {
      client,
      db,
      admin: client.db('admin'),
      profiles: db.collection(COLLECTIONS.profiles),
      relations,
      pathQueries: relationQueries(relations),
      // Temporary collections by name.
      temp: new Map(),
    };
  }

  async close() {
    await this.#inFlight.settled();
    const session = this.#session;
    this.#session = null;
    await session?.client.close();
  }

  async serverVersion() {
    return (await this.buildInfo()).version;
  }

  // The server's buildInfo answer (a server speaking the protocol may add its own fields: FerretDB's ferretdbVersion).
  async buildInfo() {
    return this.#admin.command({ buildInfo: 1 });
  }

  // With what the capability probe left out of the adapter's own parts (the warm-up's full read, hashed indexes).
  async settings() {
    const { parts } = (await this.#capabilities()).decision;
    return {
      ...(await readSettings(this.#admin)),
      ...(parts.warmup && { warmup: `the index scans only, not the full read of the profiles: ${parts.warmup}` }),
      ...(parts.equalityIndex && { queriesEqualityIndex: `ascending (B-tree), as for a database without a hash index: ${parts.equalityIndex}` }),
    };
  }

  // The operations of `supports` this server lacks, each with the reason (adapters/README.md, "Operations a server
  // lacks"), found by the capability probe (capabilities.js).
  async unsupportedOperations() {
    return { ...(await this.#capabilities()).decision.unsupported };
  }

  // The capability probe's answer, probed once per connection.
  async capabilities() {
    return this.#capabilities();
  }

  #capabilities() {
    const db = this.#db;
    this.#probe ??= probeServer(db).then((answer) => ({ ...answer, decision: capabilityDecision(answer.outcomes) }));
    this.#probe.catch(() => {
      this.#probe = null;
    });
    return this.#probe;
  }

  // The durability term (adapters/README.md, "Terms"): every timed write names its write concern, so nothing is set
  // on the server, owned or not; what the term depends on is read back, and what contradicts it is a problem.
  // The cache (WiredTiger's) is read back from the same answers, and set on no server either.
  async terms({ durability }) {
    const answers = await readTermAnswers(this.#admin);
    const { settings, problems } = mongoTerms(answers, { durability, where: `${this.#options.host}:${this.#options.port}` });
    return { settings, applied: [], problems, cache: mongoCache(answers) };
  }

  // dbStats of the namespace's database: the space WiredTiger allocated to its collections and indexes.
  // Written against the documented command; not verified against a live server.
  async diskUsage() {
    const { storageSize, indexSize } = await this.#db.command({ dbStats: 1 });
    return Number.isFinite(storageSize) && Number.isFinite(indexSize) ? storageSize + indexSize : null;
  }

  // Reads every profile document in full and every entry of the three indexes, which brings them into the
  // WiredTiger cache as far as it holds them. A server without $bsonSize gets the index scans only (settings() says so).
  async warmup() {
    if (!(await this.#capabilities()).decision.parts.warmup) await this.#profiles.aggregate(warmupProfilesPipeline()).toArray();
    for (const { collection, pipeline, options } of warmupIndexScans()) {
      await this.#db.collection(collection).aggregate(pipeline, options).toArray();
    }
  }

  // --- namespace ---

  async inspectNamespace() {
    const { state, marker } = await this.#inspect();
    return { state, marker };
  }

  // As the ArangoDB adapter does: an owned database holding anything db-shootout did not create is refused whole,
  // before anything is dropped; otherwise the marker is reset to {} first, so the namespace stays recognisably
  // ours however far the reset gets, and the adapter's own collections are dropped by name, never the database.
  async resetNamespace() {
    const { state, collections, listed } = await this.#inspect();
    const where = `database "${this.#database}" on ${this.#options.host}:${this.#options.port}`;
    if (state === 'foreign') {
      throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, `${LABEL}: ${where} holds ${collections.join(', ')} but no `
        + 'db-shootout marker; refusing to drop it (choose another --namespace)');
    }
    const found = strangers(listed);
    if (found.length > 0) {
      throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, `${LABEL}: ${where} holds objects that db-shootout did `
        + `not create (${found.join(', ')}); refusing to reset it`);
    }
    const db = this.#db;
    if (state === 'absent') await db.createCollection(COLLECTIONS.marker);
    await this.writeMarker({});
    for (const name of collections) if (name !== COLLECTIONS.marker) await db.collection(name).drop();
    await db.createCollection(COLLECTIONS.profiles);
    await db.createCollection(COLLECTIONS.relations);
    this.#importing = true;
  }

  async writeMarker(marker) {
    await this.#db.collection(COLLECTIONS.marker)
      .replaceOne({ _id: MARKER_ID }, { marker }, { upsert: true });
  }

  // Lists every collection, not only those the user may read (authorizedCollections): a collection hidden
  // from the check would be dropped with the database. The full answer, not nameOnly's: MongoDB documents `type` in
  // both, but FerretDB 1.x gives nameOnly's entries a name alone, which made its marker collection look foreign.
  async #inspect() {
    const db = this.#db;
    const listed = await db.listCollections({}).toArray();
    const collections = listed.map(({ name }) => name).sort();
    // A view named `marker` is not the marker.
    const hasMarker = listed.some(({ name, type }) => name === COLLECTIONS.marker && type === 'collection');
    const markerDocument = hasMarker ? await db.collection(COLLECTIONS.marker).findOne({ _id: MARKER_ID }) : null;
    return { ...namespaceState(collections, markerDocument), collections, listed };
  }

  // --- bulk import ---

  // Unordered: the server may apply a batch in any order, and reports every failed document at the end
  // (the driver then rejects). The default write concern applies. The driver refuses an empty batch.
  async importProfiles(docs) {
    if (docs.length === 0) return;
    await this.#profiles.insertMany(docs.map(toStored), { ordered: false });
  }

  async importRelations(edges) {
    if (edges.length === 0) return;
    await this.#relations.insertMany(edges.map(toStoredRelation), { ordered: false });
  }

  // Profiles are keyed by `_id`, whose index every collection has from its creation. Both relation indexes
  // are built by one command, in one scan of the collection.
  async createIndexes() {
    await this.#relations.createIndexes(Object.values(INDEXES).map(({ name, key }) => ({ name, key })));
  }

  // Exact after this instance's own import, which the importer verifies. Otherwise (the importer's check whether
  // an imported namespace can be reused, on a fresh connection) the metadata's count: instant where an exact count
  // reads 30 M relations, and a wrong count there costs at worst a needless import.
  async counts() {
    const count = collectionCount(this.#importing);
    const [profiles, relations] = await Promise.all([count(this.#profiles), count(this.#relations)]);
    return { profiles, relations };
  }

  // --- operations ---

  async singleRead(key) {
    const stored = await this.#profiles.findOne({ _id: key });
    return stored === null ? null : fromStored(stored);
  }

  // The relaxed term's write concern, { w: 1, j: false }, named explicitly: never the deployment's default, which
  // may be w: "majority" (terms.js).
  async singleWrite(collection, doc) {
    await this.#tempCollection(collection).insertOne(toStored(doc), termWrite(false));
  }

  // The durable term's, { w: 1, j: true }.
  async singleWriteSync(collection, doc) {
    await this.#tempCollection(collection).insertOne(toStored(doc), termWrite(true));
  }

  async aggregation() {
    return ageHistogram(await this.#profiles.aggregate(agePipeline(), cursorOptions()).toArray());
  }

  // The relations of one profile fit in one reply: `distinct` is one round trip.
  async neighbors(key) {
    return this.#relations.distinct('_to', { _from: key });
  }

  async neighborsData(key) {
    return this.#documents(neighborsDataPipeline(key));
  }

  async neighbors2(key) {
    return (await this.#aggregate(neighbors2Pipeline(key))).map(({ _id }) => _id);
  }

  async neighbors2data(key) {
    return this.#documents(neighbors2dataPipeline(key));
  }

  async shortestPath(from, to, maxDepth) {
    return shortestPath(this.#pathQueries, from, to, maxDepth);
  }

  async #aggregate(pipeline) {
    return this.#relations.aggregate(pipeline, cursorOptions()).toArray();
  }

  async #documents(pipeline) {
    return (await this.#aggregate(pipeline)).map(fromStored);
  }

  // --- temporary collections ---

  async createTempCollection(name) {
    const collection = this.#tempCollection(name);
    await collection.drop();
    await this.#db.createCollection(collection.collectionName);
  }

  async dropTempCollection(name) {
    await this.#tempCollection(name).drop();
  }

  async countDocuments(name) {
    return this.#tempCollection(name).countDocuments({});
  }

  async readDocument(name, key) {
    const stored = await this.#tempCollection(name).findOne({ _id: key });
    return stored === null ? null : fromStored(stored);
  }

  // One cursor whose batches hold up to BATCH_SIZE documents (and 16 MiB), not the driver's first batch of 101.
  async readCollection(name) {
    return (await this.#tempCollection(name).find({}, cursorOptions()).toArray()).map(fromStored);
  }

  // --- document operations (crud.js) ---

  async insertDocument(collection, doc, options) {
    await insertDocument(this.#tempCollection(collection), doc, options);
  }

  async getDocument(collection, key) {
    return getDocument(this.#tempCollection(collection), key);
  }

  async scanDocuments(collection, fromKey, limit) {
    return scanDocuments(this.#tempCollection(collection), fromKey, limit);
  }

  async updateDocument(collection, key, doc, options) {
    await updateDocument(this.#tempCollection(collection), key, doc, options);
  }

  async deleteDocument(collection, key, options) {
    await deleteDocument(this.#tempCollection(collection), key, options);
  }

  // --- the queries suite (queries.js) ---

  async createQueryCollection(name) {
    await queries.createCollection(this.#queryStore, name);
  }

  async importQueryDocuments(name, docs) {
    await queries.importDocuments(this.#queryStore, name, docs);
  }

  async indexQueryCollection(name) {
    await queries.indexCollection(this.#queryStore, name);
  }

  async countQueryDocuments(name) {
    return queries.countDocuments(this.#queryStore, name);
  }

  async dropQueryCollection(name) {
    await queries.dropCollection(this.#queryStore, name);
  }

  async query(caseName, name, params) {
    return queries.runQuery(this.#queryStore, caseName, name, params);
  }

  #tempCollection(name) {
    const { db, temp } = this.#connected;
    let collection = temp.get(name);
    if (!collection) {
      collection = db.collection(tempCollectionName(this.#database, name));
      temp.set(name, collection);
    }
    return collection;
  }

  // --- connection ---

  get #connected() {
    if (!this.#session) throw new Error(`${LABEL}: not connected (call connect() first)`);
    return this.#session;
  }

  get #db() {
    return this.#connected.db;
  }

  get #admin() {
    return this.#connected.admin;
  }

  get #profiles() {
    return this.#connected.profiles;
  }

  get #relations() {
    return this.#connected.relations;
  }

  get #pathQueries() {
    return this.#connected.pathQueries;
  }
}
