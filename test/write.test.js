// Result files: written whole, and never over another invocation's file.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

test('a result file is named by database, by the scale for the social suite or else by the suite, and the start to the second', () => {
  const startedAt = '2026-11-21T23:45:01.123Z';
  const out = path.join(dir, 'names');
  const social = claimResultFile(out, { startedAt, suite: 'social', db: { id: 'sqlite' }, dataset: { scale: 'small' } });
  const crud = claimResultFile(out, { startedAt, suite: 'crud', db: { id: 'sqlite' }, dataset: { scale: 'small' } });
  const older = claimResultFile(out, { startedAt: '2026-01-02T03:04:05Z', db: { id: 'memory' }, dataset: { scale: 'tiny' } });
  assert.deepEqual([social, crud, older].map((file) => path.basename(file)),
    ['sqlite-small-20261121T234501Z.json', 'sqlite-crud-20261121T234501Z.json', 'memory-tiny-20260102T030405Z.json']);
});

test('a file that cannot be created for another reason than its existence fails at once with that reason', () => {
  const result = { startedAt: '2026-11-21T23:45:01.123Z', db: { id: 'x'.repeat(300) }, dataset: { scale: 'tiny' } };
  assert.throws(() => claimResultFile(path.join(dir, 'long'), result), { code: 'ENAMETOOLONG' });
  assert.deepEqual(readdirSync(path.join(dir, 'long')), []);
});

test('the thousandth name is still claimed; a database id holding ".json" keeps it', () => {
  const result = { startedAt: '2026-11-21T23:45:01.123Z', db: { id: 'x.json' }, dataset: { scale: 'tiny' } };
  const out = path.join(dir, 'almost-full');
  const first = claimResultFile(out, result);
  assert.equal(path.basename(first), 'x.json-tiny-20261121T234501Z.json');
  for (let n = 2; n < 1000; n += 1) closeSync(openSync(path.join(out, `x.json-tiny-20261121T234501Z-${n}.json`), 'w'));
  assert.equal(path.basename(claimResultFile(out, result)), 'x.json-tiny-20261121T234501Z-1000.json');
});
