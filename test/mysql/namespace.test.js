// The mysql namespace is one database: what makes it absent, owned or foreign, and that a reset never
// touches anything else.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import mysql from '../../adapters/mysql/description.js';
import { openConnection } from '../../adapters/mysql/connection.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_test_ns';
// Databases whose names share the namespace's prefix, or contain it, but are not the namespace.
const NEIGHBOURS = [`${NAMESPACE}_v2`, `${NAMESPACE}x`, `x${NAMESPACE}`];
const { options, skip } = serverTarget(mysql, { namespace: NAMESPACE });

describe('mysql namespace', { skip, timeout: 300_000 }, () => {
  let admin;
  let adapters = [];

  async function open(namespace = NAMESPACE) {
    const adapter = mysql.create({ ...options, namespace });
    adapters.push(adapter);
    await adapter.connect();
    return adapter;
  }

  async function tablesOf(database) {
    const [rows] = await admin.query(
      'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME',
      [database],
    );
    return rows.map(({ name }) => name);
  }

  async function dropAll() {
    for (const database of [NAMESPACE, ...NEIGHBOURS]) await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
  }

  before(async () => {
    admin = await openConnection(options);
    await dropAll();
  });

  afterEach(async () => {
    for (const adapter of adapters) await adapter.close();
    adapters = [];
    await dropAll();
  });

  after(async () => {
    await admin?.end();
  });

  test('goes from absent to owned through resetNamespace, in a database that compares keys exactly', async () => {
    const db = await open();
    assert.deepStrictEqual(await db.inspectNamespace(), { state: 'absent', marker: null });
    await db.resetNamespace();
    assert.deepStrictEqual(await db.inspectNamespace(), { state: 'owned', marker: {} });
    await db.writeMarker({ dataset: 'tiny', profiles: 8 });
    await db.writeMarker({ dataset: 'small' });
    assert.deepStrictEqual(await db.inspectNamespace(), { state: 'owned', marker: { dataset: 'small' } });
    assert.deepStrictEqual(await tablesOf(NAMESPACE), ['marker', 'profiles', 'relations']);
    const [[schema]] = await admin.query(
      'SELECT DEFAULT_CHARACTER_SET_NAME AS charset, DEFAULT_COLLATION_NAME AS collation ' +
        'FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?',
      [NAMESPACE],
    );
    assert.deepStrictEqual({ ...schema }, { charset: 'utf8mb4', collation: 'utf8mb4_bin' });
  });

  test('resetNamespace on an owned namespace empties it and drops its temporary collections', async () => {
    const db = await open();
    await db.resetNamespace();
    await db.importProfiles([{ _key: 'P1', AGE: 20 }]);
    await db.importRelations([{ _from: 'P1', _to: 'P1' }]);
    await db.createIndexes();
    await db.createTempCollection('writes');
    await db.resetNamespace();
    assert.deepStrictEqual(await db.counts(), { profiles: 0, relations: 0 });
    assert.deepStrictEqual(await tablesOf(NAMESPACE), ['marker', 'profiles', 'relations']);
  });

  test('an existing database without a marker is foreign, and reset leaves it intact', async () => {
    await admin.query(`CREATE DATABASE \`${NAMESPACE}\``);
    await admin.query(`CREATE TABLE \`${NAMESPACE}\`.customers (name VARCHAR(20))`);
    await admin.query(`INSERT INTO \`${NAMESPACE}\`.customers VALUES ('keep me')`);
    const db = await open();
    assert.deepStrictEqual(await db.inspectNamespace(), { state: 'foreign', marker: null });
    await assert.rejects(db.resetNamespace(), {
      code: 'E_NAMESPACE_FOREIGN',
      message: new RegExp(`database ${NAMESPACE} at .* holds tables customers, but no db-shootout marker`),
    });
    const [[row]] = await admin.query(`SELECT name FROM \`${NAMESPACE}\`.customers`);
    assert.equal(row.name, 'keep me');
    assert.deepStrictEqual(await tablesOf(NAMESPACE), ['customers']);
  });

  test('an empty database of that name is foreign too', async () => {
    await admin.query(`CREATE DATABASE \`${NAMESPACE}\``);
    const db = await open();
    assert.equal((await db.inspectNamespace()).state, 'foreign');
    await assert.rejects(db.resetNamespace(), { code: 'E_NAMESPACE_FOREIGN', message: /holds no tables/ });
    const [rows] = await admin.query('SHOW DATABASES LIKE ?', [NAMESPACE]);
    assert.equal(rows.length, 1);
  });

  test('a marker table that is empty, shaped otherwise, or not holding an object does not make it owned', async () => {
    const database = `\`${NAMESPACE}\``;
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.query(`CREATE TABLE ${database}.marker (id INT PRIMARY KEY, marker TEXT)`);
    const db = await open();
    assert.equal((await db.inspectNamespace()).state, 'foreign');
    for (const text of ['not json', '[1, 2]', 'null', '"text"']) {
      await admin.query(`REPLACE INTO ${database}.marker VALUES (1, ?)`, [text]);
      assert.equal((await db.inspectNamespace()).state, 'foreign', text);
    }
    await admin.query(`DROP TABLE ${database}.marker`);
    await admin.query(`CREATE TABLE ${database}.marker (name TEXT)`);
    await admin.query(`INSERT INTO ${database}.marker VALUES ('{}')`);
    assert.equal((await db.inspectNamespace()).state, 'foreign');
    await assert.rejects(db.resetNamespace(), { code: 'E_NAMESPACE_FOREIGN' });
  });

  test('databases whose names merely resemble the namespace survive resetNamespace', async () => {
    for (const database of NEIGHBOURS) {
      await admin.query(`CREATE DATABASE \`${database}\``);
      await admin.query(`CREATE TABLE \`${database}\`.profiles (v VARCHAR(10))`);
    }
    const db = await open();
    assert.equal((await db.inspectNamespace()).state, 'absent');
    await db.resetNamespace();
    await db.resetNamespace();
    for (const database of NEIGHBOURS) assert.deepStrictEqual(await tablesOf(database), ['profiles'], database);
    const neighbour = await open(NEIGHBOURS[0]);
    assert.equal((await neighbour.inspectNamespace()).state, 'foreign');
  });

  test('namespaces must be identifiers of at most 64 characters', () => {
    const invalid = ['db-shootout', '1bench', '', 'x`; DROP DATABASE mysql; --', 'a'.repeat(65), 'ünï', undefined];
    for (const namespace of invalid) {
      assert.throws(() => mysql.create({ ...options, namespace }), { code: 'E_USAGE' }, String(namespace));
    }
  });

  test('plantForeign plants a foreign database and its cleanup removes it', async () => {
    const cleanup = await mysql.testSupport.plantForeign(options);
    const db = await open();
    assert.equal((await db.inspectNamespace()).state, 'foreign');
    await assert.rejects(mysql.testSupport.plantForeign(options), { code: 'ER_DB_CREATE_EXISTS' });
    await cleanup();
    assert.equal((await db.inspectNamespace()).state, 'absent');
  });
});
