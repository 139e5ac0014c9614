// `bench server <install|start|stop|status> <family>`: throwaway local servers bound to 127.0.0.1, with
// their data under the harness's cache and a state file that `bench run` reads for its connection defaults.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { BenchError, ErrorCodes } from '../core/errors.js';
import mariadb from './mariadb.js';
import postgresql from './postgresql.js';
import { isProgram, isRoot, requireFreePort } from './process.js';
import { runningServer, serverDir, stateFile } from './state.js';

const SERVERS = { postgresql, mariadb };

export const SERVER_FAMILIES = Object.keys(SERVERS);

export function serverFamily(name) {
  const server = SERVERS[name];
  if (!server) {
    throw new BenchError(ErrorCodes.USAGE, `unknown server "${name}"; valid servers: ${SERVER_FAMILIES.join(', ')}`);
  }
  return server;
}

function runVisible(program, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', process.stderr, process.stderr] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${program} ${args.join(' ')} exited with ${code}`))));
  });
}

export async function installServer(server, log) {
  const version = await server.version();
  if (version) {
    log(`${server.name} is installed: ${version}`);
    return { installed: true, version };
  }
  const commands = server.installCommands.map(([program, args]) => `${program} ${args.join(' ')}`);
  if (!isRoot()) {
    throw new BenchError(ErrorCodes.USAGE, `${server.name} is not installed; as root, run:\n  ${commands.join('\n  ')}`);
  }
  for (const [program, args] of server.installCommands) {
    log(`$ ${program} ${args.join(' ')}`);
    await runVisible(program, args);
  }
  const installed = await server.version();
  if (!installed) throw new BenchError(ErrorCodes.USAGE, `${server.name} is still not installed after: ${commands.join('; ')}`);
  log(`${server.name} installed: ${installed}`);
  return { installed: true, version: installed };
}

export async function startServer(server, { cacheDir, port = server.defaultPort }) {
  const running = runningServer(cacheDir, server.family);
  if (running) return { ...running, alreadyRunning: true };
  const version = await server.version();
  if (!version) {
    throw new BenchError(ErrorCodes.USAGE, `${server.name} is not installed; run \`npx bench server install ${server.family}\``);
  }
  await requireFreePort(port, server.name);
  const dir = serverDir(cacheDir, server.family);
  mkdirSync(dir, { recursive: true });
  const state = {
    family: server.family,
    version,
    ...(await server.start({ dir, port, cacheDir })),
    startedAt: new Date().toISOString(),
  };
  writeFileSync(stateFile(cacheDir, server.family), `${JSON.stringify(state, null, 2)}\n`);
  return state;
}

export async function stopServer(server, { cacheDir }) {
  const state = runningServer(cacheDir, server.family);
  if (!state) {
    rmSync(stateFile(cacheDir, server.family), { force: true });
    return null;
  }
  if (!isProgram(state.pid, state.program)) {
    throw new BenchError(ErrorCodes.USAGE,
      `pid ${state.pid} recorded for ${server.name} is no longer ${state.program}; not stopping it. Remove ${stateFile(cacheDir, server.family)} if the server is gone.`);
  }
  await server.stop(state);
  rmSync(stateFile(cacheDir, server.family), { force: true });
  return state;
}

export function serverStatus(server, { cacheDir }) {
  return runningServer(cacheDir, server.family);
}
