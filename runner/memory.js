// The memory terms of a run (bench run --cache, --cold): a server `bench server` runs is restarted with the
// cache asked for, and with --cold before every run, after the operating system's page cache is dropped where the
// harness may do so. Nothing here touches a server the harness does not own.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { usageError } from '../core/errors.js';
import { formatSize } from '../core/terms.js';
import { serverFamily, startServer, stopServer } from '../server/index.js';
import { runningServer } from '../server/state.js';

export const DROP_CACHES = '/proc/sys/vm/drop_caches';

// `server`: the run's server record (cli/options.js serverProcess), updated in place with the new process, so that
// the resources sampled afterwards are the new server's.
export async function restartOwnServer(server, { cacheBytes, log }) {
  const family = serverFamily(server.family);
  // Refused before the server is stopped: a family that cannot be started with a cache is left running.
  if (cacheBytes && !family.cacheSetting) {
    throw usageError(`--cache: the local ${family.name} cannot be started with a cache size; run without --cache`);
  }
  const state = runningServer(server.cacheDir, server.family);
  if (!state) throw new Error(`the local ${family.name} is no longer running`);
  log?.(`restarting the local ${family.name}${cacheBytes ? ` with a ${formatSize(cacheBytes)} ${family.cacheSetting}` : ''}`);
  await stopServer(family, { cacheDir: server.cacheDir });
  // A cluster starts again at its size, from fresh data (server/galera.js): before the load, as --cache does.
  const started = await startServer(family, {
    cacheDir: server.cacheDir, port: state.port, version: state.release, cacheBytes, nodes: state.cluster?.nodes.length,
  });
  Object.assign(server, { pid: started.pid, dataDir: started.dataDir ?? server.dataDir, cacheBytes: started.cacheBytes });
  return started;
}

// Writes back dirty pages, then drops the page cache, dentries and inodes (Linux, as root). Resolves
// { dropped, reason }: where the harness may not (not root, not Linux, a container's read-only /proc), it says so.
export function dropPageCache() {
  try {
    execFileSync('sync');
    writeFileSync(DROP_CACHES, '3');
    return { dropped: true, reason: null };
  } catch (error) {
    return {
      dropped: false,
      reason: `the operating system's page cache could not be dropped (${DROP_CACHES}: ${error.code ?? error.message}); `
        + 'data read from files may come from memory',
    };
  }
}
