// Test support, on server connections of its own: plants someone else's database under a namespace's name, so
// the conformance suite can check that resetNamespace() refuses to drop it, and removes the databases tests
// create.
import { createDatabase, dropDatabase, openServer } from './connection.js';
import { databaseName } from './schema.js';

async function withServer(label, options, work) {
  const name = databaseName(label, options.namespace);
  const server = await openServer(label, { ...options, concurrency: 1 }, name);
  try {
    return await work(server, name);
  } finally {
    await server.client.close();
  }
}

// A database with one class and one record, and no marker. Resolves to the cleanup, which drops that database.
export async function plantForeign(label, options) {
  await withServer(label, options, async (server, name) => {
    if (!server.exists) await createDatabase(server, name);
    const session = await server.client.session({ name, ...server.login, pushNotification: false });
    try {
      await session.command('CREATE CLASS Profile IF NOT EXISTS').all();
      await session.command("INSERT INTO Profile SET owner = 'someone else'").all();
    } finally {
      await session.close();
    }
  });
  return () => dropNamespace(label, options);
}

// For tests, which own the namespaces they create: removes the namespace's database with everything in it.
export async function dropNamespace(label, options) {
  await withServer(label, options, async (server, name) => {
    if (server.exists) await dropDatabase(server, name);
  });
}
