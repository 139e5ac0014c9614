// COPY ... FROM STDIN in text format: one line per row, columns separated by tabs, NULL written as \N.
import { once } from 'node:events';
import { from as copyFrom } from 'pg-copy-streams';
import { split } from '../bulk-load.js';

const NULL = '\\N';
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
// How much a COPY stream buffers in the client before a write waits for the socket to take it.
const COPY_BUFFER_BYTES = 4 * 2 ** 20;

// The text format's escapes: backslash, tab, newline and carriage return. Escaping the backslash also rules out
// the end-of-data marker "\.". Most values need nothing, hence the tests before the replace (four scans for
// single characters are cheaper than one regular-expression test).
export function copyText(value) {
  return value.includes('\\') || value.includes('\t') || value.includes('\n') || value.includes('\r')
    ? value.replace(SPECIALS, (character) => ESCAPES[character])
    : value;
}

// One row: strings and numbers as text, null as \N.
export function copyLine(values) {
  let line = '';
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (i > 0) line += '\t';
    line += value === null ? NULL : copyText(String(value));
  }
  return `${line}\n`;
}

// The COPY text of `rows` in `parts` consecutive slices (as bulk-load.js's split cuts a batch), each as UTF-8
// bytes that own their buffer, so that the thread that makes them can hand them over without a copy.
export function copyTexts(rows, parts, rowValues) {
  const encoder = new TextEncoder();
  return split(rows, parts).map((part) => {
    let text = '';
    for (const row of part) text += copyLine(rowValues(row));
    return encoder.encode(text);
  });
}

// What a COPY stream of pg-copy-streams 7 writes to once its connection is gone: nothing. On an error (the server
// gone mid-COPY) the library drops the connection, but writes it had buffered, a wait for the socket's 'drain' and
// its own end or destroy still write to it later, and the null connection they meet throws a TypeError out of an
// event handler, which ends the process (brianc/node-pg-copy-streams#171, open). Those late writes find this
// connection instead; the error itself reaches the stream's 'error' listeners as before.
const GONE = Object.freeze({
  stream: Object.freeze({ write: () => true }),
  sendCopyFail: () => {},
});

export function inertAfterError(query) {
  let connection = null;
  Object.defineProperty(query, 'connection', {
    get: () => connection ?? GONE,
    set: (value) => { connection = value; },
  });
  return query;
}

// One COPY kept open across many batches on one connection: the server parses rows while the client reads
// the next ones, and pays the COPY's start and commit once. A write resolves as soon as the client's buffer
// is below COPY_BUFFER_BYTES again, so memory stays bounded and the client waits only for a slower server.
// The rows become visible when end() resolves; a failure of the server's (a row it rejects) surfaces in the
// next write() or in end().
export class CopyStream {
  #stream;
  #done;
  #error = null;

  constructor(client, sql) {
    this.#stream = client.query(inertAfterError(copyFrom(sql, { highWaterMark: COPY_BUFFER_BYTES })));
    this.#done = new Promise((resolve, reject) => {
      this.#stream.once('finish', resolve);
      // Kept for good: after abort() the connection's end is reported here too.
      this.#stream.on('error', (error) => {
        this.#error ??= error;
        reject(error);
      });
    });
    this.#done.catch(() => {});
  }

  // Queues `text` (whole lines), a string or its UTF-8 bytes.
  async write(text) {
    if (this.#error) throw this.#error;
    const bytes = typeof text === 'string' ? Buffer.from(text) : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
    if (this.#stream.write(bytes)) return;
    await Promise.race([once(this.#stream, 'drain'), this.#done]);
    if (this.#error) throw this.#error;
  }

  // Ends the COPY; resolves once the server has committed it.
  async end() {
    if (this.#error) throw this.#error;
    this.#stream.end();
    await this.#done;
  }

  // Gives up the COPY: later writes fail. The caller discards the connection, and the server rolls it back.
  abort() {
    this.#error ??= new Error('COPY aborted');
  }
}
