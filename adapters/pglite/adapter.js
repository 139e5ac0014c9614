// PGlite: PostgreSQL compiled to WebAssembly, running inside the harness's process on a data directory of its own.
// It speaks PostgreSQL's SQL, so the namespace, the document model, the statements, the shortest-path function, the
// crud, queries and graph statements are the PostgreSQL adapter's (../postgresql/); what differs is the engine
// around them: one session, no server, no COPY stream (a COPY reads a blob), and a file system without fsync.
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { BULK_LOAD_MODULE } from '../bulk-load.js';
import { InFlight, OPERATION_METHODS } from '../in-flight.js';
import { copyLine } from '../postgresql/copy.js';
import { documentModel } from '../postgresql/document-model.js';
import {
  INSPECT_SQL, OWN_TABLES_SQL, assertIdentifier, createIndexesSql, createNamespaceSql, createTempCollectionSql,
  dropNamespaceSql, namespaceNames, quote, schemaName,
} from '../postgresql/schema.js';
import { columnList, statements, tempStatements } from '../postgresql/statements.js';
import {
  deleteDocument, getDocument, insertDocument, scanDocuments, updateDocument,
} from './crud.js';
import { BLOCK_BYTES, dataDirectory, openDatabase } from './database.js';
import { graphOperations } from './graph.js';
import {
  countDocuments as countQueryDocuments, createCollection, documentQueries, dropCollection, importDocuments,
  indexCollection, runQuery,
} from './queries.js';

const LABEL = 'pglite';
// SQLSTATE dependent_objects_still_exist: a RESTRICT drop found something that is not ours.
const DEPENDENT_OBJECTS_STILL_EXIST = '2BP01';
// Memory for each index build, in its transaction only, as the PostgreSQL adapter gives its builds.
const INDEX_BUILD_MEMORY = '256MB';
// Server settings that change results, reported with every run.
const REPORTED_SETTINGS = Object.freeze(['shared_buffers', 'work_mem', 'maintenance_work_mem', 'synchronous_commit',
  'fsync', 'wal_level', 'random_page_cost']);
// What the durability term depends on (terms()).
const TERM_SETTINGS = Object.freeze(['fsync', 'synchronous_commit', 'wal_sync_method', 'full_page_writes']);
// PGlite's version in its version() text: "PostgreSQL 18.7 (PGlite 0.5.17) on wasm32-...".
const VERSION = /^PostgreSQL (\S+) \(PGlite ([^)]+)\)/;

export class PgliteAdapter {
  #options;
  #dir;
  #names;
  #sql;
  #tempSql = new Map();
  // { db, close } while connected (database.js).
  #open = null;
  // The operations in flight, which close() lets finish (../in-flight.js).
  #inFlight = new InFlight();
  // What crud.js needs of the session.
  #store = {
    label: LABEL,
    table: (name) => this.#names.temp(name),
    rows: (text, values) => this.#rows(text, values),
    write: (durable, text, values) => this.#write(durable, text, values),
  };
  // What queries.js needs (../postgresql/queries.js): a collection is a table of its own (`tmp_q_values10k`), so the
  // namespace's reset and drop remove it with the others.
  #queryStore = {
    table: (name) => this.#names.temp(`q_${name}`),
    index: (name, field) => quote(assertIdentifier(LABEL, 'index', `tmp_q_${name}_${field}`)),
    query: (config) => this.#config(config),
    run: (config) => this.#config(config),
    transaction: (work) => this.#transaction((tx) => work({ query: (text) => tx.exec(text) })),
    copy: (table, columns, docs, line) => {
      let text = '';
      for (const doc of docs) text += line(doc);
      return this.#copy(`COPY ${table} (${columns}) FROM '/dev/blob'`, text);
    },
  };

  constructor(options) {
    this.#options = options;
    this.#dir = dataDirectory(options);
    this.#names = namespaceNames(LABEL, schemaName(LABEL, options.namespace, ''));
    this.#sql = statements(this.#names, documentModel);
    // The graph suite's operations (graph.js): an edge collection is a table of its own (`tmp_g_edges`), so the
    // namespace's reset and drop remove it with the others.
    this.graph = graphOperations({
      table: (name) => this.#names.temp(`g_${name}`),
      index: (name, suffix) => quote(assertIdentifier(LABEL, 'index', `tmp_g_${name}_${suffix}`)),
      query: (text, values) => this.#query(text, values),
      exec: (text) => this.#exec(text),
      transaction: (work) => this.#transaction(work),
      copy: (text, bytes) => this.#copy(text, bytes),
      write: (durable, text, values) => this.#write(durable, text, values),
    });
    this.#inFlight.wrap(this, OPERATION_METHODS);
    this.#inFlight.wrap(this.graph);
  }

  async connect() {
    if (this.#open) return;
    this.#open = await openDatabase(this.#dir, { cacheBytes: this.#options.cacheBytes ?? null });
  }

  // PGlite runs one statement at a time, each to its end, and queues the others: the operations started before
  // close() finish with their answers, then the engine closes and the directory's lock is given back.
  async close() {
    const open = this.#open;
    if (!open) return;
    await this.#inFlight.settled();
    this.#open = null;
    this.#tempSql.clear();
    await open.close();
  }

  async serverVersion() {
    const text = (await this.#rows('SELECT version()'))[0][0];
    const match = VERSION.exec(text);
    return match ? `${match[2]} (PostgreSQL ${match[1]})` : text;
  }

  async settings() {
    const server = Object.fromEntries(await this.#rows(
      'SELECT name, current_setting(name) FROM unnest($1::text[]) WITH ORDINALITY AS s (name, n) ORDER BY n',
      [REPORTED_SETTINGS],
    ));
    return { ...server, 'data directory': this.#dir };
  }

  // The durability term (description.js, terms): every commit writes its WAL record to the file before it returns
  // (synchronous_commit=on, PGlite's default, which nothing here changes), and nothing is ever flushed to the disk:
  // PGlite's Node file system makes fsync a call that does nothing, whatever fsync says. Read back: the settings
  // the term depends on, with their source. The durable term is unavailable, so the harness marks the writes
  // that need it unsupported (core/terms.js, termObstacle). The cache is shared_buffers (database.js).
  async terms({ durability }) {
    const rows = await this.#rows(
      'SELECT name, setting, source FROM pg_settings WHERE name = ANY($1::text[]) ORDER BY name', [TERM_SETTINGS],
    );
    const settings = Object.fromEntries(rows.map(([name, value, source]) => [name, { value, source: `PGlite (${source})` }]));
    settings['fsync (file system)'] = {
      value: 'does nothing', source: 'PGlite on Node: its file system (Emscripten NODEFS) has no fsync to call',
    };
    const problems = [];
    if (durability === 'relaxed' && settings.synchronous_commit?.value !== 'on') {
      problems.push(`synchronous_commit is ${settings.synchronous_commit?.value} in ${this.#dir}: the relaxed term `
        + 'assumes each commit writes its WAL record to the file (synchronous_commit=on, PGlite\'s default)');
    }
    const [[buffers, bufferSource]] = await this.#rows("SELECT setting, source FROM pg_settings WHERE name = 'shared_buffers'");
    const cache = {
      bytes: Number(buffers) * BLOCK_BYTES,
      settings: {
        shared_buffers: {
          value: `${buffers} x ${BLOCK_BYTES} B`,
          source: this.#options.cacheBytes ? 'set by the adapter at connect() (--cache)' : `PGlite (${bufferSource})`,
        },
      },
    };
    return { settings, applied: [], problems, cache };
  }

  // Tables, their indexes and TOAST, of the namespace's schema only.
  async diskUsage() {
    const [[bytes]] = await this.#rows(`
      SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint::text
      FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`, [this.#names.schema]);
    return Number(bytes);
  }

  // As the PostgreSQL adapter: every profile row, then every entry of the three indexes by index-only scans.
  async warmup() {
    const { profiles, relations } = this.#names;
    await this.#transaction(async (tx) => {
      await tx.exec(`SELECT sum(pg_column_size(p.*)) FROM ${profiles} AS p`);
      await tx.exec('SET LOCAL enable_seqscan = off');
      await tx.exec('SET LOCAL enable_bitmapscan = off');
      await tx.exec(`SELECT count(_key) FROM ${profiles} WHERE _key >= ''`);
      await tx.exec(`SELECT count(_from) FROM ${relations} WHERE _from >= ''`);
      await tx.exec(`SELECT count(_to) FROM ${relations} WHERE _to >= ''`);
    });
  }

  // --- namespace ---

  async inspectNamespace() {
    const { state, marker } = await this.#inspect((text, values) => this.#query(text, values));
    return { state, marker };
  }

  // One transaction: the namespace is either reset completely or left as it was.
  async resetNamespace() {
    const { schema } = this.#names;
    await this.#transaction(async (tx) => {
      const { state, objects } = await this.#inspect((text, values) => tx.query(text, values, { rowMode: 'array' }));
      if (state === 'foreign') {
        const holds = objects.length > 0 ? `holds ${objects.join(', ')}` : 'exists';
        throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, `${LABEL}: schema "${schema}" in ${this.#dir} ${holds} but `
          + 'has no db-shootout marker; refusing to drop it (choose another --namespace)');
      }
      const tables = (await tx.query(OWN_TABLES_SQL, [schema], { rowMode: 'array' })).rows.map(([name]) => name);
      try {
        await tx.exec(dropNamespaceSql(this.#names, tables));
      } catch (error) {
        if (error.code !== DEPENDENT_OBJECTS_STILL_EXIST) throw error;
        throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, `${LABEL}: schema "${schema}" holds or feeds objects `
          + `that db-shootout did not create; refusing to drop them: ${error.message}`, { cause: error });
      }
      await tx.exec(createNamespaceSql(this.#names, documentModel));
    });
  }

  async writeMarker(marker) {
    await this.#query(this.#sql.writeMarker, [JSON.stringify(marker)]);
  }

  // 'absent' without the schema; 'owned' when its marker table holds a marker object; 'foreign' otherwise.
  async #inspect(query) {
    const found = (await query(INSPECT_SQL, [this.#names.schema])).rows;
    if (found.length === 0) return { state: 'absent', marker: null, objects: [] };
    const [hasMarkerTable, objects] = found[0];
    if (hasMarkerTable) {
      const markers = (await query(
        `SELECT marker FROM ${this.#names.marker} WHERE id = 1 AND jsonb_typeof(marker) = 'object'`, [])).rows;
      if (markers.length === 1) return { state: 'owned', marker: markers[0][0], objects };
    }
    return { state: 'foreign', marker: null, objects };
  }

  // --- bulk import ---

  // Each batch is one COPY from a blob of COPY's text format, on the one session.
  async importProfiles(docs) {
    let text = '';
    for (const doc of docs) text += copyLine(documentModel.rowValues(doc));
    await this.#copy(`COPY ${this.#names.profiles} (${columnList(documentModel)}) FROM '/dev/blob'`, text);
  }

  // Profile lines made on the dataset reader's thread are already COPY's text (`<key>\t<JSON>\n`), in one part.
  profileRows() {
    return { module: BULK_LOAD_MODULE, name: 'lineParts', input: 'lines', options: { parts: 1 } };
  }

  async importProfileRows(parts) {
    for (const part of parts) {
      await this.#copy(`COPY ${this.#names.profiles} (${columnList(documentModel)}) FROM '/dev/blob'`, part);
    }
  }

  relationRows() {
    return { module: BULK_LOAD_MODULE, name: 'lineParts', input: 'lines', options: { parts: 1 } };
  }

  async importRelationRows(parts) {
    for (const part of parts) await this.#copy(`COPY ${this.#names.relations} (_from, _to) FROM '/dev/blob'`, part);
  }

  async importRelations(edges) {
    let text = '';
    for (const { _from, _to } of edges) text += copyLine([_from, _to]);
    await this.#copy(`COPY ${this.#names.relations} (_from, _to) FROM '/dev/blob'`, text);
  }

  // The primary key and both relation indexes, one build after the other (one session), then VACUUM (ANALYZE):
  // the visibility map for index-only scans, and the planner's statistics.
  async createIndexes() {
    const builds = createIndexesSql(this.#names);
    for (const sql of [builds.profiles, ...builds.relations]) {
      await this.#transaction(async (tx) => {
        await tx.exec(`SET LOCAL maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
        await tx.exec(sql);
      });
    }
    await this.#exec(`VACUUM (ANALYZE) ${this.#names.profiles}`);
    await this.#exec(`VACUUM (ANALYZE) ${this.#names.relations}`);
  }

  async counts() {
    const [[profiles, relations]] = await this.#rows(this.#sql.counts);
    return { profiles, relations };
  }

  // --- operations ---

  async singleRead(key) {
    const rows = await this.#rows(this.#sql.singleRead, [key]);
    return rows.length === 0 ? null : rows[0][0];
  }

  async singleWrite(collection, doc) {
    await this.#write(false, this.#temp(collection).insert, documentModel.rowValues(doc));
  }

  async singleWriteSync(collection, doc) {
    await this.#write(true, this.#temp(collection).insert, documentModel.rowValues(doc));
  }

  async aggregation() {
    const rows = await this.#rows(this.#sql.aggregation);
    return Object.fromEntries(rows.map(([age, count]) => [String(age), count]));
  }

  async neighbors(key) {
    return (await this.#rows(this.#sql.neighbors, [key])).map(([to]) => to);
  }

  async neighborsData(key) {
    return (await this.#rows(this.#sql.neighborsData, [key])).map(([doc]) => doc);
  }

  async neighbors2(key) {
    return (await this.#rows(this.#sql.neighbors2, [key])).map(([to]) => to);
  }

  async neighbors2data(key) {
    return (await this.#rows(this.#sql.neighbors2data, [key])).map(([doc]) => doc);
  }

  async shortestPath(from, to, maxDepth) {
    if (from === to) return [from];
    return (await this.#rows(this.#sql.shortestPath, [from, to, maxDepth]))[0][0];
  }

  // --- temporary collections ---

  async createTempCollection(name) {
    await this.#exec(createTempCollectionSql(this.#names.temp(name), documentModel));
  }

  async dropTempCollection(name) {
    await this.#exec(`DROP TABLE IF EXISTS ${this.#names.temp(name)}`);
  }

  async countDocuments(name) {
    return (await this.#rows(this.#temp(name).count))[0][0];
  }

  async readDocument(name, key) {
    const rows = await this.#rows(this.#temp(name).read, [key]);
    return rows.length === 0 ? null : rows[0][0];
  }

  async readCollection(name) {
    return (await this.#rows(this.#temp(name).readAll)).map(([doc]) => doc);
  }

  // --- the crud suite's document operations (crud.js) ---

  async insertDocument(collection, doc, options) {
    await insertDocument(this.#store, collection, doc, options);
  }

  async getDocument(collection, key) {
    return getDocument(this.#store, collection, key);
  }

  async scanDocuments(collection, fromKey, limit) {
    return scanDocuments(this.#store, collection, fromKey, limit);
  }

  async updateDocument(collection, key, doc, options) {
    await updateDocument(this.#store, collection, key, doc, options);
  }

  async deleteDocument(collection, key, options) {
    await deleteDocument(this.#store, collection, key, options);
  }

  // --- the queries suite (queries.js) ---

  async createQueryCollection(name) {
    await createCollection(this.#queryStore, documentQueries, name);
  }

  async importQueryDocuments(name, docs) {
    await importDocuments(this.#queryStore, documentQueries, name, docs);
  }

  async indexQueryCollection(name) {
    await indexCollection(this.#queryStore, documentQueries, name);
  }

  async countQueryDocuments(name) {
    return countQueryDocuments(this.#queryStore, name);
  }

  async dropQueryCollection(name) {
    await dropCollection(this.#queryStore, name);
  }

  async query(caseName, name, params) {
    return runQuery(this.#queryStore, documentQueries, caseName, name, params);
  }

  #temp(name) {
    let sql = this.#tempSql.get(name);
    if (!sql) {
      sql = tempStatements(this.#names.temp(name), documentModel);
      this.#tempSql.set(name, sql);
    }
    return sql;
  }

  // --- the session ---

  get #db() {
    if (!this.#open) throw new Error(`${LABEL}: not connected (call connect() first)`);
    return this.#open.db;
  }

  // One statement with its parameters bound (the extended protocol), rows as arrays.
  async #query(text, values = []) {
    return this.#db.query(text, values, { rowMode: 'array' });
  }

  async #rows(text, values) {
    return (await this.#query(text, values)).rows;
  }

  // Statements without parameters, one after the other (the simple protocol); the last one's result.
  async #exec(text) {
    return (await this.#db.exec(text, { rowMode: 'array' })).at(-1);
  }

  // pg's query config (../postgresql/queries.js): bound parameters through #query, a text without them through
  // #exec (it may hold several statements); rows as arrays unless the config asks for objects.
  async #config({ text, values, rowMode }) {
    const options = rowMode === 'array' ? { rowMode: 'array' } : {};
    if (values && values.length > 0) return this.#db.query(text, values, options);
    return (await this.#db.exec(text, options)).at(-1);
  }

  // Both terms commit alike: synchronous_commit=on writes the commit's WAL record to the file, and no fsync follows
  // (terms()); `durable` can ask for no more. rowCount is what pg calls the rows a statement matched.
  async #write(_durable, text, values) {
    const result = await this.#query(text, values);
    return { ...result, rowCount: result.affectedRows ?? 0 };
  }

  async #copy(text, data) {
    await this.#db.query(text, [], { blob: new Blob([data]) });
  }

  // work(tx) in one transaction, which holds the session: PGlite queues every other statement until it ends.
  async #transaction(work) {
    return this.#db.transaction(work);
  }
}
