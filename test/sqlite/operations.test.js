import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CASE_NAMES } from '../../workloads/queries/cases.js';
import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite from '../../adapters/sqlite/description.js';
import { PROFILES, RELATIONS, graphTests } from '../helpers/fixture-graph-sqlite.js';

describe('sqlite adapter on a hand-made graph', () => {
  let dir;
  let db;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'db-shootout-sqlite-'));
    db = sqlite.create({ namespace: 'dbshootout', database: null, dataDir: dir, concurrency: 4 });
    await db.connect();
    await db.resetNamespace();
    await db.writeMarker({ dataset: 'hand-made' });
    await db.importProfiles(PROFILES.slice(0, 5));
    await db.importProfiles(PROFILES.slice(5));
    await db.importRelations(RELATIONS);
    await db.createIndexes();
    await db.warmup();
  });

  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('counts every imported profile and relation, duplicates included', async () => {
    assert.deepEqual(await db.counts(), { profiles: 8, relations: 15 });
  });

  test('singleRead returns the exact document, and null for a missing key', async () => {
    for (const doc of PROFILES) assert.deepStrictEqual(await db.singleRead(doc._key), doc);
    assert.equal(await db.singleRead('P999'), null);
  });

  test('aggregation counts profiles per AGE, keyed by the age as a string', async () => {
    assert.deepStrictEqual(await db.aggregation(), { 0: 3, 17: 1, 21: 1, 26: 2, 33: 1 });
  });

  graphTests(() => db, PROFILES);

  test('both write modes insert into a temporary collection', async () => {
    await db.createTempCollection('writes');
    await db.singleWrite('writes', { _key: 'W1', AGE: 30, region: 'žilinský kraj' });
    await db.singleWriteSync('writes', { _key: 'W2', AGE: 31 });
    assert.equal(await db.countDocuments('writes'), 2);
    assert.deepStrictEqual(await db.readDocument('writes', 'W1'), { _key: 'W1', AGE: 30, region: 'žilinský kraj' });
    assert.deepStrictEqual(await db.readDocument('writes', 'W2'), { _key: 'W2', AGE: 31 });
    assert.equal(await db.readDocument('writes', 'W3'), null);
    assert.equal((await db.settings()).synchronous, 'NORMAL', 'singleWriteSync restores the default');

    await db.createTempCollection('writes');
    assert.equal(await db.countDocuments('writes'), 0, 'creating again drops the leftover');
    await db.dropTempCollection('writes');
    await assert.rejects(db.countDocuments('writes'), /no such table/);
  });

  test('temporary collection names must be SQL identifiers', async () => {
    await assert.rejects(db.createTempCollection('x; DROP TABLE dbshootout_profiles'), { code: 'E_USAGE' });
    await assert.rejects(db.singleWrite('a-b', { _key: 'W1' }), { code: 'E_USAGE' });
    assert.deepEqual(await db.counts(), { profiles: 8, relations: 15 });
  });

  test('reports its version and the settings that matter', async () => {
    assert.match(await db.serverVersion(), /^3\.\d+\.\d+$/);
    assert.deepStrictEqual(await db.settings(), {
      journal_mode: 'wal',
      synchronous: 'NORMAL',
      cache_size: -262144,
      mmap_size: 0x7fff0000,
      page_size: 4096,
      temp_store: 'MEMORY',
    });
  });
});

describe('sqlite description', () => {
  test('declares the contract fields', () => {
    assert.equal(sqlite.id, 'sqlite');
    assert.equal(sqlite.kind, 'embedded');
    assert.equal(sqlite.driver, 'better-sqlite3');
    assert.equal(sqlite.execution, 'serial');
    assert.deepStrictEqual(sqlite.connection, { defaults: { database: null }, passwordEnv: null });
    assert.deepStrictEqual(sqlite.supports.slice(0, 14), [
      'singleRead', 'singleWrite', 'singleWriteSync', 'aggregation',
      'neighbors', 'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath',
      'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', 'scanDocuments',
    ]);
    // Every query case and every graph operation, in any order.
    assert.deepStrictEqual([...sqlite.supports.slice(14)].sort(), [...CASE_NAMES, ...GRAPH_OPERATIONS].sort());
    assert.deepStrictEqual(Object.keys(sqlite.durability), ['singleWrite', 'singleWriteSync']);
  });
});
