// The graph suite in PostgreSQL: an edge collection is a table `tmp_g_<name>` of the namespace's schema
// (source, target, weight: three integers), so resetNamespace() and dropNamespace remove it with the rest. It is
// loaded as a heap without any index by binary COPYs, then gets a unique index on (source, target), made its
// primary key, and an index on (target, source), built side by side, and VACUUM (ANALYZE). Every operation is one
// prepared statement; the batches bind their pairs as integer arrays. What the adapter lends, `store`:
//   concurrency            the pool's size, which bounds the index builds run side by side
//   table(name)            the collection's quoted, schema-qualified table name, checked
//   index(name, suffix)    the quoted name of one of its indexes, checked
//   bulk                   the adapter's BulkLoad (../bulk-load.js): its phases, finish() and abort()
//   connect()              a connection of the pool, to be released
//   query(config)          pg's result of one statement, after any import phase has ended
//   transaction(work)      work(client) in one transaction, on one connection of the pool
//   rows(text, values)     the rows of a prepared statement, as arrays
//   write(durable, text, values)  pg's result of a prepared statement committed with synchronous_commit on
//                          (durable) or off
import async from 'async';
import { CopyStream } from './copy.js';

// Each index build gets this much memory for its sort, in its session only: the full Pokec's 30.5 M pairs take
// about 1.5 GB, and a sort that spilled to disk (1 GB, no workers: two runs and a merge) took 12 to 33% longer.
const INDEX_BUILD_MEMORY = '2GB';
// Edges per page of scan().
const SCAN_PAGE = 50_000;

// COPY's binary format: the signature, no flags, no header extension; then per row the field count and each
// field as its length and its big-endian value. The trailer is optional when the stream ends at a row's end.
export const BINARY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const FIELDS = 3;
const ROW_BYTES = 2 + FIELDS * (4 + 4);

// Edges `from` to `to` of a batch as rows of COPY's binary format.
export function binaryRows({ source, target, weight }, from, to) {
  const buffer = Buffer.allocUnsafe((to - from) * ROW_BYTES);
  let at = 0;
  for (let i = from; i < to; i += 1) {
    at = buffer.writeInt16BE(FIELDS, at);
    at = buffer.writeInt32BE(4, at);
    at = buffer.writeInt32BE(source[i], at);
    at = buffer.writeInt32BE(4, at);
    at = buffer.writeInt32BE(target[i], at);
    at = buffer.writeInt32BE(4, at);
    at = buffer.writeInt32BE(weight[i], at);
  }
  return buffer;
}

// The batch's edges in at most `parts` consecutive slices, none empty, each as COPY's binary rows.
export function binaryParts(batch, parts) {
  const size = Math.ceil(batch.length / parts);
  const slices = [];
  for (let from = 0; from < batch.length; from += size) slices.push(binaryRows(batch, from, Math.min(batch.length, from + size)));
  return slices;
}

// Each collection's statements, written once.
export function graphStatements(table, index) {
  const edge = 'source, target, weight';
  const upsert = `INSERT INTO ${table} (${edge}) `;
  const onConflict = 'ON CONFLICT (source, target) DO UPDATE SET weight = EXCLUDED.weight';
  return {
    create: `DROP TABLE IF EXISTS ${table};
      CREATE TABLE ${table} (source integer NOT NULL, target integer NOT NULL, weight integer NOT NULL)`,
    copy: `COPY ${table} (${edge}) FROM STDIN (FORMAT binary)`,
    // A unique index (SHARE lock) rather than ADD PRIMARY KEY (ACCESS EXCLUSIVE), so that both builds run at
    // once; it becomes the primary key afterwards without another pass. Pairs are unique, so B-tree
    // deduplication would find nothing to merge.
    indexes: [
      `CREATE UNIQUE INDEX ${index('pkey')} ON ${table} (source, target) WITH (deduplicate_items = off)`,
      `CREATE INDEX ${index('target')} ON ${table} (target, source) WITH (deduplicate_items = off)`,
    ],
    primaryKey: `ALTER TABLE ${table} ADD PRIMARY KEY USING INDEX ${index('pkey')}`,
    analyze: `VACUUM (ANALYZE) ${table}`,
    count: `SELECT count(*)::integer FROM ${table}`,
    findEdge: `SELECT weight FROM ${table} WHERE source = $1 AND target = $2`,
    // A page of the whole collection along the primary key, after the pair ($1, $2).
    scan: `SELECT ${edge} FROM ${table} WHERE (source, target) > ($1, $2) ORDER BY source, target LIMIT $3`,
    // No self-loops: an edge is in one branch only.
    edgesOf: `SELECT ${edge} FROM ${table} WHERE source = $1 UNION ALL SELECT ${edge} FROM ${table} WHERE target = $1`,
    inEdges: `SELECT ${edge} FROM ${table} WHERE target = $1`,
    friends: `SELECT target FROM ${table} WHERE source = $1 UNION SELECT source FROM ${table} WHERE target = $1`,
    // sum() of integers is a bigint, which pg hands over as a string: float8 holds every sum here exactly.
    countFriends: `SELECT count(*)::integer, coalesce(sum(weight), 0)::float8 FROM (
      SELECT weight FROM ${table} WHERE source = $1 UNION ALL SELECT weight FROM ${table} WHERE target = $1) AS e`,
    countFollowers: `SELECT count(*)::integer, coalesce(sum(weight), 0)::float8 FROM ${table} WHERE target = $1`,
    upsertEdge: `${upsert}VALUES ($1, $2, $3) ${onConflict}`,
    upsertEdges: `${upsert}SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[]) ${onConflict}`,
    removeEdge: `DELETE FROM ${table} WHERE source = $1 AND target = $2`,
    removeEdges: `DELETE FROM ${table} AS e USING unnest($1::integer[], $2::integer[]) AS p (source, target)
      WHERE e.source = p.source AND e.target = p.target`,
  };
}

const toEdge = ([source, target, weight]) => ({ source, target, weight });
const toCount = ([[count, weight]]) => ({ count, weight });
const column = (edges, name) => edges.map((edge) => edge[name]);

// The suite's reads and writes, each one prepared statement of `sql(name)` (graphStatements) through
// `store.rows(text, values)` and `store.write(durable, text, values)`: the same for every adapter that speaks
// PostgreSQL's SQL (this one, over pg, and PGlite's).
export function edgeOperations(sql, store) {
  return {
    async findEdge(name, source, target) {
      const rows = await store.rows(sql(name).findEdge, [source, target]);
      return rows.length === 0 ? null : { source, target, weight: rows[0][0] };
    },

    async edgesOf(name, vertex) {
      return (await store.rows(sql(name).edgesOf, [vertex])).map(toEdge);
    },

    async inEdges(name, vertex) {
      return (await store.rows(sql(name).inEdges, [vertex])).map(toEdge);
    },

    async friends(name, vertex) {
      return (await store.rows(sql(name).friends, [vertex])).map(([id]) => id);
    },

    async countFriends(name, vertex) {
      return toCount(await store.rows(sql(name).countFriends, [vertex]));
    },

    async countFollowers(name, vertex) {
      return toCount(await store.rows(sql(name).countFollowers, [vertex]));
    },

    // `durable`: the run's durability term (synchronous_commit on), else relaxed (off).
    async upsertEdge(name, { source, target, weight }, { durable = false } = {}) {
      await store.write(durable, sql(name).upsertEdge, [source, target, weight]);
    },

    async upsertEdges(name, edges, { durable = false } = {}) {
      await store.write(durable, sql(name).upsertEdges, [column(edges, 'source'), column(edges, 'target'), column(edges, 'weight')]);
    },

    async removeEdge(name, { source, target }, { durable = false } = {}) {
      await store.write(durable, sql(name).removeEdge, [source, target]);
    },

    async removeEdges(name, pairs, { durable = false } = {}) {
      await store.write(durable, sql(name).removeEdges, [column(pairs, 'source'), column(pairs, 'target')]);
    },
  };
}

export function graphOperations(store) {
  const cache = new Map();
  const sql = (name) => {
    let statements = cache.get(name);
    if (!statements) {
      statements = graphStatements(store.table(name), (suffix) => store.index(name, suffix));
      cache.set(name, statements);
    }
    return statements;
  };
  const exists = async (name) => (await store.query({
    text: 'SELECT to_regclass($1) IS NOT NULL', values: [store.table(name)], rowMode: 'array',
  })).rows[0][0];

  // One binary COPY on a connection of its own, kept open across the batches, in a transaction whose commit
  // does not wait for the WAL flush: a crash during a load leaves the marker without the collection, so it is
  // loaded again anyway.
  async function openCopy(statements) {
    const client = await store.connect();
    let copy;
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL synchronous_commit = off');
      copy = new CopyStream(client, statements.copy);
      await copy.write(BINARY_HEADER);
    } catch (error) {
      client.release(error);
      throw error;
    }
    return {
      write: (rows) => copy.write(rows),
      async end() {
        try {
          await copy.end();
          await client.query('COMMIT');
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

  return {
    async create(name) {
      await store.query({ text: sql(name).create });
    },

    // The batch is encoded before the promise resolves, so the caller may reuse its arrays.
    async importEdges(name, batch) {
      if (batch.length === 0) return;
      const statements = sql(name);
      await store.bulk.write(store.table(name), binaryParts(batch, store.bulk.streams), () => openCopy(statements));
    },

    async index(name) {
      await store.bulk.finish();
      const statements = sql(name);
      await async.eachLimit(statements.indexes, Math.min(statements.indexes.length, store.concurrency),
        async (text) => store.transaction(async (client) => {
          // Each build also takes the server's parallel workers (max_parallel_maintenance_workers), sharing this
          // memory with them: with two workers each, both builds of the full Pokec took half as long as with none.
          await client.query(`SET LOCAL maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
          await client.query(text);
        }));
      await store.query({ text: statements.primaryKey });
      // VACUUM sets the visibility map, so that friends reads the indexes alone (index-only scans), and the
      // hint bits, so that the first reads write nothing; ANALYZE gives the planner its statistics.
      await store.query({ text: statements.analyze });
    },

    async count(name) {
      if (!(await exists(name))) return 0;
      return (await store.query({ text: sql(name).count, rowMode: 'array' })).rows[0][0];
    },

    async drop(name) {
      await store.query({ text: `DROP TABLE IF EXISTS ${store.table(name)}` });
    },

    // The table with its indexes and TOAST; 0 when it does not exist.
    async diskUsage(name) {
      const { rows } = await store.query({
        text: 'SELECT coalesce(pg_total_relation_size(to_regclass($1)), 0)::float8',
        values: [store.table(name)],
        rowMode: 'array',
      });
      return rows[0][0];
    },

    // Pages of SCAN_PAGE edges along the primary key (a range scan of its index each).
    async scan(name, visit) {
      if (!(await exists(name))) return;
      let after = [-1, -1];
      for (;;) {
        const rows = await store.rows(sql(name).scan, [...after, SCAN_PAGE]);
        if (rows.length > 0) await visit(rows.map(toEdge));
        if (rows.length < SCAN_PAGE) return;
        after = rows.at(-1).slice(0, 2);
      }
    },
    ...edgeOperations(sql, store),
  };
}
