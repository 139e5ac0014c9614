// An adapter's `supports` as its server answers it: one whose code serves servers of different abilities (the
// MongoDB adapter's, on MongoDB and on FerretDB) implements the optional `unsupportedOperations()`, which a connected
// instance resolves with `{ [operation]: reason }` for each operation of `supports` the server cannot run, found by
// asking the server (adapters/README.md, "Operations a server lacks"). The harness asks once, right after its first
// connect, and from then on works with the description this returns: those operations out of `supports`, their
// reasons in `unsupported`, where a result records them as it records any unsupported workload.
export async function serverSupports(description, adapter) {
  if (typeof adapter.unsupportedOperations !== 'function') return description;
  return narrowSupports(description, await adapter.unsupportedOperations());
}

// The description without the operations of `lacking` (an operation it never supported stays as it was).
export function narrowSupports(description, lacking) {
  const names = Object.keys(lacking).filter((operation) => description.supports.includes(operation));
  if (names.length === 0) return description;
  return {
    ...description,
    supports: description.supports.filter((operation) => !names.includes(operation)),
    unsupported: { ...description.unsupported, ...Object.fromEntries(names.map((operation) => [operation, lacking[operation]])) },
  };
}

// The same through an instance of its own, connected with `options` and closed again: for a caller that has no
// connected instance (bench check, the conformance tests), before it plans what to run.
export async function serverSupportsAt(description, options) {
  if (typeof description.create(options).unsupportedOperations !== 'function') return description;
  const adapter = description.create(options);
  await adapter.connect();
  try {
    return await serverSupports(description, adapter);
  } finally {
    await adapter.close();
  }
}
