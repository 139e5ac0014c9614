// The graph suite in SQLite's SQL. An edge collection is a WITHOUT ROWID table clustered on its primary key
// (source, target): the edge list arrives sorted by that key, so the bulk load appends to the right edge of one
// B-tree and the key needs no separate build. index() then adds the one secondary index, on (target, source,
// weight): it covers the in-edges, so no read of this suite visits a table row through another index. Every
// operation is one prepared statement; batches are bound as one JSON array and expanded by json_each inside
// SQLite, one statement and so one transaction each. What the adapter lends, `store`:
//   statement(sql)   the statement of that text, prepared once on the connection
//   exec(sql)        runs statements that return nothing
//   bulk(work)       runs work() in one transaction, without fsyncs (the adapter's import mode)
//   table(name)      the edge collection's table name, checked
//   write(durable, work)  runs a write with synchronous=FULL (durable) or NORMAL (relaxed) for its commit

// Rows per INSERT of the bulk load: one statement per ROWS edges binds 3 * ROWS values at once, which costs
// half the CPU of a call per edge; longer statements saved 2 % at most (README.md).
export const ROWS = 100;
// Edges per batch of scan().
const SCAN_BATCH = 10_000;
// Rows ANALYZE samples per index: enough for the planner's choice between the two indexes, at no cost.
const ANALYSIS_LIMIT = 1000;

const COLUMNS = 'source, target, weight';
const UPSERT = 'ON CONFLICT (source, target) DO UPDATE SET weight = excluded.weight';

// The statements of one edge table, by name; exported so the tests can check each one's query plan.
export function graphStatements(table) {
  const targetIndex = `${table}_target`;
  const both = (columns) => `SELECT ${columns} FROM ${table} WHERE source = @vertex
    UNION ALL SELECT ${columns} FROM ${table} WHERE target = @vertex`;
  const tally = (from) => `SELECT count(*) AS count, coalesce(sum(weight), 0) AS weight FROM ${from}`;
  return {
    table,
    create: `DROP TABLE IF EXISTS ${table};
      CREATE TABLE ${table} (
        source INTEGER NOT NULL, target INTEGER NOT NULL, weight INTEGER NOT NULL, PRIMARY KEY (source, target)
      ) WITHOUT ROWID;`,
    insert: (rows) => `INSERT INTO ${table} (${COLUMNS}) VALUES ${Array(rows).fill('(?, ?, ?)').join(', ')}`,
    // analysis_limit is set back, as the other suites' ANALYZE reads every row.
    index: `CREATE INDEX IF NOT EXISTS ${targetIndex} ON ${table} (target, source, weight);
      PRAGMA analysis_limit = ${ANALYSIS_LIMIT}; ANALYZE ${table}; PRAGMA analysis_limit = 0;`,
    exists: "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?",
    count: `SELECT count(*) FROM ${table}`,
    drop: `DROP TABLE IF EXISTS ${table}`,
    // The table's pages and its index's, as SQLite's dbstat counts them (aggregated per object).
    diskUsage: `SELECT coalesce(sum(pgsize), 0) FROM dbstat('main', 1)
      WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name = ?)`,
    // The whole table in its key's order, for the suite's check of the whole collection.
    scan: `SELECT ${COLUMNS} FROM ${table}`,
    findEdge: `SELECT ${COLUMNS} FROM ${table} WHERE source = ? AND target = ?`,
    // No self-loops, so the two halves never return the same edge.
    edgesOf: both(COLUMNS),
    inEdges: `SELECT ${COLUMNS} FROM ${table} WHERE target = ?`,
    // UNION removes the ids that are both a target and a source of the vertex.
    friends: `SELECT target FROM ${table} WHERE source = @vertex UNION SELECT source FROM ${table} WHERE target = @vertex`,
    countFriends: tally(`(${both('weight')})`),
    countFollowers: `${tally(table)} WHERE target = ?`,
    upsertEdge: `INSERT INTO ${table} (${COLUMNS}) VALUES (?, ?, ?) ${UPSERT}`,
    // "WHERE true" tells SQLite's parser that ON CONFLICT belongs to the INSERT, not to a join of the SELECT.
    upsertEdges: `INSERT INTO ${table} (${COLUMNS})
      SELECT value ->> 'source', value ->> 'target', value ->> 'weight' FROM json_each(?) WHERE true ${UPSERT}`,
    removeEdge: `DELETE FROM ${table} WHERE source = ? AND target = ?`,
    removeEdges: `DELETE FROM ${table}
      WHERE (source, target) IN (SELECT value ->> 'source', value ->> 'target' FROM json_each(?))`,
  };
}

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
  const run = (name, statement) => store.statement(sql(name)[statement]);
  return {
    async create(name) {
      store.exec(sql(name).create);
    },
    // Full statements of ROWS edges, then one statement per remaining edge; the batch is one transaction.
    async importEdges(name, { length, source, target, weight }) {
      const { insert } = sql(name);
      const many = store.statement(insert(ROWS));
      const one = store.statement(insert(1));
      const values = new Array(3 * ROWS);
      store.bulk(() => {
        let i = 0;
        for (; i + ROWS <= length; i += ROWS) {
          for (let row = 0; row < ROWS; row += 1) {
            values[3 * row] = source[i + row];
            values[3 * row + 1] = target[i + row];
            values[3 * row + 2] = weight[i + row];
          }
          many.run(values);
        }
        for (; i < length; i += 1) one.run(source[i], target[i], weight[i]);
      });
    },
    async index(name) {
      store.exec(sql(name).index);
    },
    async count(name) {
      const statements = sql(name);
      const exists = store.statement(statements.exists).pluck().get(statements.table);
      return exists ? store.statement(statements.count).pluck().get() : 0;
    },
    async drop(name) {
      store.exec(sql(name).drop);
    },
    async diskUsage(name) {
      return run(name, 'diskUsage').pluck().get(sql(name).table);
    },
    // One pass of the table, handed over in batches of SCAN_BATCH; nothing else runs on the connection while the
    // harness checks a batch (it checks off the clock, between workloads).
    async scan(name, visit) {
      const statements = sql(name);
      if (!store.statement(statements.exists).pluck().get(statements.table)) return;
      let batch = [];
      for (const edge of run(name, 'scan').iterate()) {
        batch.push(edge);
        if (batch.length === SCAN_BATCH) {
          await visit(batch);
          batch = [];
        }
      }
      if (batch.length > 0) await visit(batch);
    },
    async findEdge(name, source, target) {
      return run(name, 'findEdge').get(source, target) ?? null;
    },
    async edgesOf(name, vertex) {
      return run(name, 'edgesOf').all({ vertex });
    },
    async inEdges(name, vertex) {
      return run(name, 'inEdges').all(vertex);
    },
    async friends(name, vertex) {
      return run(name, 'friends').pluck().all({ vertex });
    },
    async countFriends(name, vertex) {
      return run(name, 'countFriends').get({ vertex });
    },
    async countFollowers(name, vertex) {
      return run(name, 'countFollowers').get(vertex);
    },
    // `durable`: the run's durability term, synchronous=FULL for the commit (else NORMAL).
    async upsertEdge(name, { source, target, weight }, { durable = false } = {}) {
      store.write(durable, () => run(name, 'upsertEdge').run(source, target, weight));
    },
    async upsertEdges(name, edges, { durable = false } = {}) {
      store.write(durable, () => run(name, 'upsertEdges').run(JSON.stringify(edges)));
    },
    async removeEdge(name, { source, target }, { durable = false } = {}) {
      store.write(durable, () => run(name, 'removeEdge').run(source, target));
    },
    async removeEdges(name, pairs, { durable = false } = {}) {
      store.write(durable, () => run(name, 'removeEdges').run(JSON.stringify(pairs)));
    },
  };
}
