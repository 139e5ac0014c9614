// Conformance support, through the driver on a connection of its own: plants someone else's node under a
// namespace's profile label, so the suite can check that resetNamespace() refuses to delete it, and removes the
// namespaces tests create.
import { createDriver, sessionConfig } from './connection.js';
import { deleteNamespace } from './namespace.js';
import { namespaceNames } from './schema.js';

async function withRunner(options, work) {
  const driver = createDriver({ ...options, concurrency: 1 });
  const run = async (query, params) => {
    const session = driver.session(sessionConfig(options, 'write'));
    try {
      return (await session.run(query, params)).records;
    } finally {
      await session.close();
    }
  };
  try {
    return await work(run);
  } finally {
    await driver.close();
  }
}

// Resolves to the cleanup, which deletes exactly the node it planted.
export async function plantForeign(options) {
  const { q } = namespaceNames(options.namespace);
  const id = await withRunner(options, async (run) =>
    (await run(`CREATE (n:${q.profile} {owner: 'someone else'}) RETURN elementId(n)`))[0].get(0));
  return () => withRunner(options, (run) => run('MATCH (n) WHERE elementId(n) = $id DELETE n', { id }));
}

// For tests, which own the namespaces they create: deletes the namespace with everything in it.
export async function dropNamespace(options) {
  await withRunner(options, (run) => deleteNamespace(run, namespaceNames(options.namespace)));
}
