// Result files: written whole, and never over another invocation's file.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { claimResultFile, writeResult } from '../results/write.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-write-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('invocations that start in the same second get files of their own', async () => {
  const result = { startedAt: '2026-11-21T23:45:01.123Z', db: { id: 'sqlite' }, dataset: { scale: 'tiny' } };
  const files = await Promise.all([1, 2, 3].map(() => claimResultFile(path.join(dir, 'out'), result)));
  assert.deepEqual(files.map((file) => path.basename(file)).sort(),
    ['sqlite-tiny-20261121T234501Z-2.json', 'sqlite-tiny-20261121T234501Z-3.json', 'sqlite-tiny-20261121T234501Z.json']);
  await Promise.all(files.map((file, i) => writeResult(file, { ...result, n: i })));
  assert.deepEqual(files.map((file) => JSON.parse(readFileSync(file, 'utf8')).n), [0, 1, 2]);
  assert.equal(readdirSync(path.join(dir, 'out')).length, 3, 'no temporary file is left behind');
});
