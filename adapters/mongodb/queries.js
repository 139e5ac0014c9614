// The queries suite in MongoDB's query language: one collection per size (`q_values10k`), each document stored as
// the adapter stores every document (`_key` as `_id`, documents.js), and each case one command the server runs:
// an aggregation pipeline, or a find with a filter and a projection. `_id` is both the key and MongoDB's record
// identifier, so join-key and join-id are the same join. Strings compare in binary order: no collation is given,
// and the collections have none. What the adapter lends, `store`:
//   collection(name)   the driver's collection of the query collection `name` (`q_<name>`, checked)
//   create(name)       creates that collection
//   hashed()           resolves whether the server builds hashed indexes
import { MERGED_FIELD } from '../../workloads/queries/cases.js';
import { fromStored, toStored } from './documents.js';
import { LABEL } from './namespace.js';
import { cursorOptions } from './social.js';

// MongoDB's hashed index answers equality (and $in) by the hash of the value: the equality indexes. The sorted
// ones are ascending B-trees. On a server without hashed indexes (FerretDB 1.x, found by the capability probe) the
// equality indexes are ascending too, as the contract says for a database without a hash index.
export const INDEXES = Object.freeze([
  { name: 'value1_hashed', key: { value1: 'hashed' } },
  { name: 'value2_hashed', key: { value2: 'hashed' } },
  { name: 'value3_1', key: { value3: 1 } },
  { name: 'value4_1', key: { value4: 1 } },
].map((index) => Object.freeze(index)));
export const ASCENDING_EQUALITY_INDEXES = Object.freeze([
  { name: 'value1_1', key: { value1: 1 } },
  { name: 'value2_1', key: { value2: 1 } },
  ...INDEXES.slice(2),
].map((index) => Object.freeze(index)));

const FIELDS = ['_key', 'value1', 'value2', 'value3', 'value4', 'value5', 'value6', 'value7', 'value8'];

// The stored name of a field of the query documents: `_key` is `_id`.
function field(name) {
  if (!FIELDS.includes(name)) throw new Error(`${LABEL}: ${JSON.stringify(name)} is not a field of the query documents`);
  return name === '_key' ? '_id' : name;
}

const documents = (rows) => rows.map(fromStored);
const valueOf = (name) => (rows) => rows.map((row) => row[name]);

// A request: `{ find: filter, options, rows }` or `{ aggregate: pipeline, options, rows }`, and how the rows the
// cursor yields become the case's rows. A case is a function of its params and of the collection's name.
const find = (filter, projection, rows = documents) => ({ find: filter, options: projection ? { projection } : {}, rows });
const aggregate = (pipeline, rows) => ({ aggregate: pipeline, options: {}, rows });

const collect = ({ attribute }) => aggregate([{ $group: { _id: `$${field(attribute)}` } }], valueOf('_id'));
const collectCount = ({ attribute }) => aggregate([{ $group: { _id: `$${field(attribute)}`, count: { $sum: 1 } } }],
  (rows) => rows.map((row) => [row._id, row.count]));
const extreme = (accumulator) => ({ attribute }) => aggregate(
  [{ $group: { _id: null, value: { [accumulator]: `$${field(attribute)}` } } }], valueOf('value'));
// The projection of one stored field alone (`_id` comes unless excluded).
const only = (name) => (name === '_id' ? { _id: 1 } : { _id: 0, [name]: 1 });
// Sorted by the field, the first kept: a find with sort and limit 1, which the server runs as a top-1 sort.
const sortFirst = ({ attribute }) => {
  const name = field(attribute);
  return { find: {}, options: { projection: only(name), sort: { [name]: 1 }, limit: 1 }, rows: valueOf(name) };
};
const filter = ({ attribute, value }) => find({ [field(attribute)]: value }, only(field(attribute)), valueOf(field(attribute)));
const extract = ({ attribute }) => find({}, only(field(attribute)), valueOf(field(attribute)));
// The document with the merged field added: its own value of the attribute.
const merge = ({ attribute }) => aggregate([{ $addFields: { [MERGED_FIELD]: `$${field(attribute)}` } }], documents);
// The documents of `collection` whose `attribute` equals the current document's, looked up in the index on that
// attribute, each with no field but `_id` (localField and foreignField with a pipeline: MongoDB 5.0 and later).
const sameValue = (collection, attribute, as) => ({ $lookup: {
  from: collection, localField: attribute, foreignField: attribute, pipeline: [{ $project: { _id: 1 } }], as,
} });
// A self-join on the case's attribute (`_id` for join-key and join-id), each left document once per match: the
// matches are unwound, then dropped.
const join = (params, collection) => aggregate([
  sameValue(collection, field(params.attribute ?? '_key'), 'matches'),
  { $unwind: '$matches' },
  { $project: { matches: 0 } },
], documents);
const lookup = ({ attribute, values }) => find({ [field(attribute)]: { $in: values } });

export const CASES = Object.freeze({
  'collect-number': collect,
  'collect-string': collect,
  'collect-count-number': collectCount,
  'collect-count-string': collectCount,
  // For each document, the documents of its value1 through the value1 index, counted.
  subquery: ({ attribute }, collection) => aggregate([
    sameValue(collection, field(attribute), 'same'),
    { $project: { _id: 0, count: { $size: '$same' } } },
  ], valueOf('count')),
  concat: ({ attribute }) => aggregate(
    [{ $project: { _id: 0, text: { $concat: ['$_id', '-', { $toString: `$${field(attribute)}` }] } } }], valueOf('text')),
  'merge-number': merge,
  'merge-string': merge,
  // Only the named fields: `_id` (the stored `_key`) comes only when named.
  keep: ({ attributes }) => {
    const names = attributes.map(field);
    return find({}, { ...(names.includes('_id') ? {} : { _id: 0 }), ...Object.fromEntries(names.map((name) => [name, 1])) });
  },
  // Without `_key` (`_id`), a document is its other fields as stored.
  unset: ({ attributes }) => find({}, Object.fromEntries(attributes.map((name) => [field(name), 0])),
    attributes.includes('_key') ? (rows) => rows : documents),
  'min-number': extreme('$min'),
  'min-string': extreme('$min'),
  'max-number': extreme('$max'),
  'max-string': extreme('$max'),
  'sort-number': sortFirst,
  'sort-string': sortFirst,
  'filter-number': filter,
  'filter-string': filter,
  'extract-doc': () => find({}),
  'extract-key': extract,
  'extract-number': extract,
  'extract-string': extract,
  'join-key': join,
  'join-id': join,
  'join-hash-number': join,
  'join-hash-string': join,
  'join-skiplist-number': join,
  'join-skiplist-string': join,
  'lookup-key': lookup,
  'lookup-hash-number': lookup,
  'lookup-hash-string': lookup,
  'lookup-skiplist-number': lookup,
  'lookup-skiplist-string': lookup,
});

export const CASE_NAMES = Object.freeze(Object.keys(CASES));

// The request of a case on the collection `collection` (its MongoDB name), as data: what runQuery() sends.
export function caseRequest(caseName, collection, params) {
  if (!Object.hasOwn(CASES, caseName)) throw new Error(`${LABEL}: unknown query case ${caseName}`);
  const request = CASES[caseName](params, collection);
  return { ...request, options: { ...cursorOptions(), ...request.options } };
}

export async function createCollection(store, name) {
  await store.collection(name).drop();
  await store.create(name);
}

// Unordered: the server may apply a batch in any order, and reports every failed document (the driver rejects).
export async function importDocuments(store, name, docs) {
  if (docs.length === 0) return;
  await store.collection(name).insertMany(docs.map(toStored), { ordered: false });
}

// MongoDB keeps no planner statistics to update: it chooses among candidate plans by trial runs.
export async function indexCollection(store, name) {
  const indexes = (await store.hashed()) ? INDEXES : ASCENDING_EQUALITY_INDEXES;
  await store.collection(name).createIndexes(indexes.map(({ name: indexName, key }) => ({ name: indexName, key })));
}

export async function countDocuments(store, name) {
  return store.collection(name).countDocuments({});
}

export async function dropCollection(store, name) {
  await store.collection(name).drop();
}

export async function runQuery(store, caseName, name, params) {
  const collection = store.collection(name);
  const request = caseRequest(caseName, collection.collectionName, params);
  const cursor = request.aggregate
    ? collection.aggregate(request.aggregate, request.options)
    : collection.find(request.find, request.options);
  return request.rows(await cursor.toArray());
}
