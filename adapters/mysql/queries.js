// The queries suite in MariaDB's (and MySQL's) SQL. A collection is an InnoDB table with one typed column per
// field (INT for value1, value3, value5 and value7; the key type, VARCHAR(32) utf8mb4_bin, for the others: byte
// order, which is code-point order) and an AUTO_INCREMENT `id` as its primary key. InnoDB stores the rows in that
// key's B-tree, so `id` is the record identifier join-id joins on; `_key` gets a UNIQUE index. InnoDB has no hash
// index (USING HASH is not an InnoDB index type; its adaptive hash index is internal), so value1 and value2 get
// the same B-tree index as value3 and value4. Every case is one prepared statement (mysql2's execute); the
// lookups bind their 10,000 values as the placeholders of one IN list. What the adapter lends, `store`:
//   table(name)                         the collection's table name, checked and qualified with the database
//   query(sql)                          runs a statement that returns nothing of interest (DDL), after any load
//   execute(options, values)            mysql2's [rows, fields] of a prepared statement, after any load
//   load(table, columns, docs, toRow)   a batch streamed into the table (LOAD DATA, else multi-row INSERT)
import { MERGED_FIELD } from '../../workloads/queries/cases.js';
import { INDEXES } from '../../workloads/queries/data.js';
import { KEY_TYPE } from './schema.js';

const FIELDS = ['_key', 'value1', 'value2', 'value3', 'value4', 'value5', 'value6', 'value7', 'value8'];
const NUMBERS = new Set(['value1', 'value3', 'value5', 'value7']);
const ER_NO_SUCH_TABLE = 'ER_NO_SUCH_TABLE';

// A field name is checked before it reaches SQL text (params name fields, and identifiers cannot be bound).
function column(name) {
  if (!FIELDS.includes(name)) throw new Error(`mysql: the queries suite has no field ${JSON.stringify(name)}`);
  return name;
}

const columns = (names, alias = '') => names.map((name) => `${alias}${column(name)}`).join(', ');
const placeholders = (count) => Array.from({ length: count }, () => '?').join(', ');

const merge = ({ attribute }) => ({
  sql: `SELECT ${columns(FIELDS)}, ${column(attribute)} AS ${MERGED_FIELD} FROM $t`, rows: 'objects',
});
const sortFirst = ({ attribute }) => ({ sql: `SELECT ${column(attribute)} FROM $t ORDER BY 1 LIMIT 1`, rows: 'values' });
const filter = ({ attribute, value }) => ({
  sql: `SELECT ${column(attribute)} FROM $t WHERE ${column(attribute)} = ?`, rows: 'values', values: [value],
});

// Each case: the statement (`$t` is the collection), how its rows are read (`values`: the first column;
// `pairs`: both columns as an array; `objects`: each row as an object named by its columns) and its values.
const CASES = {
  'collect-number': ({ attribute }) => ({ sql: `SELECT ${column(attribute)} FROM $t GROUP BY 1`, rows: 'values' }),
  'collect-string': ({ attribute }) => ({ sql: `SELECT ${column(attribute)} FROM $t GROUP BY 1`, rows: 'values' }),
  'collect-count-number': ({ attribute }) => ({ sql: `SELECT ${column(attribute)}, COUNT(*) FROM $t GROUP BY 1`, rows: 'pairs' }),
  'collect-count-string': ({ attribute }) => ({ sql: `SELECT ${column(attribute)}, COUNT(*) FROM $t GROUP BY 1`, rows: 'pairs' }),
  // A correlated subquery, run per document through the index on the attribute.
  subquery: ({ attribute }) => ({
    sql: `SELECT (SELECT COUNT(*) FROM $t AS s WHERE s.${column(attribute)} = c.${column(attribute)}) FROM $t AS c`,
    rows: 'values',
  }),
  concat: ({ attribute }) => ({ sql: `SELECT CONCAT(_key, '-', ${column(attribute)}) FROM $t`, rows: 'values' }),
  // A row is the document: merging in one field of its own is one more column, named after that field
  // (README.md: what JSON_MERGE_PATCH would cost instead).
  'merge-number': merge,
  'merge-string': merge,
  keep: ({ attributes }) => ({ sql: `SELECT ${columns(attributes)} FROM $t`, rows: 'objects' }),
  unset: ({ attributes }) => ({ sql: `SELECT ${columns(FIELDS.filter((name) => !attributes.includes(name)))} FROM $t`, rows: 'objects' }),
  'min-number': ({ attribute }) => ({ sql: `SELECT MIN(${column(attribute)}) FROM $t`, rows: 'values' }),
  'min-string': ({ attribute }) => ({ sql: `SELECT MIN(${column(attribute)}) FROM $t`, rows: 'values' }),
  'max-number': ({ attribute }) => ({ sql: `SELECT MAX(${column(attribute)}) FROM $t`, rows: 'values' }),
  'max-string': ({ attribute }) => ({ sql: `SELECT MAX(${column(attribute)}) FROM $t`, rows: 'values' }),
  'sort-number': sortFirst,
  'sort-string': sortFirst,
  'filter-number': filter,
  'filter-string': filter,
  'extract-doc': () => documents('FROM $t'),
  'extract-key': ({ attribute }) => ({ sql: `SELECT ${column(attribute)} FROM $t`, rows: 'values' }),
  'extract-number': ({ attribute }) => ({ sql: `SELECT ${column(attribute)} FROM $t`, rows: 'values' }),
  'extract-string': ({ attribute }) => ({ sql: `SELECT ${column(attribute)} FROM $t`, rows: 'values' }),
  'join-id': () => documents('FROM $t AS c1 JOIN $t AS c2 ON c1.id = c2.id', 'c1.'),
  ...Object.fromEntries(['key', 'hash-number', 'hash-string', 'skiplist-number', 'skiplist-string'].flatMap((kind) => [
    [`join-${kind}`, ({ attribute }) => documents(
      `FROM $t AS c1 JOIN $t AS c2 ON c1.${column(attribute)} = c2.${column(attribute)}`, 'c1.')],
    [`lookup-${kind}`, ({ attribute, values }) => documents(
      `FROM $t WHERE ${column(attribute)} IN (${placeholders(values.length)})`, '', values)],
  ])),
};

function documents(from, alias = '', values = []) {
  return { sql: `SELECT ${columns(FIELDS, alias)} ${from}`, rows: 'objects', values };
}

export const CASE_NAMES = Object.freeze(Object.keys(CASES));

export async function createCollection(store, name) {
  const table = store.table(name);
  const types = FIELDS.map((field) => `${field} ${NUMBERS.has(field) ? 'INT' : KEY_TYPE} NOT NULL`);
  await store.query(`DROP TABLE IF EXISTS ${table}`);
  await store.query(`CREATE TABLE ${table} (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, ${types.join(', ')})
    ENGINE=InnoDB`);
}

// LOAD DATA takes every value as text; the server converts the numbers for their INT columns.
export async function importDocuments(store, name, docs) {
  await store.load(store.table(name), FIELDS, docs, (doc) => FIELDS.map((field) => String(doc[field])));
}

// One ALTER builds the five indexes in one pass over the table; ANALYZE TABLE then refreshes InnoDB's
// statistics for the planner.
export async function indexCollection(store, name) {
  const table = store.table(name);
  const indexes = [...INDEXES.hash, ...INDEXES.sorted].map((field) => `ADD INDEX ${field} (${field}) USING BTREE`);
  await store.query(`ALTER TABLE ${table} ADD UNIQUE INDEX _key (_key) USING BTREE, ${indexes.join(', ')}`);
  await store.query(`ANALYZE TABLE ${table}`);
}

// The count of a collection that does not exist is 0.
export async function countDocuments(store, name) {
  try {
    const [[[count]]] = await store.execute({ sql: `SELECT COUNT(*) FROM ${store.table(name)}`, rowsAsArray: true }, []);
    return count;
  } catch (error) {
    if (error.code === ER_NO_SUCH_TABLE) return 0;
    throw error;
  }
}

export async function dropCollection(store, name) {
  await store.query(`DROP TABLE IF EXISTS ${store.table(name)}`);
}

export async function runQuery(store, caseName, name, params) {
  if (!Object.hasOwn(CASES, caseName)) throw new Error(`mysql: unknown query case ${caseName}`);
  const { sql, rows, values = [] } = CASES[caseName](params);
  const [result] = await store.execute({ sql: sql.replaceAll('$t', store.table(name)), rowsAsArray: rows !== 'objects' }, values);
  return rows === 'values' ? result.map((row) => row[0]) : result;
}
