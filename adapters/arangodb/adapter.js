// The ArangoDB adapter. The namespace is a database of its own; every operation is one request of the document
// API or one AQL query, executed by the server.
import { CollectionType } from 'arangojs/collections';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { InFlight, OPERATION_METHODS } from '../in-flight.js';
import {
  ARANGO_ERRORS, REPORTED_OPTIONS, createDatabaseRefusal, isArangoErrorNumber, openConnection,
} from './connection.js';
import { deleteDocument, getDocument, insertDocument, updateDocument } from './crud.js';
import { graphOperations } from './graph.js';
import {
  ADAPTER_ID, COLLECTIONS, MARKER_KEY, ageHistogram, boundedPath, contractDocument, databaseName, edgeDocument,
  graphCollectionName, markerOf, queryCollectionName, strangers, tempCollectionName, writeOptions,
} from './model.js';
import * as queries from './queries.js';
import { arangoCache, arangoTerms, readTermAnswers } from './terms.js';
import {
  aggregationQuery, neighbors2Query, neighbors2dataQuery, neighborsDataQuery, neighborsQuery, readCollectionQuery,
  shortestPathQuery, warmupQuery,
} from './social.js';

// cache: a server with the AQL query results cache switched on would otherwise answer a repeated query from the
// cache. batchSize: the server's default of 1,000 documents per batch would cost a round trip per thousand on a
// large neighbourhood or a whole temporary collection; MongoDB's cursors ask for as many.
export const QUERY_OPTIONS = Object.freeze({ cache: false, batchSize: 100_000 });
// complete: a batch is imported whole or not at all; details: the server says why not.
const IMPORT_OPTIONS = Object.freeze({ waitForSync: false, complete: true, details: true });
// The marker proves ownership and records whether the import finished, so it is synced to disk at once.
const MARKER_OPTIONS = Object.freeze({ overwriteMode: 'replace', waitForSync: true, silent: true });

export class ArangoAdapter {
  #options;
  #name;
  // The arangojs Database of #home and the sockets under it (connection.js).
  #connection = null;
  // The database of options.database (by default _system): the login, the server's version and settings, and
  // the place namespace databases are created from.
  #home = null;
  // The namespace's database, on the same connection and request pool.
  #database = null;
  // What queries.js needs: a query collection is a collection `q_<name>` of the namespace's database, so the
  // reset drops it with the others.
  #queryStore = {
    collectionName: (name) => queryCollectionName(name),
    collection: (name) => this.#collection(queryCollectionName(name)),
    create: (name) => this.#createCollection(queryCollectionName(name), CollectionType.DOCUMENT_COLLECTION),
    drop: (name) => this.#dropCollection(queryCollectionName(name)),
    import: (name, docs) => this.#import(queryCollectionName(name), docs),
    all: (query) => this.#all(query),
  };

  // The operations in flight, which close() lets finish (../in-flight.js).
  #inFlight = new InFlight();

  constructor(options) {
    this.#options = options;
    this.#name = databaseName(options.namespace);
    // The graph suite's operations (graph.js) on the edge collections `g_<name>` of the namespace's database.
    this.graph = graphOperations({
      collectionName: (name) => graphCollectionName(name),
      collection: (name) => this.#collection(graphCollectionName(name)),
      create: (name) => this.#createCollection(graphCollectionName(name), CollectionType.DOCUMENT_COLLECTION),
      drop: (name) => this.#dropCollection(graphCollectionName(name)),
      all: (query) => this.#all(query),
    });
    this.#inFlight.wrap(this, OPERATION_METHODS);
    this.#inFlight.wrap(this.graph);
  }

  async connect() {
    if (this.#connection) return;
    this.#connection = await openConnection(this.#options);
    this.#home = this.#connection.database;
    this.#database = this.#home.database(this.#name);
  }

  async close() {
    await this.#inFlight.settled();
    const connection = this.#connection;
    this.#connection = null;
    this.#home = null;
    this.#database = null;
    await connection?.close();
  }

  async serverVersion() {
    return (await this.#connected.version()).version;
  }

  // Best effort: a probe the server refuses (GET /_admin/options is for administrators only, or switched off by
  // --server.options-api) is reported with its reason instead of its values.
  async settings() {
    const home = this.#connected;
    const [engine, role, startup] = await Promise.allSettled([
      home.engine(),
      home.request({ pathname: '/_admin/server/role' }),
      home.request({ pathname: '/_admin/options' }),
    ]);
    const settings = {
      storageEngine: engine.status === 'fulfilled' ? engine.value.name : unavailable(engine.reason),
      role: role.status === 'fulfilled' ? role.value.role : unavailable(role.reason),
    };
    if (startup.status === 'rejected') {
      settings.startupOptions = unavailable(startup.reason);
    } else {
      for (const name of REPORTED_OPTIONS) if (name in startup.value) settings[name] = startup.value[name];
    }
    return settings;
  }

  // The durability term (adapters/README.md, "Terms"): every timed write sends its waitForSync, so nothing is set
  // on the server; the engine, the startup options and the waitForSync of the collections the timed writes use are
  // read back (terms.js), and so is the RocksDB block cache, set on no server either.
  async terms({ durability }) {
    const answers = await readTermAnswers({ home: this.#connected, namespace: this.#namespace });
    const { settings, problems } = arangoTerms(answers, {
      durability, where: `${this.#options.host}:${this.#options.port}`, database: this.#name,
    });
    return { settings, applied: [], problems, cache: arangoCache(answers) };
  }

  // The RocksDB engine's figures of every collection of the namespace's database (documentsSize and
  // indexes.size, both estimates); null when the server reports no such figures. Written against the
  // documented API; not verified against a live server.
  async diskUsage() {
    const names = (await this.#namespace.listCollections(true)).map(({ name }) => name);
    let bytes = 0;
    for (const name of names) {
      const { figures } = await this.#collection(name).figures();
      if (!Number.isFinite(figures?.documentsSize) || !Number.isFinite(figures?.indexes?.size)) return null;
      bytes += figures.documentsSize + figures.indexes.size;
    }
    return bytes;
  }

  // Fills the in-memory index caches the server keeps (the edge cache of relations), then reads every profile
  // document whole.
  async warmup() {
    await this.#collection(COLLECTIONS.profiles).loadIndexes();
    await this.#collection(COLLECTIONS.relations).loadIndexes();
    await this.#all(warmupQuery());
  }

  // --- namespace ---

  async inspectNamespace() {
    const { state, marker } = await this.#inspect();
    return { state, marker };
  }

  // Creates the database when it is absent. An owned one keeps its marker collection, reset to {} first, so it
  // stays recognisable as ours however far the reset gets; the other collections are dropped and created again.
  async resetNamespace() {
    const found = await this.#inspect();
    if (found.state === 'foreign') {
      const holds = found.collections.length > 0 ? `holds ${found.collections.join(', ')}` : 'exists';
      throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, `${ADAPTER_ID}: database "${this.#name}" ${holds} but has `
        + 'no db-shootout marker; refusing to touch it (choose another --namespace)');
    }
    if (found.state === 'absent') {
      await this.#createDatabase();
      await this.#createCollection(COLLECTIONS.marker, CollectionType.DOCUMENT_COLLECTION);
      await this.writeMarker({});
    } else {
      await this.#refuseStrangers(found.collections);
      await this.writeMarker({});
      for (const name of found.collections) if (name !== COLLECTIONS.marker) await this.#dropCollection(name);
    }
    await this.#createCollection(COLLECTIONS.profiles, CollectionType.DOCUMENT_COLLECTION);
    await this.#createCollection(COLLECTIONS.relations, CollectionType.EDGE_COLLECTION);
  }

  async writeMarker(marker) {
    await this.#collection(COLLECTIONS.marker).save({ _key: MARKER_KEY, marker }, MARKER_OPTIONS);
  }

  // 'absent' without the database; 'owned' when its marker collection holds a marker object; 'foreign' otherwise,
  // an empty database included.
  async #inspect() {
    let collections;
    try {
      collections = (await this.#namespace.listCollections(true)).map(({ name }) => name);
    } catch (error) {
      if (isArangoErrorNumber(error, ARANGO_ERRORS.databaseNotFound)) {
        return { state: 'absent', marker: null, collections: [] };
      }
      throw new Error(`${ADAPTER_ID}: cannot read database "${this.#name}": ${error.message}`, { cause: error });
    }
    if (collections.includes(COLLECTIONS.marker)) {
      const stored = await this.#collection(COLLECTIONS.marker).document(MARKER_KEY, { graceful: true });
      const marker = markerOf(stored);
      if (marker) return { state: 'owned', marker, collections };
    }
    return { state: 'foreign', marker: null, collections };
  }

  // Dropping is by name, so anything in our database that db-shootout did not create stops the reset instead.
  async #refuseStrangers(collections) {
    const [views, graphs] = await Promise.all([this.#namespace.listViews(), this.#namespace.listGraphs()]);
    const names = (objects) => objects.map(({ name }) => name);
    const found = strangers({ collections, views: names(views), graphs: names(graphs) });
    if (found.length > 0) {
      throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, `${ADAPTER_ID}: database "${this.#name}" holds objects `
        + `that db-shootout did not create (${found.join(', ')}); refusing to reset it`);
    }
  }

  async #createDatabase() {
    try {
      await this.#connected.createDatabase(this.#name);
    } catch (error) {
      const refusal = createDatabaseRefusal(this.#options, error);
      if (!refusal) throw error;
      throw new Error(`${ADAPTER_ID}: cannot create the namespace database "${this.#name}": ${refusal}`,
        { cause: error });
    }
  }

  // --- bulk import ---

  async importProfiles(docs) {
    await this.#import(COLLECTIONS.profiles, docs);
  }

  async importRelations(edges) {
    await this.#import(COLLECTIONS.relations, edges.map(edgeDocument));
  }

  // ArangoDB keeps the indexes the workloads need from a collection's creation on: the primary index on _key,
  // and on an edge collection the edge index on _from and _to. Nothing is built; this checks that they exist.
  async createIndexes() {
    const [profileIndexes, relationIndexes] = await Promise.all([
      this.#collection(COLLECTIONS.profiles).indexes(),
      this.#collection(COLLECTIONS.relations).indexes(),
    ]);
    const missing = [];
    if (!profileIndexes.some(({ type }) => type === 'primary')) missing.push('the primary index of profiles');
    const edgeFields = new Set(relationIndexes.filter(({ type }) => type === 'edge').flatMap(({ fields }) => fields));
    for (const field of ['_from', '_to']) {
      if (!edgeFields.has(field)) missing.push(`the edge index on relations.${field}`);
    }
    if (missing.length > 0) {
      throw new BenchError(ErrorCodes.IMPORT, `${ADAPTER_ID}: database "${this.#name}" lacks ${missing.join(' and ')}`);
    }
  }

  async counts() {
    const [profiles, relations] = await Promise.all([
      this.#collection(COLLECTIONS.profiles).count(),
      this.#collection(COLLECTIONS.relations).count(),
    ]);
    return { profiles: profiles.count, relations: relations.count };
  }

  async #import(name, documents) {
    if (documents.length === 0) return;
    const result = await this.#collection(name).import(documents, IMPORT_OPTIONS);
    if (result.created !== documents.length) {
      const detail = result.details?.length > 0 ? `: ${result.details[0]}` : '';
      throw new BenchError(ErrorCodes.IMPORT, `${ADAPTER_ID}: importing ${documents.length} documents into `
        + `"${name}" created ${result.created}, with ${result.errors} errors${detail}`);
    }
  }

  // --- operations ---

  async singleRead(key) {
    return contractDocument(await this.#collection(COLLECTIONS.profiles).document(key, { graceful: true }));
  }

  async singleWrite(collection, doc) {
    await this.#collection(tempCollectionName(collection)).save(doc, writeOptions(false));
  }

  async singleWriteSync(collection, doc) {
    await this.#collection(tempCollectionName(collection)).save(doc, writeOptions(true));
  }

  async aggregation() {
    return ageHistogram(await this.#all(aggregationQuery()));
  }

  async neighbors(key) {
    return this.#all(neighborsQuery(key));
  }

  async neighborsData(key) {
    return this.#all(neighborsDataQuery(key));
  }

  async neighbors2(key) {
    return this.#all(neighbors2Query(key));
  }

  async neighbors2data(key) {
    return this.#all(neighbors2dataQuery(key));
  }

  async shortestPath(from, to, maxDepth) {
    if (from === to) return [from];
    return boundedPath(await this.#all(shortestPathQuery(from, to)), maxDepth);
  }

  // --- temporary collections ---

  async createTempCollection(name) {
    const collection = tempCollectionName(name);
    await this.#dropCollection(collection);
    await this.#createCollection(collection, CollectionType.DOCUMENT_COLLECTION);
  }

  async dropTempCollection(name) {
    await this.#dropCollection(tempCollectionName(name));
  }

  async countDocuments(name) {
    return (await this.#collection(tempCollectionName(name)).count()).count;
  }

  async readDocument(name, key) {
    return contractDocument(await this.#collection(tempCollectionName(name)).document(key, { graceful: true }));
  }

  async readCollection(name) {
    return (await this.#all(readCollectionQuery(tempCollectionName(name)))).map(contractDocument);
  }

  // --- document operations (crud.js) ---

  async insertDocument(collection, doc, options) {
    await insertDocument(this.#collection(tempCollectionName(collection)), doc, options);
  }

  async getDocument(collection, key) {
    return getDocument(this.#collection(tempCollectionName(collection)), key);
  }

  async updateDocument(collection, key, doc, options) {
    await updateDocument(this.#collection(tempCollectionName(collection)), key, doc, options);
  }

  async deleteDocument(collection, key, options) {
    await deleteDocument(this.#collection(tempCollectionName(collection)), key, options);
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

  // --- connection ---

  get #connected() {
    if (!this.#home) throw notConnected();
    return this.#home;
  }

  get #namespace() {
    if (!this.#database) throw notConnected();
    return this.#database;
  }

  #collection(name) {
    return this.#namespace.collection(name);
  }

  // waitForSync false on the collection, so that each write's own waitForSync decides (a collection's true
  // would override a request's false).
  async #createCollection(name, type) {
    await this.#namespace.createCollection(name, { type, waitForSync: false });
  }

  async #dropCollection(name) {
    try {
      await this.#collection(name).drop();
    } catch (error) {
      if (!isArangoErrorNumber(error, ARANGO_ERRORS.collectionNotFound)) throw error;
    }
  }

  // The whole result: arangojs fetches the further batches of a larger result, and the server drops the cursor
  // once the last one is read.
  async #all(query) {
    return (await this.#namespace.query(query, QUERY_OPTIONS)).all();
  }
}

function notConnected() {
  return new Error(`${ADAPTER_ID}: not connected (call connect() first)`);
}

function unavailable(error) {
  return `unavailable: ${error.message}`;
}
