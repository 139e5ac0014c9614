// Where a local server started by `bench server start` lives, and how other commands find it: a state file
// beside its data directory, valid while the recorded process is alive.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { BenchError, ErrorCodes } from '../core/errors.js';

export function serverDir(cacheDir, family) {
  return path.join(cacheDir, 'servers', family);
}

export function stateFile(cacheDir, family) {
  return path.join(serverDir(cacheDir, family), 'state.json');
}

// A zombie counts as gone: a server daemonised by pg_ctl is reparented to whatever reaps orphans, and in a
// container that may never reap it.
function isZombie(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

export function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

// The recorded state, whether its process runs or not (one killed leaves it behind), or null when there is none.
export function recordedState(cacheDir, family) {
  try {
    return JSON.parse(readFileSync(stateFile(cacheDir, family), 'utf8'));
  } catch {
    return null;
  }
}

// The recorded state, or null when there is none or its process has gone (a cluster's: every node).
export function runningServer(cacheDir, family) {
  const state = recordedState(cacheDir, family);
  if (state?.cluster) return state.cluster.nodes.some((node) => isAlive(node.pid)) ? state : null;
  return state && Number.isInteger(state.pid) && isAlive(state.pid) ? state : null;
}

// Removes what a stopped server keeps outside the cache (PostgreSQL's data directory under root), for a throwaway
// cache that is about to be removed as a whole (the tests' own).
export function removeServerFiles(server, { cacheDir }) {
  if (runningServer(cacheDir, server.family)) {
    throw new BenchError(ErrorCodes.USAGE, `${server.name} is running; stop it before removing its files`);
  }
  for (const dir of server.dirsOutsideCache?.(cacheDir) ?? []) rmSync(dir, { recursive: true, force: true });
}
