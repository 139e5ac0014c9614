// `bench server <install|start|stop|status> <family>`: throwaway local servers bound to 127.0.0.1, with
// their data under the harness's cache and a state file that `bench run` reads for its connection defaults.
// Neo4j and OrientDB come in any release Maven Central serves (--version), each in a directory of its own; one
// server of a family runs at a time in one cache directory.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { BenchError, ErrorCodes, usageError } from '../core/errors.js';
import { defaultCacheDir } from '../core/paths.js';
import ferretdb from './ferretdb.js';
import mariadb from './mariadb.js';
import neo4j from './neo4j.js';
import orientdb from './orientdb.js';
import postgresql from './postgresql.js';
import pouchdb from './pouchdb.js';
import { clusterInstalled, removeClusterNetwork, stopNodes } from './galera.js';
import { chooseJava } from './java.js';
import { confirmOwnListener, isProgram, killTree, requireFreePort, stopProcessTree, treeOf } from './process.js';
import { recordedState, runningServer, stateFile } from './state.js';
import { installedReleases, releaseDir, releaseOf } from './versions.js';

const SERVERS = { postgresql, mariadb, neo4j, orientdb, pouchdb, ferretdb };

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

// `version`: the release to install (Neo4j and OrientDB only), the family's default when undefined. A failed
// install removes the directory it made, so that no half-installed release is taken for an installed one.
// `nodes`: also what a cluster of the family needs (MariaDB: Galera).
export async function installServer(server, { cacheDir, log, version, nodes }) {
  const cluster = nodes !== undefined;
  if (cluster && !server.startCluster) throw usageError(`--nodes: ${server.name} has no cluster the harness can start (--nodes: ${withClusters().join(', ')})`);
  const release = releaseOf(server, version);
  const dir = releaseDir(server, cacheDir, release);
  const present = (!cluster || await clusterInstalled()) && await server.version(dir, release);
  if (present) {
    log(`${server.name} is installed: ${present}`);
    return present;
  }
  const made = !existsSync(dir);
  try {
    await server.install(dir, log, release, { cluster });
  } catch (error) {
    if (made) rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const installed = (!cluster || await clusterInstalled()) && await server.version(dir, release);
  if (!installed) throw new BenchError(ErrorCodes.USAGE, `${server.name} is still not installed; see the output above`);
  log(`${server.name} installed: ${installed}${release === null ? '' : ` in ${dir}`}`);
  return installed;
}

// The releases installed under `cacheDir`, oldest first ([] for a family whose version is its package's).
export function serverReleases(server, { cacheDir }) {
  return server.defaultVersion ? installedReleases(server, cacheDir) : [];
}

// `version`: the release to start. Without it, the one a server that did not stop through `stopServer` last ran
// (as `bench crash` starts again the server it killed), else the family's default. `javaHome` overrides the
// JDK chosen for the release (see java.js). `backend`: what a family that stores its data in another database keeps it
// in (FerretDB: postgresql or sqlite); without it, the one it last ran on, else its first. A backend that is a
// server `bench server` runs (PostgreSQL) is started first, when it does not run yet, in the same cache directory.
// `nodes`: a cluster of that many nodes instead of one server (MariaDB: Galera, galera.js), always from fresh data;
// `log` hears of each node's start.
export async function startServer(server, {
  cacheDir, port = server.defaultPort, version, javaHome = process.env.BENCH_JAVA_HOME, confirmTimeoutMs = CONFIRM_TIMEOUT_MS,
  cacheBytes = null, backend, nodes, netns = false, log = () => {},
}) {
  if (nodes !== undefined && !server.startCluster) throw usageError(`--nodes: ${server.name} has no cluster the harness can start (--nodes: ${withClusters().join(', ')})`);
  if (nodes !== undefined && server.clusterFlag === 'replicas' && nodes < 2) throw usageError(`${server.name}: a primary needs at least one replica (--replicas 1 or more)`);
  const recorded = recordedState(cacheDir, server.family);
  const release = releaseOf(server, version, recorded?.release ?? server.defaultVersion);
  const store = backendOf(server, backend, recorded?.backend);
  // The commands a message suggests name the cache directory unless it is the default one.
  const where = cacheDir === defaultCacheDir() ? '' : ` --cache-dir ${cacheDir}`;
  const running = runningServer(cacheDir, server.family);
  if (running) {
    // A state written before releases were recorded is the default one's.
    const runningRelease = running.release ?? server.defaultVersion;
    const runningNodes = running.cluster?.nodes.length;
    if (nodes !== undefined && runningNodes !== nodes) {
      const what = runningNodes ? `a cluster of ${runningNodes} node${runningNodes === 1 ? '' : 's'}` : 'as one server';
      throw usageError(`${server.name} is running ${what} (pid ${running.pid}, port ${running.port}); stop it first with \`npx bench server stop ${server.family}${where}\` to start ${nodes} node${nodes === 1 ? '' : 's'}`);
    }
    if ((version === undefined || runningRelease === release) && (backend === undefined || running.backend === store)) {
      return { ...running, alreadyRunning: true };
    }
    if (backend !== undefined && running.backend !== store) {
      throw usageError(`${running.version} is running on ${running.backend} (pid ${running.pid}, port ${running.port}); stop it first with \`npx bench server stop ${server.family}${where}\` to start it on ${store}`);
    }
    throw usageError(`${running.version} is running (pid ${running.pid}, port ${running.port}); stop it first with \`npx bench server stop ${server.family}${where}\``
      + `, or start ${server.name} ${release} beside it with another --cache-dir and --port`);
  }
  const dir = releaseDir(server, cacheDir, release);
  const label = await server.version(dir, release);
  if (!label) {
    const install = `npx bench server install ${server.family}${release === null || release === server.defaultVersion ? '' : ` --version ${release}`}${where}`;
    throw new BenchError(ErrorCodes.USAGE, `${release === null ? server.name : `${server.name} ${release}`} is not installed; run \`${install}\``);
  }
  const java = server.javaFor
    ? chooseJava({ needs: server.javaFor(release), who: `${server.name} ${release}`, override: javaHome }) : null;
  await requireFreePort(port, server.name);
  mkdirSync(dir, { recursive: true });
  if (cacheBytes && !server.cacheSetting) {
    throw usageError(`--cache: the local ${server.name} cannot be started with a cache size yet; start it without --cache`);
  }
  const backing = store && server.backendServer?.(store);
  const backendState = backing ? await startServer(SERVERS[backing], { cacheDir }) : null;
  const started = nodes !== undefined
    ? await server.startCluster({ dir, port, cacheDir, nodes, cacheBytes, netns, log })
    : await server.start({ dir, port, cacheDir, release, java, cacheBytes, ...(store && { backend: store, backendState }) });
  try {
    // Every port the server binds: a server that cannot bind its second one shuts down after it bound the first.
    const listeners = started.cluster
      ? started.cluster.nodes.map((node) => ({ pid: node.pid, port: node.port, logFile: node.logFile, family: `${server.name} node ${node.name}` }))
      : [port, ...(started.otherPorts ?? [])].map((own) => ({ pid: started.pid, port: own, logFile: started.logFile, family: server.name }));
    for (const listener of listeners) await confirmOwnListener({ ...listener, timeoutMs: confirmTimeoutMs });
  } catch (error) {
    if (started.cluster) {
      await stopNodes(started.cluster.nodes, 0);
      await removeClusterNetwork(started);
    }
    else await killTree(await treeOf(started.pid), server.name);
    throw error;
  }
  const state = {
    family: server.family, version: label, ...(release !== null && { release, dir }), ...(java && { java }), ...started,
    // The cache it was started with (bench run --cache), null for the family's own.
    cacheBytes: cacheBytes ?? null,
    startedAt: new Date().toISOString(),
  };
  writeFileSync(stateFile(cacheDir, server.family), `${JSON.stringify(state, null, 2)}\n`);
  return state;
}

// The backend asked for (--backend), else the recorded one, else the family's first; null for a family without any.
function backendOf(server, asked, recorded) {
  if (!server.backends) {
    if (asked !== undefined) throw usageError(`--backend does not apply to ${server.name} (--backend: ${withBackends().join(', ')})`);
    return null;
  }
  if (asked !== undefined && !server.backends.includes(asked)) {
    throw usageError(`unknown backend "${asked}" for ${server.name}; valid backends: ${server.backends.join(', ')}`);
  }
  return asked ?? (server.backends.includes(recorded) ? recorded : server.backends[0]);
}

const withBackends = () => SERVER_FAMILIES.filter((name) => SERVERS[name].backends);
const withClusters = () => SERVER_FAMILIES.filter((name) => SERVERS[name].startCluster && !SERVERS[name].clusterFlag);

// Asks the server to stop and, when it has not after `graceMs`, kills its whole process tree. Resolves with its
// state and `killed` (false, or the number of processes killed), or null when it was not running.
export async function stopServer(server, { cacheDir, graceMs = STOP_GRACE_MS }) {
  const state = runningServer(cacheDir, server.family);
  if (!state) {
    rmSync(stateFile(cacheDir, server.family), { force: true });
    return null;
  }
  if (state.cluster) {
    const killed = await stopNodes(state.cluster.nodes.filter((node) => isProgram(node.pid, state.program)), graceMs);
    await removeClusterNetwork(state);
    rmSync(stateFile(cacheDir, server.family), { force: true });
    return { ...state, killed, graceMs };
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
