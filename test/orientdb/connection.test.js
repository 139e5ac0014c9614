// Connecting: every refusal is E_CONNECT naming host:port and the reason, in bounded time, without leaving a
// socket that keeps the process alive; the socket pool holds exactly --concurrency connections for operations.
// Runs against the local server of `bench server start orientdb`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { connectError } from '../../adapters/orientdb/connection.js';
import orientdb from '../../adapters/orientdb/description.js';
import { ErrorCodes } from '../../core/errors.js';
import { freePort, silentServer, tryConnect } from '../helpers/net.js';
import { serverTarget } from '../helpers/servers.js';

const { options, skip } = serverTarget(orientdb, { namespace: 'dbshootout_orienttest_connection' });
const DESCRIPTION = fileURLToPath(new URL('../../adapters/orientdb/description.js', import.meta.url));
// Besides the operation pool, orientjs keeps a pool of two sockets for server push messages (clusters of
// servers); its size cannot be configured.
const PUSH_SOCKETS = 2;

// Resolves to the rejection of connect(), and how long it took.
function failedConnect(overrides) {
  return tryConnect(orientdb, { ...options, connectTimeoutMs: 3000, ...overrides });
}

function assertConnectError({ error, ms }, port, reason, limitMs = 3500) {
  assert.ok(error, 'connect() rejected');
  assert.equal(error.code, ErrorCodes.CONNECT);
  assert.ok(error.message.includes(`${options.host}:${port}`), `names ${options.host}:${port}: ${error.message}`);
  assert.match(error.message, reason);
  assert.ok(ms < limitMs, `settled in time (took ${ms} ms)`);
}

// Runs `body` (the text of an async function of `adapter`) in a fresh node process; resolves to its exit code,
// its output and how long it lived.
function inChildProcess(childOptions, body) {
  const script = `
    const { default: orientdb } = await import(${JSON.stringify(DESCRIPTION)});
    const adapter = orientdb.create(${JSON.stringify(childOptions)});
    await (${body})(adapter);
  `;
  return new Promise((resolve) => {
    const begin = performance.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, output, ms: performance.now() - begin });
    });
  });
}

describe('orientdb connection', { skip }, () => {
  test('a port nobody listens on is E_CONNECT, connection refused, at once', async () => {
    const port = await freePort();
    assertConnectError(await failedConnect({ port }), port, /connection refused/, 1000);
  });

  test('a server that never answers is E_CONNECT within connectTimeoutMs', async () => {
    const silent = await silentServer();
    try {
      const outcome = await failedConnect({ port: silent.port, connectTimeoutMs: 1000 });
      assertConnectError(outcome, silent.port, /no answer within 1000 ms/);
      assert.ok(outcome.ms >= 900, `waited for the timeout (${outcome.ms} ms)`);
    } finally {
      await silent.close();
    }
  });

  test('after a server that never answers, the process exits at once', async () => {
    const silent = await silentServer();
    try {
      const { code, output, ms } = await inChildProcess({ ...options, port: silent.port, connectTimeoutMs: 500 },
        `async (adapter) => {
          await adapter.connect().catch((error) => console.log(error.code));
          await adapter.close();
        }`);
      assert.equal(code, 0, output);
      assert.equal(output.trim(), ErrorCodes.CONNECT);
      assert.ok(ms < 5000, `exited ${ms} ms after start`);
    } finally {
      await silent.close();
    }
  });

  test('a wrong password is E_CONNECT with the server\'s reason', async () => {
    assertConnectError(await failedConnect({ password: 'wrong-password' }), options.port,
      /Wrong user\/password/);
  });

  test('a user that does not exist is E_CONNECT with the server\'s reason', async () => {
    assertConnectError(await failedConnect({ user: 'dbshootout_no_such_user' }), options.port,
      /Wrong user\/password/);
  });

  test('without a password the documented local default is used', async () => {
    assert.equal(options.password, undefined, 'the local server gives no password');
    assert.equal((await failedConnect({})).error, null);
  });

  test('a process that connects, works and closes exits at once', async () => {
    const { code, output, ms } = await inChildProcess({ ...options, concurrency: 4 }, `async (adapter) => {
      await adapter.connect();
      await adapter.serverVersion();
      await adapter.close();
      console.log('closed');
    }`);
    assert.equal(code, 0, output);
    assert.equal(output.trim(), 'closed', 'nothing else is printed');
    assert.ok(ms < 5000, `exited ${ms} ms after start`);
  });

  test('the pool opens exactly --concurrency sockets for operations, beyond orientjs\'s default of 5', async () => {
    const concurrency = 12;
    const adapter = orientdb.create({ ...options, concurrency });
    const sockets = () => process._getActiveHandles().filter((handle) => handle instanceof net.Socket
      && handle.remotePort === options.port).length;
    const before = sockets();
    await adapter.connect();
    try {
      // Twice as many requests as sockets, all at once: the pool uses all of them and opens no more.
      await Promise.all(Array.from({ length: concurrency * 2 }, () => adapter.settings()));
      assert.equal(sockets() - before, concurrency + PUSH_SOCKETS);
    } finally {
      await adapter.close();
    }
  });

  test('close() is idempotent and an operation after it fails clearly', async () => {
    const adapter = orientdb.create(options);
    await adapter.connect();
    await adapter.close();
    await adapter.close();
    await assert.rejects(adapter.serverVersion(), /not connected/);
  });

  test('serverVersion() and settings() report what the server says', async () => {
    const adapter = orientdb.create(options);
    await adapter.connect();
    try {
      assert.match(await adapter.serverVersion(), /^\d+\.\d+\.\d+$/);
      const settings = await adapter.settings();
      assert.deepEqual(Object.keys(settings), ['storage.useWAL', 'storage.wal.commitTimeout',
        'storage.wal.syncOnPageFlush', 'storage.callFsync', 'storage.diskCache.bufferSize',
        'ridBag.embeddedToSbtreeBonsaiThreshold', 'query.maxHeapElementsAllowedPerOp']);
      for (const value of Object.values(settings)) assert.equal(typeof value, 'string');
    } finally {
      await adapter.close();
    }
  });
});

test('a refused login without a password names the password variable', () => {
  const error = new Error('Wrong user/password to [connect] to the remote OrientDB Server instance');
  const target = { host: '127.0.0.1', port: 2424, user: 'root' };
  assert.match(connectError('orientdb', { ...target, password: undefined }, error).message,
    /no password was given, so the local default was tried; set BENCH_ORIENTDB_PASSWORD/);
  assert.doesNotMatch(connectError('orientdb', { ...target, password: 'given' }, error).message, /BENCH_ORIENTDB_PASSWORD/);
});
