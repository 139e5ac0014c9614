// A hand-written parser for SNAP's profile lines: 59 tab-separated columns and a trailing tab, one record per
// line, no quoting. It builds exactly the documents of columns.js rowToDocument, several times faster than a
// general CSV parser: it looks only at the tabs, skips the "null" fields without making strings of them, and
// checks a whole chunk for valid UTF-8 at once. Any line it does not accept goes through the column check
// and rowToDocument, so a malformed line gets the same message either way.
import { isUtf8 } from 'node:buffer';
import { INTEGER_COLUMNS, PROFILE_COLUMNS, rowToDocument } from './columns.js';
import { badLine, createReadStats } from './read-source.js';

// The 59 columns and the empty field after the trailing tab.
const PROFILE_FIELDS = PROFILE_COLUMNS.length + 1;
const IS_INTEGER = PROFILE_COLUMNS.map((column) => INTEGER_COLUMNS.has(column));
const INTEGER = /^-?\d+$/;
const NEWLINE = 0x0a;
const TAB = '\t';
const CHAR_0 = 48;
const CHAR_9 = 57;
const CHAR_L = 108;
const CHAR_N = 110;
const CHAR_U = 117;
// Ids are stored in Int32Arrays (graph.js).
const MAX_ID = 2 ** 31 - 1;

function isNull(text, start, end) {
  return end - start === 4 && text.charCodeAt(start) === CHAR_N && text.charCodeAt(start + 1) === CHAR_U
    && text.charCodeAt(start + 2) === CHAR_L && text.charCodeAt(start + 3) === CHAR_L;
}

// A document { _key } in dictionary mode. Documents hold a different subset of the columns nearly every time,
// so adding the columns one by one to an ordinary object walks and grows V8's tree of hidden classes: that
// was three quarters of the time of reading a profile. Deleting a property that is not the last one added
// turns the object into a hash table first; keys keep their insertion order, so the document is the same.
function newDocument(key) {
  const doc = { dictionary: true, _key: key };
  delete doc.dictionary;
  return doc;
}

// What the parser makes of a line's fields: a document (DocumentBuilder), or the JSON text that JSON.stringify
// gives for that document (JsonBuilder: the same keys in the same order, integers as numbers), built as the line
// is read, without the document.
class DocumentBuilder {
  start(key) {
    this.doc = newDocument(key);
  }

  text(column, value) {
    this.doc[column] = value;
  }

  integer(column, value) {
    this.doc[column] = Number(value);
  }

  finish() {
    return this.doc;
  }
}

// `,"column":` for each column.
const JSON_NAMES = Object.fromEntries(PROFILE_COLUMNS.map((column) => [column, `,${JSON.stringify(column)}:`]));

// A string JSON.stringify would write between quotes as it is: no quote, backslash or control character.
const JSON_PLAIN = /^[^"\\\u0000-\u001f]*$/;
// An integer JSON.stringify(Number(value)) would write as it is: no sign to drop, no leading zero, exact as a double.
const JSON_PLAIN_INTEGER = /^(?:0|-?[1-9]\d{0,14})$/;

class JsonBuilder {
  start(key) {
    this.key = key;
    this.parts = ['{"_key":', JSON_PLAIN.test(key) ? `"${key}"` : JSON.stringify(key)];
  }

  text(column, value) {
    this.parts.push(JSON_NAMES[column], JSON_PLAIN.test(value) ? `"${value}"` : JSON.stringify(value));
  }

  integer(column, value) {
    this.parts.push(JSON_NAMES[column], JSON_PLAIN_INTEGER.test(value) ? value : JSON.stringify(Number(value)));
  }

  finish() {
    this.parts.push('}');
    return this.parts.join('');
  }
}

// The problem with a line's fields, as the column check and rowToDocument state it; null when they accept it.
export function profileProblem(fields) {
  if (fields.length === PROFILE_FIELDS && fields[PROFILE_FIELDS - 1] === '') {
    try {
      rowToDocument(fields);
      return null;
    } catch (error) {
      return error.message;
    }
  }
  if (fields.length === 1 && fields[0] === '') return 'empty line';
  const trailingTab = fields[fields.length - 1] === '';
  const columns = trailingTab ? fields.length - 1 : fields.length;
  return `expected ${PROFILE_COLUMNS.length} tab-separated columns and a trailing tab, `
    + `found ${columns} columns ${trailingTab ? 'and a trailing tab' : 'without a trailing tab'}`;
}

// The user id of a line starting at `start` whose first tab is at `tab`; 0 when it is not a positive integer
// without leading zeros that fits an Int32.
function userId(text, start, tab) {
  if (tab === start || text.charCodeAt(start) === CHAR_0) return 0;
  let id = 0;
  for (let i = start; i < tab; i += 1) {
    const c = text.charCodeAt(i);
    if (c < CHAR_0 || c > CHAR_9) return 0;
    id = id * 10 + (c - CHAR_0);
    if (id > MAX_ID) return 0;
  }
  return id;
}

export class ProfileParser {
  // `json`: each line as its document's JSON text (JsonBuilder, which also keeps the key), not as a document; a
  // subclass takes both in accept() (profile-lines.js).
  constructor(file, { skipBad = false, stats = createReadStats(), json = false } = {}) {
    this.context = { file, skipBad, stats };
    this.builder = json ? new JsonBuilder() : new DocumentBuilder();
    this.stats = stats;
    this.line = 0;
    // The bytes of a line that the next chunk completes.
    this.rest = null;
    // One bit per user id already read: a second line with the same id is malformed.
    this.seen = new Uint8Array(1 << 18);
    // The documents of the lines parsed so far; the caller takes them.
    this.docs = [];
  }

  // Parses every complete line in `bytes`.
  push(bytes) {
    let start = 0;
    if (this.rest !== null) {
      const newline = bytes.indexOf(NEWLINE);
      if (newline === -1) {
        this.rest = Buffer.concat([this.rest, bytes]);
        return;
      }
      this.lineBytes(Buffer.concat([this.rest, bytes.subarray(0, newline)]));
      this.rest = null;
      start = newline + 1;
    }
    const last = bytes.lastIndexOf(NEWLINE);
    if (last >= start) {
      // Valid UTF-8 throughout (the rule) lets each line skip its own check.
      const valid = isUtf8(bytes.subarray(start, last));
      while (start <= last) {
        const newline = bytes.indexOf(NEWLINE, start);
        if (valid) this.validLine(bytes, start, newline);
        else this.lineBytes(bytes.subarray(start, newline));
        start = newline + 1;
      }
    }
    if (start < bytes.length) this.rest = Buffer.from(bytes.subarray(start));
  }

  // The last line, when the file does not end with a newline.
  end() {
    if (this.rest !== null) this.lineBytes(this.rest);
    this.rest = null;
  }

  // The line bytes[start, end), known to be valid UTF-8.
  validLine(bytes, start, end) {
    this.parse(bytes.toString('utf8', start, end));
  }

  // Decoding replaces each invalid UTF-8 sequence with U+FFFD; the line is counted as repaired.
  lineBytes(bytes) {
    if (!isUtf8(bytes)) this.stats.repairedLines += 1;
    this.parse(bytes.toString('utf8'));
  }

  parse(text) {
    this.line += 1;
    const end = text.length;
    let tab = text.indexOf(TAB);
    const id = tab === -1 ? 0 : userId(text, 0, tab);
    if (id === 0) return this.malformed(text);
    const { builder } = this;
    builder.start(`P${text.slice(0, tab)}`);
    let start = tab + 1;
    for (let i = 1; i < PROFILE_COLUMNS.length; i += 1) {
      tab = text.indexOf(TAB, start);
      if (tab === -1) return this.malformed(text);
      if (!isNull(text, start, tab)) {
        const value = text.slice(start, tab);
        if (IS_INTEGER[i]) {
          if (!INTEGER.test(value)) return this.malformed(text);
          builder.integer(PROFILE_COLUMNS[i], value);
        } else {
          builder.text(PROFILE_COLUMNS[i], value);
        }
      }
      start = tab + 1;
    }
    if (start !== end) return this.malformed(text);
    if (this.wasSeen(id)) return this.bad(`user_id ${id} appears on an earlier line too`);
    this.stats.rows += 1;
    this.accept(builder);
  }

  // A line read whole and accepted.
  accept(builder) {
    this.docs.push(builder.finish());
  }

  malformed(text) {
    const problem = profileProblem(text.split(TAB));
    this.bad(problem ?? `user_id is larger than ${MAX_ID}`);
  }

  bad(problem) {
    badLine(this.context, this.line, problem);
  }

  // Marks the id; true when it was marked already.
  wasSeen(id) {
    const byte = id >>> 3;
    if (byte >= this.seen.length) {
      let size = this.seen.length * 2;
      while (size <= byte) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.seen);
      this.seen = grown;
    }
    const bit = 1 << (id & 7);
    if (this.seen[byte] & bit) return true;
    this.seen[byte] |= bit;
    return false;
  }
}
