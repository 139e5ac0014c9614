// One reader for the generated files and SNAP's own (plain or .gz): profiles become profile documents,
// relations become profile keys or, for the graph, typed arrays of ids. Every malformed line is an error that
// names the file and line; nothing is skipped.
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { parse } from 'csv-parse';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { PROFILE_COLUMNS, profileId, profileKey, rowToDocument } from './columns.js';

const READ_CHUNK = 1 << 20;
// The 59 columns and the empty field after the trailing tab.
const PROFILE_FIELDS = PROFILE_COLUMNS.length + 1;
const TAB = 0x09;
const NEWLINE = 0x0a;
const ZERO = 0x30;
const MAX_ID = 2 ** 31 - 1;

function lineError(file, line, problem) {
  return new BenchError(ErrorCodes.DATASET, `${file}:${line}: ${problem}`);
}

function readError(file, error) {
  if (error instanceof BenchError) return error;
  return new BenchError(ErrorCodes.DATASET, `${file}: ${error.message}`, { cause: error });
}

// The file's bytes, gunzipped when its name ends in .gz. A read or gunzip error destroys the returned stream
// with that error, so it reaches whoever iterates it.
function openBytes(file) {
  const raw = createReadStream(file, { highWaterMark: READ_CHUNK });
  if (!file.endsWith('.gz')) return raw;
  const gunzip = createGunzip({ chunkSize: READ_CHUNK });
  pipeline(raw, gunzip, () => {});
  return gunzip;
}

function checkProfileRecord(file, record, line) {
  if (record.length === PROFILE_FIELDS && record[PROFILE_FIELDS - 1] === '') return;
  if (record.length === 1 && record[0] === '') throw lineError(file, line, 'empty line');
  const trailingTab = record[record.length - 1] === '';
  const columns = trailingTab ? record.length - 1 : record.length;
  throw lineError(file, line, `expected ${PROFILE_COLUMNS.length} tab-separated columns and a trailing tab, `
    + `found ${columns} columns ${trailingTab ? 'and a trailing tab' : 'without a trailing tab'}`);
}

export async function* readProfiles(file, { batchSize = 1000 } = {}) {
  const parser = parse({ delimiter: '\t', record_delimiter: '\n', quote: false, relax_column_count: true, info: true });
  const source = openBytes(file);
  source.on('error', (error) => parser.destroy(readError(file, error)));
  source.pipe(parser);
  let batch = [];
  try {
    for await (const { record, info } of parser) {
      checkProfileRecord(file, record, info.lines);
      try {
        batch.push(rowToDocument(record));
      } catch (error) {
        throw lineError(file, info.lines, error.message);
      }
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    throw readError(file, error);
  } finally {
    source.destroy();
  }
  if (batch.length > 0) yield batch;
}

export async function loadProfiles(file, ids = null) {
  const profiles = new Map();
  for await (const batch of readProfiles(file)) {
    for (const doc of batch) {
      const id = profileId(doc._key);
      if (ids === null || ids.has(id)) profiles.set(id, doc);
    }
  }
  return profiles;
}

// A byte-level parser for "src<TAB>dst<LF>" lines: the relation file of the full dataset has 30.6 M of them,
// too many for a general CSV parser. Pairs are written into reused arrays, valid until the next `push`.
class RelationParser {
  constructor(file) {
    this.file = file;
    this.line = 1;
    this.field = 0;
    this.value = 0;
    this.digits = 0;
    this.source = 0;
    this.from = new Int32Array(0);
    this.to = new Int32Array(0);
  }

  fail(problem) {
    throw lineError(this.file, this.line, problem);
  }

  // Returns the number of complete lines in `bytes`, stored in this.from and this.to.
  push(bytes) {
    // The shortest line, "1\t1\n", has four bytes.
    const capacity = (bytes.length >>> 2) + 1;
    if (this.from.length < capacity) {
      this.from = new Int32Array(capacity);
      this.to = new Int32Array(capacity);
    }
    const { from, to } = this;
    let { field, value, digits, source } = this;
    let count = 0;
    for (let i = 0; i < bytes.length; i += 1) {
      const byte = bytes[i];
      const digit = byte - ZERO;
      if (digit >= 0 && digit <= 9) {
        value = value * 10 + digit;
        digits += 1;
        if (value > MAX_ID) this.fail(`id too large (${field === 0 ? 'source' : 'target'})`);
      } else if (byte === TAB && field === 0) {
        if (digits === 0) this.fail('missing source id');
        if (value === 0) this.fail('source id 0; ids start at 1');
        source = value;
        field = 1;
        value = 0;
        digits = 0;
      } else if (byte === NEWLINE && field === 1) {
        if (digits === 0) this.fail('missing target id');
        if (value === 0) this.fail('target id 0; ids start at 1');
        from[count] = source;
        to[count] = value;
        count += 1;
        this.line += 1;
        field = 0;
        value = 0;
        digits = 0;
      } else if (byte === NEWLINE) {
        this.fail(digits === 0 ? 'empty line' : 'expected two tab-separated ids, found one');
      } else if (byte === TAB) {
        this.fail('expected two tab-separated ids, found more');
      } else {
        this.fail(`unexpected character ${JSON.stringify(String.fromCharCode(byte))} in an id`);
      }
    }
    Object.assign(this, { field, value, digits, source });
    return count;
  }

  end() {
    if (this.field !== 0 || this.digits !== 0) this.fail('the last line has no newline: the file looks truncated');
  }
}

async function* relationChunks(file) {
  const parser = new RelationParser(file);
  const source = openBytes(file);
  try {
    for await (const bytes of source) {
      const count = parser.push(bytes);
      if (count > 0) yield { from: parser.from, to: parser.to, count };
    }
  } catch (error) {
    throw readError(file, error);
  } finally {
    source.destroy();
  }
  parser.end();
}

export async function* readRelations(file, { batchSize = 10000 } = {}) {
  let batch = [];
  for await (const { from, to, count } of relationChunks(file)) {
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

export async function loadRelationIds(file) {
  let from = new Int32Array(1 << 20);
  let to = new Int32Array(1 << 20);
  let count = 0;
  for await (const chunk of relationChunks(file)) {
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
