// How the mysql adapter connects: bounded failures that name host:port, credentials, the pool size, and
// connections the server drops while they are idle.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import mysql from '../../adapters/mysql/description.js';
import { openConnection } from '../../adapters/mysql/connection.js';
import { freePort, silentServer } from '../helpers/net.js';
import { serverTarget } from '../helpers/servers.js';

const { options, skip } = serverTarget(mysql, { namespace: 'dbshootout_test_connection' });
const TEST_USER = 'dbshootout_test_user';
const TEST_PASSWORD = 'right horse battery staple';

async function assertConnectFails(adapterOptions, pattern, withinMs) {
  const adapter = mysql.create(adapterOptions);
  const begin = performance.now();
  await assert.rejects(adapter.connect(), (error) => {
    assert.equal(error.code, 'E_CONNECT');
    assert.match(error.message, pattern);
    return true;
  });
  assert.ok(performance.now() - begin < withinMs, `connect() gave up after ${performance.now() - begin} ms`);
  await adapter.close();
}

// Connections of the adapter's user other than `own`, as the server lists them.
async function connectionIds(admin, own) {
  const [rows] = await admin.query(
    'SELECT ID AS id FROM information_schema.PROCESSLIST WHERE USER = ? AND ID <> ? ORDER BY ID',
    [options.user, own],
  );
  return rows.map(({ id }) => id);
}

describe('mysql connections', { skip, timeout: 120_000 }, () => {
  test('an unreachable port fails quickly with E_CONNECT naming host:port', async () => {
    const port = await freePort();
    await assertConnectFails({ ...options, host: '127.0.0.1', port, connectTimeoutMs: 5000 },
      new RegExp(`mysql: cannot connect to 127\\.0\\.0\\.1:${port} as ${options.user}: .*ECONNREFUSED`), 2000);
  });

  test('a server that accepts but never greets fails within connectTimeoutMs', async () => {
    const silent = await silentServer();
    const { port } = silent;
    try {
      await assertConnectFails({ ...options, host: '127.0.0.1', port, connectTimeoutMs: 1000 },
        new RegExp(`127\\.0\\.0\\.1:${port}.*no answer within 1000 ms`), 3000);
    } finally {
      await silent.close();
    }
  });

  describe('credentials', () => {
    let admin;

    before(async () => {
      admin = await openConnection(options);
      await admin.query('DROP USER IF EXISTS ?@?', [TEST_USER, '%']);
      await admin.query('CREATE USER ?@? IDENTIFIED BY ?', [TEST_USER, '%', TEST_PASSWORD]);
    });

    after(async () => {
      await admin?.query('DROP USER IF EXISTS ?@?', [TEST_USER, '%']);
      await admin?.end();
    });

    test('a wrong password fails with E_CONNECT saying access was denied', async () => {
      await assertConnectFails({ ...options, user: TEST_USER, password: 'wrong' },
        new RegExp(`${options.host.replaceAll('.', '\\.')}:${options.port} as ${TEST_USER}: Access denied ` +
          `for user '${TEST_USER}'.*\\(using password: YES\\)$`), 5000);
    });

    test('a missing password names the variable that supplies it', async () => {
      await assertConnectFails({ ...options, user: TEST_USER, password: undefined },
        /Access denied .*\(using password: NO\); no password was given \(set BENCH_MYSQL_PASSWORD\)/, 5000);
    });

    test('the right password connects', async () => {
      const adapter = mysql.create({ ...options, user: TEST_USER, password: TEST_PASSWORD });
      await adapter.connect();
      try {
        assert.match(await adapter.serverVersion(), /MariaDB/);
      } finally {
        await adapter.close();
      }
    });
  });

  describe('the pool', () => {
    let admin;
    let ownId;

    before(async () => {
      admin = await openConnection(options);
      [[{ id: ownId }]] = await admin.query('SELECT CONNECTION_ID() AS id');
    });

    after(async () => {
      await admin?.end();
    });

    // mysql2's default pool has 10 connections; the run's concurrency must decide instead.
    test('connect opens exactly `concurrency` connections, and close releases them', async () => {
      const before = await connectionIds(admin, ownId);
      const adapter = mysql.create({ ...options, concurrency: 13 });
      await adapter.connect();
      const opened = (await connectionIds(admin, ownId)).filter((id) => !before.includes(id));
      await adapter.close();
      await adapter.close();
      assert.equal(opened.length, 13);
      await assert.rejects(adapter.serverVersion(), /mysql: not connected/);
      // The server notices the closed sockets asynchronously.
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const left = (await connectionIds(admin, ownId)).filter((id) => opened.includes(id));
        if (left.length === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.fail('the pool connections are still open after close()');
    });

    test('idle connections that the server kills do not crash the process, and the pool recovers', async () => {
      const before = await connectionIds(admin, ownId);
      const adapter = mysql.create({ ...options, concurrency: 4 });
      await adapter.connect();
      try {
        const opened = (await connectionIds(admin, ownId)).filter((id) => !before.includes(id));
        assert.equal(opened.length, 4);
        for (const id of opened) await admin.query('KILL ?', [id]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.match(await adapter.serverVersion(), /MariaDB/);
        const answers = await Promise.all(Array.from({ length: 8 }, () => adapter.serverVersion()));
        assert.equal(answers.length, 8);
      } finally {
        await adapter.close();
      }
    });
  });
});
