// Connecting, without an ArangoDB server: a port nobody listens on and a listener that never answers are real
// failures of the network, and a silent listener shows how many connections the driver opens at once. None of
// them speaks HTTP, let alone pretends to be ArangoDB.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Database } from 'arangojs';
import arangodb from '../../adapters/arangodb/description.js';
import { databaseConfig } from '../../adapters/arangodb/connection.js';
import { ErrorCodes } from '../../core/errors.js';
import { freePort, silentServer, tryConnect } from '../helpers/net.js';

const OPTIONS = {
  host: '127.0.0.1', user: 'root', password: undefined, database: '_system', namespace: 'dbshootout_connection',
  concurrency: 4, connectTimeoutMs: 3000,
};

// Resolves to the rejection of connect() and how long it took; closes the adapter twice either way.
function failedConnect(overrides) {
  return tryConnect(arangodb, { ...OPTIONS, ...overrides }, { closes: 2 });
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
    const listener = await silentServer();
    listeners.push(listener);
    const outcome = await failedConnect({ port: listener.port, connectTimeoutMs: 1000 });
    assertConnectError(outcome, listener.port, /no answer within 1000 ms/);
    assert.ok(outcome.ms >= 900 && outcome.ms < 2500, `waited for the timeout, not longer (${outcome.ms} ms)`);
  });

  for (const concurrency of [7, 40]) {
    test(`the driver keeps exactly --concurrency ${concurrency} requests, and connections, in flight`, async () => {
      const listener = await silentServer();
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
  const end = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
