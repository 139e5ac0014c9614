// Arithmetic of the I/O counters of /proc/<pid>/io as the result records them: `{ readBytes, writeBytes,
// readChars, writeChars }`, or null where they could not be read (another user's process without ptrace rights).
// Null is unknown, never 0: a sum with an unknown term is unknown.

export const IO_FIELDS = ['readBytes', 'writeBytes', 'readChars', 'writeChars'];

export const noIo = () => ({ readBytes: 0, writeBytes: 0, readChars: 0, writeChars: 0 });

// What was counted from `before` to `now`; null when either is unknown. A counter never runs backwards, so a
// smaller reading is taken as no change.
export function ioDifference(now, before) {
  if (!now || !before) return null;
  return Object.fromEntries(IO_FIELDS.map((field) => [field, Math.max(0, now[field] - before[field])]));
}

// The sum of several processes' or runs' figures. `undefined` (figures recorded before these counters existed, or
// none at all) when no entry carries them, so such a document gains no field; null when any one is unknown.
export function sumIo(entries) {
  const carried = entries.filter((entry) => entry !== undefined);
  if (carried.length === 0) return undefined;
  if (carried.some((entry) => entry === null)) return null;
  return carried.reduce((total, entry) => {
    for (const field of IO_FIELDS) total[field] += entry[field];
    return total;
  }, noIo());
}
