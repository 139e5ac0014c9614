// PouchDB Server: the CouchDB HTTP API emulated on LevelDB, from npm (no Apache CouchDB installs on these
// machines). It goes into the cache with its own node_modules, not into the project's dependencies, and runs
// under the Node.js that runs the harness.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { LOCALHOST, run, waitUntilAccepting } from './process.js';

// Pinned, so that every machine measures the same server.
export const POUCHDB_SERVER_VERSION = '4.2.0';
const START_TIMEOUT_MS = 60_000;
// Installing its 350 packages takes about a minute.
const INSTALL_TIMEOUT_MS = 600_000;

const packageDir = (dir) => path.join(dir, 'node_modules', 'pouchdb-server');

// The server's /_config, kept in a file beside its data. Its log goes there too, at level warning: at its
// default, info, it writes a line for every request it answers.
function writeConfig(dir) {
  const file = path.join(dir, 'config.json');
  const config = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  config.log = { ...config.log, file: path.join(dir, 'server.log'), level: 'warning' };
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

export default {
  family: 'pouchdb',
  name: 'PouchDB Server',
  defaultPort: 55984,
  adapters: ['couchdb'],

  async version(dir) {
    try {
      const { version } = JSON.parse(readFileSync(path.join(packageDir(dir), 'package.json'), 'utf8'));
      return `PouchDB Server ${version}`;
    } catch {
      return null;
    }
  },

  async install(dir, log) {
    mkdirSync(dir, { recursive: true });
    log(`installing pouchdb-server@${POUCHDB_SERVER_VERSION} from the npm registry into ${dir}`);
    try {
      await run('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error',
        `pouchdb-server@${POUCHDB_SERVER_VERSION}`], { timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
    } catch (error) {
      throw new BenchError(ErrorCodes.USAGE, `npm could not install pouchdb-server: ${error.stderr?.trim() || error.message}`);
    }
  },

  async start({ dir, port }) {
    const data = path.join(dir, 'data');
    mkdirSync(data, { recursive: true });
    const config = writeConfig(dir);
    const logFile = path.join(dir, 'pouchdb.log');
    const log = openSync(logFile, 'a');
    const child = spawn(process.execPath, [path.join(packageDir(dir), 'bin', 'pouchdb-server'),
      '--host', LOCALHOST, '--port', String(port), '--dir', data, '--config', config],
    { cwd: dir, detached: true, stdio: ['ignore', log, log] });
    closeSync(log);
    child.unref();
    await waitUntilAccepting({ port, pid: child.pid, timeoutMs: START_TIMEOUT_MS, logFile, family: 'PouchDB Server' });
    return {
      host: LOCALHOST, port, user: null, database: null, pid: child.pid, dataDir: data, logFile,
      program: path.basename(process.execPath),
    };
  },

  async requestStop(state) {
    process.kill(state.pid, 'SIGTERM');
  },
};
