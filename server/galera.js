// A MariaDB Galera cluster of n nodes on 127.0.0.1 (`bench server start mariadb --nodes n`): synchronous
// multi-primary replication (Debian's galera-4), every node a primary that takes reads and writes. The recipe,
// with every flag and failure, is ../../shared/CLUSTERS.md's; what the harness adds is a port block per node,
// bounded waits, and a state that lists every node.
//
// Node k (1-based) takes the block of ports from `port + 10 × (k − 1)`: SQL, then group communication (gcomm), then
// the incremental state transfer's receiver (IST) and the full state transfer's (SST, an rsync daemon), the last two
// only while a transfer runs. A cluster always starts from fresh data directories (the size sweep's "from scratch");
// a node killed while the others run rejoins by IST (startNode with `rejoin`).
//
// rsync's SST fails when the nodes run as root (its daemon drops to `nobody`, who cannot read the data files): under
// root each node runs as the `mysql` user that the mariadb-server package creates, in a directory outside the cache
// (which may lie below /root, out of that user's reach), as PostgreSQL's instance does.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BenchError, ErrorCodes, usageError } from '../core/errors.js';
import { LOCALHOST, isRoot, logTail, portIsFree, run, stopProcessTree, waitUntilAccepting, killTree, treeOf } from './process.js';
import { createNetwork, nodeAddress, removeNetwork } from './netns.js';
import { isAlive } from './state.js';

export const PROVIDER = '/usr/lib/galera/libgalera_smm.so';
// The packages a joiner needs beyond the single server's: the provider, and mariadb-server for the state transfer
// scripts (wsrep_sst_rsync and its helpers; it pulls in rsync and socat).
export const CLUSTER_PACKAGES = ['galera-4', 'mariadb-server'];
export const MAX_NODES = 9;
const PORT_BLOCK = 10;
const CLUSTER_NAME = 'dbshootout';
const OS_USER = 'mysql';
// A joiner's full copy took 4 to 7 s on a quiet 2-core machine; a loaded one takes several times that.
const SYNC_TIMEOUT_MS = 180_000;
const POLL_MS = 200;
// Shorter failure detection than Galera's defaults (a dead node suspected after 5 s, evicted after 15 s): measured
// in CLUSTERS.md, commits on the survivors stall about 2 s instead of 5 to 7 s after a node is killed, and a node
// restarted within seconds is not kept out by its old incarnation. Recorded with the cluster.
export const PROVIDER_OPTIONS = [
  'evs.keepalive_period=PT0.5S', 'evs.suspect_timeout=PT1.5S', 'evs.inactive_timeout=PT3S',
  'evs.inactive_check_period=PT0.5S', 'evs.install_timeout=PT3S', 'gcache.size=128M',
];
// wsrep_sync_wait's bits: 1 reads (SELECT, BEGIN), 2 UPDATE and DELETE, 4 INSERT and REPLACE, 8 SHOW.
export const SYNC_WAIT = 15;
// The single server's flags (mariadb.js, given to startCluster), with a smaller redo log, since a joiner's full copy
// carries every node's log file, and what Galera needs of every node.
const REDO_LOG = '--innodb-log-file-size=128M';
const GALERA_FLAGS = [
  // Causal statements: every statement waits until its node has applied every write the cluster committed before it
  // began, so that a node answers as one server would: a read sees a write another node acknowledged, an update finds
  // the row another node inserted, an insert the table another node just created (DDL is applied on the other nodes
  // after the node that ran it answered; with reads alone causal, CI saw an insert on node 2 fail with "Table
  // doesn't exist" right after node 1 created the table). Without it a node answers from what it has applied so far,
  // which may lag (CLUSTERS.md: 12 ms on loopback).
  `--wsrep-sync-wait=${SYNC_WAIT}`,
  // What Galera needs of every node.
  '--binlog-format=ROW',
  '--innodb-autoinc-lock-mode=2',
  '--default-storage-engine=InnoDB',
];

export function nodePorts(port, k) {
  const sql = port + PORT_BLOCK * (k - 1);
  return { sql, gcomm: sql + 1, ist: sql + 2, sst: sql + 3 };
}

export function checkNodes(nodes) {
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > MAX_NODES) {
    throw usageError(`--nodes must be a whole number from 1 to ${MAX_NODES}, not ${nodes}`);
  }
  return nodes;
}

// Where the nodes' directories live: the cache's server directory, or under root one the mysql user can reach.
function clusterBase(dir, cacheDir) {
  if (!isRoot()) return path.join(dir, 'galera');
  const tag = createHash('sha1').update(path.resolve(cacheDir)).digest('hex').slice(0, 10);
  return path.join(os.tmpdir(), `db-shootout-${tag}`, 'galera');
}

export function clusterDirsOutsideCache(cacheDir) {
  return isRoot() ? [clusterBase(null, cacheDir)] : [];
}

async function osUser() {
  if (!isRoot()) return null;
  try {
    await run('id', ['-u', OS_USER]);
  } catch {
    throw new BenchError(ErrorCodes.USAGE, `a Galera node runs as the ${OS_USER} user, which does not exist: run \`npx bench server install mariadb --nodes 3\` (it installs ${CLUSTER_PACKAGES.join(' and ')})`);
  }
  return OS_USER;
}

// Whether the cluster's programs are installed: the provider library and the rsync state transfer script.
export async function clusterInstalled() {
  if (!existsSync(PROVIDER)) return false;
  try {
    await run('sh', ['-c', 'command -v wsrep_sst_rsync && command -v rsync']);
    return true;
  } catch {
    return false;
  }
}

export async function providerVersion() {
  try {
    const { stdout } = await run('dpkg-query', ['-W', '-f=${Version}', 'galera-4']);
    return stdout.trim() || null;
  } catch {
    return null;
  }
}

// Where node k listens: 127.0.0.1, or its namespace's address (netns.js).
export function nodeHost(layout, k) {
  return layout.network ? nodeAddress(layout.network, k) : LOCALHOST;
}

function nodeArgs({ base, k, nodes, port, user, cacheBytes, bootstrap, startPosition, network, serverFlags = [] }) {
  const own = nodePorts(port, k);
  const dir = path.join(base, `n${k}`);
  const host = nodeHost({ network }, k);
  const members = Array.from({ length: nodes }, (_, i) => `${nodeHost({ network }, i + 1)}:${nodePorts(port, i + 1).gcomm}`);
  return [
    '--no-defaults', ...(user ? [`--user=${user}`] : []), `--datadir=${path.join(dir, 'data')}`,
    `--bind-address=${host}`, `--port=${own.sql}`, `--socket=${path.join(dir, 'mariadb.sock')}`,
    `--pid-file=${path.join(dir, 'mariadb.pid')}`,
    ...serverFlags.map((flag) => (flag.startsWith('--innodb-log-file-size=') ? REDO_LOG : flag)), ...GALERA_FLAGS,
    ...(cacheBytes ? [`--innodb-buffer-pool-size=${cacheBytes}`] : []),
    '--wsrep-on=ON', `--wsrep-provider=${PROVIDER}`, `--wsrep-cluster-name=${CLUSTER_NAME}`,
    `--wsrep-cluster-address=gcomm://${members.join(',')}`,
    `--wsrep-node-address=${host}:${own.gcomm}`, `--wsrep-node-name=n${k}`,
    `--wsrep-provider-options=gmcast.listen_addr=tcp://${host}:${own.gcomm};ist.recv_addr=${host}:${own.ist};${PROVIDER_OPTIONS.join(';')}`,
    '--wsrep-sst-method=rsync', `--wsrep-sst-receive-address=${host}:${own.sst}`,
    `--wsrep-slave-threads=${Math.max(1, os.availableParallelism?.() ?? os.cpus().length)}`,
    ...(bootstrap ? ['--wsrep-new-cluster'] : []),
    ...(startPosition ? [`--wsrep-start-position=${startPosition}`] : []),
  ];
}

// Over the node's Unix socket, which reaches a node in a namespace of its own too, and even one cut off the network.
async function nodeSession(node, timeoutMs) {
  const { default: mysql } = await import('mysql2/promise');
  return mysql.createConnection({ socketPath: node.socket, user: 'root', connectTimeout: timeoutMs });
}

export async function wsrepStatus(node, timeoutMs = 5000) {
  const connection = await nodeSession(node, timeoutMs);
  try {
    const [rows] = await connection.query("SHOW STATUS WHERE Variable_name IN ('wsrep_cluster_size', 'wsrep_cluster_status', 'wsrep_local_state_comment', 'wsrep_ready', 'wsrep_connected', 'wsrep_provider_version', 'wsrep_local_index')");
    return Object.fromEntries(rows.map(({ Variable_name: name, Value: value }) => [name.replace(/^wsrep_/, ''), value]));
  } finally {
    connection.destroy();
  }
}

// Each node's Galera state as the node itself reports it, or `{ error }` for one that does not answer.
export async function clusterStatus(state) {
  return Promise.all(state.cluster.nodes.map(async (node) => {
    if (!isAlive(node.pid)) return { ...node, running: false };
    try {
      return { ...node, running: true, wsrep: await wsrepStatus(node) };
    } catch (error) {
      return { ...node, running: true, error: error.message };
    }
  }));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Resolves, with the milliseconds it took, once the node says Synced and is part of a primary component; rejects
// with its log's tail when it exits or the time runs out (then it is killed, unless `kill` is false). `after`: what
// the wait followed, for the message.
export async function waitUntilSynced(node, timeoutMs, { kill = true, after = '' } = {}) {
  const began = performance.now();
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  while (performance.now() < deadline) {
    if (!isAlive(node.pid)) {
      throw new BenchError(ErrorCodes.CONNECT, `Galera node ${node.name} exited before it was in sync; the end of ${node.logFile}:\n${await logTail(node.logFile)}`);
    }
    try {
      const status = await wsrepStatus(node, 2000);
      if (status.local_state_comment === 'Synced' && status.cluster_status === 'Primary') return performance.now() - began;
      last = `${status.local_state_comment}, ${status.cluster_status}, cluster size ${status.cluster_size}`;
    } catch (error) {
      last = error.message;
    }
    await sleep(POLL_MS);
  }
  if (kill) await killTree(await treeOf(node.pid), `Galera node ${node.name}`);
  throw new BenchError(ErrorCodes.TIMEOUT,
    `Galera node ${node.name} was not in sync within ${timeoutMs / 1000} s${after} (last: ${last}${kill ? '; killed' : ''}); the end of ${node.logFile}:\n${await logTail(node.logFile)}`);
}

// The position a node's own files hold after it was killed (grastate.dat then says seqno -1), so that it rejoins
// by IST from a donor's cache instead of a full copy: `mariadbd --wsrep-recover` reads it from InnoDB and exits.
async function recoveredPosition(args, dir) {
  const recoverLog = path.join(dir, 'recover.log');
  rmSync(recoverLog, { force: true });
  await run('mariadbd', [...args.filter((arg) => !arg.startsWith('--wsrep-new-cluster')), '--wsrep-recover', `--log-error=${recoverLog}`], { timeout: 120_000 })
    .catch(() => {});
  const text = existsSync(recoverLog) ? readFileSync(recoverLog, 'utf8') : '';
  return /WSREP: Recovered position: (\S+)/.exec(text)?.[1] ?? null;
}

// Starts node k of a cluster described by `layout` ({ base, nodes, port, user, cacheBytes }) and waits until it is
// in sync. `bootstrap`: the first node of a new cluster. `rejoin`: a node whose data survived a kill, which first
// recovers its position (IST instead of a full copy).
export async function startNode(layout, k, { bootstrap = false, rejoin = false, syncTimeoutMs = SYNC_TIMEOUT_MS } = {}) {
  const own = nodePorts(layout.port, k);
  // A node in a namespace of its own has its ports to itself.
  for (const free of layout.network ? [] : [own.sql, own.gcomm, own.ist, own.sst]) {
    if (!(await portIsFree(free))) {
      throw new BenchError(ErrorCodes.USAGE, `port ${LOCALHOST}:${free} (Galera node n${k}) is already in use; start the cluster on another --port (node k takes ${PORT_BLOCK} ports from port + ${PORT_BLOCK} × (k − 1))`);
    }
  }
  const dir = path.join(layout.base, `n${k}`);
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'mariadb.log');
  let args = nodeArgs({ ...layout, k, bootstrap });
  if (rejoin) {
    const position = await recoveredPosition(args, dir);
    if (position) args = nodeArgs({ ...layout, k, bootstrap, startPosition: position });
  }
  const log = openSync(logFile, 'a');
  // The node writes its error log itself, after it took the mysql user's identity.
  if (layout.user) await run('chown', [`${layout.user}:${layout.user}`, logFile]);
  // In a namespace, through `ip netns exec`, which execs the server itself: the pid is mariadbd's.
  const namespace = layout.network?.nodes.find((one) => one.k === k).namespace;
  const [program, programArgs] = namespace
    ? ['ip', ['netns', 'exec', namespace, 'mariadbd', ...args, `--log-error=${logFile}`]]
    : ['mariadbd', [...args, `--log-error=${logFile}`]];
  const child = spawn(program, programArgs, { detached: true, stdio: ['ignore', log, log] });
  closeSync(log);
  child.unref();
  const host = nodeHost(layout, k);
  const node = {
    name: `n${k}`, k, host, port: own.sql, gcommPort: own.gcomm, pid: child.pid, dataDir: data, logFile, socket: path.join(dir, 'mariadb.sock'),
    ...(namespace && { namespace }),
  };
  await waitUntilAccepting({ port: own.sql, pid: child.pid, timeoutMs: syncTimeoutMs, logFile, family: `Galera node n${k}`, host });
  await waitUntilSynced(node, syncTimeoutMs);
  return { ...node, startedAt: new Date().toISOString() };
}

// A fresh data directory for node k, owned by the user the node runs as.
async function initNode(base, k, user) {
  const dir = path.join(base, `n${k}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  if (user) await run('chown', ['-R', `${user}:${user}`, dir]);
  try {
    await run('mariadb-install-db', ['--no-defaults', `--datadir=${path.join(dir, 'data')}`, ...(user ? [`--user=${user}`] : []),
      '--auth-root-authentication-method=normal', '--skip-test-db']);
  } catch (error) {
    throw new BenchError(ErrorCodes.CONNECT, `mariadb-install-db failed for Galera node n${k}: ${error.stderr?.trim() || error.message}`);
  }
}

// Starts a cluster of `nodes` from fresh data directories, one node after the other (a joiner copies its data from
// a node in sync). Resolves with the state's fields: the first node's host, port and pid (what a single server
// records) and `cluster`, every node. A failure stops the nodes already started.
// `netns`: each node in a network namespace of its own (root only), on a private subnet the root namespace reaches
// through an address of its own there.
export async function startCluster({ dir, port, cacheDir, nodes, cacheBytes = null, netns = false, serverFlags = [], log = () => {} }) {
  checkNodes(nodes);
  if (!(await clusterInstalled())) {
    throw new BenchError(ErrorCodes.USAGE, `a Galera cluster needs ${CLUSTER_PACKAGES.join(' and ')}; run \`npx bench server install mariadb --nodes ${nodes}\``);
  }
  const user = await osUser();
  const base = clusterBase(dir, cacheDir);
  // Each node in a network namespace of its own, which a network cut can take off the network (netns.js).
  const network = netns ? await createNetwork({ tag: createHash('sha1').update(path.resolve(cacheDir)).digest('hex').slice(0, 4), nodes }) : null;
  if (isRoot()) mkdirSync(path.dirname(base), { recursive: true, mode: 0o755 });
  mkdirSync(base, { recursive: true });
  if (user) await run('chown', [`${user}:${user}`, base]);
  const layout = { base, nodes, port, user, cacheBytes, serverFlags, ...(network && { network }) };
  const started = [];
  try {
    for (let k = 1; k <= nodes; k += 1) {
      await initNode(base, k, user);
      log(`Galera node n${k} of ${nodes}: starting${k === 1 ? ' (bootstrap)' : ' (joins by a full copy)'}${network ? ` in namespace ${network.nodes[k - 1].namespace} at ${nodeHost(layout, k)}` : ''}`);
      started.push(await startNode(layout, k, { bootstrap: k === 1 }));
      // The harness connects from its own address on the subnet: root may log in from there, as from localhost.
      if (k === 1 && network) await allowClient(started[0], network.rootAddress);
    }
  } catch (error) {
    await stopNodes(started);
    if (network) await removeNetwork(network);
    throw error;
  }
  const first = started[0];
  return {
    host: first.host, port: first.port, user: 'root', database: null, pid: first.pid, dataDir: first.dataDir, logFile: first.logFile,
    program: 'mariadbd',
    cluster: {
      kind: 'galera', name: CLUSTER_NAME, provider: await providerVersion(), layout,
      providerOptions: PROVIDER_OPTIONS, sst: 'rsync', roles: 'every node a primary (synchronous multi-primary)',
      reads: `causal (wsrep_sync_wait=${SYNC_WAIT}): every statement sees every write the cluster acknowledged before it began`,
      network: network ? `each node in a network namespace of its own on ${network.cidr}, the harness at ${network.rootAddress}` : 'every node on 127.0.0.1',
      nodes: started.map((node) => ({ ...node, role: 'primary' })),
    },
  };
}

async function allowClient(node, address) {
  const connection = await nodeSession(node, 10_000);
  try {
    await connection.query(`CREATE USER IF NOT EXISTS 'root'@'${address}'`);
    await connection.query(`GRANT ALL PRIVILEGES ON *.* TO 'root'@'${address}' WITH GRANT OPTION`);
  } finally {
    connection.destroy();
  }
}

// What a cluster leaves beside its nodes once they stopped: its network namespaces.
export async function removeClusterNetwork(state) {
  if (state.cluster?.layout?.network) await removeNetwork(state.cluster.layout.network);
}

// Stops nodes last first, so that the first, which a new cluster bootstraps from, stops last. Resolves with the
// number of processes killed (0 when every node stopped by itself).
export async function stopNodes(nodes, graceMs = 30_000) {
  let killed = 0;
  for (const node of [...nodes].reverse()) {
    if (!isAlive(node.pid)) continue;
    // PostgreSQL's fast shutdown is SIGINT (its SIGTERM waits for every client to leave).
    const result = await stopProcessTree({ pid: node.pid, request: () => process.kill(node.pid, node.stopSignal ?? 'SIGTERM'), graceMs, family: `node ${node.name}` });
    killed += result.killed || 0;
  }
  return killed;
}

// A node killed outright (bench crash): SIGKILL to its process tree, which is gone when this resolves.
export async function killNode(node) {
  return killTree(await treeOf(node.pid), `Galera node ${node.name}`);
}
