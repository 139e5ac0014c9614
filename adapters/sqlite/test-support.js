// Conformance support: plants someone else's table inside a namespace, through better-sqlite3 as the adapter
// itself would, so the suite can check that resetNamespace() refuses to drop it.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { databaseFile } from './adapter.js';
import { namespaceTables } from './schema.js';

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
