// The CouchDB databases of one namespace and how its state is told from the server's list of databases.
// CouchDB database names are lower-case letters, digits and _$()+-/, starting with a letter, so the namespace
// and the collections' names are lower-cased. A namespace's databases are `<namespace>-marker`,
// `<namespace>-tmp-<name>` and `<namespace>-q-<name>`: a namespace is letters, digits and `_`, so no other
// namespace's names can begin with `<namespace>-` (with `_` as the separator, `dbshootout_check-...` would start
// like `dbshootout_...`).
import { BenchError, ErrorCodes } from '../../core/errors.js';

export const ADAPTER_ID = 'couchdb';
// The marker database holds exactly this one document: { _id: MARKER_ID, marker: <the harness's object> }.
export const MARKER_ID = 'marker';

const NAMESPACE = /^[a-z][a-z0-9_]*$/;
const COLLECTION = /^[a-z0-9_]{1,40}$/;

function checked(what, value, pattern) {
  const name = typeof value === 'string' ? value.toLowerCase() : value;
  if (typeof name !== 'string' || !pattern.test(name)) {
    throw new BenchError(ErrorCodes.USAGE, `${ADAPTER_ID}: ${what} ${JSON.stringify(value)} does not make a CouchDB `
      + `database name (${pattern.source} once lower-cased)`);
  }
  return name;
}

// What every database of the namespace begins with.
export function namespacePrefix(namespace) {
  return `${checked('namespace', namespace, NAMESPACE)}-`;
}

export function markerDatabase(namespace) {
  return `${namespacePrefix(namespace)}marker`;
}

export function tempDatabase(namespace, collection) {
  return `${namespacePrefix(namespace)}tmp-${checked('collection name', collection, COLLECTION)}`;
}

// The queries suite's collection `name` (`values10k`), kept between runs, unlike the temporary ones.
export function queryDatabase(namespace, name) {
  return `${namespacePrefix(namespace)}q-${checked('query collection name', name, COLLECTION)}`;
}

// The namespace's databases among all of the server's (GET /_all_dbs).
export function namespaceDatabases(allDatabases, namespace) {
  const prefix = namespacePrefix(namespace);
  return allDatabases.filter((name) => name.startsWith(prefix));
}

// 'absent' when the server holds none of the namespace's databases; 'owned' when its marker database holds the
// marker document with an object; 'foreign' otherwise.
export function namespaceState(databases, markerDocument) {
  if (databases.length === 0) return { state: 'absent', marker: null };
  const marker = markerDocument?.marker;
  if (marker !== null && typeof marker === 'object' && !Array.isArray(marker)) return { state: 'owned', marker };
  return { state: 'foreign', marker: null };
}
