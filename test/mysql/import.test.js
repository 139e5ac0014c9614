// The bulk import streams each phase through LOAD DATA LOCAL INFILE statements that stay open across batches
// (bulk.js LoadStream). These tests watch the server's own view of them (the process list) and what ends or
// abandons them. Runs against the local server of `bench server start mariadb`, where InnoDB's bulk insert takes
// the namespace's profiles and relations through one statement each (adapter.js, #bulkInsert). Every statement
// of the observing session is bounded by the server too (max_statement_time, lock_wait_timeout): why, in
// ../helpers/streamed-import.js.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { hasBulkInsert } from '../../adapters/mysql/adapter.js';
import mysql from '../../adapters/mysql/description.js';
import { openConnection } from '../../adapters/mysql/connection.js';
import { serverTarget } from '../helpers/servers.js';
import { OBSERVE_MS, TEST_MS, assertServerAnswers, streamedImportTests, within } from '../helpers/streamed-import.js';

const NAMESPACE = 'dbshootout_test_import';
const { options, skip } = serverTarget(mysql, { namespace: NAMESPACE });
// The observing session's own bound, in seconds: below the helper's deadline, so the server's error comes first.
const STATEMENT_SECONDS = 10;

async function serverVersion() {
  const connection = await openConnection(options);
  try {
    const [[{ version }]] = await connection.query('SELECT VERSION() AS version');
    return version;
  } finally {
    await connection.end();
  }
}
const version = skip ? '' : await serverVersion();
const mariadb = /MariaDB/i.test(version);
// One statement per phase where the server has InnoDB's bulk insert, else two.
const streams = skip || !hasBulkInsert(version) ? 2 : 1;

// A session whose every statement the server ends after STATEMENT_SECONDS (Oracle MySQL bounds only SELECTs).
async function openObserver() {
  const connection = await openConnection(options);
  await connection.query(mariadb
    ? `SET SESSION max_statement_time = ${STATEMENT_SECONDS}, lock_wait_timeout = ${STATEMENT_SECONDS}`
    : `SET SESSION max_execution_time = ${STATEMENT_SECONDS * 1000}, lock_wait_timeout = ${STATEMENT_SECONDS}`);
  return connection;
}

describe('mysql streamed import', { skip, timeout: 10 * TEST_MS }, () => {
  let admin;
  let adapters = [];

  async function open(concurrency = 4) {
    const adapter = mysql.create({ ...options, concurrency });
    adapters.push(adapter);
    await adapter.connect();
    return adapter;
  }

  const LOADS = "p.INFO LIKE 'LOAD DATA%' AND p.INFO LIKE ?";
  const watch = {
    // The connections of this test's namespace running a LOAD DATA, by id.
    async loading() {
      const [rows] = await admin.query(`SELECT p.ID AS id FROM information_schema.PROCESSLIST AS p WHERE ${LOADS} ORDER BY p.ID`,
        [`%${NAMESPACE}%`]);
      return rows.map(({ id }) => id);
    },
    // Those whose transaction has stored a row and that wait for the client ("Reading from net" in MariaDB; a
    // LOAD DATA at work inside the server is "Reading file").
    async waiting() {
      const [rows] = await admin.query(`SELECT p.ID AS id FROM information_schema.PROCESSLIST AS p
        JOIN information_schema.INNODB_TRX AS t ON t.trx_mysql_thread_id = p.ID
        WHERE ${LOADS} AND t.trx_rows_modified > 0 ${mariadb ? "AND p.STATE = 'Reading from net'" : ''} ORDER BY p.ID`,
      [`%${NAMESPACE}%`]);
      return rows.map(({ id }) => id);
    },
    async profileCount() {
      const [[row]] = await admin.query(`SELECT COUNT(*) AS n FROM \`${NAMESPACE}\`.profiles`);
      return Number(row.n);
    },
    async sessions() {
      const connection = await openConnection(options);
      try {
        const [list] = await connection.query(`SELECT p.ID, p.COMMAND, p.TIME, p.STATE, t.trx_state, t.trx_operation_state,
          t.trx_rows_modified, LEFT(p.INFO, 120) AS INFO FROM information_schema.PROCESSLIST AS p
          LEFT JOIN information_schema.INNODB_TRX AS t ON t.trx_mysql_thread_id = p.ID ORDER BY p.ID`);
        return list.map((row) => JSON.stringify(row)).join('\n');
      } finally {
        connection.destroy();
      }
    },
    // mysql2's destroy() only ends the client's half of the socket.
    async abandon() {
      admin.destroy();
      admin.connection.stream.destroy();
      admin = await openObserver();
    },
  };

  before(async () => {
    admin = await openObserver();
  });

  afterEach(async () => {
    const closing = adapters;
    adapters = [];
    for (const adapter of closing) await within(OBSERVE_MS, 'closing an adapter', () => adapter.close());
    assertServerAnswers();
    await admin.query(`DROP DATABASE IF EXISTS \`${NAMESPACE}\``);
  }, { timeout: 3 * OBSERVE_MS });

  after(async () => {
    await within(OBSERVE_MS, 'closing the observing session', () => admin?.end()).catch(() => admin.connection.stream.destroy());
  }, { timeout: 2 * OBSERVE_MS });

  streamedImportTests({ open, watch, streams });

  async function relationIndexes() {
    const [rows] = await admin.query(`SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'relations' ORDER BY INDEX_NAME`, [NAMESPACE]);
    return rows.map(({ name }) => name);
  }

  test('a dataset\'s relation lines are clustered on (_from, _to); relations stored as batches, which may repeat, get from_to', { skip: streams !== 1 && 'the server has no InnoDB bulk insert', timeout: TEST_MS }, async () => {
    assertServerAnswers();
    const lines = await open();
    await lines.resetNamespace();
    await lines.importRelationRows([new TextEncoder().encode('P1\tP2\nP2\tP1\nP1\tP3\n')], 3);
    await lines.flushRelations();
    await lines.createIndexes();
    assert.deepEqual(await relationIndexes(), ['PRIMARY', 'to_from']);
    assert.deepEqual(await lines.counts(), { profiles: 0, relations: 3 });
    assert.deepEqual((await lines.neighbors('P1')).sort(), ['P2', 'P3']);
    await lines.warmup();

    const batches = await open();
    await batches.resetNamespace();
    await batches.importRelations([{ _from: 'P1', _to: 'P2' }, { _from: 'P1', _to: 'P2' }]);
    await batches.flushRelations();
    await batches.createIndexes();
    assert.deepEqual(await relationIndexes(), ['from_to', 'to_from']);
    assert.deepEqual(await batches.counts(), { profiles: 0, relations: 2 }, 'a repeated relation is kept');
    await batches.warmup();
    // The dataset's tables keep the statistics ANALYZE gathered after the import.
    const [tables] = await admin.query(`SELECT TABLE_NAME AS name, CREATE_OPTIONS AS options FROM information_schema.TABLES
      WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN ('profiles', 'relations') ORDER BY TABLE_NAME`, [NAMESPACE]);
    assert.deepEqual(tables.map(({ name, options: text }) => [name, /stats_auto_recalc=0/i.test(text)]), [['profiles', true], ['relations', true]]);
  });

  test('the two files load together with InnoDB\'s bulk insert and a pool of at least three connections', { timeout: TEST_MS }, async () => {
    assertServerAnswers();
    assert.equal(await (await open(3)).filesTogether(), streams === 1);
    assert.equal(await (await open(2)).filesTogether(), false, 'two loads and the indexes need three connections');
  });
});

test('InnoDB\'s bulk insert is taken on MariaDB from 10.11.11 on, never on Oracle MySQL', () => {
  for (const [version, bulk] of [
    ['10.11.19-MariaDB-0+deb12u1', true], ['10.11.11-MariaDB', true], ['10.11.10-MariaDB-log', false],
    ['10.6.20-MariaDB', false], ['10.12.1-MariaDB', true], ['11.4.5-MariaDB-ubu2404', true], ['8.0.36', false], ['8.4.2-log', false],
  ]) {
    assert.equal(hasBulkInsert(version), bulk, version);
  }
});
