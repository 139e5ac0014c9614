// A throwaway MariaDB (the MySQL-protocol server Debian ships) from the Debian packages. The packages create
// no `mysql` user, so under root the server runs with --user=root; --no-defaults keeps it off /etc/mysql.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { aptInstall } from './apt.js';
import { CLUSTER_PACKAGES, clusterDirsOutsideCache, clusterInstalled, clusterStatus, startCluster } from './galera.js';
import { LOCALHOST, isRoot, run, waitUntilAccepting } from './process.js';

const START_TIMEOUT_MS = 60_000;
const POLICY_RC = '/usr/sbin/policy-rc.d';

// Durability starts at the harness's default term, relaxed (innodb_flush_log_at_trx_commit=2: the redo log written
// at commit, fsynced about once a second), so that a run naming this server by --host and --port finds it under
// that term; a run the harness owns sets the term it asks for (adapters/mysql/terms.js).
// For the bulk import, as PostgreSQL's max_wal_size: a redo log of 1 GiB instead of 96 MiB, so loading the
// larger datasets does not force a checkpoint every few seconds, and a 64 MiB sort buffer (the maximum; 1 MiB by
// default) for the index builds after the load.
const SERVER_FLAGS = [
  '--innodb-buffer-pool-size=1G',
  '--innodb-log-file-size=1G',
  '--innodb-sort-buffer-size=64M',
  '--innodb-flush-log-at-trx-commit=2',
  '--max-connections=200',
  '--skip-log-bin',
  '--skip-name-resolve',
  '--local-infile=1',
];

function userFlag() {
  return isRoot() ? ['--user=root'] : [];
}

export default {
  family: 'mariadb',
  name: 'MariaDB',
  defaultPort: 53306,
  adapters: ['mysql'],
  // What --cache sets (start's cacheBytes).
  cacheSetting: 'innodb_buffer_pool_size',
  // `cluster`: also what a Galera cluster needs (galera.js).
  async install(dir, log, release, { cluster = false } = {}) {
    // mariadb-server's installation starts the system's own MariaDB (on port 3306, with /var/lib/mysql) unless
    // policy-rc.d forbids services to start, as it does in containers: never a server the harness did not ask for.
    if (cluster && isRoot() && !existsSync(POLICY_RC) && !(await clusterInstalled())) {
      throw new BenchError(ErrorCodes.USAGE, `installing ${CLUSTER_PACKAGES.join(' and ')} here would start the system's own MariaDB service (no ${POLICY_RC} forbids it); `
        + `install them yourself (apt-get install --no-install-recommends ${CLUSTER_PACKAGES.join(' ')}) and stop that service if you do not want it, then start the cluster`);
    }
    await aptInstall(cluster ? 'MariaDB Galera' : 'MariaDB', ['mariadb-server-core', 'mariadb-client-core', ...(cluster ? CLUSTER_PACKAGES : [])], log);
  },
  // `bench server start mariadb --nodes n`: a Galera cluster instead of one server (galera.js), its nodes with the
  // single server's flags.
  startCluster: (spec) => startCluster({ ...spec, serverFlags: SERVER_FLAGS }),
  clusterStatus,
  dirsOutsideCache: clusterDirsOutsideCache,

  async version() {
    try {
      const { stdout } = await run('mariadbd', ['--version']);
      return stdout.trim();
    } catch {
      return null;
    }
  },

  // `cacheBytes` (bench run --cache): the InnoDB buffer pool, instead of the instance's 1 GiB.
  async start({ dir, port, cacheBytes = null }) {
    const data = path.join(dir, 'data');
    const logFile = path.join(dir, 'mariadb.log');
    mkdirSync(dir, { recursive: true });
    if (!existsSync(path.join(data, 'mysql'))) {
      try {
        await run('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, ...userFlag(),
          '--auth-root-authentication-method=normal', '--skip-test-db']);
      } catch (error) {
        throw new BenchError(ErrorCodes.CONNECT, `mariadb-install-db failed: ${error.stderr?.trim() || error.message}`);
      }
    }
    const log = openSync(logFile, 'a');
    const child = spawn('mariadbd', ['--no-defaults', `--datadir=${data}`, `--port=${port}`, `--bind-address=${LOCALHOST}`,
      `--socket=${path.join(dir, 'mariadb.sock')}`, `--pid-file=${path.join(dir, 'mariadb.pid')}`, ...userFlag(), ...SERVER_FLAGS,
      ...(cacheBytes ? [`--innodb-buffer-pool-size=${cacheBytes}`] : [])],
    { detached: true, stdio: ['ignore', log, log] });
    closeSync(log);
    child.unref();
    await waitUntilAccepting({ port, pid: child.pid, timeoutMs: START_TIMEOUT_MS, logFile, family: 'MariaDB' });
    return { host: LOCALHOST, port, user: 'root', database: null, pid: child.pid, dataDir: data, logFile, program: 'mariadbd' };
  },

  async requestStop(state) {
    process.kill(state.pid, 'SIGTERM');
  },

};
