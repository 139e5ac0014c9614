// One reader for the generated files and SNAP's own (plain or .gz): profiles become profile documents,
// relations become profile keys or, for the graph, typed arrays of ids. A malformed line is an error that
// names the file and line, or, with `skipBad`, a line counted in `stats` and skipped. Invalid UTF-8 is
// repaired to U+FFFD and counted, never an error: the real profile file holds some.
//
// Every function takes { skipBad = false, stats, hash } and fills in `stats` (see createReadStats) as it reads,
// so that a caller can record how many lines were repaired or skipped. `hash`, a crypto Hash, receives the
// file's bytes as stored (gzip'd ones included) in the same pass, for a caller to check them against a manifest.
import { profileId, profileKey } from './columns.js';
import { ProfileParser } from './profile-parser.js';
import { RelationParser } from './relation-parser.js';
import { createReadStats, openBytes, readError } from './read-source.js';

export { createReadStats };

// `take(parser.push(chunk))` for every chunk of the file, then `take(0)` after what the end of the file
// completes.
async function* parsedChunks(file, parser, take, hash) {
  const source = openBytes(file, { hash });
  try {
    for await (const bytes of source) yield take(parser.push(bytes));
    parser.end();
    yield take(0);
  } catch (error) {
    throw readError(file, error);
  } finally {
    source.destroy();
  }
}

export async function* readProfiles(file, { batchSize = 1000, skipBad = false, stats = createReadStats(), hash = null } = {}) {
  const parser = new ProfileParser(file, { skipBad, stats });
  const take = () => {
    const { docs } = parser;
    parser.docs = [];
    return docs;
  };
  let batch = [];
  for await (const docs of parsedChunks(file, parser, take, hash)) {
    for (const doc of docs) {
      batch.push(doc);
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}

export async function loadProfiles(file, ids = null, options = {}) {
  const profiles = new Map();
  for await (const batch of readProfiles(file, options)) {
    for (const doc of batch) {
      const id = profileId(doc._key);
      if (ids === null || ids.has(id)) profiles.set(id, doc);
    }
  }
  return profiles;
}

function relationChunks(file, { skipBad = false, stats = createReadStats(), hash = null } = {}) {
  const parser = new RelationParser(file, { skipBad, stats });
  return parsedChunks(file, parser, (count) => ({ from: parser.from, to: parser.to, count }), hash);
}

export async function* readRelations(file, { batchSize = 10000, ...options } = {}) {
  let batch = [];
  for await (const { from, to, count } of relationChunks(file, options)) {
    for (let i = 0; i < count; i += 1) {
      batch.push({ _from: profileKey(from[i]), _to: profileKey(to[i]) });
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}

// The relations as batches of lines { bytes, count }, `P<from>\tP<to>\n` (the key of each end), one batch per chunk
// read: the text PostgreSQL's COPY and MySQL's LOAD DATA take, made without a string per key.
export async function* readRelationLines(file, options = {}) {
  let out = new Uint8Array(0);
  for await (const { from, to, count } of relationChunks(file, options)) {
    if (count === 0) continue;
    // "P", ten digits at most, a tab or a newline, for each end.
    if (out.length < count * 24) out = new Uint8Array(count * 24);
    let at = 0;
    for (let i = 0; i < count; i += 1) {
      out[at++] = KEY_PREFIX;
      at = writeDigits(out, at, from[i]);
      out[at++] = TAB_BYTE;
      out[at++] = KEY_PREFIX;
      at = writeDigits(out, at, to[i]);
      out[at++] = NEWLINE_BYTE;
    }
    yield { bytes: out.slice(0, at), count };
  }
}

const KEY_PREFIX = 0x50; // P
const TAB_BYTE = 0x09;
const NEWLINE_BYTE = 0x0a;
const DIGIT_0 = 0x30;

// The decimal digits of a positive integer, written at `at`; returns where they end.
function writeDigits(out, at, value) {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
  let rest = value;
  for (let i = at + digits - 1; i >= at; i -= 1) {
    out[i] = DIGIT_0 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits;
}

export async function loadRelationIds(file, options = {}) {
  let from = new Int32Array(1 << 20);
  let to = new Int32Array(1 << 20);
  let count = 0;
  for await (const chunk of relationChunks(file, options)) {
    if (count + chunk.count > from.length) {
      const capacity = Math.max(count + chunk.count, Math.ceil(from.length * 1.5));
      const grownFrom = new Int32Array(capacity);
      const grownTo = new Int32Array(capacity);
      grownFrom.set(from.subarray(0, count));
      grownTo.set(to.subarray(0, count));
      from = grownFrom;
      to = grownTo;
    }
    from.set(chunk.from.subarray(0, chunk.count), count);
    to.set(chunk.to.subarray(0, chunk.count), count);
    count += chunk.count;
  }
  return { from: from.subarray(0, count), to: to.subarray(0, count), count };
}
