// An import phase streamed through bulk statements that stay open across the batches, one per connection
// (PostgreSQL's COPY, MySQL's LOAD DATA LOCAL INFILE): the server parses and stores on a session per stream
// while Node reads the next batch, and each statement starts and commits once per phase. An adapter keeps one
// BulkLoad; the statements depend on its driver, the life of a phase does not:
// - the first batch of a table opens the phase's streams, and ends the other phases first, unless it is written
//   `alongside` them (an importer that reads the profiles and the relations at once);
// - finish(table) ends that table's phase: every stream commits, or the phase fails (flushProfiles(),
//   flushRelations()); finish() ends every phase (any other call of the adapter that needs the rows);
// - abort() gives the phases up without waiting (close()): each stream discards its connection, which rolls
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
  // The phases under way, by table: { streams: [{ write(part), end(), abort() }] }.
  #phases = new Map();

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
  // abort() that discards it }. The phase begins after the other phases end, or `alongside` them: then it holds
  // connections of its own while they hold theirs.
  async write(table, parts, open, { alongside = false } = {}) {
    let phase = this.#phases.get(table);
    if (!phase) {
      if (!alongside) await this.finish();
      // Claimed before it opens, so that a second write of the same table waits for these streams.
      phase = { streams: openAll(open, this.streamsOf(table)) };
      this.#phases.set(table, phase);
      try {
        phase.streams = await phase.streams;
      } catch (error) {
        this.#phases.delete(table);
        throw error;
      }
    }
    const streams = await phase.streams;
    try {
      await Promise.all(parts.map((part, i) => streams[i].write(part)));
    } catch (error) {
      throw this.#failed(table, error);
    }
  }

  // Ends `table`'s phase, or every phase.
  async finish(table) {
    const tables = table === undefined ? [...this.#phases.keys()] : [table];
    const ends = await Promise.allSettled(tables.map((name) => this.#end(name)));
    const failure = ends.find(({ status }) => status === 'rejected');
    if (failure) throw failure.reason;
  }

  async #end(table) {
    const phase = this.#phases.get(table);
    if (!phase) return;
    this.#phases.delete(table);
    const ends = await Promise.allSettled((await phase.streams).map((stream) => stream.end()));
    const failure = ends.find(({ status }) => status === 'rejected');
    // The other streams committed; the import as a whole has failed, and its marker still says so.
    if (failure) throw this.#failed(table, failure.reason);
  }

  abort() {
    const phases = [...this.#phases.values()];
    this.#phases.clear();
    for (const phase of phases) {
      if (Array.isArray(phase.streams)) for (const stream of phase.streams) stream.abort();
      // Still opening: given up as soon as it has opened.
      else phase.streams.then((streams) => streams.forEach((stream) => stream.abort()), () => {});
    }
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
