// Profiles as tab-separated lines of bytes, `<key>\t<document as JSON>\n`, in the text format PostgreSQL's COPY and
// MySQL's LOAD DATA share: a backslash escapes, so every backslash of the JSON is doubled (JSON has already
// escaped every tab, newline and carriage return). The JSON is exactly what JSON.stringify gives for the document
// readProfiles makes of the line: `_key` first, then the columns in file order, the "null" ones left out, integers
// as numbers.
//
// Made from the bytes read, without a document or a string per field: a line that this path cannot take whole (a
// column that is not a plain integer, the id of an earlier line, a malformed line, bytes that are not valid
// UTF-8, a line cut across two chunks) goes through ProfileParser's own path, with its checks and messages, and
// its JSON is written the same way. That keeps one definition of what a line means.
import { INTEGER_COLUMNS, PROFILE_COLUMNS } from './columns.js';
import { ProfileParser } from './profile-parser.js';
import { createReadStats, openBytes, readError } from './read-source.js';

const TAB = 0x09;
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const CHAR_0 = 0x30;
const CHAR_9 = 0x39;
const NULL_BYTES = [0x6e, 0x75, 0x6c, 0x6c];
const MAX_ID = 2 ** 31 - 1;
// Integers JSON.stringify(Number(text)) writes as the same digits: without leading zeros, at most 15 of them.
const MAX_PLAIN_DIGITS = 15;
const COLUMNS = PROFILE_COLUMNS.length;
const IS_INTEGER = PROFILE_COLUMNS.map((column) => INTEGER_COLUMNS.has(column));
// `,"column":` for each column, as bytes.
const NAMES = PROFILE_COLUMNS.map((column) => Buffer.from(`,${JSON.stringify(column)}:`));
const KEY_START = Buffer.from('\t{"_key":"P');
// JSON's short escapes of control characters; the others are \u00XX. Written with the backslash doubled.
const SHORT_ESCAPES = new Map([[0x08, 0x62], [0x0c, 0x66], [0x0a, 0x6e], [0x0d, 0x72], [0x09, 0x74]]);
const HEX = Buffer.from('0123456789abcdef');
// Room a line may need beyond 7 bytes per byte read (a control character becomes `\\u00XX`).
const LINE_OVERHEAD = NAMES.reduce((sum, name) => sum + name.length + 2, 32);
const INITIAL_OUTPUT = 1 << 22;

export class ProfileLineParser extends ProfileParser {
  constructor(file, options = {}) {
    super(file, { ...options, json: true });
    this.out = Buffer.allocUnsafe(INITIAL_OUTPUT);
    this.length = 0;
    // Lines written to `out` since the last take().
    this.count = 0;
    // Lines the fast path wrote (writeLine), of all those read: the others went through ProfileParser's path.
    this.fastLines = 0;
  }

  // The lines written since the last call: { bytes (a copy that owns its buffer), count }.
  take() {
    const bytes = new Uint8Array(this.length);
    bytes.set(this.out.subarray(0, this.length));
    const taken = { bytes, count: this.count };
    this.length = 0;
    this.count = 0;
    return taken;
  }

  reserve(bytes) {
    if (this.length + bytes <= this.out.length) return;
    let size = this.out.length * 2;
    while (size < this.length + bytes) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.out.copy(grown, 0, 0, this.length);
    this.out = grown;
  }

  validLine(bytes, start, end) {
    this.reserve(7 * (end - start) + LINE_OVERHEAD);
    const written = writeLine(bytes, start, end, this.out, this.length);
    if (written === -1 || this.wasSeen(lineId(bytes, start))) {
      super.validLine(bytes, start, end);
      return;
    }
    this.line += 1;
    this.stats.rows += 1;
    this.length = written;
    this.count += 1;
    this.fastLines += 1;
  }

  // A line taken by ProfileParser's path: its key and JSON text, written as the fast path writes them.
  accept(builder) {
    const line = `${builder.key}\t${builder.finish().replaceAll('\\', '\\\\')}\n`;
    this.reserve(Buffer.byteLength(line));
    this.length += this.out.write(line, this.length);
    this.count += 1;
  }
}

// The id at the start of a line writeLine took (digits, then a tab).
function lineId(bytes, start) {
  let id = 0;
  for (let i = start; bytes[i] !== TAB; i += 1) id = id * 10 + (bytes[i] - CHAR_0);
  return id;
}

// Writes the line bytes[start, end) to `out` from `at` as `P<id>\t<JSON>\n`; returns where it ends, or -1 when the
// line is not one this path takes whole (then what it wrote is left to be overwritten). One pass over the bytes:
// small copies in a loop are cheaper here than calls into Buffer's methods.
function writeLine(bytes, start, end, out, at) {
  let i = start;
  let id = 0;
  if (bytes[i] === CHAR_0) return -1;
  for (; i < end && bytes[i] !== TAB; i += 1) {
    const c = bytes[i];
    if (c < CHAR_0 || c > CHAR_9) return -1;
    id = id * 10 + (c - CHAR_0);
    if (id > MAX_ID) return -1;
  }
  if (i === start || i === end) return -1;
  const idEnd = i;
  let pos = at;
  out[pos++] = 0x50; // P
  for (let j = start; j < idEnd; j += 1) out[pos++] = bytes[j];
  for (let j = 0; j < KEY_START.length; j += 1) out[pos++] = KEY_START[j];
  for (let j = start; j < idEnd; j += 1) out[pos++] = bytes[j];
  out[pos++] = QUOTE;
  i = idEnd + 1;
  for (let column = 1; column < COLUMNS; column += 1) {
    if (i + 4 < end && bytes[i + 4] === TAB && bytes[i] === NULL_BYTES[0] && bytes[i + 1] === NULL_BYTES[1]
      && bytes[i + 2] === NULL_BYTES[2] && bytes[i + 3] === NULL_BYTES[3]) {
      i += 5;
      continue;
    }
    const name = NAMES[column];
    for (let j = 0; j < name.length; j += 1) out[pos++] = name[j];
    if (IS_INTEGER[column]) {
      const fieldStart = i;
      let digits = 0;
      if (bytes[i] === MINUS) i += 1;
      const first = i;
      for (; i < end && bytes[i] !== TAB; i += 1) {
        const c = bytes[i];
        if (c < CHAR_0 || c > CHAR_9) return -1;
        digits += 1;
      }
      // Digits JSON.stringify(Number(text)) writes unchanged: no leading zero, no "-0", at most 15.
      if (i === end || digits === 0 || digits > MAX_PLAIN_DIGITS || (bytes[first] === CHAR_0 && (digits > 1 || first !== fieldStart))) return -1;
      for (let j = fieldStart; j < i; j += 1) out[pos++] = bytes[j];
    } else {
      out[pos++] = QUOTE;
      for (; i < end; i += 1) {
        const c = bytes[i];
        if (c === TAB) break;
        if (c === QUOTE) {
          out[pos++] = BACKSLASH;
          out[pos++] = BACKSLASH;
          out[pos++] = QUOTE;
        } else if (c === BACKSLASH) {
          out[pos++] = BACKSLASH;
          out[pos++] = BACKSLASH;
          out[pos++] = BACKSLASH;
          out[pos++] = BACKSLASH;
        } else if (c < 0x20) {
          pos = writeControl(c, out, pos);
        } else {
          out[pos++] = c;
        }
      }
      if (i === end) return -1;
      out[pos++] = QUOTE;
    }
    // Past the tab that ends the field.
    i += 1;
  }
  // The trailing tab ends the line.
  if (i !== end) return -1;
  out[pos++] = 0x7d; // }
  out[pos++] = NEWLINE;
  return pos;
}

// A control character as JSON escapes it, its backslash doubled: \\b, \\f, \\n, \\r, \\t or \\u00XX.
function writeControl(c, out, at) {
  let pos = at;
  out[pos++] = BACKSLASH;
  out[pos++] = BACKSLASH;
  const short = SHORT_ESCAPES.get(c);
  if (short !== undefined) {
    out[pos++] = short;
  } else {
    out[pos++] = 0x75; // u
    out[pos++] = CHAR_0;
    out[pos++] = CHAR_0;
    out[pos++] = HEX[c >> 4];
    out[pos++] = HEX[c & 15];
  }
  return pos;
}

// The profile file as batches of lines { bytes, count }, one batch per chunk read (about a mebibyte), with the
// same options and errors as readProfiles.
export async function* readProfileLines(file, { skipBad = false, stats = createReadStats(), hash = null } = {}) {
  const parser = new ProfileLineParser(file, { skipBad, stats });
  const source = openBytes(file, { hash });
  try {
    for await (const bytes of source) {
      parser.push(bytes);
      if (parser.count > 0) yield parser.take();
    }
    parser.end();
    if (parser.count > 0) yield parser.take();
  } catch (error) {
    throw readError(file, error);
  } finally {
    source.destroy();
  }
}
