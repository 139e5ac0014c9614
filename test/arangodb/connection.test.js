// Connecting, without an ArangoDB server: a port nobody listens on and a listener that never answers are real
// failures of the network, and a silent listener shows how many connections the driver opens at once. None of
// them speaks HTTP, let alone pretends to be ArangoDB.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, describe, test } from 'node:test';
import { Database } from 'arangojs';
import arangodb from '../../adapters/arangodb/description.js';
import { databaseConfig } from '../../adapters/arangodb/connection.js';
import { ErrorCodes } from '../../core/errors.js';

const OPTIONS = {
  host: '127.0.0.1', user: 'root', password: undefined, database: '_system', namespace: 'dbshootout_connection',
  concurrency: 4, connectTimeoutMs: 3000,
};

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// Accepts TCP connections and never sends a byte; counts the connections open at once. After `hangUp()` it
// closes every connection, old and new, so that every request still waiting fails.
async function silentListener() {
  const sockets = new Set();
  let open = 0;
  let most = 0;
  let hungUp = false;
  const server = net.createServer((socket) => {
    if (hungUp) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    open += 1;
    most = Math.max(most, open);
    socket.on('close', () => { open -= 1; });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    get open() { return open; },
    get most() { return most; },
    hangUp() {
      hungUp = true;
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// Resolves to the rejection of connect() and how long it took; closes the adapter twice either way.
async function failedConnect(overrides) {
  const adapter = arangodb.create({ ...OPTIONS, ...overrides });
  const begin = Date.now();
  try {
    await adapter.connect();
  } catch (error) {
    return { error, ms: Date.now() - begin };
  } finally {
    await adapter.close();
    await adapter.close();
  }
  return { error: null, ms: Date.now() - begin };
}

function assertConnectError({ error }, port, reason) {
  assert.ok(error, 'connect() rejected');
  assert.equal(error.code, ErrorCodes.CONNECT);
  assert.ok(error.message.includes(`127.0.0.1:${port}`), `names 127.0.0.1:${port}: ${error.message}`);
  assert.match(error.message, reason);
}

describe('arangodb connection', () => {
  const listeners = [];
  after(async () => {
    for (const listener of listeners) {
      listener.hangUp();
      await listener.close();
    }
  });

  test('a port nobody listens on is E_CONNECT, connection refused, at once', async () => {
    const port = await freePort();
    const outcome = await failedConnect({ port });
    assertConnectError(outcome, port, /connection refused/);
    assert.ok(outcome.ms < 2000, `gave up at once (took ${outcome.ms} ms)`);
  });

  test('a server that never answers is E_CONNECT within connectTimeoutMs', async () => {
    const listener = await silentListener();
    listeners.push(listener);
    const outcome = await failedConnect({ port: listener.port, connectTimeoutMs: 1000 });
    assertConnectError(outcome, listener.port, /no answer within 1000 ms/);
    assert.ok(outcome.ms >= 900 && outcome.ms < 2500, `waited for the timeout, not longer (${outcome.ms} ms)`);
  });

  for (const concurrency of [7, 40]) {
    test(`the driver keeps exactly --concurrency ${concurrency} requests, and connections, in flight`, async () => {
      const listener = await silentListener();
      listeners.push(listener);
      const database = new Database(databaseConfig({ ...OPTIONS, port: listener.port, concurrency }));
      const requests = Array.from({ length: concurrency * 2 }, () =>
        database.request({ pathname: '/_api/version' }).then(() => 'answered', (error) => error.name));
      try {
        await waitFor(() => listener.open === concurrency, 5000, `${concurrency} connections open`);
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.equal(listener.most, concurrency, 'no more connections than --concurrency');
      } finally {
        listener.hangUp();
        database.close();
      }
      const outcomes = await Promise.all(requests);
      assert.ok(!outcomes.includes('answered'));
    });
  }
});

async function waitFor(condition, ms, what) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
