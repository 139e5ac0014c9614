// The OrientDB adapter: profiles are vertices of the class Profile, relations lightweight Knows edges, and every
// operation one SQL statement that the server executes; no operation pulls the graph into Node.
import async from 'async';
import orientjs from 'orientjs';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { InFlight, OPERATION_METHODS } from '../in-flight.js';
import { split } from '../bulk-load.js';
import {
  closeSessions, createDatabase, databaseExists, dropDatabase, endpoint, openServer, openSessions, serverConfig,
} from './connection.js';
import { deleteDocument, getDocument, insertDocument, updateDocument } from './crud.js';
import { DOCUMENT_JSON, parseDocument } from './documents.js';
import { graphOperations } from './graph.js';
import { openOfflineImport } from './offline-import.js';
import { orientdbTerms } from './terms.js';
import { ImportState, MAX_PENDING_RELATIONS } from './relations.js';
import {
  countDocuments as countQueryDocuments, createCollection, dropCollection, importDocuments, indexCollection, runQuery,
} from './queries.js';
import {
  CLASSES_SQL, CREATE_KEY_INDEX, IN_EDGES, KNOWS, MARKER, OUT_EDGES, PROFILE, createNamespaceScript,
  createTempClassScript, databaseName, dropTempClassSql, isOwnClass, isSystemClass, tempClass,
} from './schema.js';

// Server settings that change results, reported with every run.
const REPORTED_SETTINGS = Object.freeze(['storage.useWAL', 'storage.wal.commitTimeout',
  'storage.wal.syncOnPageFlush', 'storage.callFsync', 'storage.diskCache.bufferSize',
  'ridBag.embeddedToSbtreeBonsaiThreshold', 'query.maxHeapElementsAllowedPerOp']);
const SERVER_INFO = 'network.http.serverInfo';

// Rows per result page: every answer of a workload fits in one page, so each operation is one round trip.
const PAGE_SIZE = 100_000;
// Import work runs on at most this many sessions at once: the server's work is CPU-bound, and Node serialises
// the profiles on one thread anyway.
const IMPORT_SESSIONS = 2;
// Vertices per script of relation updates. A script is one transaction, and a large bag's B-tree reads its
// pages through the transaction's own changes, which grow with it: 100 cost less server time than 500 or 2000.
const UPDATES_PER_SCRIPT = 100;

// A document as the contract wants it: the record's own fields, without the edge bags. The nested projection
// leaves out @rid, @class and @version as well.
const DOCUMENT = `@this:{!${OUT_EDGES}, !${IN_EDGES}} AS doc`;
const BY_KEY = `FROM ${PROFILE} WHERE _key = :key`;
// The vertices one and two hops out, each once, the start included when a path leads back to it.
const TWO_HOPS = `unionAll(out('${KNOWS}'), out('${KNOWS}').out('${KNOWS}')).asSet()`;

const STATEMENTS = {
  singleRead: `SELECT ${DOCUMENT} ${BY_KEY}`,
  aggregation: `SELECT AGE, count(*) AS count FROM ${PROFILE} GROUP BY AGE`,
  neighbors: `SELECT out('${KNOWS}')._key.asSet() AS keys ${BY_KEY}`,
  neighborsData: `SELECT ${DOCUMENT} FROM (SELECT expand(out('${KNOWS}').asSet()) ${BY_KEY})`,
  neighbors2: `SELECT ${TWO_HOPS}._key.remove(:key) AS keys ${BY_KEY}`,
  neighbors2data: `SELECT ${DOCUMENT} FROM (SELECT expand(${TWO_HOPS}) ${BY_KEY}) WHERE _key <> :key`,
  // OrientDB's own bidirectional breadth-first search. Its maxDepth is one more than the hops it finds (with
  // maxDepth d it returns paths of at most d - 1 hops), hence :depth = maxDepth + 1. The list of RIDs maps to
  // keys in order; no row when either key is missing.
  shortestPath: `SELECT shortestPath(@rid, $target, 'OUT', '${KNOWS}', {'maxDepth': :depth})._key AS path
    FROM ${PROFILE} LET $target = (SELECT FROM ${PROFILE} WHERE _key = :to) WHERE _key = :from AND $target.size() = 1`,
  counts: `SELECT count(*) AS profiles, sum(${OUT_EDGES}.size()) AS relations FROM ${PROFILE}`,
  keys: `SELECT _key, @rid AS rid FROM ${PROFILE}`,
  marker: `SELECT json FROM ${MARKER}`,
  writeMarker: `UPDATE ${MARKER} SET json = :json`,
  // Every profile record and both bags of each, then every entry of the key index.
  warmup: [`SELECT count(*), sum(${OUT_EDGES}.size()), sum(${IN_EDGES}.size()) FROM ${PROFILE}`,
    `SELECT count(*) FROM INDEX:${PROFILE}._key`],
};

// Written documents are read back as JSON text (documents.js).
function tempStatements(name) {
  return {
    className: name,
    insert: `INSERT INTO ${name} CONTENT :doc RETURN @rid`,
    count: `SELECT count(*) AS count FROM ${name}`,
    read: `SELECT ${DOCUMENT_JSON} FROM ${name} WHERE _key = :key`,
    readAll: `SELECT ${DOCUMENT_JSON} FROM ${name}`,
  };
}

// The bags of one vertex grow by the relations of this round; `||` appends to a bag, or starts one.
function vertexUpdate(state, { vertex, out, in: inn }, index, params) {
  const rids = (vertices) => vertices.map((v) => new orientjs.RID(state.rid(v)));
  const sets = [];
  if (out.length > 0) {
    sets.push(`${OUT_EDGES} = ${OUT_EDGES} || :o${index}`);
    params[`o${index}`] = rids(out);
  }
  if (inn.length > 0) {
    sets.push(`${IN_EDGES} = ${IN_EDGES} || :i${index}`);
    params[`i${index}`] = rids(inn);
  }
  const { cluster, position } = state.rid(vertex);
  return `UPDATE #${cluster}:${position} SET ${sets.join(', ')};`;
}

function* chunks(iterable, size) {
  let chunk = [];
  for (const item of iterable) {
    chunk.push(item);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export class OrientDBAdapter {
  #label;
  #options;
  #database;
  #tempNames = new Map();
  // The orientjs client and the credentials the server accepted.
  #server = null;
  // Sessions of the namespace's database; null while it does not exist.
  #sessions = null;
  #import = new ImportState();

  // The operations in flight, which close() lets finish (../in-flight.js).
  #inFlight = new InFlight();

  constructor(options, { label }) {
    this.#label = label;
    this.#options = options;
    this.#database = databaseName(label, options.namespace);
    // The graph suite's operations (graph.js): an edge collection is a vertex class and an edge class of the
    // namespace's temporary collections (`Tmp_g_edges_V`, `Tmp_g_edges`), so dropping the database removes them.
    this.graph = graphOperations(this.#queryStore);
    this.#inFlight.wrap(this, OPERATION_METHODS);
    this.#inFlight.wrap(this.graph);
  }

  async connect() {
    if (this.#server) return;
    const server = await openServer(this.#label, this.#options, this.#database);
    if (server.exists) {
      try {
        this.#sessions = await openSessions(this.#label, this.#options, server, this.#database, server.deadline);
      } catch (error) {
        await server.client.close();
        throw error;
      }
    }
    this.#server = server;
  }

  async close() {
    await this.#inFlight.settled();
    const server = this.#server;
    this.#server = null;
    try {
      await this.#closeSessions();
    } finally {
      await server?.client.close();
    }
  }

  async serverVersion() {
    const info = (await serverConfig(this.#connected, [SERVER_INFO]))[SERVER_INFO];
    // "OrientDB Server v.3.2.25 (build ${buildNumber}, branch UNKNOWN)": the release tarball leaves the build
    // placeholders unfilled, so only the version number says anything.
    return /\d+\.\d+\.\d+\S*/.exec(info)?.[0] ?? info;
  }

  async settings() {
    return serverConfig(this.#connected, REPORTED_SETTINGS);
  }

  // The durability term, read back from the server's configuration; nothing can be set on a running server, so
  // nothing is, owned or not (terms.js).
  async terms(request) {
    return orientdbTerms({
      read: (keys) => serverConfig(this.#connected, keys), release: await this.serverVersion(), where: endpoint(this.#options),
    }, request);
  }

  async warmup() {
    for (const sql of STATEMENTS.warmup) await this.#query(sql);
  }

  // --- namespace ---

  async inspectNamespace() {
    const { state, marker } = await this.#inspect();
    return { state, marker };
  }

  async resetNamespace() {
    const { state, refusal } = await this.#inspect();
    if (state === 'foreign') {
      throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, `${this.#label}: database "${this.#database}" ${refusal}; `
        + 'refusing to drop it (choose another --namespace)');
    }
    await this.#closeSessions();
    if (state === 'owned') await dropDatabase(this.#connected, this.#database);
    await createDatabase(this.#connected, this.#database);
    this.#sessions = await openSessions(this.#label, this.#options, this.#connected, this.#database);
    await this.#script(createNamespaceScript());
    this.#import = new ImportState();
    this.#tempNames.clear();
  }

  async writeMarker(marker) {
    const [{ count }] = await this.#command(STATEMENTS.writeMarker, { json: JSON.stringify(marker) });
    if (count !== 1) throw new Error(`${this.#label}: database "${this.#database}" holds no marker record`);
  }

  // 'absent' without the database. 'owned' when its Marker class holds exactly one record whose JSON is an
  // object and every class of its own (not OrientDB's) is one of ours: dropping the database would drop a class
  // someone added to it. 'foreign' otherwise, with the reason. The database is opened only when it exists.
  async #inspect() {
    if (!this.#sessions) {
      if (!(await databaseExists(this.#connected, this.#database))) return { state: 'absent', marker: null };
      this.#sessions = await openSessions(this.#label, this.#options, this.#connected, this.#database);
    }
    const classes = (await this.#query(CLASSES_SQL)).map(({ name }) => name).filter((name) => !isSystemClass(name));
    const others = classes.filter((name) => !isOwnClass(name));
    if (others.length > 0) {
      return { state: 'foreign', marker: null, refusal: `holds classes db-shootout did not create: ${others.join(', ')}` };
    }
    const rows = classes.includes(MARKER) ? await this.#query(STATEMENTS.marker) : [];
    const marker = rows.length === 1 ? parseMarker(rows[0].json) : null;
    if (marker) return { state: 'owned', marker };
    return { state: 'foreign', marker: null, refusal: 'exists but has no db-shootout marker' };
  }

  // --- bulk import ---

  // Each part of the batch is one transaction on a session of its own: the records travel in one request, in
  // orientjs's binary record format, and the server answers with their RIDs.
  async importProfiles(docs) {
    const parts = split(docs, Math.min(this.#options.concurrency, IMPORT_SESSIONS));
    await Promise.all(parts.map((part) => this.#withSession(async (session) => {
      const tx = session.begin();
      for (const doc of part) tx.create({ '@class': PROFILE, ...doc });
      let result;
      try {
        result = await tx.commit();
      } catch (error) {
        // The commit's error is the one to report; the rollback only frees the session's transaction.
        await tx.rollback().catch(() => {});
        throw error;
      }
      for (const record of result.created) this.#import.addVertex(record._key, record['@rid']);
    })));
  }

  // Relations are collected and written vertex by vertex (see relations.js): by flushRelations(), or whenever
  // MAX_PENDING_RELATIONS are waiting.
  async importRelations(edges) {
    await this.#knowKeys(edges);
    for (const { _from, _to } of edges) this.#import.addRelation(_from, _to);
    if (this.#import.pending >= MAX_PENDING_RELATIONS) await this.#writeRelations();
  }

  // Writing every vertex's bags takes minutes on the larger datasets: `bar`, when given, shows its progress.
  async flushRelations({ bar } = {}) {
    await this.#writeRelations(bar);
  }

  // The key index, built after the load: maintaining it during the import would cost more, and the import
  // resolves keys through its own RIDs. Relations still pending (a caller that skipped flushRelations()) first.
  async createIndexes() {
    await this.#writeRelations();
    await this.#command(CREATE_KEY_INDEX);
    this.#import = new ImportState();
  }

  // An empty class gives no row at all.
  async counts() {
    const [row] = await this.#query(STATEMENTS.counts);
    return { profiles: row?.profiles ?? 0, relations: row?.relations ?? 0 };
  }

  // The offline importer (offline-import.js), for the server `bench server` runs: `{ refused: reason }` otherwise.
  // The namespace is created first when absent, so that the unfinished marker has a database to go to until the
  // imported one replaces it.
  async offlineImport({ server, marker }) {
    const opened = openOfflineImport({
      server, marker, database: this.#database, namespaceScript: createNamespaceScript(),
      replace: (move) => this.#replaceDatabase(move),
    });
    if (opened.importer && !this.#sessions) await this.resetNamespace();
    return opened;
  }

  // The server drops the database and opens the one `move()` puts in its directory.
  async #replaceDatabase(move) {
    await this.#closeSessions();
    await dropDatabase(this.#connected, this.#database);
    move();
    this.#sessions = await openSessions(this.#label, this.#options, this.#connected, this.#database);
    this.#import = new ImportState();
    this.#tempNames.clear();
  }

  // The RIDs of profiles imported by another adapter instance are read from the database, once.
  async #knowKeys(edges) {
    const unknown = () => edges.find(({ _from, _to }) => !this.#import.hasKey(_from) || !this.#import.hasKey(_to));
    if (!unknown()) return;
    for (const { _key, rid } of await this.#query(STATEMENTS.keys)) this.#import.addVertex(_key, rid);
    const missing = unknown();
    if (missing) {
      const key = this.#import.hasKey(missing._from) ? missing._to : missing._from;
      throw new BenchError(ErrorCodes.IMPORT, `${this.#label}: relation ${missing._from} -> ${missing._to} names `
        + `profile ${key}, which was not imported; a relation needs both profiles`);
    }
  }

  // Every vertex of the pending relations once, in scripts of UPDATE statements run side by side: no two scripts
  // touch the same vertex. Each script is one transaction; the server rolls back a script that fails.
  async #writeRelations(bar) {
    if (this.#import.pending === 0) return;
    const state = this.#import;
    // At most every vertex has relations to write.
    const progress = bar?.('write the relations vertex by vertex', state.vertices);
    let done = 0;
    const scripts = chunks(state.takeVertexUpdates(), UPDATES_PER_SCRIPT);
    await async.eachLimit(scripts, Math.min(this.#options.concurrency, IMPORT_SESSIONS), async (updates) => {
      const params = {};
      const lines = updates.map((update, i) => vertexUpdate(state, update, i, params));
      await this.#script(`BEGIN;\n${lines.join('\n')}\nCOMMIT;`, params);
      done += updates.length;
      progress?.update(done);
    });
    progress?.stop(done);
  }

  // --- operations ---

  async singleRead(key) {
    const rows = await this.#query(STATEMENTS.singleRead, { key });
    return rows.length === 0 ? null : rows[0].doc;
  }

  async singleWrite(collection, doc) {
    await this.#command(this.#temp(collection).insert, { doc });
  }

  // OrientDB 3.2 has no durable acknowledgement per write (README, Durability): the same insert.
  async singleWriteSync(collection, doc) {
    await this.#command(this.#temp(collection).insert, { doc });
  }

  async aggregation() {
    const rows = await this.#query(STATEMENTS.aggregation);
    return Object.fromEntries(rows.map(({ AGE, count }) => [String(AGE ?? null), count]));
  }

  async neighbors(key) {
    const rows = await this.#query(STATEMENTS.neighbors, { key });
    return rows.length === 0 ? [] : rows[0].keys;
  }

  async neighborsData(key) {
    return (await this.#query(STATEMENTS.neighborsData, { key })).map(({ doc }) => doc);
  }

  async neighbors2(key) {
    const rows = await this.#query(STATEMENTS.neighbors2, { key });
    return rows.length === 0 ? [] : rows[0].keys;
  }

  async neighbors2data(key) {
    return (await this.#query(STATEMENTS.neighbors2data, { key })).map(({ doc }) => doc);
  }

  async shortestPath(from, to, maxDepth) {
    if (from === to) return [from];
    const rows = await this.#query(STATEMENTS.shortestPath, { from, to, depth: maxDepth + 1 });
    return rows.length === 0 || rows[0].path.length === 0 ? null : rows[0].path;
  }

  // --- temporary collections ---

  async createTempCollection(name) {
    await this.#script(createTempClassScript(tempClass(this.#label, name)));
  }

  async dropTempCollection(name) {
    await this.#command(dropTempClassSql(tempClass(this.#label, name)));
  }

  async countDocuments(name) {
    return (await this.#query(this.#temp(name).count))[0].count;
  }

  async readDocument(name, key) {
    const rows = await this.#query(this.#temp(name).read, { key });
    return rows.length === 0 ? null : parseDocument(rows[0]);
  }

  // One query, read in pages of PAGE_SIZE records.
  async readCollection(name) {
    return (await this.#query(this.#temp(name).readAll)).map(parseDocument);
  }

  // --- document operations (crud.js) ---

  async insertDocument(collection, doc, options) {
    await insertDocument(this.#crudStore(collection), doc, options);
  }

  async getDocument(collection, key) {
    return getDocument(this.#crudStore(collection), key);
  }

  async updateDocument(collection, key, doc, options) {
    await updateDocument(this.#crudStore(collection), key, doc, options);
  }

  async deleteDocument(collection, key, options) {
    await deleteDocument(this.#crudStore(collection), key, options);
  }

  #crudStore(collection) {
    return {
      label: this.#label,
      statements: this.#temp(collection),
      command: (sql, params) => this.#command(sql, params),
      query: (sql, params) => this.#query(sql, params),
    };
  }

  // --- the queries suite (queries.js) ---

  async createQueryCollection(name) {
    await createCollection(this.#queryStore, name);
  }

  async importQueryDocuments(name, docs) {
    await importDocuments(this.#queryStore, name, docs);
  }

  async indexQueryCollection(name) {
    await indexCollection(this.#queryStore, name);
  }

  async countQueryDocuments(name) {
    return countQueryDocuments(this.#queryStore, name);
  }

  async dropQueryCollection(name) {
    await dropCollection(this.#queryStore, name);
  }

  async query(caseName, name, params) {
    return runQuery(this.#queryStore, caseName, name, params);
  }

  // What queries.js needs: a query collection is a temporary collection's class (`Tmp_q_values10k`), so the
  // namespace's reset and drop, which drop the database, remove it.
  get #queryStore() {
    return {
      label: this.#label,
      query: (sql, params) => this.#query(sql, params),
      command: (sql, params) => this.#command(sql, params),
      script: (sql, params) => this.#script(sql, params),
      withSession: (work) => this.#withSession(work),
      sessions: Math.min(this.#options.concurrency, IMPORT_SESSIONS),
    };
  }

  #temp(name) {
    let statements = this.#tempNames.get(name);
    if (!statements) {
      statements = tempStatements(tempClass(this.#label, name));
      this.#tempNames.set(name, statements);
    }
    return statements;
  }

  // --- sessions ---

  get #connected() {
    if (!this.#server) throw notConnected(this.#label);
    return this.#server;
  }

  get #pool() {
    if (!this.#server) throw notConnected(this.#label);
    if (!this.#sessions) {
      throw new Error(`${this.#label}: database "${this.#database}" does not exist (resetNamespace() creates it)`);
    }
    return this.#sessions;
  }

  async #closeSessions() {
    const sessions = this.#sessions;
    this.#sessions = null;
    if (sessions) await closeSessions(sessions, this.#options.connectTimeoutMs);
  }

  // A request the server can no longer be reached for fails naming host:port; orientjs alone says "Cannot
  // select the server".
  async #withSession(work) {
    const session = await this.#pool.acquire();
    try {
      return await work(session);
    } catch (error) {
      if (!(error instanceof orientjs.errors.ConnectionError)) throw error;
      throw new BenchError(ErrorCodes.CONNECT,
        `${this.#label}: lost the server at ${endpoint(this.#options)}: ${error.message}`, { cause: error });
    } finally {
      await session.close();
    }
  }

  async #query(sql, params) {
    return this.#withSession((session) => session.query(sql, { params, pageSize: PAGE_SIZE }).all());
  }

  async #command(sql, params) {
    return this.#withSession((session) => session.command(sql, { params, pageSize: PAGE_SIZE }).all());
  }

  async #script(script, params) {
    return this.#withSession((session) => session.batch(script, { params, pageSize: PAGE_SIZE }).all());
  }
}

function notConnected(label) {
  return new Error(`${label}: not connected (call connect() first)`);
}

function parseMarker(json) {
  try {
    const marker = JSON.parse(json);
    return isPlainObject(marker) ? marker : null;
  } catch {
    return null;
  }
}
