// Conformance support, through PGlite as the adapter itself opens it (database.js), while no adapter instance has the
// data directory open: plants someone else's table in a namespace's schema, so the suite can check that
// resetNamespace() refuses to drop it, and removes the namespaces tests and `bench check` create.
import { existsSync } from 'node:fs';
import { namespaceNames, schemaName } from '../postgresql/schema.js';
import { dataDirectory, openDatabase } from './database.js';

async function withDatabase(options, work) {
  const open = await openDatabase(dataDirectory(options));
  try {
    return await work(open.db);
  } finally {
    await open.close();
  }
}

const names = (options) => namespaceNames('pglite', schemaName('pglite', options.namespace, ''));

// Resolves to the cleanup, which removes exactly what was planted (RESTRICT: nothing else goes with it).
export async function plantForeign(options) {
  const { quotedSchema, profiles } = names(options);
  await withDatabase(options, (db) => db.exec(`
    CREATE SCHEMA IF NOT EXISTS ${quotedSchema};
    CREATE TABLE ${profiles} (owner text);
    INSERT INTO ${profiles} (owner) VALUES ('someone else');
  `));
  return () => withDatabase(options, (db) => db.exec(`
    DROP TABLE IF EXISTS ${profiles};
    DROP SCHEMA IF EXISTS ${quotedSchema};
  `));
}

// Removes the namespace's schema with everything in it; the data directory stays, as it may hold other namespaces.
// Nothing to do, and nothing opened, when the directory was never made.
export async function dropNamespace(options) {
  if (!existsSync(dataDirectory(options))) return;
  const { quotedSchema } = names(options);
  await withDatabase(options, (db) => db.exec(`DROP SCHEMA IF EXISTS ${quotedSchema} CASCADE`));
}
