// Connecting: every refusal is E_CONNECT naming host:port and the reason, in bounded time, and the pool holds
// exactly --concurrency connections. Runs against the local server of `bench server start postgresql`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import postgresql from '../../adapters/postgresql/description.js';
import { ErrorCodes } from '../../core/errors.js';
import { PASSWORD_PROBE_ROLE } from '../../server/postgresql.js';
import { freePort, silentServer, tryConnect } from '../helpers/net.js';
import { serverTarget } from '../helpers/servers.js';

const { options, skip } = serverTarget(postgresql, { namespace: 'dbshootout_pgtest_connection' });
// Roles this file creates and drops again; nothing else on the server is touched.
const PASSWORD_ROLE = PASSWORD_PROBE_ROLE;
const POOL_ROLE = 'dbshootout_pool_probe';
const PASSWORD = 'right-password';

// Resolves to the rejection of connect(), and how long it took.
function failedConnect(overrides) {
  return tryConnect(postgresql, { ...options, connectTimeoutMs: 3000, ...overrides });
}

function assertConnectError({ error, ms }, host, port, reason) {
  assert.ok(error, 'connect() rejected');
  assert.equal(error.code, ErrorCodes.CONNECT);
  assert.ok(error.message.includes(`${host}:${port}`), `names ${host}:${port}: ${error.message}`);
  assert.match(error.message, reason);
  assert.ok(ms < 3500, `settled within the connect timeout (took ${ms} ms)`);
}

describe('postgresql connection', { skip }, () => {
  let admin;

  before(async () => {
    admin = new pg.Client({ host: options.host, port: options.port, user: options.user, database: options.database });
    await admin.connect();
  });

  after(async () => {
    await admin.query(`DROP ROLE IF EXISTS ${PASSWORD_ROLE}`);
    await admin.query(`DROP ROLE IF EXISTS ${POOL_ROLE}`);
    await admin.end();
  });

  test('a port nobody listens on is E_CONNECT, connection refused, at once', async () => {
    const port = await freePort();
    assertConnectError(await failedConnect({ port }), options.host, port, /connection refused/);
  });

  test('a server that never answers is E_CONNECT within connectTimeoutMs', async () => {
    const silent = await silentServer();
    const { port } = silent;
    try {
      const outcome = await failedConnect({ port, connectTimeoutMs: 1000 });
      assertConnectError(outcome, '127.0.0.1', port, /no answer within 1000 ms/);
      assert.ok(outcome.ms >= 900, `waited for the timeout (${outcome.ms} ms)`);
    } finally {
      await silent.close();
    }
  });

  test('a database that does not exist is E_CONNECT with the server\'s reason', async () => {
    assertConnectError(await failedConnect({ database: 'dbshootout_no_such_database' }), options.host, options.port,
      /database "dbshootout_no_such_database" does not exist/);
  });

  test('a role that does not exist is E_CONNECT with the server\'s reason', async () => {
    assertConnectError(await failedConnect({ user: 'dbshootout_no_such_role' }), options.host, options.port,
      /role "dbshootout_no_such_role" does not exist/);
  });

  test('a wrong or missing password is E_CONNECT naming the password', async (t) => {
    await admin.query(`DROP ROLE IF EXISTS ${PASSWORD_ROLE}`);
    await admin.query(`CREATE ROLE ${PASSWORD_ROLE} LOGIN PASSWORD '${PASSWORD}'`);
    const right = await failedConnect({ user: PASSWORD_ROLE, password: PASSWORD });
    assert.equal(right.error, null, `the right password is accepted: ${right.error?.message}`);
    const wrong = await failedConnect({ user: PASSWORD_ROLE, password: 'wrong-password' });
    if (!wrong.error) {
      t.skip(`the server's pg_hba.conf trusts ${PASSWORD_ROLE} without a password (add a scram-sha-256 line for it)`);
      return;
    }
    assertConnectError(wrong, options.host, options.port, /password authentication failed/);
    assertConnectError(await failedConnect({ user: PASSWORD_ROLE, password: undefined }), options.host, options.port,
      /BENCH_PG_PASSWORD/);
  });

  test('the pool opens exactly --concurrency connections, beyond pg\'s default of 10', async (t) => {
    await admin.query(`DROP ROLE IF EXISTS ${POOL_ROLE}`);
    await admin.query(`CREATE ROLE ${POOL_ROLE} LOGIN`);
    const concurrency = 12;
    const adapter = postgresql.create({ ...options, user: POOL_ROLE, concurrency });
    try {
      await adapter.connect();
    } catch (error) {
      t.skip(`the server does not let ${POOL_ROLE} in without a password: ${error.message}`);
      return;
    }
    try {
      // Twice as many operations as connections, all at once: the pool grows to its maximum and no further.
      await Promise.all(Array.from({ length: concurrency * 2 }, () => adapter.serverVersion()));
      const { rows } = await admin.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1', [POOL_ROLE]);
      assert.equal(rows[0].n, concurrency);
    } finally {
      await adapter.close();
    }
  });

  test('connections the server ends while idle neither crash the process nor fail later operations', async (t) => {
    await admin.query(`DROP ROLE IF EXISTS ${POOL_ROLE}`);
    await admin.query(`CREATE ROLE ${POOL_ROLE} LOGIN`);
    const adapter = postgresql.create({ ...options, user: POOL_ROLE, concurrency: 3 });
    try {
      await adapter.connect();
    } catch (error) {
      t.skip(`the server does not let ${POOL_ROLE} in without a password: ${error.message}`);
      return;
    }
    try {
      const { rows } = await admin.query(
        `SELECT count(*)::int AS n
         FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1) AS ended`,
        [POOL_ROLE]);
      assert.equal(rows[0].n, 3);
      // The pool sees its sockets close and drops those connections; an unhandled 'error' would end the process.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.match(await adapter.serverVersion(), /^\d+\.\d+/);
    } finally {
      await adapter.close();
    }
  });

  test('close() is idempotent and an operation after it fails clearly', async () => {
    const adapter = postgresql.create(options);
    await adapter.connect();
    await adapter.close();
    await adapter.close();
    await assert.rejects(adapter.serverVersion(), /not connected/);
  });

  test('settings() reports the server settings that change results, as strings', async () => {
    const adapter = postgresql.create(options);
    await adapter.connect();
    try {
      const settings = await adapter.settings();
      assert.deepEqual(Object.keys(settings), ['shared_buffers', 'work_mem', 'effective_cache_size',
        'synchronous_commit', 'fsync', 'wal_level', 'max_connections', 'random_page_cost']);
      for (const value of Object.values(settings)) assert.equal(typeof value, 'string');
      assert.equal(settings.random_page_cost, '1.1');
      assert.match(await adapter.serverVersion(), /^\d+\.\d+/);
    } finally {
      await adapter.close();
    }
  });
});
