import os from 'node:os';
import { join } from 'node:path';
import { DuckDBDataChunkWriter } from '@duckdb/node-api';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { InFlight, OPERATION_METHODS } from '../in-flight.js';
import { duckdbCache, memoryLimitConfig } from './cache.js';
import {
  deleteDocument, getDocument, insertDocument, scanDocuments, updateDocument,
} from './crud.js';
import { firstColumn, rowsToDocuments, toCount } from './documents.js';
import { graphOperations } from './graph.js';
import { ConnectionPool } from './pool.js';
import {
  countDocuments as countQueryDocuments, createCollection, dropCollection, importDocuments, indexCollection, runQuery,
} from './queries.js';
import {
  PROFILE_FIELDS,
  createIndexesSql,
  createTablesSql,
  createTempCollectionSql,
  namespaceObjectsSql,
  namespaceTables,
  quote,
} from './schema.js';
import { shortestPathSql } from './shortest-path.js';

// DuckDB aborts the later of two transactions that write the same row ("Conflict on update!", "Conflict on
// tuple deletion!"); nothing of it was written, so the statement is sent again. Bounded, so a livelock ends in an
// error rather than a stall.
const MAX_CONFLICT_ATTEMPTS = 100;
const CONFLICT = /^TransactionContext Error: Conflict on (update|tuple deletion)!/;
const SETTINGS = ['threads', 'memory_limit', 'checkpoint_threshold'];
// What the durability term depends on, besides any *fsync* setting (terms()).
const TERM_SETTINGS = ['checkpoint_threshold'];
const PROFILE_COLUMNS_SQL = PROFILE_FIELDS.map(quote).join(', ');

export class DuckdbAdapter {
  #tables;
  #file;
  #concurrency;
  // --cache, in bytes: memory_limit (cache.js), or null for DuckDB's default.
  #cacheBytes;
  #pool = null;
  // What crud.js needs of the pool.
  #store = {
    table: (name) => this.#tables.temp(name),
    read: (sql, values) => this.#read(sql, values),
    readFresh: (sql, values) => this.#readFresh(sql, values),
    write: (sql, values) => this.#write(sql, values),
  };
  // What queries.js needs: a query collection is a temporary table of its own (`<ns>_tmp_q_values10k`), so the
  // namespace's reset and drop remove it with the others.
  #queryStore = {
    table: (name) => this.#tables.temp(`q_${name}`),
    read: (sql, values, types) => this.#read(sql, values, types),
    readFresh: (sql, values) => this.#readFresh(sql, values),
    use: (work) => this.#connected.use(work),
  };

  // The operations in flight, which close() lets finish (../in-flight.js).
  #inFlight = new InFlight();

  constructor(options) {
    this.#tables = namespaceTables(options.namespace);
    this.#file = databaseFile(options);
    this.#concurrency = Math.max(1, options.concurrency ?? 1);
    this.#cacheBytes = options.cacheBytes ?? null;
    // The graph suite's operations (graph.js): an edge collection is a temporary table of its own
    // (`<ns>_tmp_g_edges`), so the namespace's reset and drop remove it with the others.
    this.graph = graphOperations({
      table: (name) => this.#tables.temp(`g_${name}`),
      read: (sql, values) => this.#read(sql, values),
      readFresh: (sql, values) => this.#readFresh(sql, values),
      write: (sql, values) => this.#write(sql, values),
      use: (work) => this.#connected.use(work),
    });
    this.#inFlight.wrap(this, OPERATION_METHODS);
    this.#inFlight.wrap(this.graph);
  }

  async connect() {
    if (this.#pool && !this.#pool.closed) return;
    this.#pool = await ConnectionPool.open(this.#file, instanceConfig(this.#cacheBytes), this.#concurrency);
  }

  async close() {
    // The pool interrupts what still runs after the wait (a stalled operation): it frees no handle under it.
    await this.#inFlight.settled();
    await this.#pool?.close();
  }

  async serverVersion() {
    return firstColumn(await this.#read('SELECT version()'))[0];
  }

  async settings() {
    const reader = await this.#read(
      `SELECT name, value FROM duckdb_settings() WHERE name IN (${SETTINGS.map((name) => `'${name}'`).join(', ')})`,
    );
    return {
      ...Object.fromEntries(reader.getRowsJS()),
      connections: this.#concurrency,
    };
  }

  // The durability term (description.js, terms): DuckDB fsyncs the WAL at every commit, which no setting of 1.5.6
  // changes, so there is nothing to set (applied is always empty). Read back: the library's version, the database
  // file (an in-memory database writes nothing to disk), the checkpoint threshold, and any setting whose name
  // speaks of fsync (none in 1.5.6; a later DuckDB's switch to skip it would show here, and contradict the durable
  // term when off). The relaxed term is unavailable, so asking for it finds nothing to contradict: the harness
  // marks the writes that need it unsupported (core/terms.js, termObstacle). The memory term, memory_limit, is read
  // back too (cache.js).
  async terms({ durability }) {
    const [version] = firstColumn(await this.#read('SELECT version()'));
    const [path] = firstColumn(await this.#read(
      'SELECT path FROM duckdb_databases() WHERE database_name = current_database()'));
    const rows = (await this.#read(`SELECT name, value FROM duckdb_settings()
      WHERE name IN (${TERM_SETTINGS.map((name) => `'${name}'`).join(', ')}) OR name ILIKE '%fsync%' ORDER BY name`))
      .getRowsJS();
    const fsyncs = rows.filter(([name]) => /fsync/i.test(name));
    const settings = {
      version: { value: version, source: 'the embedded library (@duckdb/node-api)' },
      'database file': { value: path ?? 'none (in memory)', source: 'set by the adapter (--database, else <dataDir>/duckdb/bench.duckdb)' },
      ...Object.fromEntries(rows.map(([name, value]) => [name, {
        value, source: 'embedded database (duckdb_settings()): DuckDB\'s default, the adapter sets only threads and, with --cache, memory_limit',
      }])),
    };
    if (fsyncs.length === 0) {
      settings['WAL fsync'] = { value: 'at every commit', source: `DuckDB ${version}: no setting skips it (duckdb_settings() has none named *fsync*)` };
    }
    const problems = [];
    if (durability === 'durable' && !path) {
      problems.push(`the database is in memory (--database ${this.#file}): nothing reaches a disk; `
        + 'durable writes need a database file (--database <file>)');
    }
    for (const [name, value] of durability === 'durable' ? fsyncs : []) {
      if (/^(false|off|0|none)$/i.test(String(value))) {
        problems.push(`${name} is ${value} in ${this.#file}: durable writes need the write-ahead log fsynced at every `
          + `commit (SET ${name} = true)`);
      }
    }
    const [memoryLimit] = firstColumn(await this.#read("SELECT value FROM duckdb_settings() WHERE name = 'memory_limit'"));
    return { settings, applied: [], problems, cache: duckdbCache(memoryLimit, this.#cacheBytes) };
  }

  // Reads every column of the profiles and of the relations once, so their blocks are in DuckDB's buffer pool.
  // max() of each column (COLUMNS(*)) reads its values: count(*) would be answered without reading any column.
  async warmup() {
    const { profiles, relations } = this.#tables;
    await this.#read(`SELECT max(COLUMNS(*)) FROM ${profiles}`);
    await this.#read(`SELECT max(COLUMNS(*)) FROM ${relations}`);
  }

  // --- namespace ---

  async inspectNamespace() {
    const { state, marker } = await this.#inspect();
    return { state, marker };
  }

  async resetNamespace() {
    const { state, objects } = await this.#inspect();
    if (state === 'foreign') {
      throw new BenchError(
        ErrorCodes.NAMESPACE_FOREIGN,
        `duckdb: ${this.#file} holds ${objects.map(({ name }) => name).join(', ')} but no db-shootout marker; ` +
          'refusing to drop them (choose another --namespace)',
      );
    }
    await this.#connected.use(async (session) => {
      await session.exec('BEGIN TRANSACTION');
      try {
        for (const { type, name } of objects) await session.exec(`DROP ${type === 'view' ? 'VIEW' : 'TABLE'} ${quote(name)}`);
        for (const sql of createTablesSql(this.#tables)) await session.exec(sql);
        // An empty marker until the harness writes its own: the namespace is ours from the moment it exists.
        await session.run(`INSERT INTO ${this.#tables.marker} (id, marker) VALUES (1, $1)`, ['{}']);
        await session.exec('COMMIT');
      } catch (error) {
        await session.exec('ROLLBACK').catch(() => {});
        throw error;
      }
    });
  }

  async writeMarker(marker) {
    await this.#write(`INSERT OR REPLACE INTO ${this.#tables.marker} (id, marker) VALUES (1, $1)`,
      [JSON.stringify(marker)]);
  }

  #objects() {
    return this.#read(namespaceObjectsSql(this.#tables)).then((reader) => reader.getRowObjectsJS());
  }

  // The namespace is ours only when its marker table holds a marker object.
  async #inspect() {
    const objects = await this.#objects();
    if (objects.length === 0) return { state: 'absent', marker: null, objects };
    const markerTable = this.#tables.marker.toLowerCase();
    const hasMarkerTable = objects.some(({ type, name }) => type === 'table' && name.toLowerCase() === markerTable)
      && toCount(firstColumn(await this.#read(
        `SELECT count(*) FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main'
           AND lower(table_name) = $1 AND column_name IN ('id', 'marker')`, [markerTable],
      ))[0]) === 2;
    // Read only once the columns are known to exist, since preparing the query checks them.
    const text = hasMarkerTable
      ? firstColumn(await this.#read(
          `SELECT marker::VARCHAR FROM ${this.#tables.marker}
           WHERE id = 1 AND json_valid(marker::VARCHAR) AND json_type(marker::VARCHAR) = 'OBJECT'`,
        ))[0]
      : undefined;
    if (text === undefined) return { state: 'foreign', marker: null, objects };
    return { state: 'owned', marker: JSON.parse(text), objects };
  }

  // --- bulk import ---

  // Both go through DuckDB's appender, its fastest path from Node: rows fill typed data chunks of the vector
  // size, and closing the appender writes and commits the batch.
  async importProfiles(docs) {
    await this.#append(this.#tables.profiles, docs, (doc) => PROFILE_FIELDS.map((field) => doc[field] ?? null));
  }

  async importRelations(edges) {
    await this.#append(this.#tables.relations, edges, (edge) => [edge._from, edge._to]);
  }

  async createIndexes() {
    await this.#connected.use(async (session) => {
      for (const sql of createIndexesSql(this.#tables)) await session.exec(sql);
    });
  }

  async counts() {
    const { profiles, relations } = this.#tables;
    const [row] = (await this.#readFresh(
      `SELECT (SELECT count(*) FROM ${profiles}), (SELECT count(*) FROM ${relations})`,
    )).getRowsJS();
    return { profiles: toCount(row[0]), relations: toCount(row[1]) };
  }

  #append(table, items, toRow) {
    return this.#connected.use(async ({ connection }) => {
      const appender = await connection.createAppender(table);
      try {
        const writer = DuckDBDataChunkWriter.forAppender(appender);
        for (const item of items) writer.appendRow(toRow(item));
        writer.flush();
      } finally {
        appender.closeSync();
      }
    });
  }

  // --- operations ---

  async singleRead(key) {
    const [doc] = rowsToDocuments(await this.#read(
      `SELECT ${PROFILE_COLUMNS_SQL} FROM ${this.#tables.profiles} WHERE _key = $1`, [key],
    ));
    return doc ?? null;
  }

  async singleWrite(collection, doc) {
    await insertDocument(this.#store, collection, doc);
  }

  async singleWriteSync(collection, doc) {
    await insertDocument(this.#store, collection, doc);
  }

  async aggregation() {
    const rows = (await this.#read(
      `SELECT "AGE", count(*) FROM ${this.#tables.profiles} GROUP BY "AGE"`,
    )).getRowsJS();
    return Object.fromEntries(rows.map(([age, count]) => [String(age), toCount(count)]));
  }

  async neighbors(key) {
    return firstColumn(await this.#read(this.#neighborsSql(), [key]));
  }

  async neighborsData(key) {
    const sql = `SELECT ${PROFILE_COLUMNS_SQL} FROM ${this.#tables.profiles} WHERE _key IN (${this.#neighborsSql()})`;
    return rowsToDocuments(await this.#read(sql, [key]));
  }

  async neighbors2(key) {
    return firstColumn(await this.#read(this.#neighbors2Sql(), [key]));
  }

  async neighbors2data(key) {
    const sql = `SELECT ${PROFILE_COLUMNS_SQL} FROM ${this.#tables.profiles} WHERE _key IN (${this.#neighbors2Sql()})`;
    return rowsToDocuments(await this.#read(sql, [key]));
  }

  async shortestPath(from, to, maxDepth) {
    if (from === to) return [from];
    const path = firstColumn(await this.#read(shortestPathSql(this.#tables), { from, to, maxDepth }));
    return path.length === 0 ? null : path;
  }

  #neighborsSql() {
    return `SELECT DISTINCT _to FROM ${this.#tables.relations} WHERE _from = $1`;
  }

  // The first hop is an index lookup; DuckDB pushes its keys into the second hop's scan as a filter, which the
  // _from index answers, so neither hop scans the relations.
  #neighbors2Sql() {
    const { relations } = this.#tables;
    return `
      SELECT _to FROM ${relations} WHERE _from = $1 AND _to <> $1
      UNION
      SELECT r2._to FROM ${relations} AS r1 JOIN ${relations} AS r2 ON r2._from = r1._to
      WHERE r1._from = $1 AND r2._to <> $1
    `;
  }

  // --- temporary collections ---

  async createTempCollection(name) {
    const table = this.#tables.temp(name);
    await this.#connected.use(async (session) => {
      for (const sql of createTempCollectionSql(table)) await session.exec(sql);
    });
  }

  async dropTempCollection(name) {
    const table = this.#tables.temp(name);
    await this.#connected.use((session) => session.exec(`DROP TABLE IF EXISTS ${table}`));
  }

  async countDocuments(name) {
    return toCount(firstColumn(await this.#readFresh(`SELECT count(*) FROM ${this.#tables.temp(name)}`))[0]);
  }

  async readDocument(name, key) {
    return getDocument(this.#store, name, key);
  }

  async readCollection(name) {
    const docs = firstColumn(await this.#read(`SELECT doc FROM ${this.#tables.temp(name)}`));
    return docs.map((doc) => JSON.parse(doc));
  }

  // --- the crud suite's document operations (crud.js) ---

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

  get #connected() {
    if (!this.#pool || this.#pool.closed) throw new Error('duckdb: not connected (call connect() first)');
    return this.#pool;
  }

  #read(sql, values, types) {
    return this.#connected.use((session) => session.read(sql, values, types));
  }

  // A count(*), planned anew each time (pool.js, readFresh).
  #readFresh(sql, values) {
    return this.#connected.use((session) => session.readFresh(sql, values));
  }

  // One statement in its own transaction (autocommit), sent again on a write-write conflict. Each attempt takes
  // a connection anew, so the writer that won is not kept waiting behind this one.
  async #write(sql, values) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.#connected.use((session) => session.run(sql, values));
      } catch (error) {
        if (!CONFLICT.test(error.message) || attempt >= MAX_CONFLICT_ATTEMPTS || this.#pool.closed) throw error;
      }
    }
  }
}

export function databaseFile(options) {
  if (options.database == null && options.dataDir == null) {
    throw new BenchError(ErrorCodes.USAGE, 'duckdb: needs a database file (--database) or a data directory');
  }
  return options.database ?? join(options.dataDir, 'duckdb', 'bench.duckdb');
}

// DuckDB's own worker threads, set explicitly: one per core the process may use; with --cache (`cacheBytes`), its
// memory_limit.
export function instanceConfig(cacheBytes = null) {
  return { threads: String(os.availableParallelism()), ...memoryLimitConfig(cacheBytes) };
}
