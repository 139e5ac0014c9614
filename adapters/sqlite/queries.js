// The queries suite in SQLite's SQL. A collection is a table with one typed column per field (INTEGER for
// value1, value3, value5, value7; TEXT for the others) and SQLite's rowid as the record identifier that join-id
// joins on. SQLite has no hash index: value1 and value2 get the same B-tree index as value3 and value4. Text
// compares with the BINARY collation, SQLite's default: code-point order. What the adapter lends, `store`:
//   statement(sql)   the statement of that text, prepared once on the connection
//   exec(sql)        runs statements that return nothing
//   bulk(work)       runs work() in one transaction
//   table(name)      the collection's table name, checked
import { MERGED_FIELD } from '../../workloads/queries/cases.js';
import { assertIdentifier } from './schema.js';

const FIELDS = ['_key', 'value1', 'value2', 'value3', 'value4', 'value5', 'value6', 'value7', 'value8'];
const INDEXED = ['value1', 'value2', 'value3', 'value4'];

const columns = (names) => names.map((name) => assertIdentifier('field', name)).join(', ');
const all = (prefix) => FIELDS.map((name) => `${prefix}${name}`).join(', ');

export function createCollection(store, name) {
  const table = store.table(name);
  store.exec(`
    DROP TABLE IF EXISTS ${table};
    CREATE TABLE ${table} (
      _key TEXT PRIMARY KEY NOT NULL, value1 INTEGER, value2 TEXT, value3 INTEGER, value4 TEXT,
      value5 INTEGER, value6 TEXT, value7 INTEGER, value8 TEXT
    );
  `);
}

export function importDocuments(store, name, docs) {
  const insert = store.statement(`INSERT INTO ${store.table(name)} (${all('')}) VALUES (${FIELDS.map((f) => `@${f}`).join(', ')})`);
  store.bulk(() => {
    for (const doc of docs) insert.run(doc);
  });
}

export function indexCollection(store, name) {
  const table = store.table(name);
  store.exec(`${INDEXED.map((field) => `CREATE INDEX IF NOT EXISTS ${table}_${field} ON ${table} (${field});`).join('\n')}
    ANALYZE ${table};`);
}

export function countDocuments(store, name) {
  const table = store.table(name);
  const exists = store.statement("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(table);
  return exists ? store.statement(`SELECT count(*) FROM ${table}`).pluck().get() : 0;
}

export function dropCollection(store, name) {
  store.exec(`DROP TABLE IF EXISTS ${store.table(name)}`);
}

const merge = ({ attribute }) => [`SELECT ${all('')}, ${columns([attribute])} AS ${MERGED_FIELD} FROM $t`, 'rows'];
const sortFirst = ({ attribute }) => [`SELECT ${columns([attribute])} FROM $t ORDER BY 1 LIMIT 1`, 'pluck'];
const filter = ({ attribute, value }) => {
  const field = columns([attribute]);
  return [`SELECT ${field} FROM $t WHERE ${field} = ?`, 'pluck', () => [value]];
};

// Each case: the statement, how its rows are read (`rows`: objects; `pluck`: the first column; `raw`: arrays) and
// its bound values.
const CASES = {
  'collect-number': ({ attribute }) => [`SELECT ${columns([attribute])} FROM $t GROUP BY 1`, 'pluck'],
  'collect-string': ({ attribute }) => [`SELECT ${columns([attribute])} FROM $t GROUP BY 1`, 'pluck'],
  'collect-count-number': ({ attribute }) => [`SELECT ${columns([attribute])}, count(*) FROM $t GROUP BY 1`, 'raw'],
  'collect-count-string': ({ attribute }) => [`SELECT ${columns([attribute])}, count(*) FROM $t GROUP BY 1`, 'raw'],
  // For each document, the count of the documents with its value: a correlated subquery through the index.
  subquery: ({ attribute }) => {
    const field = columns([attribute]);
    return [`SELECT (SELECT count(*) FROM $t AS s WHERE s.${field} = c.${field}) FROM $t AS c`, 'pluck'];
  },
  concat: ({ attribute }) => [`SELECT _key || '-' || ${columns([attribute])} FROM $t`, 'pluck'],
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
  // The IN list is bound as one JSON array and expanded by json_each: one statement, no 10,000 parameters.
  ...Object.fromEntries(['key', 'hash-number', 'hash-string', 'skiplist-number', 'skiplist-string'].flatMap((kind) => [
    [`join-${kind}`, ({ attribute }) => {
      const field = columns([attribute]);
      return [`SELECT ${all('c1.')} FROM $t AS c1 JOIN $t AS c2 ON c1.${field} = c2.${field}`, 'rows'];
    }],
    [`lookup-${kind}`, ({ attribute }) => [
      `SELECT ${all('')} FROM $t WHERE ${columns([attribute])} IN (SELECT value FROM json_each(?))`, 'rows',
      ({ values }) => [JSON.stringify(values)]]],
  ])),
};

export const CASE_NAMES = Object.keys(CASES);

export function runQuery(store, caseName, name, params) {
  if (!Object.hasOwn(CASES, caseName)) throw new Error(`sqlite: unknown query case ${caseName}`);
  const [sql, shape, bind = () => []] = CASES[caseName](params);
  const statement = store.statement(sql.replaceAll('$t', store.table(name)));
  const args = bind(params);
  switch (shape) {
    case 'pluck': return statement.pluck().all(...args);
    case 'raw': return statement.raw().all(...args);
    default: return statement.all(...args);
  }
}
