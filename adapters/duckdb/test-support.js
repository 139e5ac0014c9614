// Conformance support, through @duckdb/node-api as the adapter itself would: plants someone else's table inside a
// namespace, so the suite can check that resetNamespace() refuses to drop it, and removes the namespaces tests
// and `bench check` create.
import { existsSync } from 'node:fs';
import { databaseFile, instanceConfig } from './adapter.js';
import { ConnectionPool } from './pool.js';
import { namespaceObjectsSql, namespaceTables, quote } from './schema.js';

async function withDatabase(file, work) {
  const pool = await ConnectionPool.open(file, instanceConfig(), 1);
  try {
    return await pool.use(work);
  } finally {
    await pool.close();
  }
}

// Resolves to the cleanup, which drops exactly the table it planted. CREATE TABLE refuses an existing table,
// so nothing is planted over (and later removed from) what was already there.
export async function plantForeign(options) {
  const file = databaseFile(options);
  const { profiles } = namespaceTables(options.namespace);
  await withDatabase(file, async (session) => {
    await session.exec(`CREATE TABLE ${profiles} (owner VARCHAR)`);
    await session.exec(`INSERT INTO ${profiles} VALUES ('someone else')`);
  });
  return async () => {
    await withDatabase(file, (session) => session.exec(`DROP TABLE IF EXISTS ${profiles}`));
  };
}

// Drops the namespace's tables and views (their indexes go with them) in one transaction. The file stays: it
// may hold other namespaces.
export async function dropNamespace(options) {
  const file = databaseFile(options);
  if (!existsSync(file)) return;
  const tables = namespaceTables(options.namespace);
  await withDatabase(file, async (session) => {
    const objects = (await session.read(namespaceObjectsSql(tables))).getRowObjectsJS();
    if (objects.length === 0) return;
    await session.exec('BEGIN TRANSACTION');
    try {
      for (const { type, name } of objects) await session.exec(`DROP ${type === 'view' ? 'VIEW' : 'TABLE'} ${quote(name)}`);
      await session.exec('COMMIT');
    } catch (error) {
      await session.exec('ROLLBACK').catch(() => {});
      throw error;
    }
  });
}
