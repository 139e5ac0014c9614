// CouchDB through its HTTP document API with nano: the lifecycle, the namespace (databases named
// `<namespace>-...`) and the temporary collections (a database each). It offers the crud suite's document
// operations and the queries suite's cases CouchDB can express (queries.js): CouchDB has no graph queries, so
// none of the social suite's operations, nor its import.
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { InFlight, OPERATION_METHODS } from '../in-flight.js';
import { openConnection } from './connection.js';
import * as crud from './crud.js';
import { fromStored } from './documents.js';
import {
  ADAPTER_ID, MARKER_ID, markerDatabase, namespaceDatabases, namespaceState, queryDatabase, tempDatabase,
} from './namespace.js';
import * as queries from './queries.js';
import { couchCache, couchTerms, readTermAnswers } from './terms.js';

const NOT_FOUND = 404;

export class CouchAdapter {
  #options;
  #connection = null;
  #version = null;
  // The last revision known of each document this instance wrote: see crud.js.
  #revisions = new Map();
  #store;
  // What queries.js needs: a query collection is a database `<ns>-q-<name>` of the namespace, so the reset
  // destroys it with the others.
  #queryStore;

  // The operations in flight, which close() lets finish (../in-flight.js).
  #inFlight = new InFlight();

  constructor(options) {
    this.#options = options;
    this.#store = {
      label: ADAPTER_ID,
      database: (collection) => this.#client().use(tempDatabase(this.#options.namespace, collection)),
      revisions: this.#revisions,
    };
    const queryName = (name) => queryDatabase(this.#options.namespace, name);
    this.#queryStore = {
      database: (name) => this.#client().use(queryName(name)),
      create: (name) => this.#client().db.create(queryName(name)),
      drop: (name) => this.#dropDatabase(queryName(name)),
    };
    this.#inFlight.wrap(this, OPERATION_METHODS);
  }

  async connect() {
    const { connection, version } = await openConnection(this.#options);
    this.#connection = connection;
    this.#version = version;
  }

  async close() {
    await this.#inFlight.settled();
    const connection = this.#connection;
    this.#connection = null;
    await connection?.close();
  }

  async serverVersion() {
    return this.#version;
  }

  async warmup() {}

  // The durability term (adapters/README.md, "Terms") is the server's own, whichever it is: nothing to set, on a
  // server `bench server` runs or any other; the server's welcome and configuration are read back, and the term it
  // cannot give is a problem (terms.js). The memory term is none: no setting of either server sizes a data cache.
  async terms({ durability }) {
    const answers = await readTermAnswers(this.#client());
    const { settings, problems } = couchTerms(answers, { durability, where: `${this.#options.host}:${this.#options.port}` });
    return { settings, applied: [], problems, cache: couchCache(answers) };
  }

  async inspectNamespace() {
    const { namespace } = this.#options;
    const databases = namespaceDatabases(await this.#client().db.list(), namespace);
    const marker = databases.includes(markerDatabase(namespace)) ? await this.#markerDocument() : null;
    return namespaceState(databases, marker);
  }

  async resetNamespace() {
    const { namespace } = this.#options;
    const { state } = await this.inspectNamespace();
    if (state === 'foreign') {
      throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, `${ADAPTER_ID}: namespace "${namespace}" holds databases `
        + `db-shootout did not create (${markerDatabase(namespace)} has no marker); not touching them`);
    }
    const client = this.#client();
    for (const name of namespaceDatabases(await client.db.list(), namespace)) await client.db.destroy(name);
    this.#revisions.clear();
    await client.db.create(markerDatabase(namespace));
    await this.writeMarker({});
  }

  // The marker document is replaced with the revision read just before: nobody else writes it.
  async writeMarker(marker) {
    const rev = (await this.#markerDocument())?._rev;
    await this.#client().use(markerDatabase(this.#options.namespace))
      .insert({ marker, ...(rev === undefined ? {} : { _rev: rev }) }, MARKER_ID);
  }

  async createTempCollection(name) {
    const database = tempDatabase(this.#options.namespace, name);
    await this.#dropDatabase(database);
    await this.#client().db.create(database);
  }

  async dropTempCollection(name) {
    await this.#dropDatabase(tempDatabase(this.#options.namespace, name));
  }

  async countDocuments(name) {
    return (await this.#store.database(name).info()).doc_count;
  }

  async readDocument(name, key) {
    return crud.getDocument(this.#store, name, key);
  }

  // Every document in one answer of _all_docs; design documents are never written here.
  async readCollection(name) {
    const { rows } = await this.#store.database(name).list({ include_docs: true });
    return rows.map((row) => fromStored(row.doc));
  }

  // Both durability terms ({ durable }) send the same request: the server decides, and terms() has checked before
  // any work that it gives the run's term (see crud.js).
  insertDocument(collection, doc) {
    return crud.insertDocument(this.#store, collection, doc);
  }

  getDocument(collection, key) {
    return crud.getDocument(this.#store, collection, key);
  }

  updateDocument(collection, key, doc) {
    return crud.updateDocument(this.#store, collection, key, doc);
  }

  deleteDocument(collection, key) {
    return crud.deleteDocument(this.#store, collection, key);
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

  #client() {
    if (!this.#connection) throw new Error(`${ADAPTER_ID}: not connected (connect() first, or closed)`);
    return this.#connection.client;
  }

  async #markerDocument() {
    try {
      return await this.#client().use(markerDatabase(this.#options.namespace)).get(MARKER_ID);
    } catch (error) {
      if (error.statusCode === NOT_FOUND) return null;
      throw error;
    }
  }

  // A database and the revisions known of its documents; nothing to do when it does not exist.
  async #dropDatabase(database) {
    for (const key of this.#revisions.keys()) {
      if (key.startsWith(`${database} `)) this.#revisions.delete(key);
    }
    try {
      await this.#client().db.destroy(database);
    } catch (error) {
      if (error.statusCode !== NOT_FOUND) throw error;
    }
  }
}
