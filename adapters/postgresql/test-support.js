// Test support, through pg on connections of its own: plants someone else's table in a namespace's schema, so the
// conformance suite can check that resetNamespace() refuses to drop it, and removes the namespaces tests create.
import pg from 'pg';
import { clientConfig } from './connection.js';
import { namespaceNames, schemaName } from './schema.js';

async function withClient(options, work) {
  const client = new pg.Client(clientConfig(options));
  try {
    await client.connect();
    await work(client);
  } finally {
    await client.end();
  }
}

// Resolves to the cleanup, which removes exactly what was planted (RESTRICT: nothing else goes with it).
export async function plantForeign(label, model, options) {
  const { quotedSchema, profiles } = namespaceNames(label, schemaName(label, options.namespace, model.schemaSuffix));
  await withClient(options, (client) => client.query(`
    CREATE SCHEMA IF NOT EXISTS ${quotedSchema};
    CREATE TABLE IF NOT EXISTS ${profiles} (owner text);
    INSERT INTO ${profiles} (owner) VALUES ('someone else');
  `));
  return () => withClient(options, (client) => client.query(`
    DROP TABLE IF EXISTS ${profiles};
    DROP SCHEMA IF EXISTS ${quotedSchema};
  `));
}

// For tests, which own the namespaces they create: removes the namespace's schema with everything in it.
export async function dropNamespace(label, model, options) {
  const { quotedSchema } = namespaceNames(label, schemaName(label, options.namespace, model.schemaSuffix));
  await withClient(options, (client) => client.query(`DROP SCHEMA IF EXISTS ${quotedSchema} CASCADE`));
}
