// A throwaway PostgreSQL from the Debian packages: initdb once, pg_ctl start/stop. PostgreSQL refuses to
// run as root, so under root every server program runs as the `postgres` user, in a data directory that
// user can reach (the cache below /root is not reachable for it).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { aptInstall } from './apt.js';
import { LOCALHOST, isRoot, logTail, run } from './process.js';
import { isAlive } from './state.js';

const PACKAGE_ROOT = '/usr/lib/postgresql';
const OS_USER = 'postgres';
const START_TIMEOUT_S = 60;

// Settings of the local instance, chosen for a benchmark machine and recorded in every result through the
// adapter's settings(): durability stays at PostgreSQL's defaults (fsync, synchronous_commit on). wal_level is
// minimal, as PostgreSQL's "Populating a Database" advises for bulk loads on a server without replicas or WAL
// archiving: an index build writes no WAL (the index is synced to disk at commit instead), and a crash is
// survived as at any other level. The full import took 68.6 s with replica's WAL, 62.0 s without.
const SERVER_SETTINGS = {
  listen_addresses: LOCALHOST,
  max_connections: 200,
  shared_buffers: '1GB',
  maintenance_work_mem: '512MB',
  max_wal_size: '4GB',
  wal_level: 'minimal',
  max_wal_senders: 0,
};

// The instance trusts every connection from 127.0.0.1 except this one role, which must give a password: it lets
// the tests prove that a wrong password is reported as such, against a server that otherwise needs none.
export const PASSWORD_PROBE_ROLE = 'dbshootout_password_probe';

function requirePasswordForProbe(data) {
  const file = path.join(data, 'pg_hba.conf');
  writeFileSync(file, `host all ${PASSWORD_PROBE_ROLE} ${LOCALHOST}/32 scram-sha-256\n${readFileSync(file, 'utf8')}`);
}

function binDir() {
  if (process.env.BENCH_PG_BIN) return process.env.BENCH_PG_BIN;
  if (!existsSync(PACKAGE_ROOT)) return null;
  const versions = readdirSync(PACKAGE_ROOT).filter((v) => existsSync(path.join(PACKAGE_ROOT, v, 'bin', 'initdb')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? path.join(PACKAGE_ROOT, versions[0], 'bin') : null;
}

function asServerUser(program, args) {
  return isRoot() ? run('runuser', ['-u', OS_USER, '--', program, ...args]) : run(program, args);
}

function instanceDir(dir, cacheDir) {
  if (!isRoot()) return dir;
  const tag = createHash('sha1').update(path.resolve(cacheDir)).digest('hex').slice(0, 10);
  return path.join(os.tmpdir(), `db-shootout-${tag}`, 'postgresql');
}

async function chownToServerUser(dir) {
  if (isRoot()) await run('chown', ['-R', `${OS_USER}:${OS_USER}`, dir]);
}

// A postmaster that was killed leaves its lock files behind (postmaster.pid, and the Unix socket's), and
// PostgreSQL refuses to start while the pid they name exists, even as a zombie that nothing has reaped yet (a
// container's init may take its time).
function removeStaleLocks(locks) {
  for (const lock of locks.filter((file) => existsSync(file))) {
    const pid = Number(readFileSync(lock, 'utf8').split('\n')[0]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) rmSync(lock);
  }
}

export default {
  family: 'postgresql',
  name: 'PostgreSQL',
  defaultPort: 55432,
  adapters: ['postgresql', 'postgresql_tabular'],
  // What --cache sets (start's cacheBytes).
  cacheSetting: 'shared_buffers',
  install: (dir, log) => aptInstall('PostgreSQL', ['postgresql'], log),
  // The instance's files outside the cache: under root, the data directory the server user can reach.
  dirsOutsideCache: (cacheDir) => (isRoot() ? [path.dirname(instanceDir(null, cacheDir))] : []),

  async version() {
    const bin = binDir();
    if (!bin) return null;
    const { stdout } = await run(path.join(bin, 'postgres'), ['--version']);
    return stdout.trim();
  },

  // `cacheBytes` (bench run --cache): shared_buffers, instead of the instance's 1 GB.
  async start({ dir, port, cacheDir, cacheBytes = null }) {
    const bin = binDir();
    const base = instanceDir(dir, cacheDir);
    const data = path.join(base, 'data');
    const logFile = path.join(base, 'postgresql.log');
    mkdirSync(base, { recursive: true });
    if (isRoot()) {
      // The chain of directories above the instance must be traversable by the server user.
      mkdirSync(path.dirname(base), { recursive: true, mode: 0o755 });
      await chownToServerUser(base);
    }
    if (!existsSync(path.join(data, 'PG_VERSION'))) {
      await asServerUser(path.join(bin, 'initdb'), ['-D', data, '-U', OS_USER, '-A', 'trust', '-E', 'UTF8', '--no-locale']);
      requirePasswordForProbe(data);
    }
    removeStaleLocks([path.join(data, 'postmaster.pid'), path.join(base, `.s.PGSQL.${port}.lock`)]);
    const cache = cacheBytes ? { shared_buffers: `${Math.round(cacheBytes / 1024)}kB` } : {};
    const settings = Object.entries({ ...SERVER_SETTINGS, ...cache, port, unix_socket_directories: base })
      .map(([name, value]) => `-c ${name}=${value}`).join(' ');
    try {
      await asServerUser(path.join(bin, 'pg_ctl'), ['-D', data, '-l', logFile, '-w', '-t', String(START_TIMEOUT_S), '-o', settings, 'start']);
    } catch (error) {
      throw new BenchError(ErrorCodes.CONNECT,
        `PostgreSQL did not start: ${error.stderr?.trim() || error.message}\nthe end of ${logFile}:\n${await logTail(logFile)}`);
    }
    const pid = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return { host: LOCALHOST, port, user: OS_USER, database: 'postgres', pid, dataDir: data, logFile, program: 'postgres' };
  },

  // A fast shutdown (clients disconnected, open transactions rolled back); -W: the caller waits for the end.
  async requestStop(state) {
    await asServerUser(path.join(binDir(), 'pg_ctl'), ['-D', state.dataDir, '-m', 'fast', '-W', 'stop']);
  },

};
