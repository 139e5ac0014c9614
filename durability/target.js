// What a crash test may kill: a local server that `bench server start` started (its state in the cache), or
// an embedded database that keeps its data in files, run in a child process of the harness. Anything else
// (a remote host, a server the harness did not start, a store with nothing on disk) is refused.
import { usageError } from '../core/errors.js';
import { SERVER_FAMILIES, serverFamily } from '../server/index.js';
import { isProgram } from '../server/process.js';
import { runningServer } from '../server/state.js';
import { crashModes } from './load.js';

// An embedded database whose data lives in files (every one whose durability terms write somewhere: scope 'none'
// says nothing reaches a disk, as in the memory store): the harness runs it in a child process it can kill.
export function embeddedOnDisk(description) {
  return description.kind === 'embedded' && Boolean(description.terms?.durability)
    && description.terms.durability.scope !== 'none';
}

const refuse = (reason) => usageError(`cannot crash a server it did not start: ${reason}`);
// A store that is neither a server nor on disk: nothing a crash could lose.
const nothingToCrash = (reason) => usageError(`nothing to crash: ${reason}`);

// Whether a crash test can take this database at all: an insert to load it with, and data in files of an
// embedded database or a local server `bench server` runs.
export function crashable(description) {
  return crashModes(description).length > 0
    && (embeddedOnDisk(description) || SERVER_FAMILIES.includes(description.server));
}

// { kind: 'child' } or { kind: 'server', server, state }. `host` and `port`, when given, must name the local
// server itself.
export function crashTarget(description, { cacheDir, host, port }) {
  if (crashModes(description).length === 0) {
    throw usageError(`${description.name} offers no insert a crash test can load it with (singleWrite, singleWriteSync or insertDocument)`);
  }
  if (embeddedOnDisk(description)) {
    if (host !== undefined || port !== undefined) throw refuse(`${description.name} is embedded; --host and --port do not apply`);
    return { kind: 'child' };
  }
  if (!SERVER_FAMILIES.includes(description.server)) {
    throw description.kind === 'server'
      ? refuse(`${description.name} has no local server that \`bench server\` runs`)
      : nothingToCrash(`${description.name} keeps nothing outside the harness's process`);
  }
  const server = serverFamily(description.server);
  const state = runningServer(cacheDir, server.family);
  if (!state) {
    throw refuse(`no local ${server.name} started by \`bench server start ${server.family}\` is running under ${cacheDir}`);
  }
  // A recycled pid must never be killed.
  if (!isProgram(state.pid, state.program)) {
    throw refuse(`pid ${state.pid} recorded for ${server.name} is no longer ${state.program}`);
  }
  if ((host !== undefined && host !== state.host) || (port !== undefined && port !== state.port)) {
    throw refuse(`${host ?? state.host}:${port ?? state.port} is not the local ${server.name} (${state.host}:${state.port}, pid ${state.pid})`);
  }
  return { kind: 'server', server, state };
}
