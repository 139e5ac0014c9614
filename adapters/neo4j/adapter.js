// The Neo4j adapter: profiles are nodes, relations are relationships, every operation one Cypher query run by
// the server in an auto-commit transaction.
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { InFlight, OPERATION_METHODS } from '../in-flight.js';
import { MAX_PATH_DEPTH } from '../../datasets/scales.js';
import { readCache } from './cache.js';
import { endpoint, openDriver, sessionConfig } from './connection.js';
import { crudStatements, deleteDocument, getDocument, insertDocument, updateDocument } from './crud.js';
import { toProperties } from './documents.js';
import { graphOperations } from './graph.js';
import { deleteNamespace, deleteNodes, dropSchema, inspectNamespace } from './namespace.js';
import { openOfflineImport } from './offline-import.js';
import {
  countDocuments as countQueryDocuments, createCollection, dropCollection, importDocuments, indexCollection, runQuery,
} from './queries.js';
import { namespaceNames, quote } from './schema.js';

// Server settings that change results, reported with every run.
const REPORTED_SETTINGS = Object.freeze(['server.memory.pagecache.size', 'server.memory.heap.max_size',
  'db.tx_log.rotation.size', 'db.tx_log.preallocate', 'db.checkpoint.interval.time', 'db.checkpoint.interval.tx',
  'db.format', 'server.bolt.thread_pool_max_size']);
// What the durability term depends on, besides any setting named *fsync* (terms()): where the transaction logs
// are written, the buffer a transaction's log records are flushed from at its end, and preallocation.
const TERM_SETTINGS = Object.freeze(['server.directories.transaction.logs.root', 'db.tx_log.buffer.size',
  'db.tx_log.preallocate']);
// Seconds to wait for a new constraint's index to come online.
const INDEX_ONLINE_TIMEOUT_S = 600;

function statements(names) {
  const { profile, type, marker } = names.q;
  const start = `(s:${profile} {_key: $key})`;
  const oneHop = `MATCH ${start}-[:${type}]->(n)`;
  // Variable-length expansion with DISTINCT end nodes: the planner's pruning expand visits each node once.
  const twoHops = `MATCH ${start}-[:${type}*1..2]->(n) WHERE n <> s`;
  // Keys come back as one list in one record: a record per key costs the server and the driver more than the
  // key itself (on `small`, neighbors2 took about 2 instead of 5.5 ms of server CPU). Documents come back one per
  // record: a list of documents outgrows Bolt's 64 KiB chunks, which the driver reassembles slowly.
  return {
    singleRead: `MATCH (p:${profile} {_key: $key}) RETURN properties(p)`,
    aggregation: `MATCH (p:${profile}) RETURN p.AGE, count(*)`,
    neighbors: `${oneHop} WITH DISTINCT n RETURN collect(n._key)`,
    neighborsData: `${oneHop} WITH DISTINCT n RETURN properties(n)`,
    neighbors2: `${twoHops} WITH DISTINCT n RETURN collect(n._key)`,
    neighbors2data: `${twoHops} WITH DISTINCT n RETURN properties(n)`,
    // Depths cannot be parameters: the bound is a checked integer written into the text.
    shortestPath: (maxDepth) => `MATCH (a:${profile} {_key: $from}), (b:${profile} {_key: $to})
      MATCH path = shortestPath((a)-[:${type}*..${maxDepth}]->(b)) RETURN [n IN nodes(path) | n._key]`,
    importProfiles: `UNWIND $rows AS row CREATE (p:${profile}) SET p = row`,
    // One row per start node and its list of ends (see groupByFrom).
    importRelations: `UNWIND $groups AS group MATCH (a:${profile} {_key: group[0]})
      UNWIND group[1] AS to MATCH (b:${profile} {_key: to}) CREATE (a)-[:${type}]->(b)`,
    profileKey: `CREATE CONSTRAINT ${quote(names.profileKeyConstraint)} IF NOT EXISTS
      FOR (p:${profile}) REQUIRE p._key IS UNIQUE`,
    countProfiles: `MATCH (p:${profile}) RETURN count(p)`,
    countRelations: `MATCH ()-[r:${type}]->() RETURN count(r)`,
    writeMarker: `MERGE (m:${marker}) SET m.marker = $marker`,
    warmupProfiles: `MATCH (p:${profile}) RETURN count(properties(p))`,
    warmupKeys: `MATCH (p:${profile}) WHERE p._key >= '' RETURN count(p._key)`,
    // DISTINCT keeps the planner from answering from the count store without reading a relationship.
    warmupRelations: `MATCH (:${profile})-[:${type}]->(n) RETURN count(DISTINCT n)`,
  };
}

function tempStatements(temp) {
  return {
    insert: `CREATE (d:${temp.quoted}) SET d = $doc`,
    count: `MATCH (d:${temp.quoted}) RETURN count(d)`,
    read: `MATCH (d:${temp.quoted} {_key: $key}) RETURN properties(d)`,
    readAll: `MATCH (d:${temp.quoted}) RETURN properties(d)`,
    key: `CREATE CONSTRAINT ${quote(temp.keyConstraint)} IF NOT EXISTS FOR (d:${temp.quoted}) REQUIRE d._key IS UNIQUE`,
  };
}

const firstColumn = (records) => records.map((record) => record.get(0));

// What rejects the queries still running when told to (close()). Each query listens for as long as it runs and
// then lets go: a race against one shared promise that never settles keeps every query's result reachable from
// that promise (a reaction per race), which ran the harness out of heap importing `full`.
function closedSignal() {
  const listening = new Set();
  let reason = null;
  return {
    reject(error) {
      reason = error;
      for (const reject of listening) reject(error);
      listening.clear();
    },
    // A promise that rejects once reject() is called (at once when it was), handled from the start so that a
    // close() rejects nothing unhandled, and release() to stop listening.
    listen() {
      let release = () => {};
      const promise = new Promise((_, reject) => {
        if (reason) {
          reject(reason);
          return;
        }
        listening.add(reject);
        release = () => listening.delete(reject);
      });
      promise.catch(() => {});
      return { promise, release };
    },
  };
}

// Consecutive relations from one profile as [_from, [_to, ...]]: the dataset lists relations by _from, so each
// start node is looked up once per run instead of once per relation, and each key is sent once (at least a third
// less time per batch than a map per relation, measured on `small`).
function groupByFrom(edges) {
  const groups = [];
  let group = null;
  for (const { _from, _to } of edges) {
    if (group?.[0] !== _from) {
      group = [_from, []];
      groups.push(group);
    }
    group[1].push(_to);
  }
  return groups;
}

export class Neo4jAdapter {
  #options;
  #names;
  #cypher;
  #temps = new Map();
  #driver = null;
  // Rejected by close() for the queries still running after it waited for them (a stalled one): the driver drops
  // the queries still running when it closes, and their promises would never settle.
  #closed = null;
  // Whether this instance created the profile key constraint since its last resetNamespace().
  #profileKeyReady = false;

  // The operations in flight, which close() lets finish (../in-flight.js).
  #inFlight = new InFlight();

  constructor(options) {
    this.#options = options;
    this.#names = namespaceNames(options.namespace);
    this.#cypher = statements(this.#names);
    // The graph suite's operations (graph.js): an edge collection is a label and a relationship type of the
    // namespace's temporary collections (`<ns>_tmp_g_edges`), so the namespace's reset and drop delete it.
    this.graph = graphOperations({ read: (query, params) => this.#run(query, params), write: this.#runner, names: this.#names });
    this.#inFlight.wrap(this, OPERATION_METHODS);
    this.#inFlight.wrap(this.graph);
  }

  async connect() {
    if (this.#driver) return;
    this.#driver = await openDriver(this.#options);
    this.#closed = closedSignal();
  }

  async close() {
    await this.#inFlight.settled();
    const driver = this.#driver;
    this.#driver = null;
    this.#closed?.reject(new Error('neo4j: the adapter was closed while the query ran'));
    await driver?.close();
  }

  async serverVersion() {
    const [record] = await this.#run(
      "CALL dbms.components() YIELD name, versions WHERE name = 'Neo4j Kernel' RETURN versions[0]");
    return record.get(0);
  }

  async settings() {
    const records = await this.#run('SHOW SETTINGS YIELD name, value WHERE name IN $names RETURN name, value',
      { names: REPORTED_SETTINGS });
    const values = new Map(records.map((record) => [record.get('name'), record.get('value')]));
    const settings = Object.fromEntries(REPORTED_SETTINGS.map((name) => [name, values.get(name) ?? null]));
    // The heap settings are unset when the JVM's -Xmx decides; the JVM reports what it got.
    const [heap] = await this.#run("CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes "
      + 'RETURN attributes.HeapMemoryUsage.value.properties.max');
    return { ...settings, 'jvm.heap.max_bytes': heap?.get(0) ?? null };
  }

  // The durability term (description.js, terms): Neo4j forces its transaction log at every commit, which no
  // setting changes, so there is nothing to set (applied is always empty). Read back: the server's release and
  // edition, TERM_SETTINGS with whether neo4j.conf set them, and any setting named *fsync* (none in 5.26; one a
  // later release added would show here, and contradict the durable term when off). The relaxed term is
  // unavailable, so asking for it finds nothing to contradict: the harness marks the writes that need it
  // unsupported (core/terms.js, termObstacle). The memory term, the page cache with the heap beside it, is read
  // back too (cache.js); the server `bench server` runs is started with --cache's (server/neo4j.js).
  async terms({ durability }) {
    const [component] = await this.#run("CALL dbms.components() YIELD name, versions, edition "
      + "WHERE name = 'Neo4j Kernel' RETURN versions[0], edition");
    const release = `${component.get(0)} ${component.get(1)}`;
    const records = await this.#run("SHOW SETTINGS YIELD * WHERE name IN $names OR name CONTAINS 'fsync'",
      { names: TERM_SETTINGS });
    const read = (record) => ({
      value: record.get('value'),
      // Without isExplicitlySet (older 5.x releases), the value is the server's, wherever it came from.
      source: !record.has('isExplicitlySet') ? 'server (SHOW SETTINGS)' : `server (SHOW SETTINGS: ${
        record.get('isExplicitlySet') ? 'set in neo4j.conf or on the command line' : 'Neo4j\'s default'})`,
    });
    const settings = { neo4j: { value: release, source: 'server (dbms.components())' } };
    for (const record of records) settings[record.get('name')] = read(record);
    const fsyncs = records.filter((record) => record.get('name').includes('fsync'));
    if (fsyncs.length === 0) {
      settings['transaction log force'] = {
        value: 'at every commit', source: `Neo4j ${release}: no setting skips it (SHOW SETTINGS has none named *fsync*)`,
      };
    }
    const off = durability === 'durable' ? fsyncs.filter((record) => /^(false|off|0)$/i.test(String(record.get('value')))) : [];
    const problems = off.map((record) => `${record.get('name')} is ${record.get('value')} on ${endpoint(this.#options)} `
      + `(${read(record).source}): durable writes need the transaction log forced at every commit `
      + `(${record.get('name')}=true in neo4j.conf, then restart the server)`);
    return { settings, applied: [], problems, cache: await readCache((query, params) => this.#run(query, params)) };
  }

  // Reads every profile with all its properties, every entry of the key index and every relationship, so the
  // page cache holds the whole graph. Then plans each read query once (with a key that does not exist), so no
  // timed operation pays for planning.
  async warmup() {
    for (const query of [this.#cypher.warmupProfiles, this.#cypher.warmupKeys, this.#cypher.warmupRelations]) {
      await this.#run(query);
    }
    for (const operation of ['singleRead', 'neighbors', 'neighborsData', 'neighbors2', 'neighbors2data']) {
      await this.#run(this.#cypher[operation], { key: '' });
    }
    // Each depth is a query text of its own; the workloads ask for MAX_PATH_DEPTH.
    await this.#run(this.#cypher.shortestPath(MAX_PATH_DEPTH), { from: '', to: '' });
  }

  // --- namespace ---

  async inspectNamespace() {
    const { state, marker } = await inspectNamespace(this.#runner, this.#names);
    return { state, marker };
  }

  // The marker is set to {} first, so an interrupted reset leaves an owned namespace that no import will
  // mistake for a complete dataset; everything else of the namespace is deleted after it.
  async resetNamespace() {
    const { state, objects } = await inspectNamespace(this.#runner, this.#names);
    if (state === 'foreign') {
      const { marker } = this.#names;
      const held = [
        ...objects.labels.map((label) => (label === marker
          ? `a ${marker} node that is not a db-shootout marker` : `nodes labelled ${label}`)),
        ...objects.types.map((type) => `relationships of type ${type}`),
        ...objects.constraints.map((name) => `constraint ${name}`),
        ...objects.indexes.filter((name) => !objects.constraints.includes(name)).map((name) => `index ${name}`)];
      throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, `neo4j: namespace "${this.#names.namespace}" holds `
        + `${held.join(', ')} but no db-shootout marker; refusing to delete them (choose another --namespace)`);
    }
    await this.writeMarker({});
    this.#profileKeyReady = false;
    await deleteNamespace(this.#runner, this.#names, { keepMarker: true });
  }

  async writeMarker(marker) {
    await this.#run(this.#cypher.writeMarker, { marker: JSON.stringify(marker) }, 'write');
  }

  // --- bulk import ---

  async importProfiles(docs) {
    await this.#run(this.#cypher.importProfiles, { rows: docs.map(toProperties) }, 'write');
  }

  // The relations find their ends through the key constraint's index, so it is built before the first batch,
  // on the profiles already loaded: faster than maintaining it during the profile import.
  async importRelations(edges) {
    await this.#ensureProfileKey();
    await this.#run(this.#cypher.importRelations, { groups: groupByFrom(edges) }, 'write');
  }

  async createIndexes() {
    await this.#ensureProfileKey();
  }

  // The offline importer (offline-import.js), for the server `bench server` runs when its database holds nothing
  // outside the namespace: `{ refused: reason }` otherwise. The database it replaces has no key constraint yet.
  async offlineImport({ server, marker }) {
    return openOfflineImport({
      server, marker, run: this.#runner, names: this.#names, database: this.#options.database,
      onReplaced: () => { this.#profileKeyReady = false; },
    });
  }

  async counts() {
    const [profiles] = firstColumn(await this.#run(this.#cypher.countProfiles));
    const [relations] = firstColumn(await this.#run(this.#cypher.countRelations));
    return { profiles, relations };
  }

  async #ensureProfileKey() {
    if (this.#profileKeyReady) return;
    await this.#createConstraint(this.#cypher.profileKey, this.#names.profileKeyConstraint);
    this.#profileKeyReady = true;
  }

  // Schema commands cannot share a transaction with data; the constraint is usable once its index is online.
  async #createConstraint(query, name) {
    await this.#run(query, {}, 'write');
    await this.#run('CALL db.awaitIndex($name, $seconds)', { name, seconds: INDEX_ONLINE_TIMEOUT_S });
  }

  // --- operations ---

  async singleRead(key) {
    const [doc] = firstColumn(await this.#run(this.#cypher.singleRead, { key }));
    return doc ?? null;
  }

  // Neo4j has no acknowledgement weaker than a durable commit: both write operations are the same commit.
  async singleWrite(collection, doc) {
    await this.#run(this.#temp(collection).insert, { doc: toProperties(doc) }, 'write');
  }

  async singleWriteSync(collection, doc) {
    await this.#run(this.#temp(collection).insert, { doc: toProperties(doc) }, 'write');
  }

  async aggregation() {
    const records = await this.#run(this.#cypher.aggregation);
    return Object.fromEntries(records.map((record) => [String(record.get(0)), record.get(1)]));
  }

  async neighbors(key) {
    return (await this.#run(this.#cypher.neighbors, { key }))[0].get(0);
  }

  async neighborsData(key) {
    return firstColumn(await this.#run(this.#cypher.neighborsData, { key }));
  }

  async neighbors2(key) {
    return (await this.#run(this.#cypher.neighbors2, { key }))[0].get(0);
  }

  async neighbors2data(key) {
    return firstColumn(await this.#run(this.#cypher.neighbors2data, { key }));
  }

  // shortestPath() refuses a path from a node to itself, which is the path [from] by definition.
  async shortestPath(from, to, maxDepth) {
    if (!Number.isInteger(maxDepth) || maxDepth < 0) {
      throw new BenchError(ErrorCodes.USAGE, `neo4j: maxDepth must be a non-negative integer, got ${maxDepth}`);
    }
    if (from === to) return [from];
    if (maxDepth === 0) return null;
    const [path] = firstColumn(await this.#run(this.#cypher.shortestPath(maxDepth), { from, to }));
    return path ?? null;
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
    return { run: this.#result, statements: this.#temp(collection) };
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

  // What queries.js needs: a query collection is a temporary collection's label (`<ns>_tmp_q_values10k`), so the
  // namespace's reset and drop delete it with the others.
  get #queryStore() {
    return { read: (query, params) => this.#run(query, params), write: this.#runner, names: this.#names };
  }

  // --- temporary collections ---

  // A uniqueness constraint on _key, as the key index of a document store's collection: each write maintains it.
  async createTempCollection(name) {
    await this.dropTempCollection(name);
    const temp = this.#temp(name);
    await this.#createConstraint(temp.key, temp.keyConstraint);
  }

  async dropTempCollection(name) {
    const temp = this.#temp(name);
    await deleteNodes(this.#runner, temp.label);
    await dropSchema(this.#runner, { constraints: [temp.keyConstraint], indexes: [] });
  }

  async countDocuments(name) {
    return firstColumn(await this.#run(this.#temp(name).count))[0];
  }

  async readDocument(name, key) {
    const [doc] = firstColumn(await this.#run(this.#temp(name).read, { key }));
    return doc ?? null;
  }

  // One query; the driver pulls every record at once (fetchSize -1), one document per record.
  async readCollection(name) {
    return firstColumn(await this.#run(this.#temp(name).readAll));
  }

  #temp(name) {
    let temp = this.#temps.get(name);
    if (!temp) {
      const names = this.#names.temp(name);
      temp = { ...names, ...tempStatements(names), ...crudStatements(names.quoted) };
      this.#temps.set(name, temp);
    }
    return temp;
  }

  // --- connection ---

  get #connection() {
    if (!this.#driver) throw new Error('neo4j: not connected (call connect() first)');
    return this.#driver;
  }

  // For the namespace module: every query there runs as a write.
  #runner = (query, params) => this.#run(query, params, 'write');

  async #run(query, params = {}, mode = 'read') {
    return (await this.#result(query, params, mode)).records;
  }

  // One auto-commit transaction on a session of its own: one round trip (RUN and PULL together), where a
  // driver-managed transaction would add BEGIN and COMMIT. Resolves to the records and the summary.
  #result = async (query, params = {}, mode = 'read') => {
    const session = this.#connection.session(sessionConfig(this.#options, mode));
    const { promise: closed, release } = this.#closed.listen();
    try {
      return await Promise.race([session.run(query, params), closed]);
    } finally {
      await Promise.race([session.close(), closed.catch(() => {})]);
      release();
    }
  };
}
