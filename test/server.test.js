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
import { defaultCacheDir } from '../core/paths.js';
import { isAlive, serverDir } from '../server/state.js';
import { spawnBench } from './helpers/cli.js';
import { freePort, listen } from './helpers/net.js';

const required = new Set((process.env.BENCH_REQUIRE ?? '').split(',').filter(Boolean));

for (const family of ['postgresql', 'mariadb']) {
  const server = serverFamily(family);
  const version = await server.version(serverDir(defaultCacheDir(), family));
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

    test(`bench run --db ${server.adapters[0]} uses the running local server with no connection flags`, async () => {
      const state = await startServer(server, { cacheDir, port: await freePort() });
      const { code, stdout, stderr } = await spawnBench(['run', '--db', server.adapters[0], '--scale', 'tiny', '--runs', '1',
        '--workload', 'aggregation', '--json', '--quiet', '--out', path.join(cacheDir, 'results')],
      { env: { BENCH_CACHE_DIR: cacheDir } });
      assert.equal(code, 0, stderr);
      const result = JSON.parse(stdout);
      assert.deepEqual([result.config.connection.host, result.config.connection.port], ['127.0.0.1', state.port]);
      assert.equal(result.workloads.aggregation.status, 'passed');
      await stopServer(server, { cacheDir });
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
