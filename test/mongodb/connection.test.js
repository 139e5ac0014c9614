// How the mongodb adapter fails to connect: E_CONNECT naming host:port and the reason, in bounded time. The
// refused and silent cases use real sockets on 127.0.0.1 (a free port nobody listens on, and a listener that
// accepts and never answers); neither pretends to be MongoDB. A wrong password needs a server, and skips
// without one.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { connectError } from '../../adapters/mongodb/connection.js';
import mongodb from '../../adapters/mongodb/description.js';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { freePort, silentServer } from '../helpers/net.js';
import { serverTarget } from '../helpers/servers.js';

const local = {
  host: '127.0.0.1', port: 27017, user: null, password: undefined, database: null,
  namespace: 'dbshootout_mongotest_connection', concurrency: 4, connectTimeoutMs: 5000,
};

// The rejection of connect(), how long it took, and that close() is harmless afterwards, twice.
async function failedConnect(options) {
  const adapter = mongodb.create(options);
  const begin = performance.now();
  let error = null;
  try {
    await adapter.connect();
  } catch (caught) {
    error = caught;
  }
  const ms = performance.now() - begin;
  await adapter.close();
  await adapter.close();
  assert.ok(error, 'connect() rejected');
  return { error, ms };
}

function assertConnectError(error, host, port, reason) {
  assert.equal(error.code, ErrorCodes.CONNECT);
  assert.ok(error.message.includes(`${host}:${port}`), `names ${host}:${port}: ${error.message}`);
  assert.match(error.message, reason);
}

describe('mongodb connection failures without a server', () => {
  test('a port nobody listens on is E_CONNECT, connection refused, at once', async () => {
    const port = await freePort();
    const { error, ms } = await failedConnect({ ...local, port, connectTimeoutMs: 10_000 });
    assertConnectError(error, '127.0.0.1', port, /connection refused/);
    assert.ok(ms < 2000, `gave up at the first refusal, not after the 10 s timeout (took ${ms} ms)`);
  });

  test('a listener that never answers is E_CONNECT within connectTimeoutMs', async () => {
    const silent = await silentServer();
    const { port } = silent;
    try {
      const { error, ms } = await failedConnect({ ...local, port, connectTimeoutMs: 1000 });
      assertConnectError(error, '127.0.0.1', port, /no answer within 1000 ms/);
      assert.ok(ms >= 900 && ms < 2500, `waited for the timeout, and no longer (${ms} ms)`);
    } finally {
      await silent.close();
    }
  });

  test('a user without a password is refused before any connection, naming the variable', async () => {
    const port = await freePort();
    const { error, ms } = await failedConnect({ ...local, port, user: 'bench' });
    assertConnectError(error, '127.0.0.1', port, /BENCH_MONGODB_PASSWORD/);
    assert.match(error.message, /as user "bench" \(authentication database "admin"\)/);
    assert.ok(ms < 500, `at once (${ms} ms)`);
  });

  test('the test support reports an unreachable server the same way', async () => {
    const port = await freePort();
    for (const support of [mongodb.testSupport.plantForeign, mongodb.testSupport.dropNamespace]) {
      await assert.rejects(support({ ...local, port }), (error) => {
        assertConnectError(error, '127.0.0.1', port, /connection refused/);
        return true;
      });
    }
  });

  test('reasons are told from the driver\'s errors and their causes', () => {
    const because = (message, cause, name = 'MongoNetworkError') => Object.assign(new Error(message, { cause }), { name });
    const reasonOf = (error) => connectError(local, error).message.replace('mongodb: cannot connect to 127.0.0.1:27017: ', '');
    assert.equal(reasonOf(because('connect ECONNREFUSED 127.0.0.1:27017', { code: 'ECONNREFUSED' })),
      'connection refused (is the server running and listening there?)');
    assert.equal(reasonOf(because('getaddrinfo ENOTFOUND db', { code: 'ENOTFOUND' })),
      'host not found (getaddrinfo ENOTFOUND db)');
    assert.equal(reasonOf(because('Server selection timed out after 5000 ms', undefined, 'MongoServerSelectionError')),
      'no answer within 5000 ms (Server selection timed out after 5000 ms)');
    assert.equal(reasonOf(new BenchError(ErrorCodes.TIMEOUT, 'no answer within 5000 ms')), 'no answer within 5000 ms');
    assert.equal(reasonOf(Object.assign(new Error('Authentication failed.'), { code: 18 })), 'Authentication failed.');
    const error = connectError(local, new Error('x'));
    assert.ok(error instanceof BenchError);
    assert.equal(error.cause.message, 'x');
  });
});

const { options, skip } = serverTarget(mongodb, { namespace: 'dbshootout_mongotest_connection' });

describe('mongodb connection failures against a server', { skip }, () => {
  test('a user the server does not know is E_CONNECT, authentication failed', async () => {
    const { error } = await failedConnect({ ...options, user: 'dbshootout_no_such_user', password: 'wrong' });
    assertConnectError(error, options.host, options.port, /Authentication failed/i);
  });

  test('a connected adapter reports the server version and settings, and closes twice', async () => {
    const adapter = mongodb.create(options);
    await adapter.connect();
    try {
      assert.match(await adapter.serverVersion(), /^\d+\.\d+/);
      const settings = await adapter.settings();
      assert.equal(typeof settings.topology, 'string');
      for (const value of Object.values(settings)) assert.ok(['string', 'number', 'boolean'].includes(typeof value));
    } finally {
      await adapter.close();
      await adapter.close();
    }
  });
});
