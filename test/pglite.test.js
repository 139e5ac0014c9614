// PGlite's adapter beyond the shared conformance suite: the shortest-path function against a plain breadth-first
// search on a random graph, the data directory (kept across instances, its lock against a second opener, a
// directory that cannot be opened), the cache, and the terms read back.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pglite from '../adapters/pglite/description.js';
import { lockFile } from '../adapters/pglite/database.js';
import { ErrorCodes } from '../core/errors.js';
import { connectLimitMs } from '../runner/run.js';
import { assertNeighbourSets, assertPathCases, mulberry32, pathCases, randomGraph, searchPaths } from './helpers/graphs.js';

// Each test opens PGlite a few times; the first open of a directory runs initdb (seconds on a loaded machine).
const TIMEOUT = { timeout: 180_000 };
const CONCURRENCY = 4;

const dir = mkdtempSync(join(tmpdir(), 'db-shootout-pglite-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('pglite graph operations on a random graph of 200 nodes and 1600 relations', () => {
  const graph = randomGraph({ nodes: 200, edges: 1600, seed: 3 }, mulberry32);
  let db;

  before(async () => {
    db = pglite.create({ namespace: 'dbshootout', database: join(dir, 'graph'), concurrency: CONCURRENCY });
    await db.connect();
    await db.resetNamespace();
    await db.importProfiles(Array.from({ length: graph.nodes }, (_, i) => ({ _key: `P${i + 1}`, AGE: i % 7 })));
    await db.importRelations(graph.relations);
    await db.createIndexes();
  }, TIMEOUT);

  after(() => db?.close());

  test('shortestPath is minimal, follows relations, and respects maxDepth', TIMEOUT, async () => {
    const cases = pathCases(graph, 200, 16);
    assertPathCases(cases, await searchPaths(db, cases, CONCURRENCY), graph.out);
  });

  test('neighbors and neighbors2 match the adjacency lists', TIMEOUT, async () => {
    await assertNeighbourSets(db, graph);
  });
});

test('the harness waits for PGlite\'s first open (initdb) its own bound, not --connect-timeout\'s 10 s', () => {
  assert.equal(connectLimitMs(pglite, { connectTimeoutMs: 10_000 }), 120_000);
  assert.equal(connectLimitMs(pglite, { connectTimeoutMs: 300_000 }), 300_000, 'a longer --connect-timeout wins');
  // A server's openTimeoutMs, were one declared, would not apply: its wait is for the server.
  assert.equal(connectLimitMs({ kind: 'server', connection: { openTimeoutMs: 120_000 } }, { connectTimeoutMs: 10_000 }), 10_000);
});

describe('pglite data directory', () => {
  const dataDir = join(dir, 'cache');
  const options = { namespace: 'dbshootout', dataDir, concurrency: 1 };

  test('lives in <dataDir>/pglite/data, and the next instance reads back what the last one stored', TIMEOUT, async () => {
    const first = pglite.create(options);
    await first.connect();
    try {
      await first.resetNamespace();
      await first.writeMarker({ dataset: 'kept' });
    } finally {
      await first.close();
    }
    assert.ok(existsSync(join(dataDir, 'pglite', 'data', 'PG_VERSION')), 'a PostgreSQL data directory');
    assert.equal(existsSync(lockFile(join(dataDir, 'pglite', 'data'))), false, 'close() gives the lock back');
    const second = pglite.create(options);
    await second.connect();
    try {
      assert.deepEqual(await second.inspectNamespace(), { state: 'owned', marker: { dataset: 'kept' } });
      assert.match(await second.serverVersion(), /^\d+\.\d+\.\d+ \(PostgreSQL \d+\.\d+\)$/);
    } finally {
      await second.close();
    }
  });

  test('a second opener is refused with E_CONNECT, in this process or another, and a dead holder\'s lock is taken over', TIMEOUT, async () => {
    const data = join(dataDir, 'pglite', 'data');
    const first = pglite.create(options);
    await first.connect();
    try {
      await assert.rejects(pglite.create(options).connect(), (error) => {
        assert.equal(error.code, ErrorCodes.CONNECT);
        assert.match(error.message, /is open in this process; PGlite does not lock its data directory/);
        return true;
      });
    } finally {
      await first.close();
    }
    // A live process of another program holds the lock file.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      writeFileSync(lockFile(data), `${holder.pid}\n`);
      await assert.rejects(pglite.create(options).connect(), (error) => {
        assert.equal(error.code, ErrorCodes.CONNECT);
        assert.match(error.message, new RegExp(`is open in process ${holder.pid}`));
        return true;
      });
      assert.equal(readFileSync(lockFile(data), 'utf8'), `${holder.pid}\n`, 'the other process\'s lock is left alone');
    } finally {
      holder.kill('SIGKILL');
    }
    await new Promise((resolve) => { holder.once('exit', resolve); });
    // Its process is gone: the lock is stale.
    const next = pglite.create(options);
    await next.connect();
    try {
      assert.equal(readFileSync(lockFile(data), 'utf8'), `${process.pid}\n`);
    } finally {
      await next.close();
    }
  });

  test('a data directory that is a regular file is reported at connect() with E_CONNECT naming it', TIMEOUT, async () => {
    const file = join(dir, 'not-a-directory');
    writeFileSync(file, 'not PostgreSQL');
    await assert.rejects(pglite.create({ ...options, database: file }).connect(), (error) => {
      assert.equal(error.code, ErrorCodes.CONNECT);
      assert.ok(error.message.includes(file), error.message);
      return true;
    });
    assert.equal(existsSync(lockFile(file)), false, 'a failed open gives the lock back');
  });

  test('--cache is shared_buffers, read back; the durable term is unavailable and the relaxed one read back', TIMEOUT, async () => {
    const cacheBytes = 64 * 2 ** 20;
    const db = pglite.create({ ...options, cacheBytes });
    await db.connect();
    try {
      const terms = await db.terms({ durability: 'relaxed', owned: false, cacheBytes });
      assert.equal(terms.cache.bytes, cacheBytes);
      assert.match(terms.cache.settings.shared_buffers.source, /--cache/);
      assert.equal(terms.settings.synchronous_commit.value, 'on');
      assert.deepEqual(terms.problems, []);
      assert.equal((await db.settings()).shared_buffers, '64MB');
    } finally {
      await db.close();
    }
    assert.ok(pglite.terms.durability.durable.unavailable);
    assert.ok(pglite.terms.durability.relaxed.how);
  });
});
