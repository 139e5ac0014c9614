// Reading result documents: files, or directories meaning every *.json directly inside them (in name order,
// so a report does not depend on the order the file system lists them in).
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { RESULT_SCHEMA } from '../model.js';
import { ReportErrorCodes, reportError } from './errors.js';

// Why a path cannot be read, in words ("no such file or directory (ENOENT)"), the code kept for a search.
const WORDS = { ENOENT: 'no such file or directory', EACCES: 'permission denied', EISDIR: 'a directory, not a file', ENOTDIR: 'a part of the path is not a directory' };
const unreadable = (target, error) => reportError(ReportErrorCodes.NOT_A_RESULT,
  `${target}: cannot read it: ${WORDS[error.code] ? `${WORDS[error.code]} (${error.code})` : error.code ?? error.message}`);

async function filesOf(target) {
  let info;
  try {
    info = await stat(target);
  } catch (error) {
    throw unreadable(target, error);
  }
  if (!info.isDirectory()) return [target];
  const names = (await readdir(target)).filter((name) => name.endsWith('.json')).sort();
  if (names.length === 0) throw reportError(ReportErrorCodes.NO_RESULTS, `${target}: the directory holds no *.json result file`);
  return names.map((name) => path.join(target, name));
}

// The least a document needs for a report to use it; anything else is not a result document of this schema.
function checkDocument(file, document) {
  const problem = document === null || typeof document !== 'object' ? 'not a JSON object'
    : document.schema !== RESULT_SCHEMA ? `schema is ${JSON.stringify(document.schema ?? null)}, expected "${RESULT_SCHEMA}"`
      : typeof document.db?.id !== 'string' ? 'no db.id'
        // A crash test (`bench crash`) has a durability section instead of a dataset.
        : typeof document.dataset?.id !== 'string' && !(document.durability && typeof document.durability === 'object') ? 'no dataset.id'
          : document.workloads === null || typeof document.workloads !== 'object' ? 'no workloads object'
            : null;
  if (problem) throw reportError(ReportErrorCodes.NOT_A_RESULT, `${file} is not a ${RESULT_SCHEMA} result document: ${problem}`);
}

export async function readResult(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw unreadable(file, error);
  }
  let document;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw reportError(ReportErrorCodes.NOT_A_RESULT, `${file} is not a ${RESULT_SCHEMA} result document: not valid JSON (${error.message})`);
  }
  checkDocument(file, document);
  return { file, result: document };
}

// [{ file, result }] of every file named or found in a named directory, each file once.
export async function loadResults(targets) {
  if (targets.length === 0) throw reportError(ReportErrorCodes.NO_RESULTS, 'name at least one result file or directory');
  const files = new Map(); // resolved path → the path as the user wrote it, which the report prints
  for (const target of targets) {
    for (const file of await filesOf(target)) if (!files.has(path.resolve(file))) files.set(path.resolve(file), file);
  }
  return Promise.all([...files.values()].map(readResult));
}
