// FerretDB 1.x, the MongoDB wire protocol on a SQL backend, built from its Go module (github.com/FerretDB/FerretDB,
// 1.24.2 unless --version names another) with the local Go toolchain. The module's source lacks the version file its
// build embeds (a plain `go install` gives a binary that panics at start), so the install copies the source out of
// Go's module cache, writes build/version/version.txt and builds there. It runs on the PostgreSQL `bench server`
// runs in the same cache directory (started if needed; a database of its own, `ferretdb`), or with
// `--backend sqlite` on SQLite files under its own directory.
import { spawn } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BenchError, ErrorCodes, usageError } from '../core/errors.js';
import { LOCALHOST, logTail, requireFreePort, run, waitUntilAccepting } from './process.js';
import { parseVersion } from './versions.js';

const MODULE = 'github.com/FerretDB/FerretDB';
const DEFAULT_VERSION = '1.24.2';
export const BACKENDS = Object.freeze(['postgresql', 'sqlite']);
// The database FerretDB keeps its data in, on the local PostgreSQL.
export const BACKEND_DATABASE = 'ferretdb';
// A cold build (every dependency downloaded and compiled) took 2 min 37 s on 2 busy cores; with Go's build cache
// warm, 14 s.
const BUILD_TIMEOUT_MS = 1_800_000;
const START_TIMEOUT_MS = 60_000;
const GO_FALLBACK = '/usr/local/go/bin/go';

const binary = (dir) => path.join(dir, 'bin', 'ferretdb');
// Written last by a build that succeeded: the release the binary in bin/ is.
const releaseFile = (dir) => path.join(dir, 'release.txt');

// Its debug HTTP listener (metrics, pprof) cannot be switched off; it goes on the port after the main one, never on
// FerretDB's default 8088, so that two instances can run side by side.
export const debugPort = (port) => port + 1;

function goCommand() {
  if (process.env.BENCH_GO) return process.env.BENCH_GO;
  return existsSync(GO_FALLBACK) ? GO_FALLBACK : 'go';
}

// The Go toolchain as it is: never one Go would download for the module (GOTOOLCHAIN=local).
async function go(args, options = {}) {
  return run(goCommand(), args, {
    maxBuffer: 64 * 1024 * 1024, ...options, env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-buildvcs=false', ...options.env },
  });
}

async function requireGo() {
  try {
    return (await go(['version'])).stdout.trim();
  } catch (error) {
    if (error.code === 'ENOENT') {
      throw new BenchError(ErrorCodes.USAGE, `FerretDB is built from source, and Go is not installed (no ${goCommand()}); `
        + 'install Go 1.21 or later (https://go.dev/dl/), or name its go binary in BENCH_GO');
    }
    throw new BenchError(ErrorCodes.USAGE, `${goCommand()} version failed: ${error.stderr?.trim() || error.message}`);
  }
}

// The PostgreSQL URL FerretDB connects with, creating its database on first use (the local PostgreSQL trusts
// connections from 127.0.0.1).
async function backendUrl(postgresql) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ host: postgresql.host, port: postgresql.port, user: postgresql.user, database: postgresql.database });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [BACKEND_DATABASE]);
    if (rowCount === 0) await client.query(`CREATE DATABASE ${BACKEND_DATABASE}`);
  } finally {
    await client.end();
  }
  return `postgres://${postgresql.user}@${postgresql.host}:${postgresql.port}/${BACKEND_DATABASE}`;
}

export default {
  family: 'ferretdb',
  name: 'FerretDB',
  defaultPort: 57017,
  adapters: ['ferretdb'],
  defaultVersion: DEFAULT_VERSION,
  backends: BACKENDS,
  // The family `bench server` starts first for a backend.
  backendServer: (backend) => (backend === 'postgresql' ? 'postgresql' : null),

  // FerretDB 2 needs PostgreSQL with Microsoft's DocumentDB extension, which the local PostgreSQL lacks; 0.x and the
  // early 1.x releases named their backends otherwise.
  checkVersion(release) {
    const [major, minor] = parseVersion(release).numbers;
    if (major !== 1 || minor < 14) {
      throw usageError(`FerretDB ${release} is not supported: bench server runs FerretDB 1.14 to 1.x (the 2.x releases need PostgreSQL with the DocumentDB extension)`);
    }
  },

  installedIn(dir) {
    if (!existsSync(binary(dir)) || !existsSync(releaseFile(dir))) return [];
    return [readFileSync(releaseFile(dir), 'utf8').trim()];
  },

  async version(dir, release = DEFAULT_VERSION) {
    return this.installedIn(dir).includes(release) ? `FerretDB ${release}` : null;
  },

  // go mod download fetches the module's source into Go's module cache, read-only; the build runs on a writable copy,
  // removed afterwards (Go's caches keep the downloads and compiled packages, so a second build takes seconds).
  async install(dir, log, release = DEFAULT_VERSION) {
    const toolchain = await requireGo();
    mkdirSync(dir, { recursive: true });
    const buildLog = path.join(dir, 'build.log');
    const src = path.join(dir, 'src');
    log(`building FerretDB ${release} from ${MODULE}@v${release} with ${toolchain} into ${binary(dir)} (a few minutes; the log is ${buildLog})`);
    let moduleDir;
    try {
      const { stdout } = await go(['mod', 'download', '-json', `${MODULE}@v${release}`], { timeout: BUILD_TIMEOUT_MS });
      moduleDir = JSON.parse(stdout).Dir;
    } catch (error) {
      const answer = error.stdout ? (JSON.parse(error.stdout).Error ?? error.stdout) : (error.stderr?.trim() || error.message);
      throw new BenchError(ErrorCodes.USAGE, `go mod download ${MODULE}@v${release} failed: ${answer}`);
    }
    rmSync(src, { recursive: true, force: true });
    cpSync(moduleDir, src, { recursive: true });
    // The copy keeps the cache's read-only modes, which would stop the version file and the removal below.
    await run('chmod', ['-R', 'u+w', src]);
    writeFileSync(path.join(src, 'build', 'version', 'version.txt'), `v${release}\n`);
    const output = openSync(buildLog, 'w');
    try {
      await new Promise((resolve, reject) => {
        const child = spawn(goCommand(), ['build', '-o', binary(dir), './cmd/ferretdb'], {
          cwd: src, stdio: ['ignore', output, output], env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-buildvcs=false' },
        });
        const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
        child.once('error', reject);
        child.once('exit', (code, signal) => {
          clearTimeout(timer);
          if (code === 0) resolve();
          else reject(new Error(signal ? `killed (${signal}) after ${BUILD_TIMEOUT_MS / 60_000} min` : `exit code ${code}`));
        });
      });
    } catch (error) {
      throw new BenchError(ErrorCodes.USAGE, `the build of FerretDB ${release} failed (${error.message}); the end of ${buildLog}:\n${await logTail(buildLog)}`);
    } finally {
      closeSync(output);
      rmSync(src, { recursive: true, force: true });
    }
    writeFileSync(releaseFile(dir), `${release}\n`);
  },

  // `backendState`: the local PostgreSQL's state, for the postgresql backend (index.js starts it first).
  async start({ dir, port, backend = BACKENDS[0], backendState = null }) {
    const debug = debugPort(port);
    await requireFreePort(debug, 'FerretDB (its debug HTTP listener, on the port after --port)');
    const stateDir = path.join(dir, 'state');
    const data = backend === 'sqlite' ? path.join(dir, 'sqlite') : backendState.dataDir;
    mkdirSync(stateDir, { recursive: true });
    const handler = backend === 'sqlite'
      ? ['--handler=sqlite', `--sqlite-url=file:${data}/`]
      : ['--handler=postgresql', `--postgresql-url=${await backendUrl(backendState)}`];
    if (backend === 'sqlite') mkdirSync(data, { recursive: true });
    const logFile = path.join(dir, 'ferretdb.log');
    const log = openSync(logFile, 'a');
    const child = spawn(binary(dir), [...handler, `--listen-addr=${LOCALHOST}:${port}`, `--debug-addr=${LOCALHOST}:${debug}`,
      `--state-dir=${stateDir}`, '--telemetry=disable', '--log-level=warn'],
    { cwd: dir, detached: true, stdio: ['ignore', log, log] });
    closeSync(log);
    child.unref();
    await waitUntilAccepting({ port, pid: child.pid, timeoutMs: START_TIMEOUT_MS, logFile, family: 'FerretDB' });
    return {
      host: LOCALHOST, port, otherPorts: [debug], user: null, database: null, pid: child.pid, dataDir: data, logFile, program: 'ferretdb',
      backend,
      ...(backendState && { backendServer: { family: 'postgresql', port: backendState.port, database: BACKEND_DATABASE } }),
    };
  },

  // FerretDB closes its listeners and connections on SIGTERM; the backend PostgreSQL keeps running.
  async requestStop(state) {
    process.kill(state.pid, 'SIGTERM');
  },
};
