// The queries suite in OrientDB SQL. A collection is a document class of the namespace's database
// (`Tmp_q_values10k`: a temporary collection's class, so resetNamespace() and dropNamespace, which drop the
// database, remove it), with a typed property per field. The record identifier join-id joins on is the record's
// @rid. Indexes: a UNIQUE_HASH_INDEX on _key, a NOTUNIQUE_HASH_INDEX on value1 and value2, a NOTUNIQUE (SB-tree)
// index on value3 and value4. Strings compare with the properties' default collation, case-sensitive Java
// String.compareTo: code-point order for the suite's ASCII strings. What the adapter lends, `store`:
//   label                       the adapter's id, for messages
//   query(sql, params)          one statement, resolving to every row
//   command(sql, params)        the same for a statement that changes something
//   script(sql, params)         statements run in order
//   withSession(work)           work(session) on a session of the pool
//   sessions                    how many sessions a bulk load may use at once
import { MERGED_FIELD } from '../../workloads/queries/cases.js';
import { split } from '../bulk-load.js';
import { tempClass } from './schema.js';

const FIELDS = ['_key', 'value1', 'value2', 'value3', 'value4', 'value5', 'value6', 'value7', 'value8'];
const TYPES = {
  _key: 'STRING', value1: 'INTEGER', value2: 'STRING', value3: 'INTEGER', value4: 'STRING',
  value5: 'INTEGER', value6: 'STRING', value7: 'INTEGER', value8: 'STRING',
};
const INDEXES = [['_key', 'UNIQUE_HASH_INDEX'], ['value1', 'NOTUNIQUE_HASH_INDEX'], ['value2', 'NOTUNIQUE_HASH_INDEX'],
  ['value3', 'NOTUNIQUE'], ['value4', 'NOTUNIQUE']];

const className = (store, name) => tempClass(store.label, `q_${name}`);

// Field names reach the statement's text: only the suite's own fields are accepted.
function field(store, name) {
  if (FIELDS.includes(name)) return name;
  throw new Error(`${store.label}: ${JSON.stringify(name)} is not a field of the queries suite`);
}

export async function createCollection(store, name) {
  const cls = className(store, name);
  await store.script(`
    DROP CLASS ${cls} IF EXISTS;
    CREATE CLASS ${cls};
    ${FIELDS.map((f) => `CREATE PROPERTY ${cls}.${f} ${TYPES[f]};`).join('\n')}
  `);
}

// The batch in two transactions on two sessions, as the profiles (adapter.js, importProfiles): the records
// travel in one request each, in orientjs's binary record format.
export async function importDocuments(store, name, docs) {
  const cls = className(store, name);
  await Promise.all(split(docs, store.sessions).map((part) => store.withSession(async (session) => {
    const tx = session.begin();
    for (const doc of part) tx.create({ '@class': cls, ...doc });
    try {
      await tx.commit();
    } catch (error) {
      await tx.rollback().catch(() => {});
      throw error;
    }
  })));
}

// OrientDB's planner keeps no statistics to refresh: it chooses indexes by the conditions and asks each index for
// its size, so there is no ANALYZE to run.
export async function indexCollection(store, name) {
  const cls = className(store, name);
  await store.script(INDEXES.map(([f, type]) => `CREATE INDEX ${cls}.${f} IF NOT EXISTS ON ${cls} (${f}) ${type};`)
    .join('\n'));
}

export async function countDocuments(store, name) {
  const cls = className(store, name);
  const [{ count }] = await store.query('SELECT count(*) AS count FROM (SELECT expand(classes) FROM metadata:schema) '
    + 'WHERE name = :cls', { cls });
  if (count === 0) return 0;
  return (await store.query(`SELECT count(*) AS count FROM ${cls}`))[0].count;
}

export async function dropCollection(store, name) {
  await store.command(`DROP CLASS ${className(store, name)} IF EXISTS`);
}

// A document: the record's own fields, without @rid, @class or @version.
const DOCUMENT = '@this:{*} AS doc';
// A self-join: OrientDB SQL has no join, and a correlated LET subquery is not run through an index (see
// UNSUPPORTED), so the join is a semi-join, the right side's values one IN list that the index of the left side
// resolves: the subquery runs once, and each left document matching it is answered once. Each joined field is
// unique in the suite's data, so that is one row per match, as a join answers.
const join = (attribute) => `SELECT ${DOCUMENT} FROM $C WHERE ${attribute} IN (SELECT ${attribute} FROM $C)`;

const merge = (s, { attribute }) => [`SELECT ${FIELDS.join(', ')}, ${field(s, attribute)} AS ${MERGED_FIELD} FROM $C`, 'row'];
const sortFirst = (s, { attribute }) => [`SELECT ${field(s, attribute)} AS v FROM $C ORDER BY v LIMIT 1`, 'value'];
const filter = (s, { attribute, value }) => [
  `SELECT ${field(s, attribute)} AS v FROM $C WHERE ${field(s, attribute)} = :value`, 'value', { value }];

// Each case: the statement (with `$C` for the class), how its rows are read (`value`: the one column `v`;
// `doc`: the column `doc`; `pair`: `v` and `count`; `row`: the row itself), and its parameters.
const CASES = {
  'collect-number': (s, { attribute }) => [`SELECT DISTINCT ${field(s, attribute)} AS v FROM $C`, 'value'],
  'collect-string': (s, { attribute }) => [`SELECT DISTINCT ${field(s, attribute)} AS v FROM $C`, 'value'],
  'collect-count-number': (s, { attribute }) => [
    `SELECT ${field(s, attribute)} AS v, count(*) AS count FROM $C GROUP BY ${attribute}`, 'pair'],
  'collect-count-string': (s, { attribute }) => [
    `SELECT ${field(s, attribute)} AS v, count(*) AS count FROM $C GROUP BY ${attribute}`, 'pair'],
  concat: (s, { attribute }) => [`SELECT _key + '-' + ${field(s, attribute)} AS v FROM $C`, 'value'],
  // The record's fields, and the merged field as one more projection of its own value.
  'merge-number': merge,
  'merge-string': merge,
  keep: (s, { attributes }) => [`SELECT ${attributes.map((name) => field(s, name)).join(', ')} FROM $C`, 'row'],
  unset: (s, { attributes }) => [
    `SELECT @this:{${attributes.map((name) => `!${field(s, name)}`).join(', ')}} AS doc FROM $C`, 'doc'],
  'min-number': (s, { attribute }) => [`SELECT min(${field(s, attribute)}) AS v FROM $C`, 'value'],
  'min-string': (s, { attribute }) => [`SELECT min(${field(s, attribute)}) AS v FROM $C`, 'value'],
  'max-number': (s, { attribute }) => [`SELECT max(${field(s, attribute)}) AS v FROM $C`, 'value'],
  'max-string': (s, { attribute }) => [`SELECT max(${field(s, attribute)}) AS v FROM $C`, 'value'],
  'sort-number': sortFirst,
  'sort-string': sortFirst,
  'filter-number': filter,
  'filter-string': filter,
  'extract-doc': () => [`SELECT ${DOCUMENT} FROM $C`, 'doc'],
  'extract-key': (s, { attribute }) => [`SELECT ${field(s, attribute)} AS v FROM $C`, 'value'],
  'extract-number': (s, { attribute }) => [`SELECT ${field(s, attribute)} AS v FROM $C`, 'value'],
  'extract-string': (s, { attribute }) => [`SELECT ${field(s, attribute)} AS v FROM $C`, 'value'],
  // The join on the record identifier is OrientDB's own, a link's: the inner query answers each left record's
  // @rid as a value, and expand() loads the record that RID names, by its address (a semi-join by IN list is a
  // scan of the list per record on @rid, no index: 13.5 s at 10k for a list of 1,000).
  'join-id': () => [`SELECT ${DOCUMENT} FROM (SELECT expand(rid) FROM (SELECT @rid AS rid FROM $C))`, 'doc'],
  ...Object.fromEntries(['key', 'hash-number', 'hash-string', 'skiplist-number', 'skiplist-string'].flatMap((kind) => [
    [`join-${kind}`, (s, { attribute }) => [join(field(s, attribute)), 'doc']],
    [`lookup-${kind}`, (s, { attribute, values }) => [
      `SELECT ${DOCUMENT} FROM $C WHERE ${field(s, attribute)} IN :values`, 'doc', { values }]],
  ])),
};

export const CASE_NAMES = Object.keys(CASES);

// OrientDB SQL's only correlated subquery is a LET run per record, and it finds its rows by scanning the class:
// the condition on `$parent.$current` is not resolved through an index (12.6 s at 1k, as on the unindexed value5).
export const UNSUPPORTED = {
  subquery: 'OrientDB SQL has no join, and its correlated subquery (a LET per record, WHERE value1 = '
    + '$parent.$current.value1) does not use the index: every record scans the class, n² record reads: 12.6 to '
    + '17.7 s at 1k, 776 s at 10k (OrientDB 3.2.25).',
};

export async function runQuery(store, caseName, name, params) {
  if (!Object.hasOwn(CASES, caseName)) throw new Error(`${store.label}: unknown query case ${caseName}`);
  const [sql, shape, bound] = CASES[caseName](store, params);
  const rows = await store.query(sql.replaceAll('$C', className(store, name)), bound);
  switch (shape) {
    case 'value': return rows.map(({ v }) => v);
    case 'doc': return rows.map(({ doc }) => doc);
    case 'pair': return rows.map(({ v, count }) => [v, count]);
    default: return rows;
  }
}
