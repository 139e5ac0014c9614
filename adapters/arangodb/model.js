// The data model: one ArangoDB database per namespace, holding the document collection `profiles`, the edge
// collection `relations`, the marker, the temporary collections, the queries suite's collections and the graph
// suite's edge collections; and the conversions between the contract's documents and relations and what ArangoDB
// stores.
import { BenchError, ErrorCodes } from '../../core/errors.js';

export const ADAPTER_ID = 'arangodb';

export const COLLECTIONS = Object.freeze({ profiles: 'profiles', relations: 'relations', marker: 'marker' });
export const TEMP_PREFIX = 'tmp_';
// The queries suite's collections (`q_values10k`), kept between runs, unlike the temporary ones.
export const QUERY_PREFIX = 'q_';
// The graph suite's edge collections (`g_edges`), kept between runs as the query collections are.
export const GRAPH_PREFIX = 'g_';
// The one document of the marker collection; the harness's marker is its `marker` attribute, so no field of the
// marker can clash with ArangoDB's system attributes.
export const MARKER_KEY = 'marker';

// ArangoDB's traditional naming rules, which hold whether or not a server allows extended names: a letter, then
// letters, digits, `_` or `-`; at most 64 bytes for a database, 256 for a collection.
const DATABASE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const COLLECTION_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,255}$/;
const TEMP_NAME = /^[A-Za-z0-9_-]+$/;

export function databaseName(namespace) {
  if (typeof namespace !== 'string' || !DATABASE_NAME.test(namespace)) {
    throw new BenchError(ErrorCodes.USAGE, `${ADAPTER_ID}: namespace ${JSON.stringify(namespace)} is not an ArangoDB `
      + 'database name (a letter, then letters, digits, _ or -, at most 64 characters)');
  }
  return namespace;
}

export function tempCollectionName(name) {
  const collection = `${TEMP_PREFIX}${name}`;
  if (typeof name !== 'string' || !TEMP_NAME.test(name) || !COLLECTION_NAME.test(collection)) {
    throw new BenchError(ErrorCodes.USAGE, `${ADAPTER_ID}: collection name ${JSON.stringify(name)} is not allowed `
      + `(letters, digits, _ or -, at most ${256 - TEMP_PREFIX.length} characters)`);
  }
  return collection;
}

export function queryCollectionName(name) {
  const collection = `${QUERY_PREFIX}${name}`;
  if (typeof name !== 'string' || !TEMP_NAME.test(name) || !COLLECTION_NAME.test(collection)) {
    throw new BenchError(ErrorCodes.USAGE, `${ADAPTER_ID}: query collection name ${JSON.stringify(name)} is not `
      + `allowed (letters, digits, _ or -, at most ${256 - QUERY_PREFIX.length} characters)`);
  }
  return collection;
}

export function graphCollectionName(name) {
  const collection = `${GRAPH_PREFIX}${name}`;
  if (typeof name !== 'string' || !TEMP_NAME.test(name) || !COLLECTION_NAME.test(collection)) {
    throw new BenchError(ErrorCodes.USAGE, `${ADAPTER_ID}: edge collection name ${JSON.stringify(name)} is not `
      + `allowed (letters, digits, _ or -, at most ${256 - GRAPH_PREFIX.length} characters)`);
  }
  return collection;
}

// The collections resetNamespace may drop: its own names only.
export function isOwnCollection(name) {
  return Object.values(COLLECTIONS).includes(name)
    || [TEMP_PREFIX, QUERY_PREFIX, GRAPH_PREFIX].some((prefix) => name.startsWith(prefix));
}

// What an owned namespace holds that db-shootout did not create, as "collection x", "view y", "graph z".
export function strangers({ collections, views, graphs }) {
  return [
    ...collections.filter((name) => !isOwnCollection(name)).map((name) => `collection ${name}`),
    ...views.map((name) => `view ${name}`),
    ...graphs.map((name) => `graph ${name}`),
  ];
}

export function profileId(key) {
  return `${COLLECTIONS.profiles}/${key}`;
}

export function edgeDocument({ _from, _to }) {
  return { _from: profileId(_from), _to: profileId(_to) };
}

// The options of a document write: waitForSync true makes the server fsync its write-ahead log before it
// answers (the durable acknowledgement). silent: the server answers without the document's metadata, which
// nobody reads.
export function writeOptions(durable) {
  return { waitForSync: durable, silent: true };
}

// A stored document in the contract's shape: without ArangoDB's `_id` and `_rev`; `_key` is the profile key.
export function contractDocument(stored) {
  if (stored === null) return null;
  const { _id, _rev, ...document } = stored;
  return document;
}

// The marker object of the stored marker document, or null when it holds none.
export function markerOf(stored) {
  const marker = stored?.marker;
  return marker !== null && typeof marker === 'object' && !Array.isArray(marker) ? marker : null;
}

// [AGE, count] rows as the histogram, keyed by String(AGE): a missing AGE groups as null, "null".
export function ageHistogram(rows) {
  return Object.fromEntries(rows.map(([age, count]) => [String(age), count]));
}

// SHORTEST_PATH has no depth bound. The path it returns is a shortest one, so one longer than maxDepth hops means
// that no path within maxDepth exists.
export function boundedPath(keys, maxDepth) {
  return keys.length === 0 || keys.length - 1 > maxDepth ? null : keys;
}
