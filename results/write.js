import { closeSync, openSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { makeDirectory } from '../core/paths.js';

// More invocations than this starting in one second in one directory is not a race but a broken directory.
const MAX_CLAIMS = 1000;

export function resultFileName(result) {
  const stamp = result.startedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  // The social suite's files are named by the dataset's scale, another suite's by the suite.
  const what = result.suite && result.suite !== 'social' ? result.suite : result.dataset.scale;
  return `${result.db.id}-${what}-${stamp}.json`;
}

// A new file in `dir` for this result, never one that exists: two invocations that start in the same second
// (the name's resolution) get `-2`, `-3`, ... instead of overwriting each other. The name is claimed by
// creating the file exclusively, so concurrent invocations cannot pick the same one either. Synchronous, as
// writeResult is, so that a signal handler never runs in the middle of it.
export function claimResultFile(dir, result) {
  makeDirectory(dir);
  const base = resultFileName(result).replace(/\.json$/, '');
  for (let n = 1; n <= MAX_CLAIMS; n += 1) {
    const file = path.join(dir, n === 1 ? `${base}.json` : `${base}-${n}.json`);
    try {
      closeSync(openSync(file, 'wx'));
      return file;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
  throw new BenchError(ErrorCodes.OUTPUT, `${dir} already holds ${MAX_CLAIMS} result files named ${base}*.json`);
}

// Written to a temporary file and renamed, so a reader never sees half a document. Synchronous: once it
// returns the document is on disk, and a second Ctrl-C (whose handler can only run between two JavaScript
// tasks) cannot cut it between the write and the rename.
export function writeResult(file, result) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(result, null, 2)}\n`);
  renameSync(temporary, file);
  return file;
}
