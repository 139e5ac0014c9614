// test-needs: mariadb, postgresql
// The shared conformance suite again for every adapter that offers several drivers, once with each driver after
// its default (test/conformance.test.js runs the default), against the local server as there; and that the
// driver selected is the one that carries the operations.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { adapterIds, loadAdapter } from '../adapters/index.js';
import { openConnection } from '../adapters/mysql/connection.js';
import { IMPORT_DRIVER, openMariadbDriver } from '../adapters/mysql/mariadb-driver.js';
import { PIPELINED_CONNECTIONS, SESSION_NAME } from '../adapters/postgresql/postgres-driver.js';
import { selectDriver } from '../cli/options.js';
import { ErrorCodes } from '../core/errors.js';
import { conformanceCases } from './conformance/suite.js';
import { freePort, silentServer } from './helpers/net.js';
import { sessionsNamed } from './helpers/pg-sessions.js';
import { serverTarget } from './helpers/servers.js';

const NAMESPACE = 'dbshootout_drivers';
const SESSION_END_MS = 2000;

for (const id of adapterIds()) {
  const description = await loadAdapter(id);
  for (const driver of (description.drivers ?? []).slice(1)) {
    const { options, skip } = serverTarget(description, { namespace: NAMESPACE, driver });
    describe(`conformance: ${id} --driver ${driver}`, { skip }, () => {
      after(() => description.testSupport?.dropNamespace?.(options));
      for (const { name, run, skip: caseSkip } of conformanceCases(description)) {
        test(name, { skip: caseSkip }, () => run({ options }));
      }
    });
  }
}

const postgresql = await loadAdapter('postgresql');
const mysql = await loadAdapter('mysql');

describe('--driver', () => {
  const usage = (pattern) => (error) => error.code === ErrorCodes.USAGE && pattern.test(error.message);

  test('defaults to the first of the adapter\'s drivers, and takes any of them', () => {
    assert.deepEqual(postgresql.drivers, ['pg', 'postgres', 'pg-native']);
    assert.deepEqual(postgresql.blockingDrivers, ['pg-native']);
    assert.equal(selectDriver(postgresql, 'pg-native'), 'pg-native');
    assert.equal(selectDriver(postgresql, undefined), 'pg');
    assert.equal(selectDriver(postgresql, 'postgres'), 'postgres');
  });

  test('mysql takes mysql2, the default, or mariadb', () => {
    assert.deepEqual(mysql.drivers, ['mysql2', 'mariadb']);
    assert.equal(selectDriver(mysql, undefined), 'mysql2');
    assert.equal(selectDriver(mysql, 'mariadb'), 'mariadb');
  });

  test('an unknown driver is a usage error naming the valid ones', () => {
    assert.throws(() => selectDriver(postgresql, 'mysql2'), usage(/unknown driver "mysql2" for PostgreSQL; valid drivers: pg, postgres, pg-native/));
    assert.throws(() => selectDriver(postgresql, 'mariadb'), usage(/unknown driver "mariadb" for PostgreSQL; valid drivers: pg, postgres, pg-native/));
    assert.throws(() => selectDriver(mysql, 'postgres'), usage(/unknown driver "postgres" for MySQL\/MariaDB; valid drivers: mysql2, mariadb/));
  });

  test('is a usage error for a database with one driver, naming it', async () => {
    const sqlite = await loadAdapter('sqlite');
    assert.equal(selectDriver(sqlite, undefined), 'better-sqlite3');
    assert.throws(() => selectDriver(sqlite, 'better-sqlite3'), usage(/SQLite has one driver, better-sqlite3/));
    assert.throws(() => selectDriver(sqlite, 'mariadb'), usage(/SQLite has one driver, better-sqlite3/));
  });
});
const target = serverTarget(postgresql, { namespace: NAMESPACE, concurrency: 6 });

// The server's sessions of the postgres driver, by the application name it logs in with.
const postgresSessions = (options) => sessionsNamed(options, SESSION_NAME);

describe('postgresql --driver postgres', { skip: target.skip }, () => {
  test('opens its pipelined connections, two pools of up to PIPELINED_CONNECTIONS, and closes them', async () => {
    const before = await postgresSessions(target.options);
    const adapter = postgresql.create({ ...target.options, driver: 'postgres' });
    await adapter.connect();
    try {
      assert.equal(await postgresSessions(target.options) - before, 2 * Math.min(6, PIPELINED_CONNECTIONS));
    } finally {
      await adapter.close();
    }
    // A backend leaves pg_stat_activity shortly after its client's Terminate.
    const deadline = performance.now() + SESSION_END_MS;
    while (await postgresSessions(target.options) !== before && performance.now() < deadline) await delay(50);
    assert.equal(await postgresSessions(target.options), before);
  });

  test('pg, the default, opens none', async () => {
    const before = await postgresSessions(target.options);
    const adapter = postgresql.create(target.options);
    await adapter.connect();
    try {
      assert.equal(await postgresSessions(target.options), before);
    } finally {
      await adapter.close();
    }
  });
});

const mysqlTarget = serverTarget(mysql, { namespace: NAMESPACE, concurrency: 6 });

// The session as each driver logs in: what the statements' answers and comparisons depend on.
const SESSION_SQL = `SELECT @@character_set_client AS character_set_client,
  @@character_set_connection AS character_set_connection, @@character_set_results AS character_set_results,
  @@collation_connection AS collation_connection, @@sql_mode AS sql_mode, @@time_zone AS time_zone,
  @@autocommit AS autocommit, @@tx_isolation AS tx_isolation, @@max_heap_table_size AS max_heap_table_size`;

// Server sessions of the test's user, other than `own`.
async function mysqlSessions(admin, own) {
  const [rows] = await admin.query('SELECT ID AS id FROM information_schema.PROCESSLIST WHERE USER = ? AND ID <> ?',
    [mysqlTarget.options.user, own]);
  return rows.map(({ id }) => Number(id));
}

describe('mysql --driver mariadb', { skip: mysqlTarget.skip }, () => {
  let admin;
  let own;
  before(async () => {
    admin = await openConnection(mysqlTarget.options);
    [[{ own }]] = await admin.query('SELECT CONNECTION_ID() AS own');
  });
  after(() => admin?.end());

  test('opens its `concurrency` connections at connect, lends each to one operation at a time, and closes them', async () => {
    const existing = await mysqlSessions(admin, own);
    const driver = await openMariadbDriver(mysqlTarget.options);
    let opened;
    try {
      opened = (await mysqlSessions(admin, own)).filter((id) => !existing.includes(id));
      assert.equal(opened.length, 6);
      // Six operations at once, each holding its connection for a while: six sessions, all opened at connect.
      const answers = await Promise.all(Array.from({ length: 6 },
        () => driver.execute({ sql: 'SELECT CONNECTION_ID(), SLEEP(0.2)', rowsAsArray: true }, [])));
      const used = answers.map(([[[id]]]) => Number(id));
      assert.deepEqual([...new Set(used)].sort(), [...opened].sort());
    } finally {
      await driver.end();
    }
    const deadline = performance.now() + SESSION_END_MS;
    while ((await mysqlSessions(admin, own)).some((id) => opened.includes(id)) && performance.now() < deadline) await delay(50);
    assert.deepEqual((await mysqlSessions(admin, own)).filter((id) => opened.includes(id)), []);
  });

  test('its sessions have mysql2\'s settings, and its answers mysql2\'s types', async () => {
    const driver = await openMariadbDriver(mysqlTarget.options);
    try {
      const [[session]] = await driver.execute(SESSION_SQL, []);
      const [[expected]] = await admin.execute(SESSION_SQL, []);
      assert.deepEqual({ ...session }, { ...expected });
      // BIGINT counts as numbers, text as strings, NULL as null; JSON text is left to the adapter.
      const typesSql = { sql: 'SELECT COUNT(*), CAST(? AS CHAR), NULL, JSON_OBJECT(\'a\', 1) FROM (SELECT 1) AS t', rowsAsArray: true };
      const [rows] = await driver.execute(typesSql, ['é😀']);
      const [expectedRows] = await admin.execute(typesSql, ['é😀']);
      assert.deepEqual(rows.map((row) => [...row]), expectedRows);
      assert.deepEqual(expectedRows, [[1, 'é😀', null, '{"a": 1}']]);
    } finally {
      await driver.end();
    }
  });

  test('mysql2, the default, opens no mariadb pool; mariadb opens one beside mysql2\'s', async () => {
    for (const [driver, sessions] of [['mysql2', 6], ['mariadb', 12]]) {
      const existing = await mysqlSessions(admin, own);
      const adapter = mysql.create({ ...mysqlTarget.options, driver });
      await adapter.connect();
      try {
        assert.equal((await mysqlSessions(admin, own)).filter((id) => !existing.includes(id)).length, sessions, driver);
        assert.equal((await adapter.settings()).import_driver, driver === 'mariadb' ? IMPORT_DRIVER : undefined);
      } finally {
        await adapter.close();
      }
    }
  });

  test('a server that refuses the connection is reported as mysql2\'s is, naming host:port', async () => {
    const port = await freePort();
    await assert.rejects(openMariadbDriver({ ...mysqlTarget.options, host: '127.0.0.1', port, connectTimeoutMs: 2000 }),
      (error) => error.code === ErrorCodes.CONNECT
        && new RegExp(`^mysql: cannot connect to 127\\.0\\.0\\.1:${port} as ${mysqlTarget.options.user}: .*ECONNREFUSED`).test(error.message));
  });

  test('a server that accepts but never greets fails within the connect timeout, saying so', async () => {
    const silent = await silentServer();
    const begin = performance.now();
    try {
      await assert.rejects(openMariadbDriver({ ...mysqlTarget.options, host: '127.0.0.1', port: silent.port, connectTimeoutMs: 1000 }),
        (error) => error.code === ErrorCodes.CONNECT && new RegExp(`127\\.0\\.0\\.1:${silent.port} .*no answer within 1000 ms`).test(error.message));
      assert.ok(performance.now() - begin < 2000, `gave up after ${performance.now() - begin} ms`);
    } finally {
      await silent.close();
    }
  });
});
