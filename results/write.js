import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export function resultFileName(result) {
  const stamp = result.startedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${result.db.id}-${result.dataset.scale}-${stamp}.json`;
}

// Written to a temporary file and renamed, so a reader never sees half a document.
export async function writeResult(file, result) {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(result, null, 2)}\n`);
  await rename(temporary, file);
  return file;
}
