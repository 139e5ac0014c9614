// The queries suite in DuckDB's SQL. A collection is a table with one typed column per field (INTEGER for value1,
// value3, value5, value7; VARCHAR for the others), DuckDB's rowid as the record identifier that join-id joins on.
// DuckDB's only index is the ART (adaptive radix tree): value1 and value2 get the same ART index as value3 and
// value4, and so does _key (unique). VARCHAR compares byte by byte, which is code-point order for UTF-8, with no
// collation set. What the adapter lends, `store`:
//   table(name)                 the collection's table name, checked
//   read(sql, values, types)    a result reader of the query on a free connection
//   use(work)                   work(session) on a free connection (DDL, the appender)
import { DuckDBDataChunkWriter, INTEGER, LIST, VARCHAR, listValue } from '@duckdb/node-api';
import { MERGED_FIELD } from '../../workloads/queries/cases.js';
import { toCount } from './documents.js';
import { assertIdentifier } from './schema.js';

const FIELDS = ['_key', 'value1', 'value2', 'value3', 'value4', 'value5', 'value6', 'value7', 'value8'];
const NUMERIC = new Set(['value1', 'value3', 'value5', 'value7']);
const INDEXED = ['_key', 'value1', 'value2', 'value3', 'value4'];

const columns = (names) => names.map((name) => assertIdentifier('field', name)).join(', ');
const all = (prefix) => FIELDS.map((name) => `${prefix}${name}`).join(', ');

// The collection is filled before any index exists, so the appender writes plain columns; the indexes follow.
export async function createCollection(store, name) {
  const table = store.table(name);
  const definitions = FIELDS.map((field) => `${field} ${NUMERIC.has(field) ? 'INTEGER' : 'VARCHAR'}${field === '_key' ? ' NOT NULL' : ''}`);
  await store.use(async (session) => {
    await session.exec(`DROP TABLE IF EXISTS ${table}`);
    await session.exec(`CREATE TABLE ${table} (${definitions.join(', ')})`);
  });
}

export async function importDocuments(store, name, docs) {
  const table = store.table(name);
  await store.use(async ({ connection }) => {
    const appender = await connection.createAppender(table);
    try {
      const writer = DuckDBDataChunkWriter.forAppender(appender);
      for (const doc of docs) writer.appendRow(FIELDS.map((field) => doc[field] ?? null));
      writer.flush();
    } finally {
      appender.closeSync();
    }
  });
}

export async function indexCollection(store, name) {
  const table = store.table(name);
  await store.use(async (session) => {
    for (const field of INDEXED) {
      const unique = field === '_key' ? 'UNIQUE ' : '';
      await session.exec(`CREATE ${unique}INDEX IF NOT EXISTS ${table}_${field} ON ${table} (${field})`);
    }
    await session.exec(`ANALYZE ${table}`);
  });
}

export async function countDocuments(store, name) {
  const table = store.table(name);
  const [[exists]] = (await store.read(
    `SELECT count(*) FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main'
       AND lower(table_name) = lower($1)`, [table],
  )).getRowsJS();
  if (toCount(exists) === 0) return 0;
  return toCount((await store.readFresh(`SELECT count(*) FROM ${table}`)).getRowsJS()[0][0]);
}

export async function dropCollection(store, name) {
  const table = store.table(name);
  await store.use((session) => session.exec(`DROP TABLE IF EXISTS ${table}`));
}

// The IN lists are bound as one typed LIST and unnested: one statement, no 10,000 parameters; DuckDB joins the
// unnested list with the table and pushes its keys into the scan as a filter.
const listOf = (field) => ({ values }) => [[listValue(values)], [LIST(NUMERIC.has(field) ? INTEGER : VARCHAR)]];

const merge = ({ attribute }) => [`SELECT ${all('')}, ${columns([attribute])} AS ${MERGED_FIELD} FROM $t`, 'rows'];
const sortFirst = ({ attribute }) => [`SELECT ${columns([attribute])} FROM $t ORDER BY 1 LIMIT 1`, 'pluck'];
const filter = ({ attribute, value }) => {
  const field = columns([attribute]);
  return [`SELECT ${field} FROM $t WHERE ${field} = $1`, 'pluck', () => [[value]]];
};

// Each case: the statement, how its rows are read (`rows`: objects; `pluck`: the first column; `counts`: the
// first column, a count; `pairs`: a value and a count), and its parameters (values and, where the driver cannot
// infer them, types).
const CASES = {
  'collect-number': ({ attribute }) => [`SELECT ${columns([attribute])} FROM $t GROUP BY 1`, 'pluck'],
  'collect-string': ({ attribute }) => [`SELECT ${columns([attribute])} FROM $t GROUP BY 1`, 'pluck'],
  'collect-count-number': ({ attribute }) => [`SELECT ${columns([attribute])}, count(*) FROM $t GROUP BY 1`, 'pairs'],
  'collect-count-string': ({ attribute }) => [`SELECT ${columns([attribute])}, count(*) FROM $t GROUP BY 1`, 'pairs'],
  // DuckDB decorrelates the subquery into a join with the grouped counts.
  subquery: ({ attribute }) => {
    const field = columns([attribute]);
    return [`SELECT (SELECT count(*) FROM $t AS s WHERE s.${field} = c.${field}) FROM $t AS c`, 'counts'];
  },
  concat: ({ attribute }) => [`SELECT concat(_key, '-', ${columns([attribute])}) FROM $t`, 'pluck'],
  // A row is the document: merging in one field of its own is one more column, named after that field.
  'merge-number': merge,
  'merge-string': merge,
  keep: ({ attributes }) => [`SELECT ${columns(attributes)} FROM $t`, 'rows'],
  unset: ({ attributes }) => [`SELECT ${columns(FIELDS.filter((f) => !attributes.includes(f)))} FROM $t`, 'rows'],
  'min-number': ({ attribute }) => [`SELECT min(${columns([attribute])}) FROM $t`, 'pluck'],
  'min-string': ({ attribute }) => [`SELECT min(${columns([attribute])}) FROM $t`, 'pluck'],
  'max-number': ({ attribute }) => [`SELECT max(${columns([attribute])}) FROM $t`, 'pluck'],
  'max-string': ({ attribute }) => [`SELECT max(${columns([attribute])}) FROM $t`, 'pluck'],
  'sort-number': sortFirst,
  'sort-string': sortFirst,
  'filter-number': filter,
  'filter-string': filter,
  'extract-doc': () => [`SELECT ${all('')} FROM $t`, 'rows'],
  'extract-key': ({ attribute }) => [`SELECT ${columns([attribute])} FROM $t`, 'pluck'],
  'extract-number': ({ attribute }) => [`SELECT ${columns([attribute])} FROM $t`, 'pluck'],
  'extract-string': ({ attribute }) => [`SELECT ${columns([attribute])} FROM $t`, 'pluck'],
  'join-id': () => [`SELECT ${all('c1.')} FROM $t AS c1 JOIN $t AS c2 ON c1.rowid = c2.rowid`, 'rows'],
  ...Object.fromEntries(['key', 'hash-number', 'hash-string', 'skiplist-number', 'skiplist-string'].flatMap((kind) => [
    [`join-${kind}`, ({ attribute }) => {
      const field = columns([attribute]);
      return [`SELECT ${all('c1.')} FROM $t AS c1 JOIN $t AS c2 ON c1.${field} = c2.${field}`, 'rows'];
    }],
    [`lookup-${kind}`, ({ attribute }) => [
      `SELECT ${all('')} FROM $t WHERE ${columns([attribute])} IN (SELECT unnest($1))`, 'rows', listOf(attribute)]],
  ])),
};

export const CASE_NAMES = Object.keys(CASES);

export async function runQuery(store, caseName, name, params) {
  if (!Object.hasOwn(CASES, caseName)) throw new Error(`duckdb: unknown query case ${caseName}`);
  const [sql, shape, bind = () => [[]]] = CASES[caseName](params);
  const [values, types] = bind(params);
  const reader = await store.read(sql.replaceAll('$t', store.table(name)), values, types);
  switch (shape) {
    case 'pluck': return reader.getRowsJS().map((row) => row[0]);
    case 'pairs': return reader.getRowsJS().map(([value, count]) => [value, toCount(count)]);
    case 'counts': return reader.getRowsJS().map(([count]) => toCount(count));
    default: return reader.getRowObjectsJS();
  }
}
