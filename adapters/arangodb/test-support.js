// Test support, through arangojs on a connection of its own: plants someone else's database under a namespace's
// name, so the conformance suite can check that resetNamespace() refuses to touch it, and removes the namespace
// databases tests create.
import { ARANGO_ERRORS, createConnection, isArangoErrorNumber } from './connection.js';
import { COLLECTIONS, databaseName } from './model.js';

async function withHome(options, work) {
  const connection = createConnection(options);
  try {
    return await work(connection.database);
  } finally {
    await connection.close();
  }
}

async function dropDatabase(home, name) {
  try {
    await home.dropDatabase(name);
  } catch (error) {
    if (!isArangoErrorNumber(error, ARANGO_ERRORS.databaseNotFound)) throw error;
  }
}

// Resolves to the cleanup, which drops the planted database. Creating it fails when a database of that name
// exists already: that one is not ours to plant into, nor to drop later.
export async function plantForeign(options) {
  const name = databaseName(options.namespace);
  await withHome(options, async (home) => {
    const planted = await home.createDatabase(name);
    try {
      const profiles = await planted.createCollection(COLLECTIONS.profiles);
      await profiles.save({ owner: 'someone else' });
    } catch (error) {
      await dropDatabase(home, name);
      throw error;
    }
  });
  return () => withHome(options, (home) => dropDatabase(home, name));
}

// For tests, which own the namespaces they create: drops the namespace's database with everything in it.
export async function dropNamespace(options) {
  const name = databaseName(options.namespace);
  await withHome(options, (home) => dropDatabase(home, name));
}
