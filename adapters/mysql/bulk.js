// Loading one import batch into a table: LOAD DATA LOCAL INFILE fed from memory when the server allows it,
// multi-row INSERT statements otherwise. Either way the batch is one statement's worth of rows per round trip,
// and a batch that did not arrive whole is an error.
import { Readable } from 'node:stream';
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

export function tsvField(value) {
  return value.replace(TSV_SPECIAL, (character) => TSV_ESCAPES[character]);
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

// Stores `items`, each turned into one row of string values by `toRow`. `server` is { localInfile,
// maxAllowedPacket } as the server reports them.
export async function loadRows(connection, server, table, columns, items, toRow) {
  if (items.length === 0) return;
  if (server.localInfile) {
    await loadDataLocal(connection, table, columns, items, toRow);
  } else {
    await insertRows(connection, server.maxAllowedPacket, table, columns, items.map(toRow));
  }
}

// With LOCAL the server turns bad rows into warnings instead of errors, so the counts are checked here.
async function loadDataLocal(connection, table, columns, items, toRow) {
  const [result] = await connection.query({
    sql: `LOAD DATA LOCAL INFILE 'batch.tsv' INTO TABLE ${table} CHARACTER SET utf8mb4
      FIELDS TERMINATED BY '\\t' ENCLOSED BY '' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' STARTING BY ''
      (${columns.join(', ')})`,
    infileStreamFactory: () => Readable.from(tsvChunks(items, toRow), { objectMode: false }),
  });
  await checkLoaded(connection, table, items.length, result);
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
