// The adapter of the PostgreSQL family. A model (document-model.js, ../postgresql_tabular/tabular-model.js)
// decides how a profile is stored; everything else, the namespace, the import, the graph queries and the
// shortest-path function, is the same for both.
import { setTimeout as delay } from 'node:timers/promises';
import async from 'async';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { BULK_LOAD_MODULE, BulkLoad, IMPORT_STREAMS, split } from '../bulk-load.js';
import { REPORTED_SETTINGS, openPool } from './connection.js';
import { openNativeDriver } from './native-driver.js';
import { openPostgresDriver } from './postgres-driver.js';
import { CopyStream, copyLine } from './copy.js';
import {
  deleteDocument, getDocument, insertDocument, scanDocuments, updateDocument,
} from './crud.js';
import { awaitReplicas, endpointRoles, openReplicaPool, replicatedFigures } from './replicas.js';
import { graphOperations } from './graph.js';
import {
  countDocuments as countQueryDocuments, createCollection, dropCollection, importDocuments, indexCollection, runQuery,
} from './queries.js';
import { columnList, statements, tempStatements } from './statements.js';
import {
  INSPECT_SQL, OWN_TABLES_SQL, assertIdentifier, createIndexesSql, createNamespaceSql, createTempCollectionSql,
  dropNamespaceSql, namespaceNames, quote, schemaName,
} from './schema.js';

// Memory for each index build, for its session only; the server default (64 MB) makes the relation indexes of
// the larger datasets sort on disk.
const INDEX_BUILD_MEMORY = '256MB';
// SQLSTATE dependent_objects_still_exist: a RESTRICT drop found something that is not ours.
const DEPENDENT_OBJECTS_STILL_EXIST = '2BP01';
// How often close() looks whether requests still wait for a connection.
const WAITING_POLL_MS = 5;

// What the durability terms depend on (terms()).
const TERM_SETTINGS = Object.freeze(['fsync', 'synchronous_commit', 'wal_sync_method', 'full_page_writes']);

export class PostgresAdapter {
  #label;
  #options;
  #model;
  #names;
  #sql;
  #tempSql = new Map();
  #pool = null;
  // The operations' connections when `options.driver` is 'postgres' (postgres-driver.js) or 'pg-native'
  // (native-driver.js); null with pg, whose pool then serves them too.
  #postgres = null;
  // With several endpoints, each with its role (replicas.js); the replicas' pool when reads go to them.
  #endpoints = null;
  #replicas = null;
  // The import phase under way, streamed through COPYs (../bulk-load.js).
  #bulk;
  // Prepared statement names by SQL text; every connection of the pool prepares a statement on first use.
  #preparedNames = new Map();
  // The synchronous_commit each connection was last set to (see #setCommitMode).
  #commitModes = new WeakMap();
  // What crud.js needs of the connection.
  #store;
  // The queries suite's storage model (queries.js, ../postgresql_tabular/queries.js) and what it needs: a
  // collection is a temporary table of its own (`tmp_q_values10k`), so the namespace's reset and drop remove it
  // with the others.
  #queryModel;
  #queryStore;

  constructor(options, { label, model, queries }) {
    this.#label = label;
    this.#options = options;
    this.#model = model;
    this.#queryModel = queries;
    this.#names = namespaceNames(label, schemaName(label, options.namespace, model.schemaSuffix));
    this.#sql = statements(this.#names, model);
    this.#store = {
      label,
      table: (name) => this.#names.temp(name),
      rows: (text, values) => this.#run(text, values),
      // A document's read: on a replica when the run reads from them.
      read: async (text, values) => (this.#replicas ? (await this.#replicas.query(this.#prepared(text, values))).rows : this.#run(text, values)),
      write: (durable, text, values) => this.#write(durable, text, values),
    };
    this.#queryStore = {
      table: (name) => this.#names.temp(`q_${name}`),
      index: (name, field) => quote(assertIdentifier(label, 'index', `tmp_q_${name}_${field}`)),
      query: async (config) => {
        await this.#bulk.finish();
        return this.#connection.query(config);
      },
      // A case's statement, through the selected driver.
      run: async (config) => {
        await this.#bulk.finish();
        return this.#postgres ? this.#postgres.query(config) : this.#connection.query(config);
      },
      transaction: async (work) => {
        await this.#bulk.finish();
        return this.#transaction(work);
      },
      copy: (table, columns, docs, line) => this.#bulkWrite(table, columns, docs, line),
    };
    this.#bulk = new BulkLoad({
      streams: Math.min(IMPORT_STREAMS, options.concurrency),
      failed: (table, error) => copyFailed(label, table, error),
    });
    // The graph suite's operations (graph.js): an edge collection is a table of its own (`tmp_g_edges`), so the
    // namespace's reset and drop remove it with the others.
    this.graph = graphOperations({
      concurrency: options.concurrency,
      table: (name) => this.#names.temp(`g_${name}`),
      index: (name, suffix) => quote(assertIdentifier(label, 'index', `tmp_g_${name}_${suffix}`)),
      bulk: this.#bulk,
      connect: () => this.#connection.connect(),
      query: this.#queryStore.query,
      transaction: this.#queryStore.transaction,
      rows: (text, values) => this.#run(text, values),
      write: (durable, text, values) => this.#write(durable, text, values),
    });
  }

  async connect() {
    if (this.#pool) return;
    // A primary and its replicas: every statement to the primary, but with `readFrom: 'replicas'` the document
    // reads (getDocument: the mixed suite's gets), which the replicas' pool answers (replicas.js).
    let primaryOptions = this.#options;
    if (this.#options.endpoints?.length > 1) {
      this.#endpoints = await endpointRoles(this.#label, this.#options);
      const primary = this.#endpoints.find((endpoint) => endpoint.role === 'primary');
      primaryOptions = { ...this.#options, host: primary.host, port: primary.port };
    }
    const pool = await openPool(this.#label, primaryOptions);
    if (this.#options.readFrom === 'replicas') {
      const replicas = (this.#endpoints ?? []).filter((endpoint) => endpoint.role === 'replica');
      if (replicas.length === 0) {
        await pool.end();
        throw new BenchError(ErrorCodes.CONNECT, `${this.#label}: reads from replicas asked for, but ${this.#endpoints ? 'no endpoint is a replica' : 'the connection goes to one server'} (start one with \`npx bench server start postgresql --replicas 2\`, or list the primary and its replicas in --host)`);
      }
      try {
        this.#replicas = await openReplicaPool(this.#options, replicas, (one) => openPool(this.#label, one));
      } catch (error) {
        await pool.end();
        throw error;
      }
    }
    if (this.#options.driver === 'postgres' || this.#options.driver === 'pg-native') {
      try {
        this.#postgres = await (this.#options.driver === 'postgres' ? openPostgresDriver : openNativeDriver)(this.#label, this.#options);
      } catch (error) {
        await pool.end();
        throw error;
      }
    }
    this.#pool = pool;
  }

  // With reads on replicas: resolves once every replica has replayed every write the primary acknowledged so far,
  // with the milliseconds waited (the harness calls it before each step's clock starts).
  async awaitReplicas() {
    if (!this.#replicas) return null;
    return awaitReplicas(this.#label, this.#connection, this.#replicas);
  }

  // How the reads spread over the replicas (../spread.js), or null when they all go to the primary.
  spread() {
    return this.#replicas?.spread() ?? null;
  }

  // Each endpoint's counters and role (replicas.js), for a run on a primary and its replicas.
  async nodeFigures() {
    return replicatedFigures(this.#options, this.#endpoints ?? [{ host: this.#options.host, port: this.#options.port }]);
  }

  async close() {
    this.#bulk.abort();
    const pool = this.#pool;
    const postgres = this.#postgres;
    const replicas = this.#replicas;
    this.#pool = null;
    this.#postgres = null;
    this.#replicas = null;
    if (!pool) return;
    await replicas?.end();
    await postgres?.end();
    // end() serves no request still waiting for a connection: each would stay pending until its connection
    // timeout, on a timer that does not keep the process alive. They get their connection and finish first;
    // end() then waits for the queries in flight.
    while (pool.waitingCount > 0) await delay(WAITING_POLL_MS);
    await pool.end();
  }

  async serverVersion() {
    return (await this.#rows('SHOW server_version'))[0][0];
  }

  async settings() {
    const server = Object.fromEntries(await this.#rows(
      'SELECT name, current_setting(name) FROM unnest($1::text[]) WITH ORDINALITY AS s (name, n) ORDER BY n',
      [REPORTED_SETTINGS],
    ));
    // Whatever the driver, imports go through pg's COPY (README, "Drivers").
    return this.#postgres ? { ...server, import_driver: `pg (COPY); the timed operations through ${this.#options.driver}` } : server;
  }

  // The durability term's settings as the server has them, and where each came from (pg_settings.source); the
  // writes set synchronous_commit per session, so the server need only flush when asked: fsync on for durable.
  async terms({ durability }) {
    const rows = await this.#rows(
      'SELECT name, setting, source FROM pg_settings WHERE name = ANY($1::text[]) ORDER BY name', [TERM_SETTINGS],
    );
    const settings = Object.fromEntries(rows.map(([name, value, source]) => [name, { value, source: `server (${source})` }]));
    settings['synchronous_commit (writes)'] = {
      value: durability === 'durable' ? 'on' : 'off', source: 'set by the adapter on each connection that writes',
    };
    const problems = [];
    const [[buffers, blockSize, bufferSource]] = await this.#rows(
      "SELECT setting, current_setting('block_size'), source FROM pg_settings WHERE name = 'shared_buffers'",
    );
    const cache = {
      bytes: Number(buffers) * Number(blockSize),
      settings: { shared_buffers: { value: `${buffers} x ${blockSize} B`, source: `server (${bufferSource})` } },
    };
    if (durability === 'durable' && settings.fsync?.value !== 'on') {
      problems.push(`fsync is ${settings.fsync?.value} on ${this.#options.host}:${this.#options.port} (${settings.fsync?.source}): `
        + 'durable writes need fsync=on (ALTER SYSTEM SET fsync = on; SELECT pg_reload_conf();)');
    }
    return { settings, applied: [], problems, cache };
  }

  // Tables, their indexes and TOAST, of the namespace's schema only.
  async diskUsage() {
    await this.#bulk.finish();
    const [[bytes]] = await this.#rows(`
      SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint::text
      FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`, [this.#names.schema]);
    return Number(bytes);
  }

  // Reads every profile row (whole-row values are flattened, which fetches TOASTed values too) and every entry
  // of the three indexes: with sequential and bitmap scans off, each count is a full index-only scan.
  async warmup() {
    await this.#bulk.finish();
    const { profiles, relations } = this.#names;
    await this.#transaction(async (client) => {
      await client.query(`SELECT sum(pg_column_size(p.*)) FROM ${profiles} AS p`);
      await client.query('SET LOCAL enable_seqscan = off');
      await client.query('SET LOCAL enable_bitmapscan = off');
      await client.query(`SELECT count(_key) FROM ${profiles} WHERE _key >= ''`);
      await client.query(`SELECT count(_from) FROM ${relations} WHERE _from >= ''`);
      await client.query(`SELECT count(_to) FROM ${relations} WHERE _to >= ''`);
    });
  }

  // --- namespace ---

  async inspectNamespace() {
    await this.#bulk.finish();
    const { state, marker } = await this.#inspect(this.#connection);
    return { state, marker };
  }

  // One transaction: the namespace is either reset completely or left as it was.
  async resetNamespace() {
    await this.#bulk.finish();
    const { schema } = this.#names;
    await this.#transaction(async (client) => {
      const { state, objects } = await this.#inspect(client);
      if (state === 'foreign') {
        const holds = objects.length > 0 ? `holds ${objects.join(', ')}` : 'exists';
        throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, `${this.#label}: schema "${schema}" ${holds} but has no `
          + 'db-shootout marker; refusing to drop it (choose another --namespace)');
      }
      const tables = (await rowsOf(client, OWN_TABLES_SQL, [schema])).map(([name]) => name);
      try {
        await client.query(dropNamespaceSql(this.#names, tables));
      } catch (error) {
        if (error.code !== DEPENDENT_OBJECTS_STILL_EXIST) throw error;
        throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, `${this.#label}: schema "${schema}" holds or feeds objects `
          + `that db-shootout did not create; refusing to drop them: ${error.message}`
          + `${error.detail ? ` (${error.detail.replaceAll('\n', '; ')})` : ''}`, { cause: error });
      }
      await client.query(createNamespaceSql(this.#names, this.#model));
    });
  }

  async writeMarker(marker) {
    await this.#bulk.finish();
    await this.#run(this.#sql.writeMarker, [JSON.stringify(marker)]);
  }

  // 'absent' without the schema; 'owned' when its marker table holds a marker object; 'foreign' otherwise.
  async #inspect(queryable) {
    const found = await rowsOf(queryable, INSPECT_SQL, [this.#names.schema]);
    if (found.length === 0) return { state: 'absent', marker: null, objects: [] };
    const [hasMarkerTable, objects] = found[0];
    if (hasMarkerTable) {
      const markers = await rowsOf(queryable,
        `SELECT marker FROM ${this.#names.marker} WHERE id = 1 AND jsonb_typeof(marker) = 'object'`);
      if (markers.length === 1) return { state: 'owned', marker: markers[0][0], objects };
    }
    return { state: 'foreign', marker: null, objects };
  }

  // --- bulk import ---

  // Profiles, then relations, each go through IMPORT_STREAMS COPYs that stay open across the batches (see
  // ../bulk-load.js and CopyStream): every batch is split between them. flushProfiles() and flushRelations()
  // end them; so does any other call that needs the rows, and close() rolls back one never ended.
  async importProfiles(docs) {
    await this.#bulkWrite(this.#names.profiles, columnList(this.#model), docs, (doc) => copyLine(this.#model.rowValues(doc)));
  }

  // The profiles' COPY text made on the dataset reader's thread (the model's profileRows), one part per stream,
  // so that this thread only sends it.
  profileRows() {
    return { ...this.#model.profileRows, options: { parts: this.#bulk.streams } };
  }

  async importProfileRows(texts) {
    await this.#bulk.write(this.#names.profiles, texts, () => this.#openCopy(this.#names.profiles, columnList(this.#model)));
  }

  // The relations' COPY text, relation lines made on the dataset reader's thread.
  relationRows() {
    return { module: BULK_LOAD_MODULE, name: 'lineParts', input: 'lines', options: { parts: this.#bulk.streams } };
  }

  async importRelationRows(texts) {
    await this.#bulk.write(this.#names.relations, texts, () => this.#openCopy(this.#names.relations, '_from, _to'));
  }

  async flushProfiles() {
    await this.#bulk.finish();
  }

  async importRelations(edges) {
    await this.#bulkWrite(this.#names.relations, '_from, _to', edges, ({ _from, _to }) => copyLine([_from, _to]));
  }

  async flushRelations() {
    await this.#bulk.finish();
  }

  async #bulkWrite(table, columns, rows, line) {
    // The text first: a row the model refuses fails the call before anything is sent.
    const texts = split(rows, this.#bulk.streams).map((part) => {
      let text = '';
      for (const row of part) text += line(row);
      return text;
    });
    await this.#bulk.write(table, texts, () => this.#openCopy(table, columns));
  }

  // A connection taken from the pool for the whole phase, with synchronous_commit=off: a crash during an
  // import leaves the marker at imported: false, so the import is repeated anyway.
  async #openCopy(table, columns) {
    const client = await this.#connection.connect();
    try {
      await this.#setCommitMode(client, 'off');
    } catch (error) {
      client.release(error);
      throw error;
    }
    const copy = new CopyStream(client, `COPY ${table} (${columns}) FROM STDIN`);
    return {
      write: (text) => copy.write(text),
      async end() {
        try {
          await copy.end();
        } catch (error) {
          client.release(error);
          throw error;
        }
        client.release();
      },
      abort() {
        copy.abort();
        client.release(new Error('import abandoned'));
      },
    };
  }

  // The primary key and both relation indexes are built after the load, each in its own session so the builds
  // run in parallel (as far as the pool allows). VACUUM then sets the visibility map, so graph queries read the
  // covering indexes alone (index-only scans), and ANALYZE gives the planner its statistics. The relation
  // indexes take longest and start first; the profiles' VACUUM follows their small primary key on its session
  // while they still build (a table's VACUUM waits for the index builds on it).
  async createIndexes() {
    await this.#bulk.finish();
    const builds = createIndexesSql(this.#names);
    const { profiles, relations } = this.#names;
    const sessions = [
      ...builds.relations.map((sql) => () => this.#buildIndex(sql)),
      async () => {
        await this.#buildIndex(builds.profiles);
        await this.#connection.query(`VACUUM (ANALYZE) ${profiles}`);
      },
    ];
    await async.eachLimit(sessions, Math.min(sessions.length, this.#options.concurrency), async (session) => session());
    await this.#connection.query(`VACUUM (ANALYZE) ${relations}`);
  }

  async #buildIndex(sql) {
    await this.#transaction(async (client) => {
      await client.query(`SET LOCAL maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
      await client.query(sql);
    });
  }

  async counts() {
    await this.#bulk.finish();
    const [[profiles, relations]] = await this.#run(this.#sql.counts);
    return { profiles, relations };
  }

  // --- operations ---

  async singleRead(key) {
    const rows = await this.#run(this.#sql.singleRead, [key]);
    return rows.length === 0 ? null : rows[0][0];
  }

  async singleWrite(collection, doc) {
    await this.#write(false, this.#temp(collection).insert, this.#model.rowValues(doc));
  }

  async singleWriteSync(collection, doc) {
    await this.#write(true, this.#temp(collection).insert, this.#model.rowValues(doc));
  }

  async aggregation() {
    const rows = await this.#run(this.#sql.aggregation);
    return Object.fromEntries(rows.map(([age, count]) => [String(age), count]));
  }

  async neighbors(key) {
    return (await this.#run(this.#sql.neighbors, [key])).map(([to]) => to);
  }

  async neighborsData(key) {
    return (await this.#run(this.#sql.neighborsData, [key])).map(([doc]) => doc);
  }

  async neighbors2(key) {
    return (await this.#run(this.#sql.neighbors2, [key])).map(([to]) => to);
  }

  async neighbors2data(key) {
    return (await this.#run(this.#sql.neighbors2data, [key])).map(([doc]) => doc);
  }

  async shortestPath(from, to, maxDepth) {
    if (from === to) return [from];
    return (await this.#run(this.#sql.shortestPath, [from, to, maxDepth]))[0][0];
  }

  // --- temporary collections ---

  async createTempCollection(name) {
    await this.#connection.query(createTempCollectionSql(this.#names.temp(name), this.#model));
  }

  async dropTempCollection(name) {
    await this.#connection.query(`DROP TABLE IF EXISTS ${this.#names.temp(name)}`);
  }

  async countDocuments(name) {
    return (await this.#run(this.#temp(name).count))[0][0];
  }

  async readDocument(name, key) {
    const rows = await this.#run(this.#temp(name).read, [key]);
    return rows.length === 0 ? null : rows[0][0];
  }

  // One query: the driver reads the whole result before it resolves, with no round trip per document.
  async readCollection(name) {
    return (await this.#run(this.#temp(name).readAll)).map(([doc]) => doc);
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
    await createCollection(this.#queryStore, this.#queryModel, name);
  }

  async importQueryDocuments(name, docs) {
    await importDocuments(this.#queryStore, this.#queryModel, name, docs);
  }

  async indexQueryCollection(name) {
    await indexCollection(this.#queryStore, this.#queryModel, name);
  }

  async countQueryDocuments(name) {
    return countQueryDocuments(this.#queryStore, name);
  }

  async dropQueryCollection(name) {
    await dropCollection(this.#queryStore, name);
  }

  async query(caseName, name, params) {
    return runQuery(this.#queryStore, this.#queryModel, caseName, name, params);
  }

  #temp(name) {
    let sql = this.#tempSql.get(name);
    if (!sql) {
      sql = tempStatements(this.#names.temp(name), this.#model);
      this.#tempSql.set(name, sql);
    }
    return sql;
  }

  // --- connection ---

  // One prepared statement on a connection whose synchronous_commit is singleWrite's (off) or singleWriteSync's
  // (on, durable).
  async #write(durable, text, values) {
    if (this.#postgres) return this.#postgres.write(durable, text, values);
    return this.#withClient(async (client) => {
      await this.#setCommitMode(client, durable ? 'on' : 'off');
      return client.query(this.#prepared(text, values));
    });
  }

  // synchronous_commit is a session setting. Each connection remembers the mode it was last set to, so a write
  // costs one round trip, plus one SET the first time a connection switches modes; no other operation depends
  // on it, and a SET LOCAL transaction would cost three extra round trips on every write.
  async #setCommitMode(client, mode) {
    if (this.#commitModes.get(client) === mode) return;
    await client.query(`SET synchronous_commit = ${mode}`);
    this.#commitModes.set(client, mode);
  }

  get #connection() {
    if (!this.#pool) throw new Error(`${this.#label}: not connected (call connect() first)`);
    return this.#pool;
  }

  // A named statement: parsed and planned once per connection, then only bound and executed.
  #prepared(text, values) {
    let name = this.#preparedNames.get(text);
    if (!name) {
      name = `db_shootout_${this.#preparedNames.size + 1}`;
      this.#preparedNames.set(text, name);
    }
    return { name, text, values, rowMode: 'array' };
  }

  async #run(text, values) {
    if (this.#postgres) return this.#postgres.rows(text, values);
    return (await this.#connection.query(this.#prepared(text, values))).rows;
  }

  async #rows(text, values) {
    return rowsOf(this.#connection, text, values);
  }

  async #withClient(work) {
    const client = await this.#connection.connect();
    try {
      return await work(client);
    } finally {
      client.release();
    }
  }

  async #transaction(work) {
    const client = await this.#connection.connect();
    let broken;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A connection whose ROLLBACK fails is in an unknown state: it is destroyed, not handed out again.
      await client.query('ROLLBACK').catch((rollbackError) => { broken = rollbackError; });
      throw error;
    } finally {
      client.release(broken);
    }
  }
}


async function rowsOf(queryable, text, values) {
  return (await queryable.query({ text, values, rowMode: 'array' })).rows;
}

// The server's detail and context name the value and the line of that stream.
function copyFailed(label, table, error) {
  const detail = [error.detail, error.where].filter(Boolean).join('; ');
  return new BenchError(ErrorCodes.IMPORT,
    `${label}: COPY into ${table} failed: ${error.message}${detail ? ` (${detail})` : ''}`, { cause: error });
}
