// An import phase streamed through bulk statements that stay open across the batches, one per connection
// (PostgreSQL's COPY, MySQL's LOAD DATA LOCAL INFILE): the server parses and stores on a session per stream
// while Node reads the next batch, and each statement starts and commits once per phase. An adapter keeps one
// BulkLoad; the statements depend on its driver, the life of a phase does not:
// - the first batch of a table opens the phase's streams, and ends the previous phase first;
// - finish() ends the phase: every stream commits, or the phase fails (flushProfiles(), flushRelations(), and
//   any other call of the adapter that needs the rows);
// - abort() gives the phase up without waiting (close()): each stream discards its connection, which rolls
//   its statement back.

// Streams a phase runs side by side, at most (no more than --concurrency).
export const IMPORT_STREAMS = 2;

// `items` in at most `parts` consecutive slices of nearly equal length, none empty.
export function split(items, parts) {
  const size = Math.ceil(items.length / parts);
  return Array.from({ length: parts }, (_, i) => items.slice(i * size, (i + 1) * size)).filter((p) => p.length > 0);
}

export class BulkLoad {
  #streams;
  #failed;
  // The phase under way: { table, streams: [{ write(part), end(), abort() }] }, or null.
  #phase = null;

  // `streams`: how many a phase opens. `failed(table, error)`: the error to throw for a stream's failure.
  constructor({ streams, failed }) {
    this.#streams = streams;
    this.#failed = failed;
  }

  get streams() {
    return this.#streams;
  }

  // Writes `parts` (at most `streams` of them), the i-th to the i-th stream of `table`'s phase. `open()` opens
  // one stream, when the phase begins: { write(part), end() that commits and gives the connection back,
  // abort() that discards it }.
  async write(table, parts, open) {
    if (this.#phase?.table !== table) {
      await this.finish();
      this.#phase = { table, streams: await openAll(open, this.#streams) };
    }
    const { streams } = this.#phase;
    try {
      await Promise.all(parts.map((part, i) => streams[i].write(part)));
    } catch (error) {
      throw this.#failed(table, error);
    }
  }

  async finish() {
    const phase = this.#phase;
    if (!phase) return;
    this.#phase = null;
    const ends = await Promise.allSettled(phase.streams.map((stream) => stream.end()));
    const failure = ends.find(({ status }) => status === 'rejected');
    // The other streams committed; the import as a whole has failed, and its marker still says so.
    if (failure) throw this.#failed(phase.table, failure.reason);
  }

  abort() {
    const phase = this.#phase;
    this.#phase = null;
    for (const stream of phase?.streams ?? []) stream.abort();
  }
}

// `count` streams, or none: when one fails to open, those that did are given up.
async function openAll(open, count) {
  const opened = await Promise.allSettled(Array.from({ length: count }, () => open()));
  const failure = opened.find(({ status }) => status === 'rejected');
  if (!failure) return opened.map(({ value }) => value);
  for (const { status, value } of opened) if (status === 'fulfilled') value.abort();
  throw failure.reason;
}
