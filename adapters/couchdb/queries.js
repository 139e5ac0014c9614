// The queries suite through CouchDB's HTTP query APIs. A collection is a database of its own (`<ns>-q-values10k`)
// holding one document per query document, `_key` as its `_id`; every case is one request the server answers:
//   - Mango (`POST _find`) for what reads every document: filters, projections (keep, unset, extract-*);
//   - `POST _all_docs` with `keys` for lookup-key (the primary index);
//   - map/reduce views for what needs an index: the lookups on value1 to value4 (`POST _view` with `keys`), and
//     the sorting, extremes and grouping the other databases do without one (value5 to value8).
// CouchDB's only index is the B-tree of a view (a Mango index is a view too): no hash index, so value1 and value2
// have the same sorted index as value3 and value4. Views keep their keys in raw collation (code-point order of
// strings; CouchDB's default is ICU's). What the adapter lends, `store`:
//   database(name)  the nano scope of the query collection's database, its name checked
//   create(name)    creates that database; drop(name) destroys it, nothing when it does not exist
import { documentBody, fromStored } from './documents.js';
import { ADAPTER_ID } from './namespace.js';

const NOT_FOUND = 404;
// Mango answers 25 documents unless told otherwise; a case's answer is every match.
const ALL = 2 ** 31 - 1;
const FIELDS = ['_key', 'value1', 'value2', 'value3', 'value4', 'value5', 'value6', 'value7', 'value8'];
// Every document: the selector CouchDB documents for a scan of the primary index.
const EVERY_DOCUMENT = Object.freeze({ _id: { $gt: null } });

const view = (map, reduce) => ({ map, ...(reduce ? { reduce } : {}), options: { collation: 'raw' } });
const emitting = (name) => `function (doc) { emit(doc.${name}, null); }`;

// The contract's indexes: value1 and value2 (equality), value3 and value4 (sorted), all B-trees.
export const INDEX_VIEWS = Object.freeze({
  _id: '_design/indexes',
  language: 'javascript',
  views: Object.fromEntries(['value1', 'value2', 'value3', 'value4'].map((name) => [name, view(emitting(name))])),
});
// What CouchDB needs to sort, take extremes and group: value5 and value6 sorted; value7 and value8 grouped, with
// the built-in `_count` reduce.
export const AGGREGATE_VIEWS = Object.freeze({
  _id: '_design/aggregates',
  language: 'javascript',
  views: {
    value5: view(emitting('value5')),
    value6: view(emitting('value6')),
    value7: view(emitting('value7'), '_count'),
    value8: view(emitting('value8'), '_count'),
  },
});
const DESIGNS = [INDEX_VIEWS, AGGREGATE_VIEWS];
const designName = (id) => id.slice('_design/'.length);
const viewsOf = (attribute) => DESIGNS.find(({ views }) => Object.hasOwn(views, attribute));

function field(name) {
  if (!FIELDS.includes(name)) throw new Error(`${ADAPTER_ID}: ${JSON.stringify(name)} is not a field of the query documents`);
  return name === '_key' ? '_id' : name;
}

// A request of a case: `{ kind: 'find', body }`, `{ kind: 'view', design, view, params }` (params with `keys`
// become a POST body) or `{ kind: 'keys', keys }` (POST _all_docs), and how its answer becomes rows.
const find = (body, rows = (docs) => docs.map(fromStored)) => ({ kind: 'find', body: { limit: ALL, ...body }, rows });
const onView = (attribute, params, rows) => ({
  kind: 'view', design: designName(viewsOf(attribute)._id), view: attribute, params, rows,
});
const keys = (answer) => answer.rows.map((row) => row.key);

const collect = ({ attribute }) => onView(field(attribute), { group: true }, keys);
const collectCount = ({ attribute }) => onView(field(attribute), { group: true },
  (answer) => answer.rows.map((row) => [row.key, row.value]));
const extreme = (descending) => ({ attribute }) => onView(field(attribute), { limit: 1, descending }, keys);
// Sorted by the field, the first kept: the first row of its view, which holds the values sorted.
const sortFirst = ({ attribute }) => onView(field(attribute), { limit: 1 }, keys);
const filter = ({ attribute, value }) => find({ selector: { [field(attribute)]: value }, fields: [field(attribute)] },
  (docs) => docs.map((doc) => doc[field(attribute)]));
const extract = ({ attribute }) => find({ selector: EVERY_DOCUMENT, fields: [field(attribute)] },
  (docs) => docs.map((doc) => doc[field(attribute)]));
const lookup = ({ attribute, values }) => onView(field(attribute), { keys: values, include_docs: true },
  (answer) => answer.rows.map((row) => fromStored(row.doc)));
const fieldsOf = (names) => names.map(field);

export const CASES = Object.freeze({
  'collect-number': collect,
  'collect-string': collect,
  'collect-count-number': collectCount,
  'collect-count-string': collectCount,
  keep: ({ attributes }) => find({ selector: EVERY_DOCUMENT, fields: fieldsOf(attributes) }),
  // Without `_key` (`_id`), a document is its other fields as stored.
  unset: ({ attributes }) => find({
    selector: EVERY_DOCUMENT, fields: fieldsOf(FIELDS.filter((name) => !attributes.includes(name))),
  }, attributes.includes('_key') ? (docs) => docs : undefined),
  'min-number': extreme(false),
  'min-string': extreme(false),
  'max-number': extreme(true),
  'max-string': extreme(true),
  'sort-number': sortFirst,
  'sort-string': sortFirst,
  'filter-number': filter,
  'filter-string': filter,
  'extract-doc': () => find({ selector: EVERY_DOCUMENT }),
  'extract-key': extract,
  'extract-number': extract,
  'extract-string': extract,
  // The primary index: _all_docs answers a row per key, `error: "not_found"` (and no document) for a missing one.
  'lookup-key': ({ values }) => ({
    kind: 'keys', keys: values, rows: (answer) => answer.rows.filter((row) => row.doc).map((row) => fromStored(row.doc)),
  }),
  'lookup-hash-number': lookup,
  'lookup-hash-string': lookup,
  'lookup-skiplist-number': lookup,
  'lookup-skiplist-string': lookup,
});

const NO_JOIN = 'CouchDB has no joins: a Mango query or a view query reads one index of one database, and a view '
  + 'can link a row only to the document whose _id it emitted, never match documents on a value at query time';
const NO_EXPRESSION = 'CouchDB\'s queries (Mango, views) select, sort and count stored values but compute none at '
  + 'query time: a map function could store the result, but that runs at indexing, so the query would only read '
  + 'a precomputed answer';
export const UNSUPPORTED = Object.freeze({
  subquery: `${NO_JOIN} (a correlated subquery is a join)`,
  concat: NO_EXPRESSION,
  'merge-number': NO_EXPRESSION,
  'merge-string': NO_EXPRESSION,
  'join-key': NO_JOIN,
  'join-id': NO_JOIN,
  'join-hash-number': NO_JOIN,
  'join-hash-string': NO_JOIN,
  'join-skiplist-number': NO_JOIN,
  'join-skiplist-string': NO_JOIN,
});

export const CASE_NAMES = Object.freeze(Object.keys(CASES));

// The request of a case, as data (what query() sends).
export function caseRequest(caseName, params) {
  if (!Object.hasOwn(CASES, caseName)) throw new Error(`${ADAPTER_ID}: unknown query case ${caseName}`);
  return CASES[caseName](params);
}

export async function createCollection(store, name) {
  await store.drop(name);
  await store.create(name);
}

// One `_bulk_docs` request; CouchDB answers each document's outcome, and a batch counts only when all were stored.
export async function importDocuments(store, name, docs) {
  const answers = await store.database(name).bulk({ docs: docs.map((doc) => ({ _id: doc._key, ...documentBody(doc) })) });
  const failed = answers.filter((answer) => answer.error);
  if (failed.length > 0) {
    throw new Error(`${ADAPTER_ID}: storing ${docs.length} documents in query collection ${name}: ${failed.length} `
      + `failed, the first (${failed[0].id}) with ${failed[0].error}: ${failed[0].reason}`);
  }
}

// Stores both design documents, then reads each view once: CouchDB builds a view's B-tree when it is first read
// (the views of one design document in one pass; PouchDB Server each view apart), so the build is part of the
// indexing, never of a timed query.
export async function indexCollection(store, name) {
  const database = store.database(name);
  for (const design of DESIGNS) {
    await database.insert(structuredClone(design));
    for (const [viewName, { reduce }] of Object.entries(design.views)) {
      await database.view(designName(design._id), viewName, { limit: 0, ...(reduce ? { reduce: false } : {}) });
    }
  }
}

// doc_count counts the design documents too.
export async function countDocuments(store, name) {
  const database = store.database(name);
  let info;
  try {
    info = await database.info();
  } catch (error) {
    if (error.statusCode === NOT_FOUND) return 0;
    throw error;
  }
  const designs = await database.list({ start_key: '_design/', end_key: '_design0' });
  return info.doc_count - designs.rows.length;
}

export async function dropCollection(store, name) {
  await store.drop(name);
}

export async function runQuery(store, caseName, name, params) {
  const request = caseRequest(caseName, params);
  const database = store.database(name);
  switch (request.kind) {
    case 'find': return request.rows((await database.find(request.body)).docs);
    case 'keys': return request.rows(await database.fetch({ keys: request.keys }));
    default: return request.rows(await database.view(request.design, request.view, request.params));
  }
}
