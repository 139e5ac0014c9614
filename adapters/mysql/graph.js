// The graph suite in MariaDB's (and MySQL's) SQL: an edge collection is an InnoDB table `tmp_g_<name>` of the
// namespace's database (source, target, weight: three INT UNSIGNED), so resetNamespace() and dropNamespace remove
// it with the database. InnoDB stores a table's rows in its primary key's B-tree, so the key (source, target) is
// there from the start: the edge list arrives sorted by it, and each row is appended to that tree. The index on
// (target, source) is built after the load, in one pass. Reads are prepared statements (mysql2's execute); the
// batches are one multi-row statement each, their values escaped into its text (one prepared statement per
// batch length would be planned once and rarely used again). What the adapter lends, `store`:
//   table(name)            the collection's table name, checked and qualified with the database
//   bulk                   the adapter's BulkLoad (../bulk-load.js): its phases, finish() and abort()
//   getConnection()        a connection of the pool, to be released
//   serverLimits()         { localInfile, maxAllowedPacket } of the server
//   query(sql, values)     mysql2's [result, fields] of a statement, after any import phase has ended
//   execute(options, values)  mysql2's [result, fields] of a prepared statement
import { LoadStream, insertBatch } from './bulk.js';

const ER_NO_SUCH_TABLE = 'ER_NO_SUCH_TABLE';
// Edges per page of scan().
const SCAN_PAGE = 50_000;
const COLUMNS = ['source', 'target', 'weight'];
const EDGE = COLUMNS.join(', ');

// Each collection's statements, written once.
export function graphStatements(table) {
  const upsert = `INSERT INTO ${table} (${EDGE}) VALUES`;
  // VALUES(weight) is the row that was to be inserted (MySQL 8.0 deprecates it, MariaDB has no other way).
  const onDuplicate = 'ON DUPLICATE KEY UPDATE weight = VALUES(weight)';
  return {
    drop: `DROP TABLE IF EXISTS ${table}`,
    create: `CREATE TABLE ${table} (source INT UNSIGNED NOT NULL, target INT UNSIGNED NOT NULL,
      weight INT UNSIGNED NOT NULL, PRIMARY KEY (source, target)) ENGINE=InnoDB`,
    index: `ALTER TABLE ${table} ADD INDEX target_source (target, source)`,
    analyze: `ANALYZE TABLE ${table}`,
    count: `SELECT COUNT(*) FROM ${table}`,
    findEdge: `SELECT weight FROM ${table} WHERE source = ? AND target = ?`,
    // A page of the whole collection along the primary key (InnoDB's clustered index), after the pair (?, ?).
    scan: `SELECT ${EDGE} FROM ${table} WHERE source > ? OR (source = ? AND target > ?) ORDER BY source, target LIMIT ?`,
    // No self-loops: an edge is in one branch only.
    edgesOf: `SELECT ${EDGE} FROM ${table} WHERE source = ? UNION ALL SELECT ${EDGE} FROM ${table} WHERE target = ?`,
    inEdges: `SELECT ${EDGE} FROM ${table} WHERE target = ?`,
    friends: `SELECT target FROM ${table} WHERE source = ? UNION SELECT source FROM ${table} WHERE target = ?`,
    countFriends: `SELECT COUNT(*), COALESCE(SUM(weight), 0) FROM (
      SELECT weight FROM ${table} WHERE source = ? UNION ALL SELECT weight FROM ${table} WHERE target = ?) AS e`,
    countFollowers: `SELECT COUNT(*), COALESCE(SUM(weight), 0) FROM ${table} WHERE target = ?`,
    upsertEdge: `${upsert} (?, ?, ?) ${onDuplicate}`,
    // mysql2 writes the array of rows as (s, t, w), (s, t, w), ... and the array of pairs as (s, t), (s, t), ...
    upsertEdges: `${upsert} ? ${onDuplicate}`,
    removeEdge: `DELETE FROM ${table} WHERE source = ? AND target = ?`,
    // A list of row constructors: a range scan of the primary key per pair.
    removeEdges: `DELETE FROM ${table} WHERE (source, target) IN (?)`,
  };
}

// The edges `from` to `to` of a batch as rows of strings for LOAD DATA or INSERT: the rows are the indexes into
// the batch, turned into strings as the statement's text is written.
export function edgeRows({ source, target, weight }, from, to) {
  return {
    indexes: Array.from({ length: to - from }, (_, i) => from + i),
    toRow: (i) => [String(source[i]), String(target[i]), String(weight[i])],
  };
}

// The batch's edges in at most `parts` consecutive slices, none empty.
export function rowParts(batch, parts) {
  const size = Math.ceil(batch.length / parts);
  const slices = [];
  for (let from = 0; from < batch.length; from += size) slices.push(edgeRows(batch, from, Math.min(batch.length, from + size)));
  return slices;
}

const toEdge = ([source, target, weight]) => ({ source, target, weight });
// COUNT is a BIGINT and SUM a DECIMAL, which mysql2 hands over as a string.
const toCount = ([[count, weight]]) => ({ count: Number(count), weight: Number(weight) });
const rowsOf = async (pending) => (await pending)[0];

export function graphOperations(store) {
  const cache = new Map();
  const sql = (name) => {
    let statements = cache.get(name);
    if (!statements) {
      statements = graphStatements(store.table(name));
      cache.set(name, statements);
    }
    return statements;
  };
  const read = (name, statement, values) => rowsOf(store.execute({ sql: sql(name)[statement], rowsAsArray: true }, values));

  // One LOAD DATA LOCAL INFILE on a connection of its own, kept open across the batches (bulk.js).
  async function openLoad(table) {
    const connection = await store.getConnection();
    const load = new LoadStream(connection, table, COLUMNS);
    return {
      write: ({ indexes, toRow }) => load.write(indexes, toRow),
      async end() {
        try {
          await load.end();
        } catch (error) {
          connection.destroy();
          throw error;
        }
        connection.release();
      },
      abort() {
        load.abort();
        connection.destroy();
      },
    };
  }

  // Without local_infile on the server, the batch goes as multi-row INSERTs.
  async function insertEdges(table, batch, maxAllowedPacket) {
    const { indexes, toRow } = edgeRows(batch, 0, batch.length);
    const connection = await store.getConnection();
    try {
      await insertBatch(connection, maxAllowedPacket, table, COLUMNS, indexes, toRow);
    } finally {
      connection.release();
    }
  }

  return {
    async create(name) {
      await store.query(sql(name).drop);
      await store.query(sql(name).create);
    },

    // The batch is written out before the promise resolves, so the caller may reuse its arrays.
    async importEdges(name, batch) {
      if (batch.length === 0) return;
      const table = store.table(name);
      const { localInfile, maxAllowedPacket } = await store.serverLimits();
      if (!localInfile) {
        await insertEdges(table, batch, maxAllowedPacket);
        return;
      }
      await store.bulk.write(table, rowParts(batch, store.bulk.streams), () => openLoad(table));
    },

    // The target index in one sorted pass, then InnoDB's statistics for the planner.
    async index(name) {
      await store.query(sql(name).index);
      await store.query(sql(name).analyze);
    },

    async count(name) {
      try {
        const [[[count]]] = await store.query({ sql: sql(name).count, rowsAsArray: true });
        return Number(count);
      } catch (error) {
        if (error.code === ER_NO_SUCH_TABLE) return 0;
        throw error;
      }
    },

    async drop(name) {
      await store.query(sql(name).drop);
    },

    // InnoDB's own figures for the table's data and indexes, as its statistics last counted them (index() has
    // them counted; after writes the server refreshes them in the background); 0 when it does not exist.
    async diskUsage(name) {
      // schema.js qualifies a table as `database`.table, both checked plain identifiers.
      const [database, table] = store.table(name).split('.');
      const [[row]] = await store.query({
        sql: `SELECT COALESCE(SUM(DATA_LENGTH + INDEX_LENGTH), 0) FROM information_schema.TABLES
              WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?`,
        values: [database.replaceAll('`', ''), table],
        rowsAsArray: true,
      });
      return Number(row[0]);
    },

    // Pages of SCAN_PAGE edges along the primary key; an absent table holds none.
    async scan(name, visit) {
      let after = [-1, -1];
      for (;;) {
        let rows;
        try {
          [rows] = await store.query({ sql: sql(name).scan, rowsAsArray: true }, [after[0], after[0], after[1], SCAN_PAGE]);
        } catch (error) {
          if (error.code === ER_NO_SUCH_TABLE) return;
          throw error;
        }
        if (rows.length > 0) await visit(rows.map(toEdge));
        if (rows.length < SCAN_PAGE) return;
        after = rows.at(-1).slice(0, 2);
      }
    },

    async findEdge(name, source, target) {
      const rows = await read(name, 'findEdge', [source, target]);
      return rows.length === 0 ? null : { source, target, weight: rows[0][0] };
    },

    async edgesOf(name, vertex) {
      return (await read(name, 'edgesOf', [vertex, vertex])).map(toEdge);
    },

    async inEdges(name, vertex) {
      return (await read(name, 'inEdges', [vertex])).map(toEdge);
    },

    async friends(name, vertex) {
      return (await read(name, 'friends', [vertex, vertex])).map(([id]) => id);
    },

    async countFriends(name, vertex) {
      return toCount(await read(name, 'countFriends', [vertex, vertex]));
    },

    async countFollowers(name, vertex) {
      return toCount(await read(name, 'countFollowers', [vertex]));
    },

    async upsertEdge(name, { source, target, weight }) {
      await store.execute(sql(name).upsertEdge, [source, target, weight]);
    },

    // An empty batch would be an empty VALUES list, which is no statement: there is nothing to do.
    async upsertEdges(name, edges) {
      if (edges.length === 0) return;
      await store.query(sql(name).upsertEdges, [edges.map(({ source, target, weight }) => [source, target, weight])]);
    },

    async removeEdge(name, { source, target }) {
      await store.execute(sql(name).removeEdge, [source, target]);
    },

    async removeEdges(name, pairs) {
      if (pairs.length === 0) return;
      await store.query(sql(name).removeEdges, [pairs.map(({ source, target }) => [source, target])]);
    },
  };
}
