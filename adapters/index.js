// The registry of adapters. Each entry is loaded only when used, so a missing optional driver
// of one database never breaks the others.
import { closest } from '../core/closest.js';
import { BenchError, ErrorCodes } from '../core/errors.js';

const ADAPTERS = {
  sqlite: () => import('./sqlite/description.js'),
  duckdb: () => import('./duckdb/description.js'),
  pglite: () => import('./pglite/description.js'),
  postgresql: () => import('./postgresql/description.js'),
  postgresql_tabular: () => import('./postgresql_tabular/description.js'),
  mysql: () => import('./mysql/description.js'),
  neo4j: () => import('./neo4j/description.js'),
  orientdb: () => import('./orientdb/description.js'),
  arangodb: () => import('./arangodb/description.js'),
  mongodb: () => import('./mongodb/description.js'),
  ferretdb: () => import('./ferretdb/description.js'),
  couchdb: () => import('./couchdb/description.js'),
  memory: () => import('./memory/description.js'),
};

export const DEFAULT_DB = 'sqlite';

// What a user may type for a database the registry names otherwise (the server `bench server` runs for it, its
// common short name): the "did you mean" of an unknown database.
const NAMES_OF_OTHERS = Object.freeze({
  mariadb: 'mysql', pouchdb: 'couchdb', postgres: 'postgresql', pg: 'postgresql', mongo: 'mongodb', arango: 'arangodb', orient: 'orientdb',
});

export function adapterIds() {
  return Object.keys(ADAPTERS);
}

export async function loadAdapter(id) {
  const load = ADAPTERS[id];
  if (!load) {
    const near = NAMES_OF_OTHERS[id] ?? closest(String(id), adapterIds());
    throw new BenchError(ErrorCodes.UNKNOWN_DB,
      `unknown database "${id}"${near ? ` (did you mean "${near}"?)` : ''}; valid databases: ${adapterIds().join(', ')}`);
  }
  return (await load()).default;
}
