// Profile files for the readers' tests: a line of the 59 columns with the given values ("null" for the others)
// and a trailing tab, and a file of the test's own, removed after it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PROFILE_COLUMNS } from '../../datasets/columns.js';

export function profileLine(id, values = {}) {
  const fields = PROFILE_COLUMNS.map((column) => values[column] ?? 'null');
  fields[0] = String(id);
  return `${fields.join('\t')}\t\n`;
}

export async function profileFile(t, content, name = 'profiles.txt') {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'db-shootout-profiles-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}
