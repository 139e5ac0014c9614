// The CSV files `neo4j-admin database import full` reads: profiles as nodes whose properties are exactly what the
// online import stores (integer columns as INTEGER, every other field as STRING, an absent field absent),
// relations as relationships between them, and the namespace's marker node.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { INTEGER_COLUMNS, PROFILE_COLUMNS } from '../../datasets/columns.js';

// The profile document's fields after `_key`, in file order.
const FIELDS = PROFILE_COLUMNS.slice(1);
const IS_INTEGER = FIELDS.map((field) => INTEGER_COLUMNS.has(field));
const KNOWN = new Set(['_key', ...FIELDS]);
const NEWLINE = /[\r\n]/;

// Quoted, with inner quotes doubled (RFC 4180, the importer's default). A quoted empty string stays an empty
// string; an unquoted empty field is no property at all, as an absent field is online.
function quoted(text) {
  return `"${text.replaceAll('"', '""')}"`;
}

class CsvFile {
  #stream;

  constructor(file, header) {
    this.file = file;
    this.#stream = createWriteStream(file);
    // A write error is raised by the next write or by close().
    this.error = null;
    this.#stream.on('error', (error) => { this.error = error; });
    this.#stream.write(`${header}\n`);
  }

  async write(text) {
    if (this.error) throw this.error;
    if (!this.#stream.write(text)) await this.#drained();
    if (this.error) throw this.error;
  }

  // Resolves on 'drain', or on an error, after which no 'drain' comes.
  #drained() {
    const stream = this.#stream;
    return new Promise((resolve) => {
      const done = () => {
        stream.off('drain', done);
        stream.off('error', done);
        resolve();
      };
      stream.on('drain', done);
      stream.on('error', done);
    });
  }

  async close() {
    if (!this.#stream.closed) {
      this.#stream.end();
      await once(this.#stream, 'close').catch(() => {});
    }
    if (this.error) throw this.error;
  }
}

function wrongField(doc, field, what) {
  return new BenchError(ErrorCodes.IMPORT, `neo4j: profile ${doc._key}: field ${field} ${what}; `
    + 'the offline import writes the profile columns of datasets/columns.js only');
}

// One CSV row of a profile document. Throws on a field the header has no column for, or of another type than
// its column: the node would differ from the one the online import stores.
function profileRow(doc) {
  for (const field of Object.keys(doc)) if (!KNOWN.has(field)) throw wrongField(doc, field, 'has no column');
  let row = quoted(doc._key);
  for (let i = 0; i < FIELDS.length; i += 1) {
    const value = doc[FIELDS[i]];
    row += ',';
    if (value === undefined) continue;
    if (IS_INTEGER[i]) {
      if (!Number.isInteger(value)) throw wrongField(doc, FIELDS[i], 'is not an integer');
      row += String(value);
    } else {
      if (typeof value !== 'string') throw wrongField(doc, FIELDS[i], 'is not a string');
      row += quoted(value);
    }
  }
  return `${row}\n`;
}

// The three files in `dir`, written batch by batch; `files()` names them with their labels and type for the
// importer's command line once `close()` has resolved.
export function createCsvWriter(dir, names) {
  const group = names.profile;
  const profiles = new CsvFile(path.join(dir, 'profiles.csv'),
    [`_key:ID(${group})`, ...FIELDS.map((field, i) => (IS_INTEGER[i] ? `${field}:long` : field))].join(','));
  const relations = new CsvFile(path.join(dir, 'relations.csv'), `:START_ID(${group}),:END_ID(${group})`);
  const marker = new CsvFile(path.join(dir, 'marker.csv'), 'marker');
  // Whether a value holds a line break: the importer then has to be told (it reads such files more slowly).
  let multiline = false;

  return {
    async writeProfiles(docs) {
      let text = '';
      for (const doc of docs) {
        const row = profileRow(doc);
        if (!multiline && NEWLINE.test(row.slice(0, -1))) multiline = true;
        text += row;
      }
      await profiles.write(text);
    },
    async writeRelations(edges) {
      let text = '';
      // Profile keys are `P` and digits (datasets/columns.js): nothing to quote.
      for (const { _from, _to } of edges) text += `${_from},${_to}\n`;
      await relations.write(text);
    },
    async writeMarker(value) {
      await marker.write(`${quoted(JSON.stringify(value))}\n`);
    },
    async close() {
      const results = await Promise.allSettled([profiles, relations, marker].map((file) => file.close()));
      const failed = results.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    },
    get multiline() {
      return multiline;
    },
    // The importer's --nodes and --relationships arguments.
    arguments() {
      return [`--nodes=${names.profile}=${profiles.file}`, `--nodes=${names.marker}=${marker.file}`,
        `--relationships=${names.type}=${relations.file}`];
    },
  };
}
