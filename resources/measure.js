// One run's resource figures: the server's process tree (when a local server is known) and the harness itself.
import { runningServer } from '../server/state.js';
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

// The server alone, for the import.
export async function measureServer(server) {
  const pid = currentServerPid(server);
  const sampler = pid ? sampleTree(pid) : null;
  await sampler?.ready;
  return { stop: async () => (sampler ? sampler.stop() : null) };
}
