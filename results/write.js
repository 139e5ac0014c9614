import { mkdir, open, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export function resultFileName(result) {
  const stamp = result.startedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  // A crash test (`bench crash`) has no dataset.
  return `${result.db.id}-${result.durability ? 'crash' : result.dataset.scale}-${stamp}.json`;
}

// A new file in `dir` for this result, never one that exists: two invocations that start in the same second
// (the name's resolution) get `-2`, `-3`, ... instead of overwriting each other. The name is claimed by
// creating the file exclusively, so concurrent invocations cannot pick the same one either.
export async function claimResultFile(dir, result) {
  await mkdir(dir, { recursive: true });
  const base = resultFileName(result).replace(/\.json$/, '');
  for (let n = 1; ; n += 1) {
    const file = path.join(dir, n === 1 ? `${base}.json` : `${base}-${n}.json`);
    try {
      await (await open(file, 'wx')).close();
      return file;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
}

// Written to a temporary file and renamed, so a reader never sees half a document.
export async function writeResult(file, result) {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(result, null, 2)}\n`);
  await rename(temporary, file);
  return file;
}
