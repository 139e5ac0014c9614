// The other process of the conformance case for `multiProcess`: told an adapter's id, its options and what to do
// over IPC, it connects as a client process of `bench run --clients` would, reports what it sees of the
// namespace, and writes one document into the temporary collection the first process made.
import { loadAdapter } from '../../adapters/index.js';
import { PROFILES } from './fixture.js';

// What it saw up to a failure is sent with the failure's message.
process.once('message', async ({ id, options, collection, write, imports, read }) => {
  const seen = {};
  try {
    const description = await loadAdapter(id);
    const adapter = description.create(options);
    await adapter.connect();
    try {
      seen.namespace = await adapter.inspectNamespace();
      if (imports) seen.counts = await adapter.counts();
      if (read) seen.read = await adapter.singleRead(read);
      if (write) await adapter[write](collection, { ...PROFILES[0], _key: 'C1' }, { durable: false });
    } finally {
      await adapter.close();
    }
  } catch (error) {
    seen.error = error?.message ?? String(error);
  }
  process.send(seen);
  process.disconnect();
});
