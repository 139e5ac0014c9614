import os from 'node:os';
import path from 'node:path';

// Generated datasets and embedded databases live here, apart from the code and from result files.
export function defaultCacheDir() {
  if (process.env.BENCH_CACHE_DIR) return path.resolve(process.env.BENCH_CACHE_DIR);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'db-shootout');
}

export const DEFAULT_OUT_DIR = 'bench-results';
