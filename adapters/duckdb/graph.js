// The graph suite in DuckDB's SQL. An edge collection is a table of three INTEGER columns, filled through the
// appender in the edge list's order (sorted by source), so each row group's min/max of source is narrow. index()
// then builds three ART indexes: the unique key on (source, target), which the upsert's ON CONFLICT needs, and one
// on each end. DuckDB answers an equality filter through an ART index of that one column only (a filter on the
// composite key's columns scans the table, README.md), hence the two single-column indexes. Every operation is
// one statement; a batch is bound as typed lists and unnested inside DuckDB. What the adapter lends, `store`:
//   table(name)          the edge collection's table name, checked
//   read(sql, values)    a result reader of the query on a free connection
//   readFresh(sql)       the same, the query planned anew (a table's count(*), pool.js says why)
//   write(sql, values)   runs one statement in its own transaction (its commit fsyncs the WAL), sent again on a
//                        write-write conflict
//   use(work)            work(session) on a free connection (DDL, the appender)
import { DuckDBDataChunk, INTEGER, listValue } from '@duckdb/node-api';
import { firstColumn, toCount } from './documents.js';

// DuckDB's vector size: a data chunk holds at most this many rows.
const CHUNK_ROWS = 2048;
// Edges per batch of scan().
const SCAN_BATCH = 10_000;
const COLUMNS = 'source, target, weight';
const UPSERT = 'ON CONFLICT (source, target) DO UPDATE SET weight = excluded.weight';

// The statements of one edge table, by name.
export function graphStatements(table) {
  const both = (columns) => `SELECT ${columns} FROM ${table} WHERE source = $1
    UNION ALL SELECT ${columns} FROM ${table} WHERE target = $1`;
  const tally = (from) => `SELECT count(*), coalesce(sum(weight), 0) FROM ${from}`;
  return {
    table,
    create: [
      `DROP TABLE IF EXISTS ${table}`,
      `CREATE TABLE ${table} (source INTEGER NOT NULL, target INTEGER NOT NULL, weight INTEGER NOT NULL)`,
    ],
    index: [
      `CREATE UNIQUE INDEX IF NOT EXISTS ${table}_key ON ${table} (source, target)`,
      `CREATE INDEX IF NOT EXISTS ${table}_source ON ${table} (source)`,
      `CREATE INDEX IF NOT EXISTS ${table}_target ON ${table} (target)`,
      `ANALYZE ${table}`,
    ],
    exists: `SELECT count(*) FROM duckdb_tables()
      WHERE database_name = current_database() AND schema_name = 'main' AND lower(table_name) = lower($1)`,
    count: `SELECT count(*) FROM ${table}`,
    drop: `DROP TABLE IF EXISTS ${table}`,
    findEdge: `SELECT ${COLUMNS} FROM ${table} WHERE source = $1 AND target = $2`,
    scan: `SELECT ${COLUMNS} FROM ${table}`,
    // No self-loops, so the two halves never return the same edge.
    edgesOf: both(COLUMNS),
    inEdges: `SELECT ${COLUMNS} FROM ${table} WHERE target = $1`,
    // UNION removes the ids that are both a target and a source of the vertex.
    friends: `SELECT target FROM ${table} WHERE source = $1 UNION SELECT source FROM ${table} WHERE target = $1`,
    countFriends: tally(`(${both('weight')})`),
    countFollowers: `${tally(table)} WHERE target = $1`,
    upsertEdge: `INSERT INTO ${table} (${COLUMNS}) VALUES ($1, $2, $3) ${UPSERT}`,
    upsertEdges: `INSERT INTO ${table} (${COLUMNS}) SELECT unnest($1), unnest($2), unnest($3) ${UPSERT}`,
    removeEdge: `DELETE FROM ${table} WHERE source = $1 AND target = $2`,
    removeEdges: `DELETE FROM ${table} WHERE (source, target) IN (SELECT unnest($1), unnest($2))`,
  };
}

// count(*) is a BIGINT and sum() of INTEGERs a HUGEINT, both BigInts in JavaScript.
const tallyOf = (reader) => {
  const [[count, weight]] = reader.getRowsJS();
  return { count: toCount(count), weight: Number(weight) };
};
// Ids are 32-bit integers, so the driver types each list INTEGER[] from its first value.
const column = (edges, field) => listValue(edges.map((edge) => edge[field]));

export function graphOperations(store) {
  const byName = new Map();
  const sql = (name) => {
    let statements = byName.get(name);
    if (!statements) {
      statements = graphStatements(store.table(name));
      byName.set(name, statements);
    }
    return statements;
  };
  const ddl = (statements) => store.use(async (session) => {
    for (const statement of statements) await session.exec(statement);
  });
  return {
    async create(name) {
      await ddl(sql(name).create);
    },
    // The typed arrays fill data chunks column by column, and closing the appender commits the batch.
    async importEdges(name, { length, source, target, weight }) {
      await store.use(async ({ connection }) => {
        const appender = await connection.createAppender(sql(name).table);
        try {
          const chunk = DuckDBDataChunk.create([INTEGER, INTEGER, INTEGER]);
          for (let from = 0; from < length; from += CHUNK_ROWS) {
            const to = Math.min(length, from + CHUNK_ROWS);
            chunk.setColumns([source.subarray(from, to), target.subarray(from, to), weight.subarray(from, to)]);
            appender.appendDataChunk(chunk);
          }
        } finally {
          appender.closeSync();
        }
      });
    },
    async index(name) {
      await ddl(sql(name).index);
    },
    async count(name) {
      const statements = sql(name);
      const [exists] = firstColumn(await store.read(statements.exists, [statements.table]));
      return toCount(exists) === 0 ? 0 : toCount(firstColumn(await store.readFresh(statements.count))[0]);
    },
    async drop(name) {
      await ddl([sql(name).drop]);
    },
    // One query over the whole table (a column scan), handed over in batches of SCAN_BATCH.
    async scan(name, visit) {
      const statements = sql(name);
      const [exists] = firstColumn(await store.read(statements.exists, [statements.table]));
      if (toCount(exists) === 0) return;
      const edges = (await store.read(statements.scan)).getRowObjectsJS();
      for (let from = 0; from < edges.length; from += SCAN_BATCH) await visit(edges.slice(from, from + SCAN_BATCH));
    },
    async findEdge(name, source, target) {
      const [edge] = (await store.read(sql(name).findEdge, [source, target])).getRowObjectsJS();
      return edge ?? null;
    },
    async edgesOf(name, vertex) {
      return (await store.read(sql(name).edgesOf, [vertex])).getRowObjectsJS();
    },
    async inEdges(name, vertex) {
      return (await store.read(sql(name).inEdges, [vertex])).getRowObjectsJS();
    },
    async friends(name, vertex) {
      return firstColumn(await store.read(sql(name).friends, [vertex]));
    },
    async countFriends(name, vertex) {
      return tallyOf(await store.read(sql(name).countFriends, [vertex]));
    },
    async countFollowers(name, vertex) {
      return tallyOf(await store.read(sql(name).countFollowers, [vertex]));
    },
    // The writes' third argument, `{ durable }` (the run's durability term), changes nothing: DuckDB fsyncs its
    // write-ahead log at every commit and has no weaker mode, so each write commits durably either way (the
    // relaxed term is unavailable, and the harness runs no write under it: description.js, terms).
    async upsertEdge(name, { source, target, weight }) {
      await store.write(sql(name).upsertEdge, [source, target, weight]);
    },
    // An empty list has no first value to type it by; an empty batch writes nothing anyway.
    async upsertEdges(name, edges) {
      if (edges.length === 0) return;
      await store.write(sql(name).upsertEdges, [column(edges, 'source'), column(edges, 'target'), column(edges, 'weight')]);
    },
    async removeEdge(name, { source, target }) {
      await store.write(sql(name).removeEdge, [source, target]);
    },
    async removeEdges(name, pairs) {
      if (pairs.length === 0) return;
      await store.write(sql(name).removeEdges, [column(pairs, 'source'), column(pairs, 'target')]);
    },
  };
}
