// One run's resource figures: the server's process tree (when a local server is known) and the harness itself.
import { readFileSync } from 'node:fs';
import { runningServer } from '../server/state.js';
import { IO_FIELDS } from './io.js';
import { combineClients, isClientBound, meterClient } from './client.js';
import { sampleTree } from './tree-sampler.js';

// The pid to sample now. A server that `bench server` runs is looked up again before every run, since a
// --restart-cmd may have started it anew under another pid.
export function currentServerPid(server) {
  if (!server) return null;
  if (server.source === 'bench server') return runningServer(server.cacheDir, server.family)?.pid ?? null;
  return server.pid;
}

// Resolves, once the server's baseline is read, with a meter whose stop() resolves with
// `{ server, client, clientBound }` as recorded in a run. `workers`: the client figures of the processes that ran
// the operations (bench run --clients), each as meterClient() gives them; none when the harness ran them itself.
// `ioSettleMs`: how long after the run the server's I/O counters are read again (see sampleTree).
export async function measureRun(server) {
  const nodes = clusterNodes(server);
  if (nodes) return measureCluster(nodes);
  const parts = backedServer(server);
  if (parts) return measureCluster(parts, 'parts');
  const pid = currentServerPid(server);
  const sampler = pid ? sampleTree(pid) : null;
  await sampler?.ready;
  const client = meterClient();
  return {
    async stop(workers = [], { ioSettleMs = 0 } = {}) {
      const own = client.stop();
      const serverFigures = sampler ? await sampler.stop({ ioSettleMs }) : null;
      if (workers.length > 0) return { server: serverFigures, ...combineClients([own, ...workers]) };
      const { wallMs, ...clientFigures } = own;
      return {
        server: serverFigures, client: clientFigures,
        clientBound: isClientBound(clientFigures.cpuPct, wallMs, clientFigures.eventLoopUtilization),
      };
    },
  };
}

// The nodes of a cluster `bench server` runs, each { name, endpoint, pid }, or null for any other server.
function clusterNodes(server) {
  if (server?.source !== 'bench server') return null;
  const state = runningServer(server.cacheDir, server.family);
  return state?.cluster
    ? state.cluster.nodes.map(({ name, host, port, pid, namespace }) => ({ name, endpoint: `${host}:${port}`, pid, namespace: namespace ?? null })) : null;
}

// A server `bench server` runs that keeps its data in another local server `bench server` runs (FerretDB on the
// local PostgreSQL): both process trees, [{ name, endpoint, pid }], so that the server's figures are the sum, the
// backend's disk writes and memory included; null for any other server. Without the backend, the server's own
// process would be measured alone, and a FerretDB whose PostgreSQL writes every byte would show none written.
export function backedServer(server) {
  if (server?.source !== 'bench server') return null;
  const state = runningServer(server.cacheDir, server.family);
  const backendOf = state?.backendServer;
  const backend = backendOf && runningServer(server.cacheDir, backendOf.family);
  if (!backend || backend.port !== backendOf.port || !state.pid || !backend.pid) return null;
  return [
    { name: server.family, endpoint: `${state.host}:${state.port}`, pid: state.pid, namespace: null },
    { name: `${backendOf.family} (its backend)`, endpoint: `${backend.host}:${backend.port}`, pid: backend.pid, namespace: null },
  ];
}

// The bytes a process's network namespace received and sent on its interfaces but loopback (/proc/<pid>/net/dev),
// or null where unreadable. Only a node in a namespace of its own has interfaces of its own to count.
export function namespaceTraffic(pid, read = (file) => readFileSync(file, 'utf8')) {
  let text;
  try {
    text = read(`/proc/${pid}/net/dev`);
  } catch {
    return null;
  }
  let rxBytes = 0;
  let txBytes = 0;
  for (const line of text.split('\n').slice(2)) {
    const [name, counters] = line.split(':');
    if (!counters || name.trim() === 'lo') continue;
    const fields = counters.trim().split(/\s+/).map(Number);
    rxBytes += fields[0];
    txBytes += fields[8];
  }
  return { rxBytes, txBytes };
}

const sum2 = (nodes, field) => nodes.reduce((total, node) => total + node.figures.network[field], 0);

// Each node's process tree sampled apart (`server.nodes`, or `server.parts` for a server and its backend), and the
// sums as the server's figures: memory and CPU added over the nodes (a peak, the sum of each node's own), I/O added
// field by field.
export function clusterFigures(nodes, key = 'nodes') {
  const seen = nodes.filter((node) => node.figures);
  if (seen.length === 0) return null;
  // A figure no node has (a CPU peak, which needs a run of 0.5 s or more) stays null, not 0.
  const sum = (field) => (seen.every((node) => typeof node.figures[field] !== 'number') ? null
    : seen.reduce((total, node) => total + (node.figures[field] ?? 0), 0));
  const ios = seen.map((node) => node.figures.io);
  const io = ios.every(Boolean)
    ? Object.fromEntries(IO_FIELDS.map((field) => [field, ios.reduce((total, one) => total + (one[field] ?? 0), 0)])) : null;
  const round1 = (value) => (value === null ? null : Math.round(value * 10) / 10);
  return {
    rssPeakBytes: sum('rssPeakBytes'), rssMeanBytes: sum('rssMeanBytes'),
    cpuPeakPct: round1(sum('cpuPeakPct')), cpuMeanPct: round1(sum('cpuMeanPct')),
    samples: Math.min(...seen.map((node) => node.figures.samples)), ms: Math.max(...seen.map((node) => node.figures.ms)),
    io,
    [key]: nodes.map(({ name, endpoint, pid, figures }) => ({ name, endpoint, ...(key === 'parts' && { pid }), ...(figures ?? { gone: true }) })),
    ...(seen.every((node) => node.figures.network) && {
      network: { rxBytes: sum2(seen, 'rxBytes'), txBytes: sum2(seen, 'txBytes') },
    }),
  };
}

async function measureCluster(nodes, key = 'nodes') {
  const samplers = nodes.map((node) => sampleTree(node.pid));
  await Promise.all(samplers.map((sampler) => sampler.ready));
  const trafficBefore = nodes.map((node) => (node.namespace ? namespaceTraffic(node.pid) : null));
  const client = meterClient();
  return {
    async stop(workers = [], { ioSettleMs = 0 } = {}) {
      const own = client.stop();
      const figures = await Promise.all(samplers.map((sampler) => sampler.stop({ ioSettleMs })));
      // A node in a namespace of its own: what crossed its network link during the run.
      const network = nodes.map((node, i) => {
        const after = trafficBefore[i] && namespaceTraffic(node.pid);
        return after ? { rxBytes: after.rxBytes - trafficBefore[i].rxBytes, txBytes: after.txBytes - trafficBefore[i].txBytes } : null;
      });
      const serverFigures = clusterFigures(nodes.map((node, i) => ({
        ...node, figures: figures[i] && (network[i] ? { ...figures[i], network: network[i] } : figures[i]),
      })), key);
      if (workers.length > 0) return { server: serverFigures, ...combineClients([own, ...workers]) };
      const { wallMs, ...clientFigures } = own;
      return {
        server: serverFigures, client: clientFigures,
        clientBound: isClientBound(clientFigures.cpuPct, wallMs, clientFigures.eventLoopUtilization),
      };
    },
  };
}

// The server alone, for the import.
export async function measureServer(server) {
  const parts = backedServer(server);
  if (parts) {
    const samplers = parts.map((part) => sampleTree(part.pid));
    await Promise.all(samplers.map((sampler) => sampler.ready));
    return {
      stop: async () => {
        const figures = await Promise.all(samplers.map((sampler) => sampler.stop()));
        return clusterFigures(parts.map((part, i) => ({ ...part, figures: figures[i] })), 'parts');
      },
    };
  }
  const pid = currentServerPid(server);
  const sampler = pid ? sampleTree(pid) : null;
  await sampler?.ready;
  return { stop: async () => (sampler ? sampler.stop() : null) };
}
