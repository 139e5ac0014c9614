// How an error reaches the user: one short line saying what went wrong, any detail on the lines below it,
// never a stack trace; Node's raw system and network errors in words.
import path from 'node:path';
import { ErrorCodes } from '../core/errors.js';

export const MAX_FIRST_LINE = 200;

const REFUSED = 'connection refused (is the server running and listening there?)';

// Node's raw network errors as drivers pass them on ("connect ECONNREFUSED 127.0.0.1:3306"), in the words the
// PostgreSQL adapter uses, so that every database's unreachable server reads the same.
const NETWORK_WORDS = [
  [/(?:connect )?ECONNREFUSED(?: \S+)?/g, REFUSED],
  [/getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (\S+)/g, 'host "$1" not found'],
  [/(?:connect )?ETIMEDOUT(?: \S+)?/g, 'no answer (timed out)'],
  [/(?:connect )?EHOSTUNREACH(?: \S+)?/g, 'host unreachable'],
  [/(?:read )?ECONNRESET/g, 'the server closed the connection'],
];

const VERBS = {
  open: 'open', mkdir: 'create the directory', write: 'write', unlink: 'remove', rename: 'rename',
  scandir: 'read the directory', stat: 'read', lstat: 'read', read: 'read', access: 'access', copyfile: 'copy',
};

// "EACCES: permission denied, open '/x'" -> "permission denied".
export function systemReason(error) {
  const match = /^[A-Z][A-Z0-9_]+: ([^,]+)/.exec(error.message ?? '');
  return match ? match[1] : String(error.message ?? error);
}

function inWords(error) {
  if (error.syscall && error.path && typeof error.errno === 'number') {
    return `cannot ${VERBS[error.syscall] ?? error.syscall} ${error.path}: ${systemReason(error)}`;
  }
  let message = String(error.message ?? error);
  for (const [pattern, words] of NETWORK_WORDS) message = message.replace(pattern, words);
  return message;
}

// The message of `error` with Node's codes in words; for the conformance report as well as for `error:` lines.
export const errorMessage = inWords;

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH']);

// Whether `error` says the server could not be reached (the adapters' E_CONNECT, or a raw network error
// somewhere in its causes).
export function isConnectionFailure(error) {
  for (let current = error; current; current = current.cause) {
    if (current.code === ErrorCodes.CONNECT || NETWORK_CODES.has(current.code)) return true;
    if (current.errors?.some?.((inner) => NETWORK_CODES.has(inner.code))) return true;
  }
  return false;
}

// What to do about a malformed line of a dataset file ("<file>:<line>: <problem>").
function datasetHint(error, argv) {
  if (error.code !== ErrorCodes.DATASET) return null;
  const match = /^(.+?):(\d+): /.exec(error.message);
  if (!match) return null;
  // A real dataset's files (the downloads, a user's edge file) may hold malformed lines; a generated one may not.
  if (argv?.dataset && argv.dataset !== 'synthetic') {
    return argv['skip-bad'] ? null : 'add --skip-bad to skip and count the malformed lines instead of stopping at the first';
  }
  const dir = path.dirname(match[1]);
  return `the generated file was changed after it was written; delete its directory and the next run generates it again: rm -r '${dir}'`;
}

// A first line longer than MAX_FIRST_LINE is cut at its last "; " or ": " before the limit, the rest below.
function shortFirstLine(line) {
  if (line.length <= MAX_FIRST_LINE) return [line];
  const head = line.slice(0, MAX_FIRST_LINE);
  const cut = Math.max(head.lastIndexOf('; '), head.lastIndexOf(': '));
  if (cut < 20) return [line];
  return [line.slice(0, cut + 1), line.slice(cut + 2)];
}

// The lines printed for an error that ends a command: "error: <short line>", then the detail indented.
export function formatError(error, argv) {
  const [first, ...rest] = inWords(error).split('\n');
  const [head, ...tail] = shortFirstLine(first);
  const hint = datasetHint(error, argv);
  const detail = [...tail, ...rest, ...(hint ? [hint] : [])].filter((line) => line.trim() !== '');
  return [`error: ${head}`, ...detail.map((line) => `  ${line.trim()}`)].join('\n');
}
