// Loading the import into a table. When the server allows LOAD DATA LOCAL INFILE, one such statement per stream
// takes a whole phase (LoadStream): its "file" is fed from memory, batch by batch, as the dataset is read.
// Otherwise every batch is stored by multi-row INSERT statements (insertRows). Either way rows that did not
// arrive whole are an error.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { BenchError, ErrorCodes } from '../../core/errors.js';

// Each chunk of the stream becomes one protocol packet of a few hundred KiB at most (a chunk ends after the
// row that crosses this length), well below any usual max_allowed_packet.
const CHUNK_CHARACTERS = 64 * 1024;
// LOAD DATA's format, spelled out below: a tab ends a field, a newline a line, and a backslash escapes. So
// exactly these three characters must be escaped in a value; every other byte is taken literally.
const TSV_SPECIAL = /[\\\t\n]/g;
const TSV_ESCAPES = { '\\': '\\\\', '\t': '\\t', '\n': '\\n' };
// Room for the INSERT text around the values, and for the quotes, commas and escapes of each row.
const STATEMENT_OVERHEAD_BYTES = 1024;
const ROW_OVERHEAD_BYTES = 16;
const WARNINGS_SHOWN = 3;
// How much of a LoadStream may wait in the client, unsent, before a write waits for the socket.
const LOAD_BUFFER_BYTES = 4 * 2 ** 20;
const NEWLINE = 0x0a;

// Most values need nothing, hence the tests before the replace (three scans for single characters are cheaper
// than the regular expression's).
export function tsvField(value) {
  return value.includes('\\') || value.includes('\t') || value.includes('\n')
    ? value.replace(TSV_SPECIAL, (character) => TSV_ESCAPES[character])
    : value;
}

// The batch as LOAD DATA text, built and encoded a chunk at a time as the driver sends it, so the server
// parses one chunk while the next is built.
export function* tsvChunks(items, toRow) {
  let text = '';
  for (const item of items) {
    const row = toRow(item);
    text += tsvField(row[0]);
    for (let i = 1; i < row.length; i += 1) text += `\t${tsvField(row[i])}`;
    text += '\n';
    if (text.length >= CHUNK_CHARACTERS) {
      yield Buffer.from(text, 'utf8');
      text = '';
    }
  }
  if (text.length > 0) yield Buffer.from(text, 'utf8');
}

function loadSql(table, columns) {
  return `LOAD DATA LOCAL INFILE 'import.tsv' INTO TABLE ${table} CHARACTER SET utf8mb4
    FIELDS TERMINATED BY '\\t' ENCLOSED BY '' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' STARTING BY ''
    (${columns.join(', ')})`;
}

// One LOAD DATA LOCAL INFILE kept open across many batches on one connection: the server parses and stores
// rows while the client reads the next ones, and the statement commits once, at end(). mysql2 sends the "file"
// as fast as it gets it, whatever the socket holds, so write() waits for the socket itself: memory stays
// bounded, and the client waits only for a slower server. With LOCAL the server turns bad rows into warnings
// instead of errors, so end() checks the rows taken and the warnings.
export class LoadStream {
  #connection;
  #table;
  #input = new PassThrough({ highWaterMark: LOAD_BUFFER_BYTES });
  #socket;
  #done;
  #error = null;
  #rows = 0;

  constructor(connection, table, columns) {
    this.#connection = connection;
    this.#table = table;
    this.#socket = connection.connection.stream;
    this.#done = connection.query({ sql: loadSql(table, columns), infileStreamFactory: () => this.#input });
    this.#done.catch((error) => {
      this.#error ??= error;
    });
  }

  // Queues `items`, each turned into one row of string values by `toRow`.
  async write(items, toRow) {
    if (this.#error) throw this.#error;
    let room = true;
    for (const chunk of tsvChunks(items, toRow)) room = this.#input.write(chunk);
    this.#rows += items.length;
    // Before the server asks for the file, the rows wait in #input; after, in the socket.
    if (!room) await this.#until(this.#input, 'drain');
    if (this.#socket.writableLength > LOAD_BUFFER_BYTES) await this.#until(this.#socket, 'drain');
    if (this.#error) throw this.#error;
  }

  // Queues lines already in LOAD DATA's format (bytes, each line ending in a newline), one row each.
  async writeLines(bytes) {
    if (this.#error) throw this.#error;
    let rows = 0;
    for (let i = 0; i < bytes.length; i += 1) if (bytes[i] === NEWLINE) rows += 1;
    this.#rows += rows;
    const room = this.#input.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (!room) await this.#until(this.#input, 'drain');
    if (this.#socket.writableLength > LOAD_BUFFER_BYTES) await this.#until(this.#socket, 'drain');
    if (this.#error) throw this.#error;
  }

  // Ends the statement; resolves once the server has committed it and taken every row without a warning.
  async end() {
    if (this.#error) throw this.#error;
    this.#input.end();
    const [result] = await this.#done;
    await checkLoaded(this.#connection, this.#table, this.#rows, result);
  }

  // Gives the statement up: later writes fail. The caller discards the connection, and the server rolls it back.
  abort() {
    this.#error ??= new Error('LOAD DATA abandoned');
  }

  async #until(emitter, event) {
    await Promise.race([once(emitter, event), this.#done]);
  }
}

// Stores a batch by multi-row INSERT statements, for a server without local_infile.
export async function insertBatch(connection, maxAllowedPacket, table, columns, items, toRow) {
  if (items.length === 0) return;
  await insertRows(connection, maxAllowedPacket, table, columns, items.map(toRow));
}

async function insertRows(connection, maxAllowedPacket, table, columns, rows) {
  const budget = Math.floor(maxAllowedPacket / 2) - STATEMENT_OVERHEAD_BYTES;
  const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES ?`;
  let begin = 0;
  while (begin < rows.length) {
    let end = begin;
    let bytes = 0;
    // Escaping at most doubles a value; at least one row per statement, whatever its size.
    do {
      bytes += ROW_OVERHEAD_BYTES + rows[end].reduce((sum, value) => sum + 2 * Buffer.byteLength(value), 0);
      end += 1;
    } while (end < rows.length && bytes < budget);
    const [result] = await connection.query(sql, [rows.slice(begin, end)]);
    await checkLoaded(connection, table, end - begin, result);
    begin = end;
  }
}

async function checkLoaded(connection, table, expected, result) {
  if (result.affectedRows === expected && result.warningStatus === 0) return;
  const [warnings] = await connection.query(`SHOW WARNINGS LIMIT ${WARNINGS_SHOWN}`);
  const details = warnings.map(({ Level, Code, Message }) => `${Level} ${Code}: ${Message}`).join('; ');
  throw new BenchError(
    ErrorCodes.IMPORT,
    `mysql: ${table} took ${result.affectedRows} of ${expected} rows with ${result.warningStatus} warnings` +
      (details ? ` (${details})` : ''),
  );
}
