// `bench server <install|start|stop|status> <family>`: throwaway local servers bound to 127.0.0.1, with
// their data under the harness's cache and a state file that `bench run` reads for its connection defaults.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { BenchError, ErrorCodes } from '../core/errors.js';
import mariadb from './mariadb.js';
import neo4j from './neo4j.js';
import orientdb from './orientdb.js';
import postgresql from './postgresql.js';
import pouchdb from './pouchdb.js';
import { confirmOwnListener, isProgram, killTree, requireFreePort, stopProcessTree, treeOf } from './process.js';
import { runningServer, serverDir, stateFile } from './state.js';

const SERVERS = { postgresql, mariadb, neo4j, orientdb, pouchdb };

// How long a server may take to stop by itself before its process tree is killed. A clean stop of any of them
// takes a few seconds; a MariaDB once ignored SIGTERM for more than a minute.
export const STOP_GRACE_MS = 30_000;
// How long after accepting connections the started process may take to be found holding its ports (a Java
// server binds its HTTP connector after the one the harness uses).
const CONFIRM_TIMEOUT_MS = 30_000;

export const SERVER_FAMILIES = Object.keys(SERVERS);

export function serverFamily(name) {
  const server = SERVERS[name];
  if (!server) {
    throw new BenchError(ErrorCodes.USAGE, `unknown server "${name}"; valid servers: ${SERVER_FAMILIES.join(', ')}`);
  }
  return server;
}

export async function installServer(server, { cacheDir, log }) {
  const dir = serverDir(cacheDir, server.family);
  const present = await server.version(dir);
  if (present) {
    log(`${server.name} is installed: ${present}`);
    return present;
  }
  await server.install(dir, log);
  const installed = await server.version(dir);
  if (!installed) throw new BenchError(ErrorCodes.USAGE, `${server.name} is still not installed; see the output above`);
  log(`${server.name} installed: ${installed}`);
  return installed;
}

export async function startServer(server, { cacheDir, port = server.defaultPort, confirmTimeoutMs = CONFIRM_TIMEOUT_MS }) {
  const running = runningServer(cacheDir, server.family);
  if (running) return { ...running, alreadyRunning: true };
  const dir = serverDir(cacheDir, server.family);
  const version = await server.version(dir);
  if (!version) {
    throw new BenchError(ErrorCodes.USAGE, `${server.name} is not installed; run \`npx bench server install ${server.family}\``);
  }
  await requireFreePort(port, server.name);
  mkdirSync(dir, { recursive: true });
  const started = await server.start({ dir, port, cacheDir });
  try {
    // Every port the server binds: a server that cannot bind its second one shuts down after it bound the first.
    for (const own of [port, ...(started.otherPorts ?? [])]) {
      await confirmOwnListener({ pid: started.pid, port: own, timeoutMs: confirmTimeoutMs, logFile: started.logFile, family: server.name });
    }
  } catch (error) {
    await killTree(await treeOf(started.pid), server.name);
    throw error;
  }
  const state = { family: server.family, version, ...started, startedAt: new Date().toISOString() };
  writeFileSync(stateFile(cacheDir, server.family), `${JSON.stringify(state, null, 2)}\n`);
  return state;
}

// Asks the server to stop and, when it has not after `graceMs`, kills its whole process tree. Resolves with its
// state and `killed` (false, or the number of processes killed), or null when it was not running.
export async function stopServer(server, { cacheDir, graceMs = STOP_GRACE_MS }) {
  const state = runningServer(cacheDir, server.family);
  if (!state) {
    rmSync(stateFile(cacheDir, server.family), { force: true });
    return null;
  }
  if (!isProgram(state.pid, state.program)) {
    throw new BenchError(ErrorCodes.USAGE,
      `pid ${state.pid} recorded for ${server.name} is no longer ${state.program}; not stopping it. Remove ${stateFile(cacheDir, server.family)} if the server is gone.`);
  }
  const { killed } = await stopProcessTree({ pid: state.pid, request: () => server.requestStop(state), graceMs, family: server.name });
  rmSync(stateFile(cacheDir, server.family), { force: true });
  return { ...state, killed, graceMs };
}

export function serverStatus(server, { cacheDir }) {
  return runningServer(cacheDir, server.family);
}
