// What every reader shares: opening a file (plain or .gz), errors that name the file and line, and the
// statistics of a read, which tell a caller how much of a file was repaired or skipped.
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { BenchError, ErrorCodes } from '../core/errors.js';

const READ_CHUNK = 1 << 20;
// A skipped line is reported by its file and line; a few are kept as examples, the rest only counted.
const SKIPPED_EXAMPLES = 10;

export function lineError(file, line, problem) {
  return new BenchError(ErrorCodes.DATASET, `${file}:${line}: ${problem}`);
}

export function readError(file, error) {
  if (error instanceof BenchError) return error;
  return new BenchError(ErrorCodes.DATASET, `${file}: ${error.message}`, { cause: error });
}

// The file's bytes, gunzipped when its name ends in .gz, so that SNAP's downloads need not be unpacked.
// A read or gunzip error destroys the returned stream with that error, so it reaches whoever iterates it.
export function openBytes(file) {
  const raw = createReadStream(file, { highWaterMark: READ_CHUNK });
  if (!file.endsWith('.gz')) return raw;
  const gunzip = createGunzip({ chunkSize: READ_CHUNK });
  pipeline(raw, gunzip, () => {});
  return gunzip;
}

// Filled in by a reader as it goes: `rows` read, `repairedLines` holding invalid UTF-8 (each invalid
// sequence became U+FFFD), `skippedLines` malformed and skipped (only with skipBad; `skipped` keeps the
// first few as { line, problem }), and `comments`, lines starting with "#" in a relation file.
export function createReadStats() {
  return { rows: 0, repairedLines: 0, skippedLines: 0, skipped: [], comments: 0 };
}

// A malformed line: an error naming the file and line, or with skipBad a counted, skipped line.
export function badLine({ file, skipBad, stats }, line, problem) {
  if (!skipBad) throw lineError(file, line, problem);
  stats.skippedLines += 1;
  if (stats.skipped.length < SKIPPED_EXAMPLES) stats.skipped.push({ line, problem });
}
