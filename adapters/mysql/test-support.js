// Conformance support: plants someone else's database under a namespace's name, through mysql2 on a
// connection of its own, so the suite can check that resetNamespace() refuses to drop it.
import { openConnection } from './connection.js';
import { namespaceTables } from './schema.js';

export async function plantForeign(options) {
  const { database } = namespaceTables(options.namespace);
  const connection = await openConnection(options);
  try {
    // Without IF NOT EXISTS: a database that is already there is not ours to plant into, nor to drop later.
    await connection.query(`CREATE DATABASE ${database}`);
    await connection.query(`CREATE TABLE ${database}.profiles (owner VARCHAR(40))`);
    await connection.query(`INSERT INTO ${database}.profiles VALUES ('someone else')`);
  } finally {
    await connection.end();
  }
  return async () => {
    const cleanup = await openConnection(options);
    try {
      await cleanup.query(`DROP DATABASE IF EXISTS ${database}`);
    } finally {
      await cleanup.end();
    }
  };
}

// For tests, which own the namespaces they create: removes the namespace's database with everything in it.
export async function dropNamespace(options) {
  const { database } = namespaceTables(options.namespace);
  const connection = await openConnection(options);
  try {
    await connection.query(`DROP DATABASE IF EXISTS ${database}`);
  } finally {
    await connection.end();
  }
}
