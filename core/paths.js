import { mkdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Generated datasets and embedded databases live here, apart from the code and from result files.
export function defaultCacheDir() {
  if (process.env.BENCH_CACHE_DIR) return path.resolve(process.env.BENCH_CACHE_DIR);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'db-shootout');
}

export const DEFAULT_OUT_DIR = 'bench-results';

// `dir` and its missing parents, made one level at a time. Node's mkdir({ recursive: true }) retries for ever
// where a parent exists but refuses children with ENOENT (/proc/foo); here every step is tried once and its
// error thrown. A path component that is a file fails with ENOTDIR, naming it.
export function makeDirectory(dir) {
  const missing = [];
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    let stats = null;
    try {
      stats = statSync(current);
    } catch (error) {
      // ENOTDIR: a parent is a file, which the walk up names.
      if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') throw error;
    }
    if (stats) {
      if (!stats.isDirectory()) {
        throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${current}'`), { code: 'ENOTDIR', syscall: 'mkdir', path: current });
      }
      break;
    }
    missing.push(current);
    if (path.dirname(current) === current) break;
  }
  for (const target of missing.reverse()) {
    try {
      mkdirSync(target);
    } catch (error) {
      // Another process may have made it meanwhile.
      if (error.code !== 'EEXIST' || !statSync(target).isDirectory()) throw error;
    }
  }
}
