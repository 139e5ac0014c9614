// Conformance support, on a connection of its own: plants someone else's database in a namespace, so the suite
// can check that resetNamespace() refuses to drop it, and removes the namespaces tests create.
import { openConnection } from './connection.js';
import { ADAPTER_ID, namespaceDatabases, namespacePrefix } from './namespace.js';

async function withClient(options, work) {
  const { connection } = await openConnection({ ...options, concurrency: 1 });
  try {
    return await work(connection.client);
  } finally {
    await connection.close();
  }
}

// Resolves to the cleanup, which destroys exactly the planted database. A namespace that already has databases
// is not ours to plant into, nor to clean up later.
export async function plantForeign(options) {
  const planted = `${namespacePrefix(options.namespace)}profiles`;
  await withClient(options, async (client) => {
    const existing = namespaceDatabases(await client.db.list(), options.namespace);
    if (existing.length > 0) {
      throw new Error(`${ADAPTER_ID}: namespace "${options.namespace}" already has databases (${existing.join(', ')}); `
        + 'refusing to plant into it');
    }
    await client.db.create(planted);
    await client.use(planted).insert({ owner: 'someone else' }, 'planted');
  });
  return () => withClient(options, (client) => client.db.destroy(planted));
}

// For tests, which own the namespaces they create: destroys every database of the namespace.
export async function dropNamespace(options) {
  await withClient(options, async (client) => {
    for (const name of namespaceDatabases(await client.db.list(), options.namespace)) await client.db.destroy(name);
  });
}
