// Conformance support, through better-sqlite3 as the adapter itself would: plants someone else's table inside a
// namespace, so the suite can check that resetNamespace() refuses to drop it, and removes the namespaces tests
// and `bench check` create.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { databaseFile } from './adapter.js';
import { namespaceObjectsSql, namespaceTables } from './schema.js';

// Resolves to the cleanup, which drops exactly the table it planted.
export async function plantForeign(options) {
  const file = databaseFile(options);
  const { profiles } = namespaceTables(options.namespace);
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.exec(`CREATE TABLE ${profiles} (owner TEXT); INSERT INTO ${profiles} VALUES ('someone else')`);
  } finally {
    db.close();
  }
  return async () => {
    const cleanup = new Database(file);
    try {
      cleanup.exec(`DROP TABLE IF EXISTS ${profiles}`);
    } finally {
      cleanup.close();
    }
  };
}

// Drops the namespace's tables (their indexes go with them). The file stays: it may hold other namespaces.
export async function dropNamespace(options) {
  const file = databaseFile(options);
  if (!existsSync(file)) return;
  const db = new Database(file);
  try {
    const objects = db.prepare(namespaceObjectsSql(namespaceTables(options.namespace))).all();
    db.transaction(() => {
      for (const { type, name } of objects) db.exec(`DROP ${type === 'view' ? 'VIEW' : 'TABLE'} "${name.replaceAll('"', '""')}"`);
    })();
  } finally {
    db.close();
  }
}
