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

const NEWLINE = 0x0a;

// Lines of text as bytes in `parts` pieces of about equal size, each cut after a newline and owning its buffer;
// fewer when there are too few lines.
export function splitLines(bytes, parts) {
  const pieces = [];
  let start = 0;
  for (let part = 1; part < parts && start < bytes.length; part += 1) {
    const cut = bytes.indexOf(NEWLINE, Math.max(start, Math.floor((bytes.length * part) / parts) - 1));
    if (cut === -1 || cut + 1 >= bytes.length) break;
    pieces.push(bytes.slice(start, cut + 1));
    start = cut + 1;
  }
  if (start < bytes.length) pieces.push(bytes.slice(start));
  return pieces;
}

// Lines already in the bulk statement's text format (PostgreSQL's COPY and MySQL's LOAD DATA share it: profile or
// relation lines made on the dataset reader's thread, ../datasets/import-rows.js), cut into one part per stream.
export function lineParts({ bytes }, { parts }) {
  return splitLines(bytes, parts);
}

// This module, for the dataset reader's thread to import lineParts from.
export const BULK_LOAD_MODULE = import.meta.url;

export class BulkLoad {
  #streams;
  #streamsFor;
  #failed;
  // The phase under way: { table, streams: [{ write(part), end(), abort() }] }, or null.
  #phase = null;

  // `streams`: how many a phase opens, unless `streamsFor(table)` says otherwise for its table. `failed(table,
  // error)`: the error to throw for a stream's failure.
  constructor({ streams, failed, streamsFor = () => null }) {
    this.#streams = streams;
    this.#streamsFor = streamsFor;
    this.#failed = failed;
  }

  get streams() {
    return this.#streams;
  }

  // The streams a phase of `table` opens.
  streamsOf(table) {
    return this.#streamsFor(table) ?? this.#streams;
  }

  // Writes `parts` (at most `streams` of them), the i-th to the i-th stream of `table`'s phase. `open()` opens
  // one stream, when the phase begins: { write(part), end() that commits and gives the connection back,
  // abort() that discards it }.
  async write(table, parts, open) {
    if (this.#phase?.table !== table) {
      await this.finish();
      this.#phase = { table, streams: await openAll(open, this.streamsOf(table)) };
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
