// Conformance support, through the driver on a client of its own: plants someone else's collection in a
// namespace's database, so the suite can check that resetNamespace() refuses to drop it, and removes the
// namespaces tests create.
import { openClient } from './connection.js';
import { COLLECTIONS, LABEL, databaseName } from './namespace.js';

async function withDatabase(options, work) {
  const database = databaseName(options.namespace);
  const client = await openClient({ ...options, concurrency: 1 });
  try {
    return await work(client.db(database));
  } finally {
    await client.close();
  }
}

// Resolves to the cleanup, which drops exactly the planted collection (the database goes with its last
// collection). A database that already exists is not ours to plant into, nor to clean up later.
export async function plantForeign(options) {
  await withDatabase(options, async (db) => {
    if ((await db.listCollections({}, { nameOnly: true }).toArray()).length > 0) {
      throw new Error(`${LABEL}: database "${db.databaseName}" already exists; refusing to plant into it`);
    }
    await db.collection(COLLECTIONS.profiles).insertOne({ owner: 'someone else' });
  });
  return () => withDatabase(options, (db) => db.collection(COLLECTIONS.profiles).drop());
}

// For tests, which own the namespaces they create: drops the namespace's database with everything in it.
export async function dropNamespace(options) {
  await withDatabase(options, (db) => db.dropDatabase());
}
