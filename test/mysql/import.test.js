// The bulk import streams each phase through LOAD DATA LOCAL INFILE statements that stay open across batches
// (bulk.js LoadStream). These tests watch the server's own view of them (the process list) and what ends or
// abandons them. Runs against the local server of `bench server start mariadb`.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import mysql from '../../adapters/mysql/description.js';
import { openConnection } from '../../adapters/mysql/connection.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_test_import';
const { options, skip } = serverTarget(mysql, { namespace: NAMESPACE });

const profiles = (from, to) => Array.from({ length: to - from }, (_, i) => ({ _key: `P${from + i}`, AGE: i % 7 }));

describe('mysql streamed import', { skip }, () => {
  let admin;
  let adapters = [];

  async function open(concurrency = 4) {
    const adapter = mysql.create({ ...options, concurrency });
    adapters.push(adapter);
    await adapter.connect();
    return adapter;
  }

  // The connections of this test's namespace running a LOAD DATA, by id.
  async function loadingConnections() {
    const [rows] = await admin.query(
      "SELECT ID AS id FROM information_schema.PROCESSLIST WHERE INFO LIKE 'LOAD DATA%' AND INFO LIKE ? ORDER BY ID",
      [`%${NAMESPACE}%`],
    );
    return rows.map(({ id }) => id);
  }

  async function profileCount() {
    const [[row]] = await admin.query(`SELECT COUNT(*) AS n FROM \`${NAMESPACE}\`.profiles`);
    return Number(row.n);
  }

  before(async () => {
    admin = await openConnection(options);
  });

  afterEach(async () => {
    for (const adapter of adapters) await adapter.close();
    adapters = [];
    await admin.query(`DROP DATABASE IF EXISTS \`${NAMESPACE}\``);
  });

  after(async () => {
    await admin?.end();
  });

  test('the batches of a phase go through two LOAD DATA statements that stay open until the flush', async () => {
    const db = await open();
    await db.resetNamespace();
    await db.importProfiles(profiles(1, 1001));
    const first = await loadingConnections();
    assert.equal(first.length, 2, 'two LOAD DATA streams');
    await db.importProfiles(profiles(1001, 2001));
    assert.deepEqual(await loadingConnections(), first, 'the same statements take the next batch');
    assert.equal(await profileCount(), 0, 'nothing is visible before the flush');
    await db.flushProfiles();
    assert.deepEqual(await loadingConnections(), []);
    assert.equal(await profileCount(), 2000);

    await db.importRelations([{ _from: 'P1', _to: 'P2' }, { _from: 'P2', _to: 'P1' }, { _from: 'P3', _to: 'P1' }]);
    assert.equal((await loadingConnections()).length, 2);
    await db.flushRelations();
    assert.deepEqual(await db.counts(), { profiles: 2000, relations: 3 });
  });

  test('with --concurrency 1 the import uses one stream', async () => {
    const db = await open(1);
    await db.resetNamespace();
    await db.importProfiles(profiles(1, 11));
    assert.equal((await loadingConnections()).length, 1);
    await db.flushProfiles();
    assert.deepEqual(await db.counts(), { profiles: 10, relations: 0 });
  });

  test('the relations batch ends the profiles statements, and any other call ends an open one', async () => {
    const db = await open();
    await db.resetNamespace();
    await db.importProfiles(profiles(1, 5));
    await db.importRelations([{ _from: 'P1', _to: 'P2' }]);
    assert.equal(await profileCount(), 4, 'the profiles were committed when the relations began');
    assert.deepEqual(await db.counts(), { profiles: 4, relations: 1 });
    assert.deepEqual(await loadingConnections(), []);
  });

  test('close() rolls back a LOAD DATA that was never flushed, without waiting for it', async () => {
    const db = await open();
    await db.resetNamespace();
    await db.importProfiles(profiles(1, 101));
    assert.equal((await loadingConnections()).length, 2);
    await db.close();
    for (let i = 0; i < 50 && (await loadingConnections()).length > 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(await loadingConnections(), []);
    assert.equal(await profileCount(), 0);
  });
});
