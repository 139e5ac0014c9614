// A byte-level parser for edge lists, "source<SEP>target[<SEP>weight]<LF>": SNAP's edge lists (tab), CSV
// (comma) and whitespace-aligned files (one or more spaces) alike, one separator kind per line, "\r\n" accepted.
// Ids are integers 1..2^31-1 and weights integers 0..2^31-1, so that every value fits an Int32Array. Lines
// starting with "#" or "%" (SNAP's and Matrix Market's comments) are counted, not parsed. The first edge line
// sets the number of columns, two or three, for the whole file. Edges are written into reused arrays, valid
// until the next `push`; `weight` is filled only for three columns.
import { BenchError, ErrorCodes } from '../core/errors.js';
import { badLine, createReadStats, openBytes, readError } from './read-source.js';

const TAB = 0x09;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const SPACE = 0x20;
const HASH = 0x23;
const PERCENT = 0x25;
const COMMA = 0x2c;
const MINUS = 0x2d;
const ZERO = 0x30;
const MAX_VALUE = 2 ** 31 - 1;
// Columns 0..2 are read as numbers; AFTER_LAST follows a third column (only a trailing separator may come);
// AFTER_RETURN expects the newline of "\r\n"; SKIP is the rest of a comment or of a malformed line.
const AFTER_LAST = 3;
const AFTER_RETURN = 4;
const SKIP = 5;
const COLUMN_NAMES = ['source id', 'target id', 'weight'];
const TOO_MANY = 'too many columns: expected two or three';
const SEPARATOR_NAMES = { [TAB]: 'a tab', [COMMA]: 'a comma', [SPACE]: 'a space' };

function shown(byte) {
  return JSON.stringify(String.fromCharCode(byte));
}

export class EdgeParser {
  constructor(file, { skipBad = false, stats = createReadStats() } = {}) {
    this.file = file;
    this.context = { file, skipBad, stats };
    this.stats = stats;
    this.line = 1;
    // Set by the first edge line: its column count and its line number, named when a later line differs.
    this.columns = 0;
    this.columnsLine = 0;
    this.edges = 0;
    this.field = 0;
    this.value = 0;
    this.digits = 0;
    this.separator = 0;
    this.gap = false;
    this.comment = false;
    this.returnField = 0;
    this.parts = new Int32Array(3);
    this.source = new Int32Array(0);
    this.target = new Int32Array(0);
    this.weight = new Int32Array(0);
  }

  // Reports the current line as malformed: throws, or with skipBad counts it; the caller skips its rest.
  fail(problem) {
    badLine(this.context, this.line, problem);
  }

  // Checks and keeps the value of column `field`, just ended; false when the line is malformed.
  keep(field, value) {
    if (value === 0 && field < 2) {
      this.fail(`${COLUMN_NAMES[field]} 0; ids start at 1`);
      return false;
    }
    this.parts[field] = value;
    return true;
  }

  // The line just ended had `columns` columns, kept in this.parts; true when it is an edge.
  complete(columns) {
    if (columns === 1) {
      this.fail('missing target id: the line has one column');
      return false;
    }
    if (this.columns === 0) {
      this.columns = columns;
      this.columnsLine = this.line;
      if (columns === 3 && this.weight.length < this.source.length) this.weight = new Int32Array(this.source.length);
    } else if (columns !== this.columns) {
      this.fail(`expected ${this.columns} columns like line ${this.columnsLine}, found ${columns}`);
      return false;
    }
    return true;
  }

  // Returns the number of complete edge lines in `bytes`, stored in this.source, this.target (and this.weight).
  push(bytes) {
    // The shortest line, "1,1\n", has four bytes.
    const capacity = (bytes.length >>> 2) + 1;
    if (this.source.length < capacity) {
      this.source = new Int32Array(capacity);
      this.target = new Int32Array(capacity);
      if (this.columns === 3) this.weight = new Int32Array(capacity);
    }
    const { source, target, parts, stats } = this;
    let { field, value, digits, separator, gap } = this;
    let count = 0;
    for (let i = 0; i < bytes.length; i += 1) {
      const byte = bytes[i];
      const digit = byte - ZERO;
      if (digit >= 0 && digit <= 9 && field < AFTER_LAST) {
        value = value * 10 + digit;
        digits += 1;
        gap = false;
        if (value > MAX_VALUE) {
          this.fail(`${COLUMN_NAMES[field]} too large (over ${MAX_VALUE})`);
          field = SKIP;
        }
      } else if (byte === NEWLINE) {
        if (field === AFTER_RETURN) field = this.returnField;
        if (digits > 0 && field + 1 === this.columns && (value > 0 || field === 2)) {
          // The common line: as many well-formed columns as the first edge line.
          source[count] = parts[0];
          if (field === 2) {
            target[count] = parts[1];
            this.weight[count] = value;
          } else {
            target[count] = value;
          }
          count += 1;
        } else if (field === SKIP) {
          if (this.comment) stats.comments += 1;
        } else if (this.endLine(field, value, digits, separator, gap)) {
          if (this.columns === 3) this.weight[count] = parts[2];
          source[count] = parts[0];
          target[count] = parts[1];
          count += 1;
        }
        this.line += 1;
        this.comment = false;
        field = 0;
        value = 0;
        digits = 0;
        separator = 0;
        gap = false;
      } else if (field === SKIP) {
        // The rest of a comment or of a malformed line.
      } else if (field === AFTER_RETURN) {
        this.fail('a carriage return inside a line');
        field = SKIP;
      } else if (byte === TAB || byte === COMMA || byte === SPACE) {
        if (!gap && digits > 0 && (value > 0 || field === 2) && (byte === separator || separator === 0)) {
          // The common separator: after a well-formed id or weight.
          separator = byte;
          parts[field] = value;
          field += 1;
          value = 0;
          digits = 0;
          gap = true;
          continue;
        }
        if (separator === 0) separator = byte;
        if (byte !== separator) {
          this.fail(`${SEPARATOR_NAMES[byte]} after ${SEPARATOR_NAMES[separator]}: one separator kind per line`);
          field = SKIP;
        } else if (gap) {
          // Spaces align columns: several of them are one separator.
          if (byte !== SPACE) {
            this.fail(field === AFTER_LAST ? TOO_MANY : `missing ${COLUMN_NAMES[field]}: an empty column`);
            field = SKIP;
          }
        } else if (digits === 0) {
          this.fail(`missing source id: the line starts with ${SEPARATOR_NAMES[byte]}`);
          field = SKIP;
        } else if (this.keep(field, value)) {
          field += 1;
          value = 0;
          digits = 0;
          gap = true;
        } else {
          field = SKIP;
        }
      } else if (byte === RETURN) {
        this.returnField = field;
        field = AFTER_RETURN;
      } else if ((byte === HASH || byte === PERCENT) && field === 0 && digits === 0 && separator === 0) {
        this.comment = true;
        field = SKIP;
      } else {
        this.fail(this.unexpected(field, byte, digits));
        field = SKIP;
      }
    }
    Object.assign(this, { field, value, digits, separator, gap });
    this.edges += count;
    stats.rows += count;
    return count;
  }

  // Ends the line at a newline; true when it is an edge (its columns in this.parts).
  endLine(field, value, digits, separator, gap) {
    if (field === AFTER_LAST) {
      if (separator !== COMMA) return this.complete(3);
      this.fail(`${TOO_MANY}, found a comma after the third`);
      return false;
    }
    if (digits > 0) return this.keep(field, value) && this.complete(field + 1);
    if (!gap) {
      this.fail(field === 0 && separator === 0 ? 'empty line' : `missing ${COLUMN_NAMES[field]}`);
      return false;
    }
    // A trailing tab or space ends the line's last column (SNAP's profile lines have one); a trailing comma
    // announces a column that is missing.
    if (separator === COMMA) {
      this.fail(`missing ${COLUMN_NAMES[field]}: the line ends with a comma`);
      return false;
    }
    return this.complete(field);
  }

  unexpected(field, byte, digits) {
    if (field === AFTER_LAST) return TOO_MANY;
    if (byte === MINUS && digits === 0) {
      return field === 2 ? `negative weight; weights are 0..${MAX_VALUE}` : `negative ${COLUMN_NAMES[field]}; ids start at 1`;
    }
    return `non-numeric ${COLUMN_NAMES[field]}: unexpected ${shown(byte)}`;
  }

  // After the last chunk: a last line without its newline is a truncated file; a file without a single edge
  // is an error even with skipBad, as nothing could be measured on it.
  end() {
    if (this.field === SKIP) {
      if (this.comment) this.stats.comments += 1;
    } else if (this.field !== 0 || this.digits !== 0 || this.gap || this.separator !== 0) {
      this.fail('the last line has no newline: the file looks truncated');
    }
    if (this.edges === 0) throw new BenchError(ErrorCodes.DATASET, `${this.file}: holds no edge`);
  }
}

// The edges of `file` (plain or .gz) chunk by chunk, as { count, columns, source, target, weight }: the parser's
// reused arrays, valid until the next chunk. `hash` receives the file's bytes as stored (openBytes).
export async function* readEdgeChunks(file, { skipBad = false, stats = createReadStats(), hash = null } = {}) {
  const parser = new EdgeParser(file, { skipBad, stats });
  const chunk = (count) => ({ count, columns: parser.columns, source: parser.source, target: parser.target, weight: parser.weight });
  const bytes = openBytes(file, { hash });
  try {
    for await (const data of bytes) yield chunk(parser.push(data));
    parser.end();
  } catch (error) {
    throw readError(file, error);
  } finally {
    bytes.destroy();
  }
}
