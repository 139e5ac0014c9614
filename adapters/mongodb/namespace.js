// One namespace is one MongoDB database holding the profiles, the relations, the marker, the temporary
// collections, the queries suite's collections and the graph suite's edge collections: their names, checked
// before any command so that a typo never creates or drops something unexpected, and how the namespace's state is
// told from what the database holds.
import { BenchError, ErrorCodes } from '../../core/errors.js';

export const LABEL = 'mongodb';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
// MongoDB database names must be shorter than 64 bytes; identifiers are ASCII, so characters are bytes.
const MAX_DATABASE_NAME = 63;
// A collection's full name, `<database>.<collection>`, is limited to 255 bytes.
const MAX_NAMESPACE = 255;
// The server's own databases; a namespace must never be one of them (MongoDB refuses names that differ only
// in case from an existing database, so the check ignores case too).
const RESERVED_DATABASES = new Set(['admin', 'local', 'config']);
const TEMP_PREFIX = 'tmp_';
// The queries suite's collections (`q_values10k`), kept between runs, unlike the temporary ones.
const QUERY_PREFIX = 'q_';
// The graph suite's edge collections (`g_edges`), kept between runs as the query collections are.
const GRAPH_PREFIX = 'g_';

export const COLLECTIONS = Object.freeze({ profiles: 'profiles', relations: 'relations', marker: 'marker' });
// The marker collection holds exactly this one document: { _id: MARKER_ID, marker: <the harness's object> }.
export const MARKER_ID = 'marker';
// Named explicitly, so warmup() can hint them.
export const INDEXES = Object.freeze({
  from: { name: 'from_to', key: { _from: 1, _to: 1 } },
  to: { name: 'to_from', key: { _to: 1, _from: 1 } },
});

function assertIdentifier(what, value, maxLength) {
  if (typeof value !== 'string' || !IDENTIFIER.test(value) || value.length > maxLength) {
    throw new BenchError(ErrorCodes.USAGE, `${LABEL}: ${what} ${JSON.stringify(value)} is not an identifier of at `
      + `most ${maxLength} characters ([A-Za-z_][A-Za-z0-9_]*)`);
  }
  return value;
}

// The database that holds the namespace: named exactly as the namespace.
export function databaseName(namespace) {
  assertIdentifier('namespace', namespace, MAX_DATABASE_NAME);
  if (RESERVED_DATABASES.has(namespace.toLowerCase())) {
    throw new BenchError(ErrorCodes.USAGE, `${LABEL}: namespace "${namespace}" is a database of the server itself`);
  }
  return namespace;
}

export function tempCollectionName(database, name) {
  const maxLength = MAX_NAMESPACE - database.length - 1 - TEMP_PREFIX.length;
  return `${TEMP_PREFIX}${assertIdentifier('collection name', name, maxLength)}`;
}

export function queryCollectionName(database, name) {
  const maxLength = MAX_NAMESPACE - database.length - 1 - QUERY_PREFIX.length;
  return `${QUERY_PREFIX}${assertIdentifier('query collection name', name, maxLength)}`;
}

export function graphCollectionName(database, name) {
  const maxLength = MAX_NAMESPACE - database.length - 1 - GRAPH_PREFIX.length;
  return `${GRAPH_PREFIX}${assertIdentifier('edge collection name', name, maxLength)}`;
}

// The collections resetNamespace may drop: its own names only.
export function isOwnCollection(name) {
  return Object.values(COLLECTIONS).includes(name)
    || [TEMP_PREFIX, QUERY_PREFIX, GRAPH_PREFIX].some((prefix) => name.startsWith(prefix));
}

// What an owned namespace holds that db-shootout did not create, from listCollections' { name, type }: every
// other name ("collection x"), and a view or time series under one of its own names ("view profiles"). The
// server's own system.* collections count too: one appears only when someone used the database for more.
export function strangers(listed) {
  return listed
    .filter(({ name, type }) => !isOwnCollection(name) || type !== 'collection')
    .map(({ name, type }) => `${type} ${name}`)
    .sort();
}

// 'absent' when the database holds no collection (MongoDB has no empty databases); 'owned' when the marker
// collection holds the marker document with an object; 'foreign' otherwise.
export function namespaceState(collections, markerDocument) {
  if (collections.length === 0) return { state: 'absent', marker: null };
  const marker = markerDocument?.marker;
  if (marker !== null && typeof marker === 'object' && !Array.isArray(marker)) return { state: 'owned', marker };
  return { state: 'foreign', marker: null };
}
