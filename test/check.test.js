// `bench check`, spawned as a vendor runs it: each conformance case named on stderr before it runs, in order,
// and nothing of the namespaces it created left behind, in an embedded database file and on a server, while
// someone else's data under one of its names stays.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { loadAdapter } from '../adapters/index.js';
import { clientConfig } from '../adapters/postgresql/connection.js';
import { conformanceCases } from './conformance/suite.js';
import { spawnBench } from './helpers/cli.js';
import { serverTarget } from './helpers/servers.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-check-'));
after(() => rmSync(work, { recursive: true, force: true }));

const announced = (stderr) => [...stderr.matchAll(/^ {2}run {3}(.+)$/gm)].map((match) => match[1]);
const runnable = (description) => conformanceCases(description).filter(({ skip }) => !skip).map(({ name }) => name);

test('bench check --db sqlite names each case on stderr before it runs, and leaves none of its tables', { timeout: 360_000 }, async () => {
  const cacheDir = path.join(work, 'cache');
  const { code, stdout, stderr } = await spawnBench(['check', '--db', 'sqlite', '--namespace', 'vendor'],
    { cwd: work, env: { BENCH_CACHE_DIR: cacheDir }, timeoutMs: 300_000 });
  assert.equal(code, 0, `${stdout}\n${stderr}`);
  assert.deepEqual(announced(stderr), runnable(await loadAdapter('sqlite')));
  assert.match(stdout, /nothing of the check's namespaces is left \(vendor_conformance, .*vendor_check\)/);

  const db = new Database(path.join(cacheDir, 'sqlite', 'bench.sqlite'), { readonly: true });
  try {
    assert.deepEqual(db.prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'vendor%'").pluck().all(), []);
  } finally {
    db.close();
  }
});

test('bench check leaves a foreign namespace it was given alone, and names it', { timeout: 360_000 }, async () => {
  const cacheDir = path.join(work, 'foreign');
  const sqlite = await loadAdapter('sqlite');
  const options = { database: null, dataDir: cacheDir, namespace: 'other_check' };
  await sqlite.testSupport.plantForeign(options);
  const { code, stdout, stderr } = await spawnBench(['check', '--db', 'sqlite', '--namespace', 'other'],
    { cwd: work, env: { BENCH_CACHE_DIR: cacheDir }, timeoutMs: 300_000 });
  assert.equal(code, 1, `${stdout}\n${stderr}`);
  assert.match(stdout, /left behind: other_check \(it holds data without a db-shootout marker\)/);

  const db = new Database(path.join(cacheDir, 'sqlite', 'bench.sqlite'), { readonly: true });
  try {
    assert.deepEqual(db.prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'other%'").pluck().all(), ['other_check_profiles']);
    assert.deepEqual(db.prepare('SELECT owner FROM other_check_profiles').pluck().all(), ['someone else']);
  } finally {
    db.close();
  }
});

const postgresql = await loadAdapter('postgresql');
const { options: pgOptions, skip: pgSkip } = serverTarget(postgresql);

test('bench check --db postgresql leaves no schema of its namespaces on the server', { skip: pgSkip, timeout: 660_000 }, async () => {
  const namespace = `vendor${process.pid}`;
  const { code, stdout, stderr } = await spawnBench(['check', '--db', 'postgresql', '--namespace', namespace],
    { cwd: work, timeoutMs: 600_000 });
  assert.equal(code, 0, `${stdout}\n${stderr}`);
  assert.deepEqual(announced(stderr), runnable(postgresql));

  const client = new pg.Client(clientConfig(pgOptions));
  await client.connect();
  try {
    const { rows } = await client.query('SELECT nspname FROM pg_namespace WHERE nspname LIKE $1', [`${namespace}%`]);
    assert.deepEqual(rows, []);
  } finally {
    await client.end();
  }
});
