// The graph suite in PGlite: PostgreSQL's statements (../postgresql/graph.js, graphStatements), on an edge table
// `tmp_g_<name>` of the namespace's schema, so that resetNamespace() and dropNamespace remove it with the rest.
// What differs is the path in: each batch is one binary COPY from a blob (PGlite's `COPY ... FROM '/dev/blob'`),
// there being no COPY stream to keep open across batches, and the index builds run one after the other on the
// one session. What the adapter lends, `store`:
//   table(name)            the collection's quoted, schema-qualified table name, checked
//   index(name, suffix)    the quoted name of one of its indexes, checked
//   query(text, values)    PGlite's result of one statement (rows as arrays)
//   exec(text)             statements without parameters, one after the other
//   transaction(work)      work(tx) in one transaction, tx having query(text, values) and exec(text)
//   copy(text, bytes)      one COPY ... FROM '/dev/blob' of those bytes
//   write(durable, text, values)  PGlite's result of one statement that writes (both terms commit alike)
import { BINARY_HEADER, binaryRows, edgeOperations, graphStatements } from '../postgresql/graph.js';

// Memory for each index build's sort, in its transaction only: PostgreSQL's default (64 MB) sorts a large edge
// list on disk, and the 32-bit engine has no room for the 2 GB the server adapter gives it.
const INDEX_BUILD_MEMORY = '256MB';
// Edges per page of scan().
const SCAN_PAGE = 50_000;

const toEdge = ([source, target, weight]) => ({ source, target, weight });

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
  const rows = async (text, values) => (await store.query(text, values)).rows;
  const exists = async (name) => (await rows('SELECT to_regclass($1) IS NOT NULL', [store.table(name)]))[0][0];

  return {
    async create(name) {
      await store.exec(sql(name).create);
    },

    // One COPY per batch, in binary: the batch is encoded before the promise resolves, so the caller may reuse
    // its arrays.
    async importEdges(name, batch) {
      if (batch.length === 0) return;
      await store.copy(`COPY ${store.table(name)} (source, target, weight) FROM '/dev/blob' (FORMAT binary)`,
        Buffer.concat([BINARY_HEADER, binaryRows(batch, 0, batch.length)]));
    },

    async index(name) {
      const statements = sql(name);
      for (const text of statements.indexes) {
        await store.transaction(async (tx) => {
          await tx.exec(`SET LOCAL maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
          await tx.exec(text);
        });
      }
      await store.exec(statements.primaryKey);
      // VACUUM sets the visibility map, so that friends reads the indexes alone (index-only scans), and the
      // hint bits, so that the first reads write nothing; ANALYZE gives the planner its statistics.
      await store.exec(statements.analyze);
    },

    async count(name) {
      if (!(await exists(name))) return 0;
      return (await rows(sql(name).count))[0][0];
    },

    async drop(name) {
      await store.exec(`DROP TABLE IF EXISTS ${store.table(name)}`);
    },

    // The table with its indexes and TOAST; 0 when it does not exist.
    async diskUsage(name) {
      return (await rows('SELECT coalesce(pg_total_relation_size(to_regclass($1)), 0)::float8', [store.table(name)]))[0][0];
    },

    // Pages of SCAN_PAGE edges along the primary key (a range scan of its index each).
    async scan(name, visit) {
      if (!(await exists(name))) return;
      let after = [-1, -1];
      for (;;) {
        const page = await rows(sql(name).scan, [...after, SCAN_PAGE]);
        if (page.length > 0) await visit(page.map(toEdge));
        if (page.length < SCAN_PAGE) return;
        after = page.at(-1).slice(0, 2);
      }
    },

    ...edgeOperations(sql, { rows, write: store.write }),
  };
}
