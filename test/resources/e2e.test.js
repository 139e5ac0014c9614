// `bench run` records what the server and the harness used: against the local PostgreSQL that `bench server`
// runs (found with no flags), against a server named by --server-pid, against a server it cannot see, and on
// embedded SQLite. The PostgreSQL runs skip without a local server, and fail instead under BENCH_REQUIRE.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAdapter } from '../../adapters/index.js';
import { defaultCacheDir } from '../../core/paths.js';
import { ownIo } from '../../resources/client.js';
import { runningServer } from '../../server/state.js';
import { serverTarget } from '../helpers/servers.js';

const BIN = fileURLToPath(new URL('../../bin/bench.js', import.meta.url));
const NAMESPACE = 'dbshootout_restest';
const MB = 1024 * 1024;
// Where /proc/<pid>/io exists, this user may read its own processes' and those of the servers it started.
const ioReadable = ownIo() !== null;
const out = mkdtempSync(path.join(os.tmpdir(), 'bench-resources-'));
after(() => rmSync(out, { recursive: true, force: true }));

function bench(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function run(db, ...flags) {
  const { code, stdout, stderr } = await bench(['run', '--db', db, '--scale', 'tiny', '--runs', '1', '--json', '--quiet',
    '--namespace', NAMESPACE, '--out', out, ...flags]);
  assert.equal(code, 0, stderr);
  return JSON.parse(stdout);
}

function assertIo(io, what) {
  if (!ioReadable) return assert.equal(io, null, what);
  for (const field of ['readBytes', 'writeBytes', 'readChars', 'writeChars']) {
    assert.ok(Number.isInteger(io?.[field]) && io[field] >= 0, `${what}: ${JSON.stringify(io)}`);
  }
}

// The suite's CPU peaks: a share wherever some run was long enough to measure one, else null.
function assertCpuPeaks(result, { server }) {
  const runs = Object.values(result.workloads).flatMap((workload) => workload.runs).filter((r) => r.resources);
  const clientMeasured = runs.some((r) => r.resources.client.cpuPct !== null);
  assert.ok(clientMeasured ? result.resources.client.cpuPeakPct > 0 : result.resources.client.cpuPeakPct === null, JSON.stringify(result.resources.client));
  if (!server) return;
  const serverMeasured = runs.some((r) => r.resources.server?.cpuPeakPct !== null && r.resources.server?.cpuPeakPct !== undefined);
  assert.ok(serverMeasured ? result.resources.server.cpuPeakPct > 0 : result.resources.server.cpuPeakPct === null,
    `server CPU peak ${result.resources.server.cpuPeakPct}%`);
}

// Every run of every supported workload carries its figures, and the workload its own.
function assertRunFigures(result, { server }) {
  for (const [name, workload] of Object.entries(result.workloads)) {
    if (!workload.supported) continue;
    assert.equal(workload.runs.length, 1, name);
    const { resources } = workload.runs[0];
    assert.equal(typeof resources.clientBound, 'boolean', name);
    // A run under 100 ms has no CPU share (null): the kernel's accounting cannot give one over so short a span.
    const { ms } = workload.runs[0];
    assert.ok((resources.client.cpuPct === null ? ms < 100 : resources.client.cpuPct >= 0) && resources.client.eventLoopDelayP99Ms >= 0,
      `${name}: ${ms} ms, ${JSON.stringify(resources.client)}`);
    assert.equal(workload.resources.clientBound, resources.clientBound, name);
    assertIo(resources.client.io, `${name}: the harness's I/O`);
    assert.deepEqual(workload.resources.client.io, resources.client.io, name);
    if (server) {
      assertIo(resources.server.io, `${name}: the server's I/O`);
      assert.deepEqual(workload.resources.server.io, resources.server.io, name);
      assert.ok(resources.server.samples >= 2, `${name}: ${JSON.stringify(resources.server)}`);
      assert.ok(resources.server.rssPeakBytes >= resources.server.rssMeanBytes && resources.server.rssMeanBytes > MB, name);
      // A server sampled over less than 0.5 s has a mean but no peak, which its 10 ms ticks cannot give.
      assert.ok(resources.server.cpuMeanPct >= 0 && (resources.server.cpuPeakPct === null
        ? resources.server.ms < 500 : resources.server.cpuPeakPct >= resources.server.cpuMeanPct), `${name}: ${JSON.stringify(resources.server)}`);
      assert.equal(workload.resources.server.rssPeakBytes, resources.server.rssPeakBytes, name);
    } else {
      assert.equal(resources.server, null, name);
      assert.equal(workload.resources.server, null, name);
    }
  }
}

const postgresql = await loadAdapter('postgresql');
const { options, skip } = serverTarget(postgresql, { namespace: NAMESPACE });
const local = skip ? null : runningServer(defaultCacheDir(), 'postgresql');
const noLocalServer = skip ?? (local ? false : 'PostgreSQL is reached through BENCH_POSTGRESQL_URL, not a local server');
if (!skip) after(() => postgresql.testSupport.dropNamespace(options));

test('bench run against the local PostgreSQL samples its process tree and measures the import', { skip: noLocalServer, timeout: 300_000 }, async () => {
  const result = await run('postgresql', '--reimport');
  assert.equal(result.resources.server.source, 'bench server');
  assert.equal(result.resources.server.pid, local.pid);
  assert.ok(result.resources.server.rssPeakBytes > 10 * MB, `peak ${result.resources.server.rssPeakBytes / MB} MB`);
  assertCpuPeaks(result, { server: true });
  assert.equal(result.import.reused, false);
  assert.ok(result.import.diskBytes > 1 * MB, `${result.import.diskBytes} bytes`);
  assert.equal(result.import.diskScope, 'namespace');
  assert.ok(result.import.resources.server.rssPeakBytes > 10 * MB);
  assertIo(result.import.resources.server.io, 'the server during the import');
  if (ioReadable) {
    assert.ok(result.import.resources.server.io.writeBytes > MB, `the import wrote ${result.import.resources.server.io.writeBytes} bytes`);
  }
  assertRunFigures(result, { server: true });

  // Reused: the size is measured again, and equals the fresh import's.
  const again = await run('postgresql', '--workload', 'singleRead');
  assert.equal(again.import.reused, true);
  assert.equal(again.import.resources, null);
  assert.ok(Math.abs(again.import.diskBytes - result.import.diskBytes) < 0.2 * result.import.diskBytes,
    `${again.import.diskBytes} after reuse vs ${result.import.diskBytes} after import`);
});

test('--server-pid names the process to sample, also for a server given by host and port', { skip: noLocalServer, timeout: 300_000 }, async () => {
  const connection = ['--host', options.host, '--port', String(options.port)];
  const result = await run('postgresql', '--workload', 'singleRead,neighbors', ...connection, '--server-pid', String(local.pid));
  assert.equal(result.resources.server.source, '--server-pid');
  assert.equal(result.resources.server.pid, local.pid);
  assert.ok(result.resources.server.rssPeakBytes > 10 * MB);
  assertRunFigures(result, { server: true });

  // The same server by host and port alone is a server the harness cannot see.
  const unseen = await run('postgresql', '--workload', 'singleRead', ...connection);
  assert.equal(unseen.resources.server, null);
  assert.ok(unseen.import.diskBytes > 1 * MB, 'the adapter still measures its namespace');
  assertRunFigures(unseen, { server: false });
});

test('bench run on embedded SQLite has no server figures, and measures its namespace on disk', { timeout: 300_000 }, async () => {
  const result = await run('sqlite');
  assert.equal(result.resources.server, null);
  // The database writes from inside the harness: its writes are the harness's own.
  if (ioReadable) {
    const written = result.workloads.singleWrite.resources.client.io.writeBytes;
    assert.ok(written > 0, `singleWrite wrote ${written} bytes`);
    assert.ok(result.resources.client.io.writeBytes >= written);
  }
  assertCpuPeaks(result, { server: false });
  assert.ok(result.import.diskBytes > 1 * MB, `${result.import.diskBytes} bytes`);
  assert.equal(result.import.diskScope, 'namespace');
  assertRunFigures(result, { server: false });
  for (const field of ['platform', 'kernel', 'arch', 'availableCores', 'loadAverage', 'freeMemoryBytes']) {
    assert.ok(field in result.environment, field);
  }
  assert.equal(result.environment.kernel, os.release());
});

test('--server-pid is refused for an embedded database and for a process that does not exist', async () => {
  const embedded = await bench(['run', '--db', 'sqlite', '--scale', 'tiny', '--server-pid', String(process.pid), '--quiet', '--out', out]);
  assert.equal(embedded.code, 2, embedded.stderr);
  assert.match(embedded.stderr, /--server-pid names a server process, but SQLite runs inside the harness/);
  const missing = await bench(['run', '--db', 'postgresql', '--scale', 'tiny', '--server-pid', '999999999', '--quiet', '--out', out]);
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(missing.stderr, /--server-pid 999999999: no such process/);
  const bad = await bench(['run', '--server-pid', '0', '--quiet', '--out', out]);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /--server-pid must be a positive integer/);
});
