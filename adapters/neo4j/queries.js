// The queries suite in Cypher. A collection is the nodes of one label of the namespace (`<ns>_tmp_q_values10k`:
// a temporary collection's label, so the namespace's reset and drop delete it), each document's fields its
// properties, integers stored as Cypher INTEGERs. The record identifier join-id joins on is the node's
// elementId(). Neo4j 5 has no hash index (gone since 4.0): value1 and value2 get the same RANGE index as value3
// and value4, and a uniqueness constraint backs _key. Strings compare and sort by Java's String.compareTo, which
// is code-point order for the suite's ASCII strings. What the adapter lends, `store`:
//   read(query, params)        one auto-commit query in a read session, resolving to its records
//   write(query, params)       the same in a write session
//   names                      the namespace's names (schema.js)
import neo4j from 'neo4j-driver';
import { MERGED_FIELD } from '../../workloads/queries/cases.js';
import { toProperties } from './documents.js';
import { deleteNodes, dropSchema } from './namespace.js';
import { quote } from './schema.js';

const FIELDS = ['_key', 'value1', 'value2', 'value3', 'value4', 'value5', 'value6', 'value7', 'value8'];
const INDEXED = ['value1', 'value2', 'value3', 'value4'];
// Seconds to wait for a new index to come online: populating one over 1,000,000 nodes takes seconds.
const INDEX_ONLINE_TIMEOUT_S = 600;

// The label of collection `name`, its key constraint and its indexes, each named after the label.
function collection(store, name) {
  const { label, quoted, keyConstraint } = store.names.temp(`q_${name}`);
  return { label, quoted, keyConstraint, indexes: INDEXED.map((field) => ({ field, name: `${label}_${field}` })) };
}

// Field names reach the query text (properties cannot be parameters in a map projection or a property access):
// only the suite's own fields are accepted.
function field(name) {
  if (!FIELDS.includes(name)) throw new Error(`neo4j: ${JSON.stringify(name)} is not a field of the queries suite`);
  return quote(name);
}

// The driver sends every JavaScript number as a float; an integer is sent as a Cypher INTEGER, as it is stored.
const toValue = (value) => (Number.isInteger(value) ? neo4j.int(value) : value);

export async function createCollection(store, name) {
  await dropCollection(store, name);
}

export async function importDocuments(store, name, docs) {
  const { quoted } = collection(store, name);
  await store.write(`UNWIND $rows AS row CREATE (d:${quoted}) SET d = row`, { rows: docs.map(toProperties) });
}

// Neo4j keeps its planner's statistics itself: the label counts are exact (the count store), and an index is
// sampled when its population completes, so there is nothing like ANALYZE to run after it.
export async function indexCollection(store, name) {
  const { quoted, keyConstraint, indexes } = collection(store, name);
  await store.write(`CREATE CONSTRAINT ${quote(keyConstraint)} IF NOT EXISTS
    FOR (d:${quoted}) REQUIRE d._key IS UNIQUE`);
  for (const index of indexes) {
    await store.write(`CREATE RANGE INDEX ${quote(index.name)} IF NOT EXISTS
      FOR (d:${quoted}) ON (d.${field(index.field)})`);
  }
  for (const index of [keyConstraint, ...indexes.map(({ name: indexName }) => indexName)]) {
    await store.read('CALL db.awaitIndex($name, $seconds)', { name: index, seconds: INDEX_ONLINE_TIMEOUT_S });
  }
}

export async function countDocuments(store, name) {
  const [record] = await store.read(`MATCH (d:${collection(store, name).quoted}) RETURN count(d)`);
  return record.get(0);
}

export async function dropCollection(store, name) {
  const { label, keyConstraint, indexes } = collection(store, name);
  await deleteNodes(store.write, label);
  await dropSchema(store.write, { constraints: [keyConstraint], indexes: indexes.map((index) => index.name) });
}

const DOCUMENT = 'properties(d)';
const documentsWhere = (condition) => `MATCH (d:$L) WHERE ${condition} RETURN ${DOCUMENT}`;
// A self-join, answering the left document once per partner. On a field the plan is an Apply of a label scan
// and an index seek per node (EXPLAIN on 100k), never a cartesian product.
const join = (condition) => `MATCH (d:$L) MATCH (c2:$L) WHERE ${condition} RETURN ${DOCUMENT}`;
const projection = (names) => `d {${names.map((name) => `.${field(name)}`).join(', ')}}`;

const merge = ({ attribute }) => [`MATCH (d:$L) RETURN d {.*, ${quote(MERGED_FIELD)}: d.${field(attribute)}}`, 'value'];
const sortFirst = ({ attribute }) => [`MATCH (d:$L) RETURN d.${field(attribute)} AS v ORDER BY v LIMIT 1`, 'value'];
const filter = (attribute, value) => [
  `MATCH (d:$L) WHERE d.${field(attribute)} = $value RETURN d.${field(attribute)}`, 'value', { value }];

// Each case: the query (with `$L` for the label), how its records are read (`value`: the first column; `pair`:
// the first two columns), and its parameters.
const CASES = {
  'collect-number': ({ attribute }) => [`MATCH (d:$L) RETURN DISTINCT d.${field(attribute)}`, 'value'],
  'collect-string': ({ attribute }) => [`MATCH (d:$L) RETURN DISTINCT d.${field(attribute)}`, 'value'],
  'collect-count-number': ({ attribute }) => [`MATCH (d:$L) RETURN d.${field(attribute)}, count(*)`, 'pair'],
  'collect-count-string': ({ attribute }) => [`MATCH (d:$L) RETURN d.${field(attribute)}, count(*)`, 'pair'],
  // A COUNT subquery per document, an index seek on the same label.
  subquery: ({ attribute }) => {
    const f = field(attribute);
    return [`MATCH (d:$L) RETURN COUNT { MATCH (s:$L) WHERE s.${f} = d.${f} }`, 'value'];
  },
  concat: ({ attribute }) => [`MATCH (d:$L) RETURN d._key + '-' + toString(d.${field(attribute)})`, 'value'],
  // The map projection of every property with the merged one added.
  'merge-number': merge,
  'merge-string': merge,
  keep: ({ attributes }) => [`MATCH (d:$L) RETURN ${projection(attributes)}`, 'value'],
  unset: ({ attributes }) => [
    `MATCH (d:$L) RETURN ${projection(FIELDS.filter((name) => !attributes.includes(name)))}`, 'value'],
  'min-number': ({ attribute }) => [`MATCH (d:$L) RETURN min(d.${field(attribute)})`, 'value'],
  'min-string': ({ attribute }) => [`MATCH (d:$L) RETURN min(d.${field(attribute)})`, 'value'],
  'max-number': ({ attribute }) => [`MATCH (d:$L) RETURN max(d.${field(attribute)})`, 'value'],
  'max-string': ({ attribute }) => [`MATCH (d:$L) RETURN max(d.${field(attribute)})`, 'value'],
  'sort-number': sortFirst,
  'sort-string': sortFirst,
  'filter-number': ({ attribute, value }) => filter(attribute, toValue(value)),
  'filter-string': ({ attribute, value }) => filter(attribute, value),
  'extract-doc': () => [`MATCH (d:$L) RETURN ${DOCUMENT}`, 'value'],
  'extract-key': ({ attribute }) => [`MATCH (d:$L) RETURN d.${field(attribute)}`, 'value'],
  'extract-number': ({ attribute }) => [`MATCH (d:$L) RETURN d.${field(attribute)}`, 'value'],
  'extract-string': ({ attribute }) => [`MATCH (d:$L) RETURN d.${field(attribute)}`, 'value'],
  // The node's own identity: the planner makes it a ValueHashJoin of two label scans on elementId().
  'join-id': () => [join('elementId(c2) = elementId(d)'), 'value'],
  ...Object.fromEntries(['key', 'hash-number', 'hash-string', 'skiplist-number', 'skiplist-string'].flatMap((kind) => [
    [`join-${kind}`, ({ attribute }) => [join(`c2.${field(attribute)} = d.${field(attribute)}`), 'value']],
    // One IN list bound as a parameter: a NodeIndexSeek over its values.
    [`lookup-${kind}`, ({ attribute, values }) => [
      documentsWhere(`d.${field(attribute)} IN $values`), 'value', { values: values.map(toValue) }]],
  ])),
};

export const CASE_NAMES = Object.keys(CASES);

export async function runQuery(store, caseName, name, params) {
  if (!Object.hasOwn(CASES, caseName)) throw new Error(`neo4j: unknown query case ${caseName}`);
  const [query, shape, bound = {}] = CASES[caseName](params);
  const records = await store.read(query.replaceAll('$L', collection(store, name).quoted), bound);
  return shape === 'pair'
    ? records.map((record) => [record.get(0), record.get(1)])
    : records.map((record) => record.get(0));
}
