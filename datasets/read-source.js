// What every reader shares: opening a file (plain or .gz), errors that name the file and line, and the
// statistics of a read, which tell a caller how much of a file was repaired or skipped.
import { createReadStream } from 'node:fs';
import { pipeline, Transform } from 'node:stream';
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
// `hash` (a crypto Hash), when given, receives the bytes as stored, before any gunzip: what a manifest's
// sha256 covers. It has seen the whole file once the returned stream has ended.
export function openBytes(file, { hash = null } = {}) {
  const raw = createReadStream(file, { highWaterMark: READ_CHUNK });
  const stages = [raw];
  if (hash) stages.push(hashing(hash));
  if (file.endsWith('.gz')) stages.push(createGunzip({ chunkSize: READ_CHUNK }));
  if (stages.length === 1) return raw;
  pipeline(...stages, () => {});
  return stages.at(-1);
}

function hashing(hash) {
  return new Transform({
    highWaterMark: READ_CHUNK,
    transform(chunk, encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
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
