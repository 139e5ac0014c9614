import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import sqlite from '../../adapters/sqlite/description.js';

describe('sqlite namespace', () => {
  let dir;
  let file;
  let adapters;

  // Every adapter opened by a test is closed after it, so the directory can be removed.
  async function open(namespace = 'dbshootout') {
    const adapter = sqlite.create({ namespace, database: file, concurrency: 1 });
    adapters.push(adapter);
    await adapter.connect();
    return adapter;
  }

  // Another program's view of the same file.
  function withFile(use) {
    const other = new Database(file);
    try {
      return use(other);
    } finally {
      other.close();
    }
  }

  function tableNames() {
    return withFile((other) =>
      other.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all());
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'db-shootout-sqlite-'));
    file = join(dir, 'bench.sqlite');
    adapters = [];
  });

  afterEach(async () => {
    for (const adapter of adapters) await adapter.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('goes from absent to owned through resetNamespace and writeMarker', async () => {
    const db = await open();
    assert.deepStrictEqual(await db.inspectNamespace(), { state: 'absent', marker: null });
    await db.resetNamespace();
    assert.deepStrictEqual(await db.inspectNamespace(), { state: 'owned', marker: {} });
    await db.writeMarker({ dataset: 'tiny', profiles: 8 });
    assert.deepStrictEqual(await db.inspectNamespace(), { state: 'owned', marker: { dataset: 'tiny', profiles: 8 } });
    await db.writeMarker({ dataset: 'small' });
    assert.deepStrictEqual(await db.inspectNamespace(), { state: 'owned', marker: { dataset: 'small' } });
    assert.deepStrictEqual(tableNames(), ['dbshootout_marker', 'dbshootout_profiles', 'dbshootout_relations']);
  });

  test('resetNamespace on an owned namespace empties it and drops its temporary collections', async () => {
    const db = await open();
    await db.resetNamespace();
    await db.writeMarker({ dataset: 'tiny' });
    await db.importProfiles([{ _key: 'P1', AGE: 20 }]);
    await db.importRelations([{ _from: 'P1', _to: 'P1' }]);
    await db.createIndexes();
    await db.createTempCollection('writes');
    await db.resetNamespace();
    assert.deepStrictEqual(await db.counts(), { profiles: 0, relations: 0 });
    assert.deepStrictEqual(tableNames(), ['dbshootout_marker', 'dbshootout_profiles', 'dbshootout_relations']);
  });

  test('a table of the namespace without a marker makes it foreign, and reset refuses to touch it', async () => {
    withFile((other) => other.exec(`
      CREATE TABLE dbshootout_profiles (id);
      INSERT INTO dbshootout_profiles VALUES (1);
    `));
    const db = await open();
    assert.deepStrictEqual(await db.inspectNamespace(), { state: 'foreign', marker: null });
    await assert.rejects(db.resetNamespace(), { code: 'E_NAMESPACE_FOREIGN', message: /dbshootout_profiles/ });
    assert.equal(withFile((other) => other.prepare('SELECT count(*) FROM dbshootout_profiles').pluck().get()), 1);
  });

  test('a leftover temporary collection without a marker makes the namespace foreign', async () => {
    withFile((other) => other.exec('CREATE TABLE DBShootout_tmp_writes (v)'));
    const db = await open();
    assert.equal((await db.inspectNamespace()).state, 'foreign');
    await assert.rejects(db.resetNamespace(), { code: 'E_NAMESPACE_FOREIGN', message: /DBShootout_tmp_writes/ });
  });

  test('an empty or differently shaped marker table does not make the namespace owned', async () => {
    withFile((other) => other.exec('CREATE TABLE dbshootout_marker (id INTEGER PRIMARY KEY, marker TEXT)'));
    const db = await open();
    assert.equal((await db.inspectNamespace()).state, 'foreign');
    withFile((other) => other.exec("INSERT INTO dbshootout_marker VALUES (1, 'not json')"));
    assert.equal((await db.inspectNamespace()).state, 'foreign');
    withFile((other) => other.exec('DROP TABLE dbshootout_marker; CREATE TABLE dbshootout_marker (name TEXT)'));
    assert.equal((await db.inspectNamespace()).state, 'foreign');
  });

  test('tables outside the namespace survive resetNamespace', async () => {
    withFile((other) => other.exec(`
      CREATE TABLE other_stuff (v); INSERT INTO other_stuff VALUES ('keep me');
      CREATE TABLE dbshootoutx_profiles (v);
      CREATE TABLE dbshootout_notes (v);
      CREATE TABLE dbshootout_v2_profiles (v);
    `));
    const db = await open();
    assert.equal((await db.inspectNamespace()).state, 'absent');
    await db.resetNamespace();
    await db.writeMarker({ dataset: 'tiny' });
    await db.resetNamespace();
    assert.deepStrictEqual(tableNames(), [
      'dbshootout_marker', 'dbshootout_notes', 'dbshootout_profiles', 'dbshootout_relations',
      'dbshootout_v2_profiles', 'dbshootoutx_profiles', 'other_stuff',
    ]);
    assert.equal(withFile((other) => other.prepare('SELECT v FROM other_stuff').pluck().get()), 'keep me');
  });

  test('two namespaces share one file without seeing each other, even when one name extends the other', async () => {
    const first = await open('bench');
    const second = await open('bench_v2');
    await first.resetNamespace();
    await first.writeMarker({ dataset: 'tiny' });
    await first.importProfiles([{ _key: 'P1', AGE: 1 }]);
    assert.equal((await second.inspectNamespace()).state, 'absent');
    await second.resetNamespace();
    await second.importProfiles([{ _key: 'P1', AGE: 1 }, { _key: 'P2', AGE: 2 }]);
    await first.resetNamespace();
    assert.deepStrictEqual(await first.counts(), { profiles: 0, relations: 0 });
    assert.deepStrictEqual(await second.counts(), { profiles: 2, relations: 0 });
  });

  test('namespaces must be SQL identifiers that cannot collide with reserved or temporary names', () => {
    const invalid = [
      'db-shootout', '1bench', '', 'x"; DROP TABLE y; --', 'sqlite', 'SQLite_x', 'a_tmp', 'a_TMP_b', undefined,
    ];
    for (const namespace of invalid) {
      assert.throws(() => sqlite.create({ namespace, database: file }), { code: 'E_USAGE' }, String(namespace));
    }
  });

  test('connect creates the default file under dataDir, and close is idempotent', async () => {
    const db = sqlite.create({ namespace: 'dbshootout', database: null, dataDir: join(dir, 'data') });
    adapters.push(db);
    await db.connect();
    await db.resetNamespace();
    await db.close();
    await db.close();
    const other = new Database(join(dir, 'data', 'sqlite', 'bench.sqlite'), { fileMustExist: true });
    other.close();
    await assert.rejects(db.counts(), /not connected/);
  });

  test('connect fails with E_CONNECT naming the file when it is not a database', async () => {
    writeFileSync(join(dir, 'garbage.sqlite'), 'this is not an SQLite database, just some text'.repeat(20));
    const db = sqlite.create({ namespace: 'dbshootout', database: join(dir, 'garbage.sqlite') });
    await assert.rejects(db.connect(), { code: 'E_CONNECT', message: /garbage\.sqlite/ });
  });
});
