// The queries suite in AQL, in the shapes of the 2015 shootout's script: one collection per size (`q_values10k`),
// the documents stored as given (`_key` is the document key), and each case one AQL query run by the server, its
// collection bound as @@c and every input as a bind parameter. What the adapter lends, `store`:
//   collectionName(name)  the ArangoDB collection of the query collection `name` (checked)
//   collection(name)      the arangojs collection of that name
//   create(name)          creates the empty document collection `name`
//   drop(name)            drops it; nothing when it does not exist
//   import(name, docs)    one request of the bulk import API
//   all({ query, bindVars })  runs a query and resolves every row of its result
import { MERGED_FIELD } from '../../workloads/queries/cases.js';
import { ARANGO_ERRORS, isArangoErrorNumber } from './connection.js';
import { ADAPTER_ID } from './model.js';

// ArangoDB's RocksDB engine has one kind of secondary index, the persistent one (sorted, RocksDB): `hash` and
// `skiplist` are its deprecated aliases since 3.7. The equality indexes put an in-memory hash cache in front of
// it (cacheEnabled), the server's own form of a hash lookup; the sorted ones are the plain persistent index.
export const INDEXES = Object.freeze([
  { name: 'value1', type: 'persistent', fields: ['value1'], cacheEnabled: true },
  { name: 'value2', type: 'persistent', fields: ['value2'], cacheEnabled: true },
  { name: 'value3', type: 'persistent', fields: ['value3'] },
  { name: 'value4', type: 'persistent', fields: ['value4'] },
].map((index) => Object.freeze(index)));

// A document leaves the server in the contract's shape: without the system attributes `_id` and `_rev`.
const DOCUMENT = (variable) => `UNSET(${variable}, '_id', '_rev')`;
// Attribute names reach a query only from this list, as `c.<name>`; everything else is a bind parameter.
const FIELDS = ['_key', 'value1', 'value2', 'value3', 'value4', 'value5', 'value6', 'value7', 'value8'];

function field(name) {
  if (!FIELDS.includes(name)) throw new Error(`${ADAPTER_ID}: ${JSON.stringify(name)} is not a field of the query documents`);
  return name;
}

// A self-join: for each document c1, the documents c2 with the same attribute (the optimizer looks each one up in
// the index of that attribute), c1 returned once per match.
const join = (attribute) => ({
  query: `FOR c1 IN @@c FOR c2 IN @@c FILTER c1.${attribute} == c2.${attribute} RETURN ${DOCUMENT('c1')}`,
});

// One IN list, bound as an array: the optimizer looks each value up in the attribute's index.
const lookup = ({ attribute, values }) => ({
  query: `FOR c IN @@c FILTER c.${field(attribute)} IN @values RETURN ${DOCUMENT('c')}`,
  bindVars: { values },
});

const collect = ({ attribute }) => ({ query: `FOR c IN @@c COLLECT g = c.${field(attribute)} RETURN g` });
const collectCount = ({ attribute }) => ({
  query: `FOR c IN @@c COLLECT g = c.${field(attribute)} WITH COUNT INTO l RETURN [ g, l ]`,
});
const extreme = (fn) => ({ attribute }) => ({ query: `RETURN ${fn}(FOR c IN @@c RETURN c.${field(attribute)})` });
const sortFirst = ({ attribute }) => ({
  query: `FOR c IN @@c SORT c.${field(attribute)} LIMIT 1 RETURN c.${field(attribute)}`,
});
const filter = ({ attribute, value }) => ({
  query: `FOR c IN @@c FILTER c.${field(attribute)} == @value RETURN c.${field(attribute)}`,
  bindVars: { value },
});
// The script's MERGE(c, { 'testValue': c.<attribute> }), of the document without its system attributes.
const merge = ({ attribute }) => ({
  query: `FOR c IN @@c RETURN MERGE(${DOCUMENT('c')}, { ${MERGED_FIELD}: c.${field(attribute)} })`,
});
const extract = ({ attribute }) => ({ query: `FOR c IN @@c RETURN c.${field(attribute)}` });

// Each case: its query and bind parameters (besides @@c) from the case's params.
export const CASES = Object.freeze({
  'collect-number': collect,
  'collect-string': collect,
  'collect-count-number': collectCount,
  'collect-count-string': collectCount,
  // For each document, the documents of its value1 (through the value1 index), counted: the script's subquery.
  subquery: ({ attribute }) => ({
    query: `FOR c IN @@c LET sub = (FOR s IN @@c FILTER s.${field(attribute)} == c.${field(attribute)} RETURN s) RETURN LENGTH(sub)`,
  }),
  concat: ({ attribute }) => ({ query: `FOR c IN @@c RETURN CONCAT(c._key, '-', c.${field(attribute)})` }),
  'merge-number': merge,
  'merge-string': merge,
  // The script keeps `_key`, `_rev` and `_id`; the answer holds none of the system attributes, so `_key` alone.
  keep: ({ attributes }) => ({ query: 'FOR c IN @@c RETURN KEEP(c, @attributes)', bindVars: { attributes } }),
  // `_key` given, this is the script's UNSET(c, '_key', '_rev', '_id').
  unset: ({ attributes }) => ({
    query: "FOR c IN @@c RETURN UNSET(c, APPEND(@attributes, ['_id', '_rev']))",
    bindVars: { attributes },
  }),
  'min-number': extreme('MIN'),
  'min-string': extreme('MIN'),
  'max-number': extreme('MAX'),
  'max-string': extreme('MAX'),
  'sort-number': sortFirst,
  'sort-string': sortFirst,
  'filter-number': filter,
  'filter-string': filter,
  'extract-doc': () => ({ query: `FOR c IN @@c RETURN ${DOCUMENT('c')}` }),
  'extract-key': extract,
  'extract-number': extract,
  'extract-string': extract,
  'join-key': () => join('_key'),
  'join-id': () => join('_id'),
  'join-hash-number': ({ attribute }) => join(field(attribute)),
  'join-hash-string': ({ attribute }) => join(field(attribute)),
  'join-skiplist-number': ({ attribute }) => join(field(attribute)),
  'join-skiplist-string': ({ attribute }) => join(field(attribute)),
  'lookup-key': lookup,
  'lookup-hash-number': lookup,
  'lookup-hash-string': lookup,
  'lookup-skiplist-number': lookup,
  'lookup-skiplist-string': lookup,
});

export const CASE_NAMES = Object.freeze(Object.keys(CASES));

// The `{ query, bindVars }` of a case on the collection `collection` (the ArangoDB name).
export function caseQuery(caseName, collection, params) {
  if (!Object.hasOwn(CASES, caseName)) throw new Error(`${ADAPTER_ID}: unknown query case ${caseName}`);
  const { query, bindVars = {} } = CASES[caseName](params);
  return { query, bindVars: { ...bindVars, '@c': collection } };
}

export async function createCollection(store, name) {
  await store.drop(name);
  await store.create(name);
}

export async function importDocuments(store, name, docs) {
  await store.import(name, docs);
}

// Index statistics (the selectivity estimates) are kept up to date by the server itself: there is no ANALYZE.
export async function indexCollection(store, name) {
  const collection = store.collection(name);
  for (const index of INDEXES) await collection.ensureIndex({ ...index });
}

export async function countDocuments(store, name) {
  try {
    return (await store.collection(name).count()).count;
  } catch (error) {
    if (isArangoErrorNumber(error, ARANGO_ERRORS.collectionNotFound)) return 0;
    throw error;
  }
}

export async function dropCollection(store, name) {
  await store.drop(name);
}

export async function runQuery(store, caseName, name, params) {
  return store.all(caseQuery(caseName, store.collectionName(name), params));
}
