// The local server lifecycle against the real PostgreSQL and MariaDB packages, and the stop and start checks
// against a stand-in family (a small node server) that ignores SIGTERM or fails to bind its port. Each test uses
// a cache of its own and a free port, so it never meets a server someone else started. Without the packages the
// real servers' tests skip, unless BENCH_REQUIRE names an adapter of that server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, describe, test } from 'node:test';
import { ErrorCodes } from '../core/errors.js';
import { processTree } from '../resources/proc.js';
import { stopServerMessage } from '../cli/server.js';
import { serverFamily, serverStatus, startServer, stopServer } from '../server/index.js';
import { LOCALHOST, ephemeralNote, ephemeralRange, waitUntilAccepting, waitUntilLogged } from '../server/process.js';
import { defaultCacheDir } from '../core/paths.js';
import { isAlive, removeServerFiles, serverDir, stateFile } from '../server/state.js';
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
      removeServerFiles(server, { cacheDir });
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
      assert.equal(stopped.killed, false, 'it stopped by itself');
      assert.equal(isAlive(state.pid), false);
      assert.equal(serverStatus(server, { cacheDir }), null);
      assert.equal(await stopServer(server, { cacheDir }), null, 'stopping a stopped server is a no-op');
    });

    test(`bench run --db ${server.adapters[0]} uses the running local server with no connection flags`, async () => {
      const state = await startServer(server, { cacheDir, port: await freePort() });
      try {
        const { code, stdout, stderr } = await spawnBench(['run', '--db', server.adapters[0], '--scale', 'tiny', '--runs', '1',
          '--workload', 'aggregation', '--json', '--quiet', '--out', path.join(cacheDir, 'results')],
        { env: { BENCH_CACHE_DIR: cacheDir } });
        assert.equal(code, 0, stderr);
        const result = JSON.parse(stdout);
        assert.deepEqual([result.config.connection.host, result.config.connection.port], ['127.0.0.1', state.port]);
        assert.equal(result.workloads.aggregation.status, 'passed');
      } finally {
        await stopServer(server, { cacheDir });
      }
    });

    test('a server that ignores SIGTERM (stopped with SIGSTOP) is killed, its whole process tree, after the grace period', async () => {
      const state = await startServer(server, { cacheDir, port: await freePort() });
      const tree = await processTree(state.pid);
      try {
        process.kill(state.pid, 'SIGSTOP');
        const began = performance.now();
        const stopped = await stopServer(server, { cacheDir, graceMs: 2000 });
        assert.ok(stopped.killed >= 1, 'killed');
        assert.ok(performance.now() - began < 15_000, `bounded: ${performance.now() - began} ms`);
        assert.deepEqual(tree.filter(isAlive), [], 'no process of the tree is left');
        assert.equal(serverStatus(server, { cacheDir }), null);
      } finally {
        if (isAlive(state.pid)) process.kill(state.pid, 'SIGKILL');
      }
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

// A stand-in server family: `script` runs in node with the port as its argument. It is started and stopped
// through the same startServer and stopServer as the real families.
function standIn(script) {
  return {
    family: 'standin',
    name: 'Stand-in',
    defaultPort: null,
    adapters: [],
    version: async () => 'stand-in 1',
    async start({ dir, port }) {
      const logFile = path.join(dir, 'standin.log');
      const log = openSync(logFile, 'a');
      const child = spawn(process.execPath, ['-e', script, String(port)], { detached: true, stdio: ['ignore', log, log] });
      closeSync(log);
      child.unref();
      await waitUntilAccepting({ port, pid: child.pid, timeoutMs: 10_000, logFile, family: 'Stand-in' });
      return { host: LOCALHOST, port, user: null, database: null, pid: child.pid, logFile, program: path.basename(process.execPath) };
    },
    async requestStop(state) {
      process.kill(state.pid, 'SIGTERM');
    },
  };
}

const LISTEN = "require('node:net').createServer().listen(Number(process.argv[1]), '127.0.0.1');";
// Ignores SIGTERM, and so does the child it starts: only a kill of the whole tree ends both.
const STUBBORN = `${LISTEN}
process.on('SIGTERM', () => console.log('SIGTERM ignored'));
require('node:child_process').spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);"], { stdio: 'ignore' });`;
// Fails to bind (another process holds the port), says so in its log and keeps running, as a server that
// does not give up on its first listener would.
const IMPOSTOR = `require('node:net').createServer().on('error', (error) => console.log('cannot listen: ' + error.code))
  .listen(Number(process.argv[1]), '127.0.0.1');
setInterval(() => {}, 1000);`;
// Fails to bind and exits, as OrientDB did.
const QUITTER = `require('node:net').createServer().on('error', (error) => { console.log('cannot listen: ' + error.code); process.exit(1); })
  .listen(Number(process.argv[1]), '127.0.0.1');`;

describe('stopping and starting a local server (stand-in family)', () => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'bench-server-standin-'));
  let started = [];
  afterEach(async () => {
    for (const pid of started) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    started = [];
  });
  after(() => rmSync(cacheDir, { recursive: true, force: true }));

  test('a server that ignores SIGTERM is killed with its children after the grace period, and the stop says so', async () => {
    const server = standIn(STUBBORN);
    const state = await startServer(server, { cacheDir, port: await freePort() });
    await new Promise((resolve) => setTimeout(resolve, 300)); // its child is spawned
    const tree = await processTree(state.pid);
    started = tree;
    assert.equal(tree.length, 2, 'the server and its child');
    const began = performance.now();
    const stopped = await stopServer(server, { cacheDir, graceMs: 1000 });
    const took = performance.now() - began;
    assert.equal(stopped.killed, 2);
    assert.ok(took >= 1000 && took < 5000, `within the grace period and a little: ${took} ms`);
    assert.deepEqual(tree.filter(isAlive), [], 'no process of the tree is left');
    assert.equal(existsSync(stateFile(cacheDir, 'standin')), false);
  });

  test('a server that stops on SIGTERM is not killed', async () => {
    const server = standIn(LISTEN);
    const state = await startServer(server, { cacheDir, port: await freePort() });
    started = [state.pid];
    const stopped = await stopServer(server, { cacheDir, graceMs: 5000 });
    assert.equal(stopped.killed, false);
    assert.equal(isAlive(state.pid), false);
  });

  test('bench server stop reports the kill', async () => {
    assert.equal(stopServerMessage({ name: 'MariaDB' }, { pid: 7, killed: 3, graceMs: 30_000 }),
      'MariaDB (pid 7) did not stop within 30 s; killed (3 processes)');
    assert.equal(stopServerMessage({ name: 'MariaDB' }, { pid: 7, killed: false, graceMs: 30_000 }), 'MariaDB stopped (pid 7)');
  });

  test('a held port in the kernel\'s ephemeral range says so, and which ports avoid it', () => {
    assert.match(ephemeralNote(57474, [32768, 60999]), /^ \(it lies in the kernel's ephemeral range, 32768-60999, .*a port below 32768 avoids that\)$/);
    assert.equal(ephemeralNote(27474, [32768, 60999]), '');
    assert.equal(ephemeralNote(61000, [32768, 60999]), '');
    assert.equal(ephemeralNote(57474, null), '');
    assert.equal(ephemeralRange('/nonexistent/ip_local_port_range'), null);
  });

  test('a start fails when a second port the server binds is held by another process', async () => {
    const base = standIn(LISTEN);
    const holder = await listen();
    let pid = null;
    const server = {
      ...base,
      async start(options) {
        const state = await base.start(options);
        pid = state.pid;
        return { ...state, otherPorts: [holder.address().port] };
      },
    };
    try {
      await assert.rejects(startServer(server, { cacheDir, port: await freePort(), confirmTimeoutMs: 2000 }),
        (error) => error.code === ErrorCodes.CONNECT && new RegExp(`port ${holder.address().port} is not its own`).test(error.message));
      assert.equal(isAlive(pid), false, 'the process it started is killed');
    } finally {
      holder.close();
      if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  for (const [behaviour, script, pattern] of [
    ['keeps running without the port', IMPOSTOR, /is running, but port \d+ is not its own[^]*cannot listen: EADDRINUSE/],
    ['exits', QUITTER, /exited during start-up; port \d+ is held by another process[^]*cannot listen: EADDRINUSE/],
  ]) {
    test(`a start fails when another process holds the port and the started one ${behaviour}`, async () => {
      const port = await freePort();
      const base = standIn(script);
      let holder = null;
      let pid = null;
      // The holder binds after the free-port check, as a racing process would.
      const server = {
        ...base,
        async start(options) {
          holder = await listen(undefined, port);
          const state = await base.start(options);
          pid = state.pid;
          return state;
        },
      };
      try {
        await assert.rejects(startServer(server, { cacheDir, port, confirmTimeoutMs: 2000 }),
          (error) => error.code === ErrorCodes.CONNECT && pattern.test(error.message));
        assert.equal(existsSync(stateFile(cacheDir, 'standin')), false, 'no state recorded');
        assert.ok(pid === null || !isAlive(pid), 'the process it started is gone');
      } finally {
        holder?.close();
        if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
      }
    });
  }
});

// A server that accepts connections before it is ready (OrientDB, before it creates root) is waited for until
// its log, as written after its start, says it is ready.
describe('waiting for a line of the log written after the start', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-server-log-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const READY = /Server is active/;

  // A node process that appends `lines` to `logFile`, one every `everyMs`, then stays (or exits when `exit`).
  function writer(logFile, lines, { everyMs = 150, exit = false } = {}) {
    const script = `const fs = require('node:fs'); const lines = ${JSON.stringify(lines)};
      let i = 0; const timer = setInterval(() => { if (i < lines.length) fs.appendFileSync(${JSON.stringify(logFile)}, lines[i++] + '\\n');
      else if (${exit}) process.exit(1); }, ${everyMs});`;
    const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    return child;
  }

  test('resolves once the line appears, and not on the same line an earlier start left above `from`', async () => {
    const logFile = path.join(dir, 'ready.log');
    writeFileSync(logFile, 'old start\nOrientDB Server is active v3\n');
    const from = statSync(logFile).size;
    const child = writer(logFile, ['listening', 'creating root', 'OrientDB Server is active v3']);
    try {
      const began = performance.now();
      await waitUntilLogged({ logFile, from, pattern: READY, pid: child.pid, timeoutMs: 10_000, family: 'Stand-in', what: 'that it is active' });
      assert.ok(performance.now() - began >= 300, 'it waited for the third line, not the old one');
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('a process that exits before the line fails with the log\'s tail', async () => {
    const logFile = path.join(dir, 'exits.log');
    const child = writer(logFile, ['cannot open the storage'], { everyMs: 50, exit: true });
    await assert.rejects(waitUntilLogged({ logFile, from: 0, pattern: READY, pid: child.pid, timeoutMs: 10_000, family: 'Stand-in', what: 'that it is active' }),
      (error) => error.code === ErrorCodes.CONNECT && /Stand-in exited during start-up[^]*cannot open the storage/.test(error.message));
  });

  test('a process that never writes the line is killed when the time is up', async () => {
    const logFile = path.join(dir, 'silent.log');
    appendFileSync(logFile, '');
    const child = writer(logFile, ['still starting']);
    await assert.rejects(waitUntilLogged({ logFile, from: 0, pattern: READY, pid: child.pid, timeoutMs: 1000, family: 'Stand-in', what: 'that it is active' }),
      (error) => error.code === ErrorCodes.TIMEOUT && /did not report that it is active within 1 s \(killed\)[^]*still starting/.test(error.message));
    assert.equal(isAlive(child.pid), false);
  });
});
