// COPY ... FROM STDIN in text format: one line per row, columns separated by tabs, NULL written as \N.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';

const NULL = '\\N';
const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

// The text format's escapes: backslash, tab, newline and carriage return. Escaping the backslash also rules out
// the end-of-data marker "\.". Most values need nothing, hence the test before the replace.
export function copyText(value) {
  return SPECIAL.test(value) ? value.replace(SPECIALS, (character) => ESCAPES[character]) : value;
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

// Streams `text` (whole lines) through one COPY on `client`; resolves once the server has finished the COPY.
export async function copyIn(client, sql, text) {
  await pipeline(Readable.from([Buffer.from(text)]), client.query(copyFrom(sql)));
}
