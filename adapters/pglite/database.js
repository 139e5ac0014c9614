// Opening PGlite's data directory: where it is, the lock that keeps a second opener out, the start parameters (the
// cache, the planner's page cost), and what a failure to open tells the user.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { tryLock, unlock as unlockFile } from '../../core/lock.js';

// PostgreSQL's page: shared_buffers counts them.
export const BLOCK_BYTES = 8192;
// As the PostgreSQL adapter sets for its sessions (../postgresql/connection.js): with the data cached, the default
// 4.0 makes the planner scan every profile to join a few hundred neighbours.
const START_SETTINGS = ['random_page_cost=1.1'];
// The largest cache the 32-bit WebAssembly build can hold beside its own memory (its address space is 4 GiB,
// of which the engine, the catalogue and each query's memory need their share).
export const MAX_CACHE_BYTES = 2 * 2 ** 30;

// The data directory: --database when given (a directory, as PGlite stores one), else <dataDir>/pglite/data.
export function dataDirectory(options) {
  if (options.database == null && options.dataDir == null) {
    throw new BenchError(ErrorCodes.USAGE, 'pglite: needs a data directory (--database) or a cache directory');
  }
  return resolve(options.database ?? join(options.dataDir, 'pglite', 'data'));
}

// The lock file beside the data directory (not inside it: PGlite runs initdb into a directory only while it holds
// nothing). PGlite itself takes no lock: its postmaster.pid names no process, and two processes that open one
// directory both write to it and corrupt it.
export const lockFile = (dir) => `${dir}.lock`;

// Takes the directory's lock, or throws E_CONNECT naming the process that holds it (this one included). A lock
// left by a process that no longer runs (a crash, `bench crash`) is taken over.
function lock(dir) {
  const file = lockFile(dir);
  const { taken, holder } = tryLock(file);
  if (taken) return;
  throw new BenchError(ErrorCodes.CONNECT, `pglite: ${dir} is open in ${holder}; PGlite does not lock its data `
    + `directory, so the adapter does (${file}), and a second opener would corrupt it. Close the other one first `
    + '(or remove the lock file if that process is not a PGlite of this harness)');
}

const unlock = (dir) => unlockFile(lockFile(dir));

// The start parameters: PGlite's own, the planner's page cost, and the cache (--cache) as shared_buffers.
export function startParams(cacheBytes) {
  const settings = [...START_SETTINGS];
  if (cacheBytes) settings.push(`shared_buffers=${Math.max(16, Math.round(cacheBytes / BLOCK_BYTES))}`);
  return [...PGlite.defaultStartParams, ...settings.flatMap((setting) => ['-c', setting])];
}

// An open PGlite on `dir` and the function that closes it and gives its lock back. Rejects with E_CONNECT naming
// the directory when it cannot be made, is locked, or does not open as a PostgreSQL data directory.
export async function openDatabase(dir, { cacheBytes = null } = {}) {
  if (cacheBytes && cacheBytes > MAX_CACHE_BYTES) {
    throw new BenchError(ErrorCodes.USAGE, `pglite: --cache ${cacheBytes} bytes is more than its 32-bit engine can `
      + `hold (at most ${MAX_CACHE_BYTES} bytes)`);
  }
  try {
    mkdirSync(dirname(dir), { recursive: true });
    lock(dir);
  } catch (error) {
    if (error instanceof BenchError) throw error;
    throw new BenchError(ErrorCodes.CONNECT, `pglite: cannot open ${dir}: ${error.message}`, { cause: error });
  }
  let db;
  try {
    db = await PGlite.create(dir, { startParams: startParams(cacheBytes) });
    await db.query('SELECT 1');
  } catch (error) {
    await db?.close().catch(() => {});
    unlock(dir);
    throw new BenchError(ErrorCodes.CONNECT, `pglite: cannot open ${dir}: ${error.message}`, { cause: error });
  }
  let closed = false;
  return {
    db,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await db.close();
      } finally {
        unlock(dir);
      }
    },
  };
}
