// The local server lifecycle against the real PostgreSQL and MariaDB packages. Each test uses a cache of its
// own and a free port, so it never meets a server someone else started. Without the packages the tests skip,
// unless BENCH_REQUIRE names an adapter of that server.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { ErrorCodes } from '../core/errors.js';
import { serverFamily, serverStatus, startServer, stopServer } from '../server/index.js';
import { isAlive } from '../server/state.js';

const required = new Set((process.env.BENCH_REQUIRE ?? '').split(',').filter(Boolean));

function listen(port = 0) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

async function freePort() {
  const probe = await listen();
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

for (const family of ['postgresql', 'mariadb']) {
  const server = serverFamily(family);
  const version = await server.version();
  const needed = server.adapters.some((id) => required.has(id));
  if (!version && needed) throw new Error(`BENCH_REQUIRE needs ${family}, but it is not installed`);

  describe(`local ${family} server`, { skip: version ? false : `${family} is not installed (npx bench server install ${family})` }, () => {
    const cacheDir = mkdtempSync(path.join(os.tmpdir(), `bench-server-${family}-`));
    after(async () => {
      await stopServer(server, { cacheDir }).catch(() => {});
      rmSync(cacheDir, { recursive: true, force: true });
    });

    test('starts on 127.0.0.1, is found again, stops cleanly', async () => {
      const port = await freePort();
      const state = await startServer(server, { cacheDir, port });
      assert.equal(state.host, '127.0.0.1');
      assert.equal(state.port, port);
      assert.ok(isAlive(state.pid));
      const socket = net.connect({ host: '127.0.0.1', port });
      await new Promise((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject); });
      socket.destroy();

      assert.equal(serverStatus(server, { cacheDir }).pid, state.pid);
      const again = await startServer(server, { cacheDir, port });
      assert.equal(again.alreadyRunning, true);
      assert.equal(again.pid, state.pid);

      const stopped = await stopServer(server, { cacheDir });
      assert.equal(stopped.pid, state.pid);
      assert.equal(isAlive(state.pid), false);
      assert.equal(serverStatus(server, { cacheDir }), null);
      assert.equal(await stopServer(server, { cacheDir }), null, 'stopping a stopped server is a no-op');
    });

    test('refuses a port that is already taken', async () => {
      const holder = await listen();
      try {
        await assert.rejects(startServer(server, { cacheDir, port: holder.address().port }),
          (error) => error.code === ErrorCodes.USAGE && /already in use/.test(error.message));
      } finally {
        holder.close();
      }
    });
  });
}
