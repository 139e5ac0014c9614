import { BenchError, ErrorCodes } from '../../core/errors.js';
import { clusterTerms, mysqlTerms, nodeFigures } from './terms.js';
import { InFlight, OPERATION_METHODS } from '../in-flight.js';
import { BULK_LOAD_MODULE, BulkLoad, IMPORT_STREAMS, split } from '../bulk-load.js';
import { LoadStream, insertBatch } from './bulk.js';
import { connectError, createPool, endpoint, retryConflicts } from './connection.js';
import { IMPORT_DRIVER, openMariadbDriver } from './mariadb-driver.js';
import {
  deleteDocument, getDocument, insertDocument, scanDocuments, updateDocument,
} from './crud.js';
import { graphOperations } from './graph.js';
import {
  countDocuments as countQueryDocuments, createCollection, dropCollection, importDocuments, indexCollection, runQuery,
} from './queries.js';
import {
  createDatabaseSql,
  createIndexesSql,
  FROM_INDEXES,
  TO_INDEX,
  createTablesSql,
  createTempCollectionSql,
  namespaceTables,
} from './schema.js';
import { PathFinder } from './shortest-path.js';

const ER_BAD_DB_ERROR = 'ER_BAD_DB_ERROR';
const MARKER_COLUMNS = ['id', 'marker'];

export class MysqlAdapter {
  #options;
  #tables;
  #pool = null;
  // The operations' pool when `options.driver` is 'mariadb' (mariadb-driver.js); null with mysql2, whose pool
  // then serves them too.
  #mariadb = null;
  #server = null;
  #paths;
  // The import phase under way, streamed through LOAD DATA statements (../bulk-load.js).
  #bulk;
  // What crud.js needs of the connection: each statement is one autocommit write or read, sent again when the server
  // rolled it back as a deadlock's victim or a cluster's certification conflict (connection.js, retryConflicts).
  #store = {
    table: (name) => this.#tables.temp(name),
    execute: (sql, values) => retryConflicts(() => this.#operations.execute(sql, values)),
  };
  // What queries.js needs: a query collection is a temporary table of its own (`tmp_q_values10k`) in the
  // namespace's database, so resetNamespace() and dropNamespace remove it with the database.
  #queryStore = {
    table: (name) => this.#tables.temp(`q_${name}`),
    query: async (sql) => {
      await this.#bulk.finish();
      return this.#connection.query(sql);
    },
    execute: async (options, values) => {
      await this.#bulk.finish();
      return this.#connection.execute(options, values);
    },
    load: (table, columns, docs, toRow) => this.#bulkWrite(table, columns, docs, toRow),
  };

  // The operations in flight, which close() lets finish (../in-flight.js).
  #inFlight = new InFlight();

  constructor(options) {
    this.#options = options;
    this.#tables = namespaceTables(options.namespace);
    this.#paths = new PathFinder(this.#tables);
    this.#bulk = new BulkLoad({
      streams: Math.min(IMPORT_STREAMS, options.concurrency),
      failed: loadFailed,
      // InnoDB's bulk insert takes one transaction into an empty table (#openLoad).
      streamsFor: (table) => (this.#bulkInsert(table) ? 1 : null),
    });
    // The graph suite's operations (graph.js): an edge collection is a table of its own (`tmp_g_edges`) in the
    // namespace's database, so resetNamespace() and dropNamespace remove it with the database.
    this.graph = graphOperations({
      table: (name) => this.#tables.temp(`g_${name}`),
      bulk: this.#bulk,
      getConnection: () => this.#connection.getConnection(),
      serverLimits: async () => (this.#server ??= await this.#serverLimits()),
      query: async (sql, values) => {
        await this.#bulk.finish();
        return this.#connection.query(sql, values);
      },
      execute: (sql, values) => this.#connection.execute(sql, values),
    });
    this.#inFlight.wrap(this, OPERATION_METHODS);
    this.#inFlight.wrap(this.graph);
  }

  async connect() {
    if (this.#pool) return;
    // Both drivers' pools open within the one connect timeout.
    const deadline = performance.now() + this.#options.connectTimeoutMs;
    const pool = createPool(this.#options);
    // An idle connection that the server drops (restart, wait_timeout) emits 'error' on its own. The pool
    // discards it and opens a new one on demand; queries in flight get their error through their promise.
    pool.on('connection', (connection) => connection.on('error', () => {}));
    try {
      // Each endpoint of a cluster is tried on its own, so that a failure names the one that failed.
      if (pool.eachEndpoint) {
        await pool.eachEndpoint((one, where) => one.query('SELECT 1').catch((error) => {
          const [host, port] = where.split(':');
          throw connectError({ ...this.#options, host, port, endpoints: undefined }, error);
        }));
      }
      await pool.query('SELECT 1');
      // Every connection is opened here, so no workload pays for a handshake.
      const connections = await Promise.all(
        Array.from({ length: this.#options.concurrency }, () => pool.getConnection()),
      );
      for (const connection of connections) connection.release();
    } catch (error) {
      // The connection failure is the error to report; ending a pool that never connected cannot add to it.
      await pool.end().catch(() => {});
      throw error instanceof BenchError ? error : connectError(this.#options, error);
    }
    if (this.#options.driver === 'mariadb') {
      try {
        this.#mariadb = await openMariadbDriver(this.#options, deadline);
      } catch (error) {
        await pool.end().catch(() => {});
        throw error;
      }
    }
    this.#pool = pool;
  }

  async close() {
    this.#bulk.abort();
    await this.#inFlight.settled();
    if (!this.#pool) return;
    const pool = this.#pool;
    const mariadb = this.#mariadb;
    this.#pool = null;
    this.#mariadb = null;
    this.#server = null;
    await mariadb?.end();
    await pool.end();
  }

  async serverVersion() {
    return this.#value('SELECT VERSION()');
  }

  async settings() {
    const [[row]] = await this.#connection.query(`
      SELECT @@innodb_buffer_pool_size AS innodb_buffer_pool_size,
             @@innodb_flush_log_at_trx_commit AS innodb_flush_log_at_trx_commit,
             @@log_bin AS log_bin,
             @@sync_binlog AS sync_binlog,
             @@innodb_doublewrite AS innodb_doublewrite,
             @@innodb_log_file_size AS innodb_log_file_size,
             @@innodb_sort_buffer_size AS innodb_sort_buffer_size,
             @@max_connections AS max_connections,
             @@version_comment AS version_comment`);
    // Whatever the driver, imports go through mysql2's LOAD DATA (README, "Drivers").
    return this.#mariadb ? { ...row, import_driver: IMPORT_DRIVER } : { ...row };
  }

  // The durability term, set on a server `bench server` runs (owned) and read back from any (terms.js); on every
  // node of a cluster, each of which must hold it.
  async terms(request) {
    const pool = this.#connection;
    if (!pool.eachEndpoint) return mysqlTerms(pool, endpoint(this.#options), request);
    return clusterTerms(await pool.eachEndpoint((one, where) => mysqlTerms(one, where, request).then((terms) => ({ where, terms }))));
  }

  // Each endpoint's own figures (spread.js's endpoints, or the one server): the statements it executed, the bytes it
  // received and sent to clients, what InnoDB wrote, and a Galera node's replication traffic and state. Counters
  // since the server started; a run records their difference.
  async nodeFigures() {
    const pool = this.#connection;
    const one = (target, where) => nodeFigures(target, where);
    return pool.eachEndpoint ? pool.eachEndpoint(one) : [await one(pool, endpoint(this.#options))];
  }

  // How the connections were spread over the endpoints (spread.js), or null for one server.
  spread() {
    return this.#pool?.spread?.() ?? null;
  }

  // InnoDB's own figures for the namespace's database: pages of data and indexes as its statistics last counted
  // them (refreshed by the server in the background after large changes), not the tablespace files.
  async diskUsage() {
    await this.#bulk.finish();
    const [[row]] = await this.#connection.query({
      sql: 'SELECT COALESCE(SUM(DATA_LENGTH + INDEX_LENGTH), 0) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?',
      values: [this.#tables.namespace],
      rowsAsArray: true,
    });
    return Number(row[0]);
  }

  // Reads every document and scans both relation indexes, which loads them into the buffer pool.
  async warmup() {
    await this.#bulk.finish();
    const { profiles, relations } = this.#tables;
    await this.#connection.query(`SELECT SUM(LENGTH(doc)) FROM ${profiles}`);
    const { from } = await this.#relationIndexes();
    await this.#connection.query(`SELECT SUM(LENGTH(_to)) FROM ${relations} FORCE INDEX (${from ?? 'PRIMARY'})`);
    await this.#connection.query(`SELECT SUM(LENGTH(_from)) FROM ${relations} FORCE INDEX (${TO_INDEX})`);
  }

  // --- namespace ---

  async inspectNamespace() {
    await this.#bulk.finish();
    const { state, marker } = await this.#inspect();
    return { state, marker };
  }

  async resetNamespace() {
    await this.#bulk.finish();
    const { state, tableNames } = await this.#inspect();
    const { namespace, database } = this.#tables;
    if (state === 'foreign') {
      const holds = tableNames.length > 0 ? `tables ${tableNames.join(', ')}` : 'no tables';
      throw new BenchError(
        ErrorCodes.NAMESPACE_FOREIGN,
        `mysql: database ${namespace} at ${endpoint(this.#options)} exists and holds ${holds}, but no db-shootout ` +
          'marker; refusing to drop it (choose another --namespace)',
      );
    }
    const pool = this.#connection;
    if (state === 'owned') await pool.query(`DROP DATABASE ${database}`);
    await pool.query(createDatabaseSql(this.#tables));
    for (const sql of createTablesSql(this.#tables)) await pool.query(sql);
    // An empty marker until the harness writes its own: the namespace is ours from the moment it exists.
    await this.writeMarker({});
  }

  async writeMarker(marker) {
    await this.#bulk.finish();
    await this.#connection.query(`REPLACE INTO ${this.#tables.marker} (id, marker) VALUES (1, ?)`, [
      JSON.stringify(marker),
    ]);
  }

  // The namespace is the database of that name; it is ours only when its marker table holds a marker object.
  async #inspect() {
    const pool = this.#connection;
    const { namespace, database, marker } = this.#tables;
    let tableNames;
    try {
      const [rows] = await pool.query({ sql: `SHOW TABLES FROM ${database}`, rowsAsArray: true });
      tableNames = rows.map(([name]) => name);
    } catch (error) {
      if (error.code === ER_BAD_DB_ERROR) return { state: 'absent', marker: null, tableNames: [] };
      throw error;
    }
    const foreign = { state: 'foreign', marker: null, tableNames };
    if (!tableNames.includes('marker')) return foreign;
    const [columns] = await pool.query(
      'SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
      [namespace, 'marker'],
    );
    const names = columns.map(({ name }) => name);
    if (!MARKER_COLUMNS.every((column) => names.includes(column))) return foreign;
    const [rows] = await pool.query(`SELECT marker FROM ${marker} WHERE id = 1`);
    const stored = parseObject(rows[0]?.marker);
    return stored === null ? foreign : { state: 'owned', marker: stored, tableNames };
  }

  // --- bulk import ---

  // Profiles, then relations, each go through IMPORT_STREAMS LOAD DATA LOCAL INFILE statements that stay open
  // across the batches (see ../bulk-load.js and LoadStream); every batch is split between them. flushProfiles() and
  // flushRelations() end them; so does any other call that needs the rows, and close() rolls back one never
  // ended. A server without local_infile gets each batch as multi-row INSERTs instead.
  async importProfiles(docs) {
    await this.#bulkWrite(this.#tables.profiles, ['_key', 'doc'], docs, (doc) => [doc._key, JSON.stringify(doc)]);
  }

  // Profile and relation lines made on the dataset reader's thread are already LOAD DATA's rows (`<key>\t<JSON>\n`,
  // backslashes doubled; `<key>\t<key>\n`), so this thread only sends them. Not for a server without
  // local_infile, which gets multi-row INSERTs of the documents instead.
  async profileRows() {
    return this.#lineRows(this.#tables.profiles);
  }

  async importProfileRows(parts) {
    this.#server ??= await this.#serverLimits();
    const table = this.#tables.profiles;
    await this.#bulk.write(table, parts, () => this.#openLoad(table, ['_key', 'doc']), { alongside: this.#bulkInsert(table) });
  }

  async relationRows() {
    return this.#lineRows(this.#tables.relations);
  }

  async importRelationRows(parts) {
    this.#server ??= await this.#serverLimits();
    const table = this.#tables.relations;
    // Lines come from a dataset's file, whose relations are distinct (createIndexesSql).
    await this.#bulk.write(table, parts, () => this.#openLoad(table, ['_from', '_to'], null, { distinct: true }),
      { alongside: this.#bulkInsert(table) });
  }

  // With InnoDB's bulk insert each table's load is one statement on a session of its own, and the server runs
  // each on a thread of its own: the relations' load (and its index sorts) takes one core for most of the import,
  // so the profiles' load runs beside it, on the other. Two connections of the pool stay with the loads, and
  // declaring the relations' indexes takes a third.
  async filesTogether() {
    this.#server ??= await this.#serverLimits();
    return this.#server.localInfile && this.#server.bulkInsert && this.#options.concurrency >= 3;
  }

  async #lineRows(table) {
    this.#server ??= await this.#serverLimits();
    if (!this.#server.localInfile) return null;
    return { module: BULK_LOAD_MODULE, name: 'lineParts', input: 'lines', options: { parts: this.#bulk.streamsOf(table) } };
  }

  async flushProfiles() {
    await this.#bulk.finish(this.#tables.profiles);
  }

  async importRelations(edges) {
    await this.#bulkWrite(this.#tables.relations, ['_from', '_to'], edges, ({ _from, _to }) => [_from, _to]);
  }

  async flushRelations() {
    await this.#bulk.finish(this.#tables.relations);
  }

  // With InnoDB's bulk insert the indexes were declared before the relations were loaded, and built as they
  // committed (#openLoad). Its statistics are still those of the empty tables then (InnoDB recounts them in the
  // background, later), and with them the optimizer scans where it should look up: ANALYZE counts them now.
  async createIndexes() {
    await this.#bulk.finish();
    if (!(await this.#relationIndexes()).both) await this.#connection.query(createIndexesSql(this.#tables));
    await this.#connection.query(`ANALYZE TABLE ${this.#tables.profiles}, ${this.#tables.relations}`);
  }

  // The relations' indexes that exist: `from`, the name of the one by _from (PRIMARY or from_to), or null; `both`,
  // whether the one by _to exists too.
  async #relationIndexes() {
    // The namespace is an identifier (schema.js), so it can stand in the SQL text.
    const [rows] = await this.#connection.query(`SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = '${this.#tables.namespace}' AND TABLE_NAME = 'relations'`);
    const names = rows.map(({ name }) => name);
    const from = FROM_INDEXES.find((name) => names.includes(name)) ?? null;
    return { from, both: from !== null && names.includes(TO_INDEX) };
  }

  async counts() {
    await this.#bulk.finish();
    const { profiles, relations } = this.#tables;
    return {
      profiles: await this.#value(`SELECT COUNT(*) FROM ${profiles}`),
      relations: await this.#value(`SELECT COUNT(*) FROM ${relations}`),
    };
  }

  async #bulkWrite(table, columns, items, toRow) {
    this.#server ??= await this.#serverLimits();
    if (!this.#server.localInfile) {
      const connection = await this.#connection.getConnection();
      try {
        await insertBatch(connection, this.#server.maxAllowedPacket, table, columns, items, toRow);
      } finally {
        connection.release();
      }
      return;
    }
    await this.#bulk.write(table, split(items, this.#bulk.streamsOf(table)), () => this.#openLoad(table, columns, toRow));
  }

  // Whether a phase of `table` loads through InnoDB's bulk insert (MariaDB 10.11.11 and later, for the
  // namespace's profiles and relations): one LOAD DATA with unique_checks and foreign_key_checks off, into an
  // empty table, writes one undo record and builds every index of the table by sorting, at commit. One stream,
  // as the statement locks the table. The relations' indexes are declared first, on the empty table, so that
  // they are built that way too instead of by an ALTER after the load.
  #bulkInsert(table) {
    return Boolean(this.#server?.bulkInsert) && (table === this.#tables.profiles || table === this.#tables.relations);
  }

  // One stream of a phase: a LOAD DATA on a connection of its own; a part is the phase's items (turned into rows by
  // `toRow`) or lines already in LOAD DATA's format (bytes).
  async #openLoad(table, columns, toRow = null, { distinct = false } = {}) {
    const bulkInsert = this.#bulkInsert(table);
    if (bulkInsert && table === this.#tables.relations && !(await this.#relationIndexes()).both) {
      await this.#connection.query(createIndexesSql(this.#tables, { distinct }));
    }
    const connection = await this.#connection.getConnection();
    try {
      if (bulkInsert) await connection.query('SET unique_checks = 0, foreign_key_checks = 0');
    } catch (error) {
      connection.destroy();
      throw error;
    }
    const load = new LoadStream(connection, table, columns);
    return {
      write: (part) => (part instanceof Uint8Array ? load.writeLines(part) : load.write(part, toRow)),
      async end() {
        try {
          await load.end();
          if (bulkInsert) await connection.query('SET unique_checks = 1, foreign_key_checks = 1');
        } catch (error) {
          connection.destroy();
          throw error;
        }
        connection.release();
      },
      // mysql2's destroy() only ends the client's half of the socket, which stays open while the server's thread
      // is held inside InnoDB (a latch deadlock with a session reading the table, ../../test/helpers/streamed-import.js)
      // and keeps the process alive: the socket itself is destroyed. A server that is not held rolls back at once.
      abort() {
        load.abort();
        connection.destroy();
        connection.connection.stream.destroy();
      },
    };
  }

  async #serverLimits() {
    const [[row]] = await this.#connection.query(
      'SELECT @@local_infile AS localInfile, @@max_allowed_packet AS maxAllowedPacket, VERSION() AS version',
    );
    return { localInfile: Boolean(row.localInfile), maxAllowedPacket: row.maxAllowedPacket, bulkInsert: hasBulkInsert(row.version) };
  }

  // --- operations ---

  async singleRead(key) {
    const [rows] = await this.#operations.execute(`SELECT doc FROM ${this.#tables.profiles} WHERE _key = ?`, [key]);
    return rows.length === 0 ? null : JSON.parse(rows[0].doc);
  }

  async singleWrite(collection, doc) {
    await insertDocument(this.#store, collection, doc);
  }

  // The same statement as singleWrite: InnoDB's durability is the server's global
  // innodb_flush_log_at_trx_commit, which no session can change (see README.md).
  async singleWriteSync(collection, doc) {
    await insertDocument(this.#store, collection, doc);
  }

  async aggregation() {
    const [rows] = await this.#operations.execute({
      sql: `SELECT JSON_VALUE(doc, '$.AGE') AS age, COUNT(*) AS n FROM ${this.#tables.profiles} GROUP BY age`,
      rowsAsArray: true,
    });
    return Object.fromEntries(rows.map(([age, count]) => [String(age), count]));
  }

  async neighbors(key) {
    return this.#keys(this.#neighborsSql(), [key]);
  }

  async neighborsData(key) {
    return this.#documents(this.#neighborsSql(), [key]);
  }

  async neighbors2(key) {
    return this.#keys(this.#neighbors2Sql(), [key, key, key, key]);
  }

  async neighbors2data(key) {
    return this.#documents(this.#neighbors2Sql(), [key, key, key, key]);
  }

  async shortestPath(from, to, maxDepth) {
    return this.#paths.find(this.#operations, from, to, maxDepth);
  }

  #neighborsSql() {
    return `SELECT DISTINCT _to AS node FROM ${this.#tables.relations} WHERE _from = ?`;
  }

  // UNION removes duplicates; both branches are lookups in the (_from, _to) index.
  #neighbors2Sql() {
    const { relations } = this.#tables;
    return `
      SELECT _to AS node FROM ${relations} WHERE _from = ? AND _to <> ?
      UNION
      SELECT r2._to FROM ${relations} AS r1 JOIN ${relations} AS r2 ON r2._from = r1._to
      WHERE r1._from = ? AND r2._to <> ?`;
  }

  async #keys(sql, params) {
    const [rows] = await this.#operations.execute({ sql, rowsAsArray: true }, params);
    return rows.map(([node]) => node);
  }

  // The key set is computed first (a derived table), then joined with the profiles' primary key.
  async #documents(sql, params) {
    const documentsSql = `SELECT p.doc FROM (${sql}) AS n JOIN ${this.#tables.profiles} AS p ON p._key = n.node`;
    const [rows] = await this.#operations.execute({ sql: documentsSql, rowsAsArray: true }, params);
    return rows.map(([doc]) => JSON.parse(doc));
  }

  // --- temporary collections ---

  async createTempCollection(name) {
    const table = this.#tables.temp(name);
    await this.#connection.query(`DROP TABLE IF EXISTS ${table}`);
    await this.#connection.query(createTempCollectionSql(table));
  }

  async dropTempCollection(name) {
    await this.#connection.query(`DROP TABLE IF EXISTS ${this.#tables.temp(name)}`);
  }

  async countDocuments(name) {
    return this.#value(`SELECT COUNT(*) FROM ${this.#tables.temp(name)}`);
  }

  async readDocument(name, key) {
    return getDocument(this.#store, name, key);
  }

  // One query: the server sends every row in one result set, no round trip per document.
  async readCollection(name) {
    const sql = `SELECT doc FROM ${this.#tables.temp(name)}`;
    const [rows] = await this.#connection.query({ sql, rowsAsArray: true });
    return rows.map(([doc]) => JSON.parse(doc));
  }

  // --- the crud suite's document operations (crud.js); both acknowledgement modes are one statement ---

  async insertDocument(collection, doc) {
    await insertDocument(this.#store, collection, doc);
  }

  async getDocument(collection, key) {
    return getDocument(this.#store, collection, key);
  }

  async scanDocuments(collection, fromKey, limit) {
    return scanDocuments(this.#store, collection, fromKey, limit);
  }

  async updateDocument(collection, key, doc) {
    await updateDocument(this.#store, collection, key, doc);
  }

  async deleteDocument(collection, key) {
    await deleteDocument(this.#store, collection, key);
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

  // --- connection ---

  get #connection() {
    if (!this.#pool) throw new Error('mysql: not connected (call connect() first)');
    return this.#pool;
  }

  // Where the timed operations go: the selected driver's pool.
  get #operations() {
    return this.#mariadb ?? this.#connection;
  }

  async #value(sql) {
    const [[row]] = await this.#connection.query({ sql, rowsAsArray: true });
    return row[0];
  }
}

function parseObject(text) {
  if (typeof text !== 'string') return null;
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

function loadFailed(table, error) {
  if (error instanceof BenchError) return error;
  return new BenchError(ErrorCodes.IMPORT, `mysql: LOAD DATA into ${table} failed: ${error.message}`, { cause: error });
}

// InnoDB's bulk insert into an empty table (unique_checks and foreign_key_checks off) takes LOAD DATA reliably from
// MariaDB 10.11.11 on (MDEV-34703 fixed a crash of LOAD DATA on that path); Oracle MySQL has no such path.
export function hasBulkInsert(version) {
  const match = /^(\d+)\.(\d+)\.(\d+)-MariaDB/.exec(String(version));
  if (!match) return false;
  const [major, minor, patch] = match.slice(1).map(Number);
  return major > 10 || (major === 10 && (minor > 11 || (minor === 11 && patch >= 11)));
}
