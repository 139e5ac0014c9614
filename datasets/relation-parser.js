// A byte-level parser for "src<TAB>dst<LF>" lines: the relation file of the full dataset has 30.6 M of them,
// too many for a general CSV parser. Pairs are written into reused arrays, valid until the next `push`.
// A tab before the newline is accepted (SNAP's profile lines have one), and so is a comment line starting
// with "#", as some SNAP edge lists begin with one; both cost nothing on the path of a regular line.
import { badLine, createReadStats } from './read-source.js';

const TAB = 0x09;
const NEWLINE = 0x0a;
const HASH = 0x23;
const ZERO = 0x30;
const MAX_ID = 2 ** 31 - 1;
// Parser states: reading the source id, the target id, after a trailing tab, skipping the rest of a line.
const SOURCE = 0;
const TARGET = 1;
const TRAILING = 2;
const SKIP = 3;

export class RelationParser {
  constructor(file, { skipBad = false, stats = createReadStats() } = {}) {
    this.context = { file, skipBad, stats };
    this.stats = stats;
    this.line = 1;
    this.field = SOURCE;
    this.value = 0;
    this.digits = 0;
    this.source = 0;
    this.comment = false;
    this.from = new Int32Array(0);
    this.to = new Int32Array(0);
  }

  // Reports the current line as malformed: throws, or with skipBad counts it; the caller skips its rest.
  fail(problem) {
    badLine(this.context, this.line, problem);
  }

  // Returns the number of complete lines in `bytes`, stored in this.from and this.to.
  push(bytes) {
    // The shortest line, "1\t1\n", has four bytes.
    const capacity = (bytes.length >>> 2) + 1;
    if (this.from.length < capacity) {
      this.from = new Int32Array(capacity);
      this.to = new Int32Array(capacity);
    }
    const { from, to, stats } = this;
    let { field, value, digits, source } = this;
    let count = 0;
    for (let i = 0; i < bytes.length; i += 1) {
      const byte = bytes[i];
      const digit = byte - ZERO;
      if (digit >= 0 && digit <= 9 && field <= TARGET) {
        value = value * 10 + digit;
        digits += 1;
        if (value > MAX_ID) {
          this.fail(`id too large (${field === SOURCE ? 'source' : 'target'})`);
          field = SKIP;
        }
      } else if (byte === TAB && field === SOURCE) {
        if (digits === 0 || value === 0) {
          this.fail(digits === 0 ? 'missing source id' : 'source id 0; ids start at 1');
          field = SKIP;
        } else {
          source = value;
          field = TARGET;
          value = 0;
          digits = 0;
        }
      } else if (byte === NEWLINE) {
        if (field === TARGET || field === TRAILING) {
          if (digits > 0 && value > 0) {
            from[count] = source;
            to[count] = value;
            count += 1;
          } else {
            this.fail(digits === 0 ? 'missing target id' : 'target id 0; ids start at 1');
          }
        } else if (field === SOURCE) {
          this.fail(digits === 0 ? 'empty line' : 'expected two tab-separated ids, found one');
        } else if (this.comment) {
          stats.comments += 1;
          this.comment = false;
        }
        this.line += 1;
        field = SOURCE;
        value = 0;
        digits = 0;
      } else if (field === SKIP) {
        // The rest of a skipped line or of a comment.
      } else if (byte === TAB && field === TARGET && digits > 0) {
        field = TRAILING;
      } else if (byte === TAB || field === TRAILING) {
        this.fail('expected two tab-separated ids, found more');
        field = SKIP;
      } else if (byte === HASH && field === SOURCE && digits === 0) {
        this.comment = true;
        field = SKIP;
      } else {
        this.fail(`unexpected character ${JSON.stringify(String.fromCharCode(byte))} in an id`);
        field = SKIP;
      }
    }
    Object.assign(this, { field, value, digits, source });
    stats.rows += count;
    return count;
  }

  end() {
    if (this.field === SKIP) {
      if (this.comment) this.stats.comments += 1;
    } else if (this.field !== SOURCE || this.digits !== 0) {
      this.fail('the last line has no newline: the file looks truncated');
    }
  }
}
