// The queries suite in PostgreSQL's SQL, for both storage models of the family: each case is written once over
// the model's expressions (a field's typed value, a whole document), and a model says how a collection is stored.
// The document model (`documentQueries`, below) keeps one jsonb document per row with expression indexes; the
// tabular model (../postgresql_tabular/queries.js) one typed column per field. Either way:
// - `_key` is a text column, the primary key, and every string compares in COLLATE "C" (byte order of UTF-8,
//   which is code-point order), whatever the database's default collation;
// - value1 and value2 get a hash index (PostgreSQL has one: `USING hash`), value3 and value4 a B-tree;
// - join-id joins on ctid, the row's own identifier in its heap (what SQLite's rowid is to SQLite): no column
//   of ours, nothing to index, and stable here because the suite never updates a collection;
// - every value that leaves the server is an integer (int4, a JavaScript number in pg), a text or a jsonb
//   document; counts are cast from bigint (pg's string) to integer.
// A case is one statement with its parameters bound: the lookups' 10,000 values are one array parameter,
// `= ANY($1::integer[])`. What the adapter lends, `store`:
//   table(name)                        the collection's quoted, schema-qualified table name, checked
//   index(name, field)                 the quoted name of the collection's index on that field
//   query(config)                      pg's result of one statement (text, values, rowMode), after any import
//   run(config)                        the same of a case's statement, through the selected driver
//   transaction(work)                  work(client) in one transaction, on one connection of the pool
//   copy(table, columns, docs, line)   a batch streamed into the table by COPY (one line per document)
import { MERGED_FIELD } from '../../workloads/queries/cases.js';
import { INDEXES } from '../../workloads/queries/data.js';
import { copyLine } from './copy.js';
import { quote } from './schema.js';

export const FIELDS = Object.freeze(['_key', 'value1', 'value2', 'value3', 'value4', 'value5', 'value6', 'value7', 'value8']);
const NUMBERS = new Set(['value1', 'value3', 'value5', 'value7']);
// As createIndexes does: the server default (64 MB) would sort the 1M collection's B-trees on disk.
const INDEX_BUILD_MEMORY = '256MB';

// A field name is checked before it reaches SQL text (params name fields, and identifiers cannot be bound).
export function knownField(name) {
  if (!FIELDS.includes(name)) throw new Error(`postgresql: the queries suite has no field ${JSON.stringify(name)}`);
  return name;
}

const prefix = (alias) => (alias ? `${alias}.` : '');

export const isNumber = (name) => NUMBERS.has(knownField(name));

// Fields as a select list, each named after itself: the driver hands the row over as the document (or part).
export const fieldList = (model, alias, names) => names.map((name) => `${model.field(alias, name)} AS ${quote(name)}`).join(', ');

// A storage model supplies:
//   columnsSql                 the collection's column definitions
//   copyColumns, copyLine(doc)  the columns COPY fills, and a document's line of COPY text
//   field(alias, name)         the typed value of a field of row `alias` (no alias: of the row an index is on)
//   document(alias)            { select, rows }: the select list of a whole document, and how its rows are read
//   json(alias)                the document as jsonb
//   unset(params)              the unset case, whose idiom differs between the models
//
// The document model: `_key` in a column of its own (the primary key, as for profiles), and the whole document,
// `_key` included, as jsonb. A field's typed value is its ->> text cast to integer or given the "C" collation;
// the expression indexes are built on exactly these expressions, so the planner matches them.
export const documentQueries = {
  columnsSql: '_key text COLLATE "C" NOT NULL, doc jsonb NOT NULL',
  copyColumns: '_key, doc',
  copyLine: (doc) => copyLine([doc._key, JSON.stringify(doc)]),
  field(alias, name) {
    if (knownField(name) === '_key') return `${prefix(alias)}_key`;
    const text = `(${prefix(alias)}doc ->> '${name}')`;
    return isNumber(name) ? `${text}::integer` : `(${text} COLLATE "C")`;
  },
  // The stored jsonb, parsed by the driver.
  document: (alias) => ({ select: `${alias}.doc`, rows: 'values' }),
  json: (alias) => `${alias}.doc`,
  // jsonb's own operator: the document minus the named keys.
  unset: ({ attributes }) => ({ sql: 'SELECT t.doc - $1::text[] FROM $t AS t', rows: 'values', values: [attributes] }),
};

const merge = (m, { attribute }) => ({
  sql: `SELECT ${m.json('t')} || jsonb_build_object('${MERGED_FIELD}', ${m.field('t', attribute)}) FROM $t AS t`,
  rows: 'values',
});
const sortFirst = (m, { attribute }) => ({ sql: `SELECT ${m.field('t', attribute)} FROM $t AS t ORDER BY 1 LIMIT 1`, rows: 'values' });
const filter = (m, attribute, parameter, value) => ({
  sql: `SELECT ${m.field('t', attribute)} FROM $t AS t WHERE ${m.field('t', attribute)} = ${parameter}`, rows: 'values', values: [value],
});

// Each case: the statement (`$t` is the collection), how its rows are read (`values`: the first column of each
// row; `pairs`: both columns as an array; `objects`: each row as an object named by its columns) and its values.
const CASES = {
  'collect-number': (m, { attribute }) => ({ sql: `SELECT ${m.field('t', attribute)} FROM $t AS t GROUP BY 1`, rows: 'values' }),
  'collect-string': (m, { attribute }) => ({ sql: `SELECT ${m.field('t', attribute)} FROM $t AS t GROUP BY 1`, rows: 'values' }),
  'collect-count-number': (m, { attribute }) => ({ sql: `SELECT ${m.field('t', attribute)}, count(*)::integer FROM $t AS t GROUP BY 1`, rows: 'pairs' }),
  'collect-count-string': (m, { attribute }) => ({ sql: `SELECT ${m.field('t', attribute)}, count(*)::integer FROM $t AS t GROUP BY 1`, rows: 'pairs' }),
  // A correlated subquery, run per document through the index on the attribute.
  subquery: (m, { attribute }) => ({
    sql: `SELECT (SELECT count(*)::integer FROM $t AS s WHERE ${m.field('s', attribute)} = ${m.field('c', attribute)})
          FROM $t AS c`,
    rows: 'values',
  }),
  concat: (m, { attribute }) => ({ sql: `SELECT t._key || '-' || ${m.field('t', attribute)} FROM $t AS t`, rows: 'values' }),
  // jsonb's || adds the document's own field under the merged name, in the server.
  'merge-number': merge,
  'merge-string': merge,
  keep: (m, { attributes }) => ({ sql: `SELECT ${fieldList(m, 't', attributes)} FROM $t AS t`, rows: 'objects' }),
  unset: (m, params) => m.unset(params),
  'min-number': (m, { attribute }) => ({ sql: `SELECT min(${m.field('t', attribute)}) FROM $t AS t`, rows: 'values' }),
  'min-string': (m, { attribute }) => ({ sql: `SELECT min(${m.field('t', attribute)}) FROM $t AS t`, rows: 'values' }),
  'max-number': (m, { attribute }) => ({ sql: `SELECT max(${m.field('t', attribute)}) FROM $t AS t`, rows: 'values' }),
  'max-string': (m, { attribute }) => ({ sql: `SELECT max(${m.field('t', attribute)}) FROM $t AS t`, rows: 'values' }),
  'sort-number': sortFirst,
  'sort-string': sortFirst,
  'filter-number': (m, { attribute, value }) => filter(m, attribute, '$1::integer', value),
  'filter-string': (m, { attribute, value }) => filter(m, attribute, '$1::text', value),
  'extract-doc': (m) => documents(m, 't', 'FROM $t AS t'),
  'extract-key': (m, { attribute }) => ({ sql: `SELECT ${m.field('t', attribute)} FROM $t AS t`, rows: 'values' }),
  'extract-number': (m, { attribute }) => ({ sql: `SELECT ${m.field('t', attribute)} FROM $t AS t`, rows: 'values' }),
  'extract-string': (m, { attribute }) => ({ sql: `SELECT ${m.field('t', attribute)} FROM $t AS t`, rows: 'values' }),
  'join-id': (m) => documents(m, 'c1', 'FROM $t AS c1 JOIN $t AS c2 ON c1.ctid = c2.ctid'),
  ...Object.fromEntries(['key', 'hash-number', 'hash-string', 'skiplist-number', 'skiplist-string'].flatMap((kind) => [
    [`join-${kind}`, (m, { attribute }) => documents(m, 'c1',
      `FROM $t AS c1 JOIN $t AS c2 ON ${m.field('c1', attribute)} = ${m.field('c2', attribute)}`)],
    [`lookup-${kind}`, (m, { attribute, values }) => documents(m, 't',
      `FROM $t AS t WHERE ${m.field('t', attribute)} = ANY($1::${isNumber(attribute) ? 'integer' : 'text'}[])`, [values])],
  ])),
};

function documents(model, alias, from, values = []) {
  const { select, rows } = model.document(alias);
  return { sql: `SELECT ${select} ${from}`, rows, values };
}

export const CASE_NAMES = Object.freeze(Object.keys(CASES));

export async function createCollection(store, model, name) {
  const table = store.table(name);
  await store.query({ text: `DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (${model.columnsSql})` });
}

export async function importDocuments(store, model, name, docs) {
  await store.copy(store.table(name), model.copyColumns, docs, model.copyLine);
}

// The primary key and the four indexes, built after the load, then VACUUM (ANALYZE): the planner's statistics,
// and the visibility map that lets the lookups and joins read the B-trees alone where they can.
export async function indexCollection(store, model, name) {
  const table = store.table(name);
  const index = (kind, field) => `CREATE INDEX ${store.index(name, field)} ON ${table} USING ${kind} ((${model.field(null, field)}))`;
  await store.transaction(async (client) => {
    await client.query(`SET LOCAL maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
    await client.query(`ALTER TABLE ${table} ADD PRIMARY KEY (_key)`);
    for (const field of INDEXES.hash) await client.query(index('hash', field));
    for (const field of INDEXES.sorted) await client.query(index('btree', field));
  });
  await store.query({ text: `VACUUM (ANALYZE) ${table}` });
}

// The count of a collection that does not exist is 0: to_regclass names it or is NULL.
export async function countDocuments(store, name) {
  const table = store.table(name);
  const { rows } = await store.query({ text: 'SELECT to_regclass($1) IS NOT NULL', values: [table], rowMode: 'array' });
  if (!rows[0][0]) return 0;
  return (await store.query({ text: `SELECT count(*)::integer FROM ${table}`, rowMode: 'array' })).rows[0][0];
}

export async function dropCollection(store, name) {
  await store.query({ text: `DROP TABLE IF EXISTS ${store.table(name)}` });
}

export async function runQuery(store, model, caseName, name, params) {
  if (!Object.hasOwn(CASES, caseName)) throw new Error(`postgresql: unknown query case ${caseName}`);
  const { sql, rows, values = [] } = CASES[caseName](model, params);
  const text = sql.replaceAll('$t', store.table(name));
  const result = await store.run({ text, values, rowMode: rows === 'objects' ? undefined : 'array' });
  return rows === 'values' ? result.rows.map((row) => row[0]) : result.rows;
}
