// The size of the imported data: the adapter's own figure for its namespace when it has one, else the size of
// a local server's data directory, which also holds every other namespace and the server's own files.
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

// The sum of the sizes of the regular files below `dir`; symbolic links are not followed. Files that vanish
// while it counts (a server rotating its logs) are skipped.
export async function directorySize(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  const sizes = await Promise.all(entries.map(async (entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return directorySize(file);
    if (!entry.isFile()) return 0;
    try {
      return (await lstat(file)).size;
    } catch {
      return 0;
    }
  }));
  return sizes.reduce((total, size) => total + size, 0);
}

// { diskBytes, diskScope }: diskScope is 'namespace' (the adapter measured its own objects), 'data directory'
// (the local server's whole data directory) or null with diskBytes null (nothing known).
export async function measureDisk({ adapter, dataDir, log }) {
  if (adapter.diskUsage) {
    try {
      const bytes = await adapter.diskUsage();
      if (Number.isFinite(bytes)) return { diskBytes: bytes, diskScope: 'namespace' };
    } catch (error) {
      // The size is a figure of the result, not a condition of the benchmark.
      log?.(`could not read the size of the imported data: ${error.message}`);
    }
  }
  if (dataDir) return { diskBytes: await directorySize(dataDir), diskScope: 'data directory' };
  return { diskBytes: null, diskScope: null };
}
