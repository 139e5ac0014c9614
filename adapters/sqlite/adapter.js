import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import {
  deleteDocument, getDocument, insertDocument, scanDocuments, updateDocument,
} from './crud.js';
import { graphOperations } from './graph.js';
import {
  countDocuments as countQueryDocuments, createCollection, dropCollection, importDocuments, indexCollection, runQuery,
} from './queries.js';
import {
  createIndexesSql,
  createTablesSql,
  createTempCollectionSql,
  namespaceObjectsSql,
  namespaceTables,
} from './schema.js';
import { PathFinder } from './shortest-path.js';

// 256 MiB of page cache (a negative cache_size is in KiB) on top of memory-mapped reads.
const CACHE_SIZE_KIB = 256 * 1024;
const PROFILE_ROWS = new URL('./import-rows.js', import.meta.url).href;
// The largest mapping this build of SQLite accepts (SQLITE_MAX_MMAP_SIZE); larger values are silently capped.
const MMAP_SIZE_BYTES = 0x7fff0000;
const SYNCHRONOUS_NAMES = ['OFF', 'NORMAL', 'FULL', 'EXTRA'];
// Rows per INSERT of the bulk import: each statement call has a fixed cost, which one call per 100 rows pays
// once (the graph suite's load measured 2.2 times the CPU with one row per call).
const IMPORT_ROWS = 100;
const TEMP_STORE_NAMES = ['DEFAULT', 'FILE', 'MEMORY'];

export class SqliteAdapter {
  #options;
  #tables;
  #file;
  #db = null;
  #statements = new Map();
  #paths = null;
  // What crud.js needs of the connection.
  #store = {
    statement: (sql) => this.#statement(sql),
    table: (name) => this.#tables.temp(name),
    write: (durable, work) => this.#write(durable, work),
  };
  // What queries.js needs: a query collection is a temporary table of its own (`<ns>_tmp_q_values10k`), so the
  // namespace's reset and drop remove it with the others.
  #queryStore = {
    statement: (sql) => this.#statement(sql),
    exec: (sql) => this.#connection.exec(sql),
    bulk: (work) => this.#bulk(work),
    table: (name) => this.#tables.temp(`q_${name}`),
  };

  constructor(options) {
    this.#options = options;
    this.#tables = namespaceTables(options.namespace);
    this.#file = databaseFile(options);
    // The graph suite's operations (graph.js): an edge collection is a temporary table of its own
    // (`<ns>_tmp_g_edges`), so the namespace's reset and drop remove it with the others.
    this.graph = graphOperations({
      statement: (sql) => this.#statement(sql),
      exec: (sql) => this.#connection.exec(sql),
      bulk: (work) => this.#bulk(work),
      table: (name) => this.#tables.temp(`g_${name}`),
      write: (durable, work) => this.#write(durable, work),
    });
  }

  async connect() {
    if (this.#db) return;
    let db;
    try {
      mkdirSync(dirname(this.#file), { recursive: true });
      db = new Database(this.#file);
      // The first pragma reads the file, so a file that is not a database fails here, as a connect error.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      // --cache (options.cacheBytes) bounds the page cache, with no memory map beside it (whose pages would be
      // the operating system's cache, unbounded).
      const cacheBytes = this.#options?.cacheBytes ?? null;
      db.pragma(`cache_size = -${cacheBytes ? Math.round(cacheBytes / 1024) : CACHE_SIZE_KIB}`);
      db.pragma(`mmap_size = ${cacheBytes ? 0 : MMAP_SIZE_BYTES}`);
      // The shortest-path search writes its visited sets to TEMP tables; keep them off the disk.
      db.pragma('temp_store = MEMORY');
    } catch (error) {
      db?.close();
      throw new BenchError(ErrorCodes.CONNECT, `sqlite: cannot open ${this.#file}: ${error.message}`, {
        cause: error,
      });
    }
    this.#db = db;
  }

  async close() {
    if (!this.#db) return;
    const db = this.#db;
    this.#db = null;
    this.#statements.clear();
    this.#paths = null;
    db.close();
  }

  async serverVersion() {
    return this.#statement('SELECT sqlite_version()').pluck().get();
  }

  async settings() {
    const db = this.#connection;
    const read = (name) => db.pragma(name, { simple: true });
    return {
      journal_mode: read('journal_mode'),
      synchronous: SYNCHRONOUS_NAMES[read('synchronous')],
      cache_size: read('cache_size'),
      mmap_size: read('mmap_size'),
      page_size: read('page_size'),
      temp_store: TEMP_STORE_NAMES[read('temp_store')],
    };
  }

  // The durability terms are the synchronous pragma of this connection, set per write (#write): read back with
  // the journal mode they depend on (WAL).
  async terms({ durability }) {
    const db = this.#connection;
    const journal = db.pragma('journal_mode', { simple: true });
    const settings = {
      journal_mode: { value: journal, source: 'set by the adapter at connect()' },
      synchronous: { value: SYNCHRONOUS_NAMES[db.pragma('synchronous', { simple: true })], source: 'set by the adapter at connect()' },
      'synchronous (writes)': { value: durability === 'durable' ? 'FULL' : 'NORMAL', source: 'set by the adapter around each write' },
    };
    const problems = journal === 'wal' ? [] : [`journal_mode is ${journal} in ${this.#file}: the terms assume WAL`];
    // The page cache: cache_size is pages when positive, KiB when negative.
    const cacheSize = db.pragma('cache_size', { simple: true });
    const pageSize = db.pragma('page_size', { simple: true });
    const source = this.#options?.cacheBytes ? 'set by the adapter at connect() (--cache)' : 'set by the adapter at connect()';
    const cache = {
      bytes: cacheSize < 0 ? -cacheSize * 1024 : cacheSize * pageSize,
      settings: {
        cache_size: { value: String(cacheSize), source },
        mmap_size: { value: String(db.pragma('mmap_size', { simple: true })), source },
      },
    };
    return { settings, applied: [], problems, cache };
  }

  // The pages of the namespace's tables and their indexes (dbstat), not the file: one file holds every
  // namespace. Pages on the freelist belong to nobody and are not counted.
  async diskUsage() {
    const names = this.#statement(namespaceObjectsSql(this.#tables)).all().map(({ name }) => name);
    if (names.length === 0) return 0;
    const placeholders = names.map(() => '?').join(', ');
    return this.#statement(`
      SELECT coalesce(sum(pgsize), 0) FROM dbstat('main', 1)
      WHERE name IN (SELECT name FROM main.sqlite_schema WHERE tbl_name IN (${placeholders}))
    `).pluck().get(...names);
  }

  async warmup() {
    const { profiles, relations, relationsFrom, relationsTo } = this.#tables;
    // length() of TEXT reads every document, overflow pages included. The graph queries read only the two
    // relation indexes; count(_from) rather than count(*), which would count the table's own b-tree instead.
    this.#statement(`SELECT sum(length(doc)) FROM ${profiles}`).get();
    this.#statement(`SELECT count(_from) FROM ${relations} INDEXED BY ${relationsFrom}`).get();
    this.#statement(`SELECT count(_from) FROM ${relations} INDEXED BY ${relationsTo}`).get();
  }

  // --- namespace ---

  async inspectNamespace() {
    const { state, marker } = this.#inspect();
    return { state, marker };
  }

  async resetNamespace() {
    const { state, objects } = this.#inspect();
    if (state === 'foreign') {
      throw new BenchError(
        ErrorCodes.NAMESPACE_FOREIGN,
        `sqlite: ${this.#file} holds ${objects.map(({ name }) => name).join(', ')} but no db-shootout marker; ` +
          'refusing to drop them (choose another --namespace)',
      );
    }
    const db = this.#connection;
    db.transaction(() => {
      for (const { type, name } of objects) db.exec(`DROP ${type === 'view' ? 'VIEW' : 'TABLE'} ${quote(name)}`);
      db.exec(createTablesSql(this.#tables));
      // An empty marker until the harness writes its own: the namespace is ours from the moment it exists.
      this.#writeMarker({});
    })();
  }

  async writeMarker(marker) {
    this.#writeMarker(marker);
  }

  #writeMarker(marker) {
    this.#statement(`INSERT OR REPLACE INTO ${this.#tables.marker} (id, marker) VALUES (1, ?)`)
      .run(JSON.stringify(marker));
  }

  // The namespace is ours only when its marker table holds a marker object.
  #inspect() {
    const { marker: markerTable } = this.#tables;
    const objects = this.#statement(namespaceObjectsSql(this.#tables)).all();
    if (objects.length === 0) return { state: 'absent', marker: null, objects };
    const hasMarkerTable =
      objects.some(({ name }) => name.toLowerCase() === markerTable.toLowerCase()) &&
      this.#statement(`SELECT count(*) FROM pragma_table_info(?, 'main') WHERE name IN ('id', 'marker')`)
        .pluck()
        .get(markerTable) === 2;
    // Prepared only once the columns are known to exist, since preparing checks them.
    const text = hasMarkerTable
      ? this.#statement(
          `SELECT marker FROM ${markerTable} WHERE id = 1 AND json_valid(marker) AND json_type(marker) = 'object'`,
        )
          .pluck()
          .get()
      : undefined;
    if (text === undefined) return { state: 'foreign', marker: null, objects };
    return { state: 'owned', marker: JSON.parse(text), objects };
  }

  // --- bulk import ---

  async importProfiles(docs) {
    this.#insertRows(this.#tables.profiles, '_key, doc', docs.length, (i, values, at) => {
      values[at] = docs[i]._key;
      values[at + 1] = JSON.stringify(docs[i]);
    });
  }

  // The profiles' rows made on the dataset reader's thread (import-rows.js), so that this thread only inserts.
  profileRows() {
    return { module: PROFILE_ROWS, name: 'profileValues', input: 'lines', options: null };
  }

  async importProfileRows(values, count) {
    this.#insertRows(this.#tables.profiles, '_key, doc', count, (i, row, at) => {
      row[at] = values[2 * i];
      row[at + 1] = values[2 * i + 1];
    });
  }

  async importRelations(edges) {
    this.#insertRows(this.#tables.relations, '_from, _to', edges.length, (i, values, at) => {
      values[at] = edges[i]._from;
      values[at + 1] = edges[i]._to;
    });
  }

  // `count` rows as statements of IMPORT_ROWS rows each and one statement per remaining row, in one
  // transaction. `fill(i, values, at)` puts the i-th row's two values at values[at] and values[at + 1].
  #insertRows(table, columns, count, fill) {
    const insert = (rows) => this.#statement(
      `INSERT INTO ${table} (${columns}) VALUES ${Array(rows).fill('(?, ?)').join(', ')}`);
    const many = insert(IMPORT_ROWS);
    const one = insert(1);
    const values = new Array(2 * IMPORT_ROWS);
    const single = new Array(2);
    this.#bulk(() => {
      let i = 0;
      for (; i + IMPORT_ROWS <= count; i += IMPORT_ROWS) {
        for (let row = 0; row < IMPORT_ROWS; row += 1) fill(i + row, values, 2 * row);
        many.run(values);
      }
      for (; i < count; i += 1) {
        fill(i, single, 0);
        one.run(single);
      }
    });
  }

  async createIndexes() {
    this.#connection.exec(createIndexesSql(this.#tables));
  }

  async counts() {
    const { profiles, relations } = this.#tables;
    return {
      profiles: this.#statement(`SELECT count(*) FROM ${profiles}`).pluck().get(),
      relations: this.#statement(`SELECT count(*) FROM ${relations}`).pluck().get(),
    };
  }

  // An import batch is one transaction with synchronous=OFF, so WAL checkpoints skip their fsyncs. A power
  // loss during an import may damage the file, which then has to be imported again; a process crash cannot.
  // The default mode comes back before the next operation.
  #bulk(load) {
    this.#setSynchronous('OFF');
    try {
      this.#connection.transaction(load)();
    } finally {
      this.#setSynchronous('NORMAL');
    }
  }

  // --- operations ---

  async singleRead(key) {
    const doc = this.#statement(`SELECT doc FROM ${this.#tables.profiles} WHERE _key = ?`).pluck().get(key);
    return doc === undefined ? null : JSON.parse(doc);
  }

  async singleWrite(collection, doc) {
    insertDocument(this.#store, collection, doc, { durable: false });
  }

  async singleWriteSync(collection, doc) {
    insertDocument(this.#store, collection, doc, { durable: true });
  }

  async aggregation() {
    const rows = this.#statement(
      `SELECT json_extract(doc, '$.AGE'), count(*) FROM ${this.#tables.profiles} GROUP BY 1`,
    ).raw().all();
    return Object.fromEntries(rows.map(([age, count]) => [String(age), count]));
  }

  async neighbors(key) {
    return this.#statement(this.#neighborsSql()).pluck().all(key);
  }

  async neighborsData(key) {
    const sql = `SELECT doc FROM ${this.#tables.profiles} WHERE _key IN (${this.#neighborsSql()})`;
    return this.#statement(sql).pluck().all(key).map((doc) => JSON.parse(doc));
  }

  async neighbors2(key) {
    return this.#statement(this.#neighbors2Sql()).pluck().all({ key });
  }

  async neighbors2data(key) {
    const sql = `SELECT doc FROM ${this.#tables.profiles} WHERE _key IN (${this.#neighbors2Sql()})`;
    return this.#statement(sql).pluck().all({ key }).map((doc) => JSON.parse(doc));
  }

  async shortestPath(from, to, maxDepth) {
    this.#paths ??= new PathFinder(this.#connection, this.#tables);
    return this.#paths.find(from, to, maxDepth);
  }

  #neighborsSql() {
    return `SELECT DISTINCT _to FROM ${this.#tables.relations} WHERE _from = ?`;
  }

  // UNION removes duplicates; CROSS JOIN pins the plan to two lookups in the (_from, _to) index.
  #neighbors2Sql() {
    const { relations } = this.#tables;
    return `
      SELECT _to FROM ${relations} WHERE _from = @key AND _to <> @key
      UNION
      SELECT r2._to FROM ${relations} AS r1 CROSS JOIN ${relations} AS r2 ON r2._from = r1._to
      WHERE r1._from = @key AND r2._to <> @key
    `;
  }

  // --- temporary collections ---

  async createTempCollection(name) {
    this.#connection.exec(createTempCollectionSql(this.#tables.temp(name)));
  }

  async dropTempCollection(name) {
    this.#connection.exec(`DROP TABLE IF EXISTS ${this.#tables.temp(name)}`);
  }

  async countDocuments(name) {
    return this.#statement(`SELECT count(*) FROM ${this.#tables.temp(name)}`).pluck().get();
  }

  async readDocument(name, key) {
    return getDocument(this.#store, name, key);
  }

  async readCollection(name) {
    const docs = this.#statement(`SELECT doc FROM ${this.#tables.temp(name)}`).pluck().all();
    return docs.map((doc) => JSON.parse(doc));
  }

  // --- the crud suite's document operations (crud.js) ---

  async insertDocument(collection, doc, options) {
    insertDocument(this.#store, collection, doc, options);
  }

  async getDocument(collection, key) {
    return getDocument(this.#store, collection, key);
  }

  async scanDocuments(collection, fromKey, limit) {
    return scanDocuments(this.#store, collection, fromKey, limit);
  }

  async updateDocument(collection, key, doc, options) {
    updateDocument(this.#store, collection, key, doc, options);
  }

  async deleteDocument(collection, key, options) {
    deleteDocument(this.#store, collection, key, options);
  }

  // --- the queries suite (queries.js) ---

  async createQueryCollection(name) {
    createCollection(this.#queryStore, name);
  }

  async importQueryDocuments(name, docs) {
    importDocuments(this.#queryStore, name, docs);
  }

  async indexQueryCollection(name) {
    indexCollection(this.#queryStore, name);
  }

  async countQueryDocuments(name) {
    return countQueryDocuments(this.#queryStore, name);
  }

  async dropQueryCollection(name) {
    dropCollection(this.#queryStore, name);
  }

  async query(caseName, name, params) {
    return runQuery(this.#queryStore, caseName, name, params);
  }

  // --- connection ---

  // A durable write runs with synchronous=FULL. Operations never interleave on this synchronous connection, so
  // switching the pragma around the write makes exactly this commit wait for fsync.
  #write(durable, work) {
    if (!durable) return work();
    this.#setSynchronous('FULL');
    try {
      return work();
    } finally {
      this.#setSynchronous('NORMAL');
    }
  }

  #setSynchronous(mode) {
    this.#statement(`PRAGMA synchronous = ${mode}`).run();
  }

  get #connection() {
    if (!this.#db) throw new Error('sqlite: not connected (call connect() first)');
    return this.#db;
  }

  // Statements are prepared on first use, because the namespace's tables may not exist at connect().
  #statement(sql) {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#connection.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

export function databaseFile(options) {
  if (options.database == null && options.dataDir == null) {
    throw new BenchError(ErrorCodes.USAGE, 'sqlite: needs a database file (--database) or a data directory');
  }
  return options.database ?? join(options.dataDir, 'sqlite', 'bench.sqlite');
}

function quote(identifier) {
  return `"${identifier.replaceAll('"', '""')}"`;
}
