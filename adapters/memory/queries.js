// The queries suite over plain arrays: a collection is an array of frozen documents (its position is the record
// identifier join-id joins on), with a Map per indexed field (value1 to value4 and _key, each unique in the
// suite's data, so an index maps a value to its position). Each case is the plain loop a database would run.
import { MERGED_FIELD, byValue } from '../../workloads/queries/cases.js';

const INDEXED = ['_key', 'value1', 'value2', 'value3', 'value4'];

export function createCollection() {
  return { documents: [], indexes: null };
}

export function importDocuments(collection, docs) {
  for (const doc of docs) collection.documents.push(Object.freeze({ ...doc }));
}

export function indexCollection(collection) {
  collection.indexes = new Map(INDEXED.map((field) => [field, new Map(collection.documents.map((doc, i) => [doc[field], i]))]));
}

function index(collection, field) {
  const found = collection.indexes?.get(field);
  if (!found) throw new Error(`memory adapter: no index on ${field}; indexQueryCollection() first`);
  return found;
}

function groups(documents, attribute) {
  const counts = new Map();
  for (const doc of documents) counts.set(doc[attribute], (counts.get(doc[attribute]) ?? 0) + 1);
  return counts;
}

// A self-join through the index of `attribute` (null: the position), answering the left document once per match.
function join(collection, attribute) {
  const { documents } = collection;
  // The record identifier is the position: each left document finds exactly the one at its own position.
  if (attribute === null) return documents.map((doc, i) => documents[i]);
  const lookup = index(collection, attribute);
  return documents.filter((doc) => lookup.has(doc[attribute]));
}

function lookupIn(collection, { attribute, values }) {
  const lookup = index(collection, attribute);
  const found = [];
  for (const value of new Set(values)) {
    const at = lookup.get(value);
    if (at !== undefined) found.push(collection.documents[at]);
  }
  return found;
}

const project = ({ documents }, attribute) => documents.map((doc) => doc[attribute]);
const merge = ({ documents }, { attribute }) => documents.map((doc) => ({ ...doc, [MERGED_FIELD]: doc[attribute] }));
const filter = ({ documents }, { attribute, value }) => documents.filter((doc) => doc[attribute] === value).map((doc) => doc[attribute]);
const extreme = (collection, attribute, sign) => {
  const values = project(collection, attribute);
  return values.length === 0 ? [] : [values.reduce((best, value) => (byValue(value, best) * sign < 0 ? value : best))];
};

export const CASES = {
  'collect-number': (c, { attribute }) => [...groups(c.documents, attribute).keys()],
  'collect-string': (c, { attribute }) => [...groups(c.documents, attribute).keys()],
  'collect-count-number': (c, { attribute }) => [...groups(c.documents, attribute)],
  'collect-count-string': (c, { attribute }) => [...groups(c.documents, attribute)],
  // The index maps each (unique) value to its one document: the subquery finds one document or none.
  subquery: (c, { attribute }) => {
    const lookup = index(c, attribute);
    return c.documents.map((doc) => (lookup.has(doc[attribute]) ? 1 : 0));
  },
  concat: (c, { attribute }) => c.documents.map((doc) => `${doc._key}-${doc[attribute]}`),
  'merge-number': merge,
  'merge-string': merge,
  keep: (c, { attributes }) => c.documents.map((doc) => Object.fromEntries(attributes.map((name) => [name, doc[name]]))),
  unset: (c, { attributes }) => c.documents.map((doc) => Object.fromEntries(Object.entries(doc).filter(([name]) => !attributes.includes(name)))),
  'min-number': (c, { attribute }) => extreme(c, attribute, 1),
  'min-string': (c, { attribute }) => extreme(c, attribute, 1),
  'max-number': (c, { attribute }) => extreme(c, attribute, -1),
  'max-string': (c, { attribute }) => extreme(c, attribute, -1),
  'sort-number': (c, { attribute }) => project(c, attribute).sort((a, b) => a - b).slice(0, 1),
  'sort-string': (c, { attribute }) => project(c, attribute).sort(byValue).slice(0, 1),
  'filter-number': filter,
  'filter-string': filter,
  'extract-doc': (c) => [...c.documents],
  'extract-key': (c, { attribute }) => project(c, attribute),
  'extract-number': (c, { attribute }) => project(c, attribute),
  'extract-string': (c, { attribute }) => project(c, attribute),
  'join-key': (c, { attribute }) => join(c, attribute),
  'join-id': (c) => join(c, null),
  'join-hash-number': (c, { attribute }) => join(c, attribute),
  'join-hash-string': (c, { attribute }) => join(c, attribute),
  'join-skiplist-number': (c, { attribute }) => join(c, attribute),
  'join-skiplist-string': (c, { attribute }) => join(c, attribute),
  'lookup-key': lookupIn,
  'lookup-hash-number': lookupIn,
  'lookup-hash-string': lookupIn,
  'lookup-skiplist-number': lookupIn,
  'lookup-skiplist-string': lookupIn,
};
