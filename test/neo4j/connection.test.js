// Connecting: every failure is E_CONNECT naming host:port and the reason, in bounded time, leaving no socket
// behind; the pool holds exactly --concurrency connections and survives connections the server ends. Runs
// against the local server of `bench server start neo4j` (or BENCH_NEO4J_URL).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import driverPackage from 'neo4j-driver';
import neo4j from '../../adapters/neo4j/description.js';
import { ErrorCodes } from '../../core/errors.js';
import { freePort, silentServer, tryConnect } from '../helpers/net.js';
import { serverTarget } from '../helpers/servers.js';

const { options, skip } = serverTarget(neo4j, { namespace: 'dbshootout_neo4jtest_connection' });

// Resolves to the rejection of connect(), and how long it took.
function failedConnect(overrides) {
  return tryConnect(neo4j, { ...options, connectTimeoutMs: 3000, ...overrides });
}

function assertConnectError({ error, ms }, host, port, reason, limitMs = 3500) {
  assert.ok(error, 'connect() rejected');
  assert.equal(error.code, ErrorCodes.CONNECT);
  assert.ok(error.message.includes(`${host}:${port}`), `names ${host}:${port}: ${error.message}`);
  assert.match(error.message, reason);
  assert.ok(ms < limitMs, `settled within the connect timeout (took ${ms} ms)`);
}

async function eventually(check, message) {
  const deadline = performance.now() + 2000;
  while (!(await check())) {
    if (performance.now() > deadline) assert.fail(message);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('neo4j connection', { skip }, () => {
  let admin;

  // The test's own driver, under a user agent of its own, to watch the adapter's connections.
  async function adapterConnections() {
    const session = admin.session({ database: options.database });
    try {
      const { records } = await session.run("CALL dbms.listConnections() YIELD connectionId, userAgent "
        + "WHERE userAgent = 'db-shootout' RETURN connectionId");
      return records.map((record) => record.get(0));
    } finally {
      await session.close();
    }
  }

  before(() => {
    const auth = options.password === undefined
      ? driverPackage.auth.none() : driverPackage.auth.basic(options.user, options.password);
    admin = driverPackage.driver(`bolt://${options.host}:${options.port}`, auth,
      { userAgent: 'db-shootout-test', disableLosslessIntegers: true });
  });

  after(() => admin.close());

  test('a port nobody listens on is E_CONNECT, connection refused, at once', async () => {
    const port = await freePort();
    assertConnectError(await failedConnect({ port }), options.host, port, /connection refused/, 1000);
  });

  test('a server that never answers is E_CONNECT within connectTimeoutMs, and no socket stays open', async () => {
    // Reading what the client sends lets the server's socket see the client's FIN and close.
    const silent = await silentServer({ read: true });
    try {
      const outcome = await failedConnect({ host: '127.0.0.1', port: silent.port, connectTimeoutMs: 1000 });
      assertConnectError(outcome, '127.0.0.1', silent.port, /no answer within 1000 ms/, 1500);
      assert.ok(outcome.ms >= 900, `waited for the timeout (${outcome.ms} ms)`);
      await eventually(() => silent.open === 0, 'a socket to the silent server is still open');
    } finally {
      await silent.close();
    }
  });

  test('a server that does not speak Bolt is E_CONNECT saying so', async () => {
    const http = await silentServer({ reply: 'HTTP/1.1 400 Bad Request\r\n\r\n' });
    try {
      assertConnectError(await failedConnect({ host: '127.0.0.1', port: http.port }), '127.0.0.1', http.port,
        /not with the Bolt protocol/);
      await eventually(() => http.open === 0, 'the socket to the HTTP server is still open');
    } finally {
      await http.close();
    }
  });

  test('a database that does not exist is E_CONNECT with the server\'s reason', async () => {
    assertConnectError(await failedConnect({ database: 'dbshootoutnosuchdatabase' }), options.host, options.port,
      /database "dbshootoutnosuchdatabase".*not found/i);
  });

  test('a wrong password is E_CONNECT with the server\'s reason', async (t) => {
    const wrong = await failedConnect({ password: 'db-shootout-wrong-password' });
    if (!wrong.error) {
      t.skip('the server runs without authentication (dbms.security.auth_enabled=false): no password is wrong');
      return;
    }
    assertConnectError(wrong, options.host, options.port, /unauthorized|authentication/i);
  });

  test('the pool opens exactly --concurrency connections at connect(), and closes them all', async () => {
    await eventually(async () => (await adapterConnections()).length === 0, 'no other db-shootout connection is open');
    const concurrency = 7;
    const adapter = neo4j.create({ ...options, concurrency });
    await adapter.connect();
    try {
      assert.equal((await adapterConnections()).length, concurrency, 'connect() opened the whole pool');
      // Three times as many operations as connections, all at once: the pool stays at its size.
      await Promise.all(Array.from({ length: concurrency * 3 }, () => adapter.serverVersion()));
      assert.equal((await adapterConnections()).length, concurrency);
    } finally {
      await adapter.close();
      await adapter.close();
    }
    // The server forgets a connection once it has processed its close.
    await eventually(async () => (await adapterConnections()).length === 0, 'close() closed every connection');
  });

  test('connections the server ends while idle are replaced; later operations succeed', async () => {
    const adapter = neo4j.create({ ...options, concurrency: 3 });
    await adapter.connect();
    try {
      const ids = await adapterConnections();
      assert.equal(ids.length, 3);
      const session = admin.session({ database: options.database });
      try {
        await session.run('CALL dbms.killConnections($ids)', { ids });
      } finally {
        await session.close();
      }
      // Idle for a moment, as a pooled connection is between operations: the driver sees each socket close.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const versions = await Promise.all(Array.from({ length: 6 }, () => adapter.serverVersion()));
      for (const version of versions) assert.match(version, /^\d+\.\d+/);
    } finally {
      await adapter.close();
    }
  });
});
