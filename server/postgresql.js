// A throwaway PostgreSQL from the Debian packages: initdb once, pg_ctl start/stop. PostgreSQL refuses to
// run as root, so under root every server program runs as the `postgres` user, in a data directory that
// user can reach (the cache below /root is not reachable for it).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { aptInstall } from './apt.js';
import { LOCALHOST, isRoot, logTail, portIsFree, run } from './process.js';
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
    const pid = await startInstance({ data, logFile, settings: { ...SERVER_SETTINGS, ...cache, port, unix_socket_directories: base } });
    return { host: LOCALHOST, port, user: OS_USER, database: 'postgres', pid, dataDir: data, logFile, program: 'postgres' };
  },

  // `bench server start postgresql --replicas n`: a primary with n streaming replicas (startReplicated).
  startCluster: (spec) => startReplicated(spec),
  clusterFlag: 'replicas',
  clusterStatus: (state) => replicatedStatus(state),

  // A fast shutdown (clients disconnected, open transactions rolled back); -W: the caller waits for the end.
  async requestStop(state) {
    await asServerUser(path.join(binDir(), 'pg_ctl'), ['-D', state.dataDir, '-m', 'fast', '-W', 'stop']);
  },

};

// --- a primary with streaming replicas ---------------------------------------------------------------------------
// `bench server start postgresql --replicas n`: a primary and n hot-standby replicas on 127.0.0.1, each made by
// pg_basebackup -R from the primary and streaming its WAL asynchronously (../../shared/CLUSTERS.md). Node k (the
// primary is 1) listens on port + 10 × (k − 1). Always from fresh data directories, apart from the single
// instance's. Replicas answer reads and refuse writes; `bench run --read-from replicas` sends reads to them.
const PORT_BLOCK = 10;
const SYNC_TIMEOUT_MS = 120_000;

function replicatedBase(dir, cacheDir) {
  return path.join(path.dirname(instanceDir(dir, cacheDir)), 'postgresql-replicated');
}

const settingArgs = (settings) => Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`).join(' ');

function postmasterPid(data) {
  return Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

// pg_ctl start with `settings` on the command line, waiting until it accepts connections; resolves with the
// postmaster's pid. `name`: which instance of a primary and its replicas, for the message.
async function startInstance({ data, logFile, settings, name = null }) {
  try {
    await asServerUser(path.join(binDir(), 'pg_ctl'), ['-D', data, '-l', logFile, '-w', '-t', String(START_TIMEOUT_S), '-o', settingArgs(settings), 'start']);
  } catch (error) {
    throw new BenchError(ErrorCodes.CONNECT,
      `PostgreSQL${name ? ` ${name}` : ''} did not start: ${error.stderr?.trim() || error.message}\nthe end of ${logFile}:\n${await logTail(logFile)}`);
  }
  return postmasterPid(data);
}

async function streamingReplicas(port) {
  const { stdout } = await run(path.join(binDir(), 'psql'), ['-h', LOCALHOST, '-p', String(port), '-U', OS_USER, '-d', 'postgres', '-Atc',
    "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'"]);
  return Number(stdout.trim());
}

export async function startReplicated({ dir, port, cacheDir, nodes, cacheBytes = null, log = () => {} }) {
  if (!Number.isInteger(nodes) || nodes < 1) throw new BenchError(ErrorCodes.USAGE, `a replicated PostgreSQL needs a primary, not ${nodes} nodes`);
  const bin = binDir();
  const base = replicatedBase(dir, cacheDir);
  rmSync(base, { recursive: true, force: true });
  mkdirSync(base, { recursive: true });
  if (isRoot()) {
    mkdirSync(path.dirname(base), { recursive: true, mode: 0o755 });
    await chownToServerUser(base);
  }
  const cache = cacheBytes ? { shared_buffers: `${Math.round(cacheBytes / 1024)}kB` } : {};
  // As the single instance, but with the WAL a replica needs.
  const common = { ...SERVER_SETTINGS, ...cache, wal_level: 'replica', max_wal_senders: 10, hot_standby: 'on', unix_socket_directories: base };
  const started = [];
  const stopAll = async () => {
    for (const node of [...started].reverse()) {
      await asServerUser(path.join(bin, 'pg_ctl'), ['-D', node.dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => {});
    }
  };
  try {
    const primary = { name: 'primary', role: 'primary', k: 1, host: LOCALHOST, port, dataDir: path.join(base, 'primary'), logFile: path.join(base, 'primary.log') };
    log(`PostgreSQL primary: starting on ${LOCALHOST}:${port}`);
    await asServerUser(path.join(bin, 'initdb'), ['-D', primary.dataDir, '-U', OS_USER, '-A', 'trust', '-E', 'UTF8', '--no-locale']);
    primary.pid = await startInstance({ data: primary.dataDir, logFile: primary.logFile, settings: { ...common, port }, name: 'primary' });
    started.push(primary);
    for (let k = 2; k <= nodes; k += 1) {
      const own = port + PORT_BLOCK * (k - 1);
      await requireFree(own);
      const replica = { name: `replica${k - 1}`, role: 'replica', k, host: LOCALHOST, port: own, dataDir: path.join(base, `replica${k - 1}`), logFile: path.join(base, `replica${k - 1}.log`) };
      log(`PostgreSQL ${replica.name}: a base backup of the primary, then streaming on ${LOCALHOST}:${own}`);
      await asServerUser(path.join(bin, 'pg_basebackup'), ['-h', LOCALHOST, '-p', String(port), '-U', OS_USER, '-D', replica.dataDir, '-R', '-X', 'stream', '-c', 'fast']);
      replica.pid = await startInstance({ data: replica.dataDir, logFile: replica.logFile, settings: { ...common, port: own, cluster_name: replica.name }, name: replica.name });
      started.push(replica);
    }
    // Every replica streaming before the cluster counts as started.
    const deadline = performance.now() + SYNC_TIMEOUT_MS;
    while ((await streamingReplicas(port)) < nodes - 1) {
      if (performance.now() > deadline) throw new BenchError(ErrorCodes.TIMEOUT, `the replicas were not all streaming within ${SYNC_TIMEOUT_MS / 1000} s; see ${base}/*.log`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  const [primary] = started;
  return {
    host: LOCALHOST, port, user: OS_USER, database: 'postgres', pid: primary.pid, dataDir: primary.dataDir, logFile: primary.logFile, program: 'postgres',
    cluster: {
      kind: 'streaming', name: 'primary and replicas', provider: null, layout: { base, nodes, port },
      roles: `a primary and ${nodes - 1} hot-standby replica${nodes === 2 ? '' : 's'} (asynchronous streaming replication)`,
      reads: 'writes to the primary; with --read-from replicas, the reads of steps that write nothing go to the replicas once they replayed the primary\'s WAL',
      nodes: started.map((node) => ({ ...node, stopSignal: 'SIGINT', startedAt: new Date().toISOString() })),
    },
  };
}

async function requireFree(port) {
  if (!(await portIsFree(port))) {
    throw new BenchError(ErrorCodes.USAGE, `port ${LOCALHOST}:${port} (a PostgreSQL replica) is already in use; start the cluster on another --port (node k takes port + ${PORT_BLOCK} × (k − 1))`);
  }
}

// Each node's state as it reports it: in recovery (a replica) or not, the replicas streaming from a primary, how far
// a replica's replay lags what it received. `{ error }` for a node that does not answer within 5 s.
export async function replicatedStatus(state) {
  return Promise.all(state.cluster.nodes.map(async (node) => {
    if (!isAlive(node.pid)) return { ...node, running: false };
    try {
      const { stdout } = await run(path.join(binDir(), 'psql'), ['-h', node.host, '-p', String(node.port), '-U', OS_USER, '-d', 'postgres', '-AtF', '|', '-c',
        "SELECT pg_is_in_recovery(), (SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'), COALESCE(pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()), 0)"],
      { timeout: 5000, env: { ...process.env, PGCONNECT_TIMEOUT: '5' } });
      const [recovery, streaming, lag] = stdout.trim().split('|');
      return { ...node, running: true, postgres: { inRecovery: recovery === 't', streaming: Number(streaming), replayLagBytes: Number(lag) } };
    } catch (error) {
      return { ...node, running: true, error: error.stderr?.trim() || error.message };
    }
  }));
}
