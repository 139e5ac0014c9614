import { loadAdapter } from '../adapters/index.js';
import { formatSize, parseSize } from '../core/terms.js';
import { usageError } from '../core/errors.js';
import { defaultCacheDir } from '../core/paths.js';
import { serverActivity } from '../server/activity.js';
import { checkNodes } from '../server/galera.js';
import { installServer, serverFamily, serverReleases, serverStatus, startServer, stopServer } from '../server/index.js';
import { SUITES, isSupported } from '../workloads/index.js';
import { formatError } from './errors.js';
import { ExitCodes } from './exit-codes.js';
import { createProgress } from './progress.js';

function describe(state) {
  if (state.cluster) {
    const { cluster } = state;
    const cache = state.cacheBytes ? `, cache ${formatSize(state.cacheBytes)} per node` : '';
    const what = cluster.kind === 'galera' ? `a Galera ${cluster.provider ?? ''} cluster "${cluster.name}" of ${cluster.nodes.length} node${cluster.nodes.length === 1 ? '' : 's'}` : `${cluster.nodes.length} servers`;
    return `${state.version}, ${what} (${cluster.roles}${cache}), endpoints ${cluster.nodes.map((node) => `${node.host}:${node.port}`).join(',')}`;
  }
  const java = state.java ? `, Java ${state.java.major ?? '?'} from ${state.java.home}` : '';
  const cache = state.cacheBytes ? `, cache ${formatSize(state.cacheBytes)}` : '';
  const backing = state.backendServer ? ` (the local PostgreSQL on port ${state.backendServer.port}, database ${state.backendServer.database})` : '';
  const backend = state.backend ? `, backend ${state.backend}${backing}` : '';
  return `${state.version} on ${state.host}:${state.port} (pid ${state.pid}${java}${cache}${backend}, data ${state.dataDir}, log ${state.logFile})`;
}

// One line per node of a cluster, as the node itself reports its state.
export function nodeLines(nodes) {
  return nodes.map((node) => {
    const where = `  ${node.name} ${node.host}:${node.port} (pid ${node.pid}, ${node.role}, data ${node.dataDir}, log ${node.logFile})`;
    if (!node.running) return `${where}: not running`;
    if (node.error) return `${where}: running, no answer (${node.error})`;
    if (node.postgres) {
      const { inRecovery, streaming, replayLagBytes } = node.postgres;
      return `${where}: ${inRecovery ? `a replica (in recovery), replay ${replayLagBytes} bytes behind what it received` : `the primary, ${streaming} replica${streaming === 1 ? '' : 's'} streaming`}`;
    }
    const { wsrep } = node;
    return `${where}: ${wsrep.local_state_comment}, ${wsrep.cluster_status}, cluster size ${wsrep.cluster_size}, ready ${wsrep.ready}`;
  });
}

// The releases of a Neo4j or OrientDB installed in the cache, for `status`; null for the other families.
export function installedLine(server, releases) {
  if (!server.defaultVersion) return null;
  if (releases.length === 0) return `${server.name} installed: none (default ${server.defaultVersion}: npx bench server install ${server.family})`;
  return `${server.name} installed: ${releases.map((r) => `${r.release}${r.isDefault ? ' (default)' : ''} in ${r.dir}`).join(', ')}`;
}

export function stopServerMessage(server, state) {
  if (!state) return `${server.name} is not running`;
  if (state.killed) return `${server.name} (pid ${state.pid}) did not stop within ${state.graceMs / 1000} s; killed (${state.killed} processes)`;
  return `${server.name} stopped (pid ${state.pid})`;
}

// How to run a benchmark on the server: its adapter's first suite (CouchDB has no social suite).
async function runHint(id) {
  const description = await loadAdapter(id);
  const suite = Object.values(SUITES).find((candidate) => candidate.workloads.some((workload) => isSupported(description, workload)));
  return `npx bench run --db ${id}${suite && suite.id !== 'social' ? ` --suite ${suite.id}` : ''}`;
}

// `bench server <action> a,b,c`: the action for each family in turn; one that fails does not stop the others,
// and the exit code is the worst of them. Every name is checked before anything is done.
export async function serverCommand(argv, { stdout = process.stdout } = {}) {
  if (argv.version !== undefined && !['install', 'start'].includes(argv.action)) throw usageError('--version applies to install and start');
  if (argv['java-home'] !== undefined && argv.action !== 'start') throw usageError('--java-home applies to start');
  if (argv.backend !== undefined && argv.action !== 'start') throw usageError('--backend applies to start');
  if (argv.activity && argv.action !== 'status') throw usageError('--activity applies to status');
  if (argv.nodes !== undefined) {
    if (!['install', 'start'].includes(argv.action)) throw usageError('--nodes applies to install and start (stop and status find the cluster that runs)');
    checkNodes(argv.nodes);
  }
  if (argv.replicas !== undefined && argv.action !== 'start') throw usageError('--replicas applies to start (stop and status find the replicas that run)');
  if (argv.netns && (argv.action !== 'start' || argv.nodes === undefined)) throw usageError('--netns applies to start with --nodes (mariadb)');
  const families = String(argv.family).split(',').map((name) => name.trim());
  const servers = families.map((name) => serverFamily(name));
  if (servers.length === 1) return familyCommand(servers[0], argv, { stdout });
  for (const flag of ['port', 'version']) {
    if (argv[flag] !== undefined) throw usageError(`--${flag} names one ${flag}, but ${servers.length} servers were named (${families.join(', ')})`);
  }
  let code = ExitCodes.OK;
  for (const server of servers) {
    try {
      code = Math.max(code, await familyCommand(server, argv, { stdout }));
    } catch (error) {
      process.stderr.write(`${formatError(error, argv)}\n`);
      code = ExitCodes.FAILED;
    }
  }
  return code;
}

// The nodes a start asks for: --nodes (a Galera cluster) or --replicas (a PostgreSQL primary and its replicas), as
// the family takes them; undefined for one server.
function clusterSize(server, argv) {
  const flag = argv.nodes !== undefined ? 'nodes' : argv.replicas !== undefined ? 'replicas' : null;
  if (flag === null) return undefined;
  if (server.clusterFlag && server.clusterFlag !== flag) throw usageError(`--${flag}: ${server.name} takes --${server.clusterFlag}`);
  if (flag === 'replicas') {
    if (!server.startCluster) throw usageError(`--replicas: ${server.name} has no replicas the harness can start (--replicas: postgresql)`);
    if (!Number.isInteger(argv.replicas) || argv.replicas < 1 || argv.replicas > 8) throw usageError(`--replicas must be a whole number from 1 to 8, not ${argv.replicas}`);
    return argv.replicas + 1;
  }
  return argv.nodes;
}

async function familyCommand(server, argv, { stdout }) {
  const cacheDir = argv['cache-dir'];
  const write = (line) => stdout.write(`${line}\n`);
  const log = (line) => process.stderr.write(`${line}\n`);
  // Starting or stopping a server takes seconds, a minute for some, with nothing to count.
  const progress = createProgress({ quiet: argv.quiet });
  const timed = async (label, work) => {
    const step = progress.bar(label, 1);
    try {
      return await work();
    } finally {
      step?.stop();
    }
  };
  switch (argv.action) {
    case 'install':
      await installServer(server, { cacheDir, log, version: argv.version, nodes: argv.nodes });
      return ExitCodes.OK;
    case 'start': {
      const cacheBytes = argv.cache === undefined ? null : parseSize(argv.cache);
      const nodes = clusterSize(server, argv);
      const state = await timed(`starting ${server.name}`, () => startServer(server, {
        cacheDir, port: argv.port, version: argv.version, javaHome: argv['java-home'],
        cacheBytes, backend: argv.backend, nodes, netns: Boolean(argv.netns), log: (line) => { if (!argv.quiet) log(line); },
      }));
      write(`${server.name} ${state.alreadyRunning ? 'is already running' : 'started'}: ${describe(state)}`);
      if (state.cluster) for (const line of nodeLines(await server.clusterStatus(state))) write(line);
      // bench run finds the server through the cache directory's state file.
      write(`use it with: ${await runHint(server.adapters[0])}${cacheDir === defaultCacheDir() ? '' : ` --cache-dir ${cacheDir}`}`);
      return ExitCodes.OK;
    }
    case 'stop': {
      // Nothing running: said at once, without a progress line of a stop that does not happen.
      if (!serverStatus(server, { cacheDir })) {
        write(`${server.name} is not running: nothing to stop`);
        return ExitCodes.OK;
      }
      write(stopServerMessage(server, await timed(`stopping ${server.name}`, () => stopServer(server, { cacheDir }))));
      return ExitCodes.OK;
    }
    default: {
      const state = serverStatus(server, { cacheDir });
      write(state ? `${server.name} is running: ${describe(state)}` : `${server.name} is not running`);
      if (state?.cluster) for (const line of nodeLines(await server.clusterStatus(state))) write(line);
      const installed = installedLine(server, serverReleases(server, { cacheDir }));
      if (installed) write(installed);
      if (state && argv.activity) for (const line of await serverActivity(server.family, state)) write(line);
      return state ? ExitCodes.OK : ExitCodes.FAILED;
    }
  }
}
