// Faults against a real server: a PostgreSQL of this test's own is stopped in the middle of a run, and in the
// middle of an import. Each must end (no hang) with exit code 1 and a clear message; the run keeps the runs
// completed before the stop.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { serverFamily, startServer, stopServer } from '../server/index.js';
import { removeServerFiles } from '../server/state.js';
import { BIN } from './helpers/cli.js';
import { freePort } from './helpers/net.js';

const postgresql = serverFamily('postgresql');
const installed = await postgresql.version();
const required = (process.env.BENCH_REQUIRE ?? '').split(',').includes('postgresql');
if (!installed && required) throw new Error('BENCH_REQUIRE needs postgresql, but it is not installed');

// What Node prints when an error escapes: an unhandled 'error' event or rejection, with its stack.
const CRASH = /Unhandled|node:internal|\n\s+at \S+ \(/;

const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'bench-faults-'));
after(async () => {
  await stopServer(postgresql, { cacheDir }).catch(() => {});
  removeServerFiles(postgresql, { cacheDir });
  rmSync(cacheDir, { recursive: true, force: true });
});

test('a server stopped mid-run ends the run with exit 1 and keeps the completed runs', { skip: installed ? false : 'PostgreSQL is not installed' }, async () => {
  const state = await startServer(postgresql, { cacheDir, port: await freePort() });
  const out = path.join(cacheDir, 'results');
  const child = spawn(process.execPath, [BIN, 'run', '--db', 'postgresql', '--scale', 'tiny', '--runs', '1000',
    '--out', out, '--stall-timeout', '10'], { env: { ...process.env, BENCH_CACHE_DIR: cacheDir }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let stopping = null;
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (!stopping && /run 3\/1000/.test(stderr)) stopping = stopServer(postgresql, { cacheDir });
  });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  await stopping;
  assert.equal(code, 1, stderr);
  assert.match(stderr, /error: .*(127\.0\.0\.1:\d+|ECONNREFUSED|terminat|connection)/i);
  assert.match(stderr, /the runs completed so far are in /);
  assert.doesNotMatch(stderr, CRASH, 'an error the harness reports, not a crash');
  const result = JSON.parse(readFileSync(path.join(out, readdirSync(out)[0]), 'utf8'));
  assert.equal(result.complete, false);
  assert.ok(result.error.message.length > 0);
  assert.ok(result.workloads.singleRead.runs.filter((run) => run.valid).length >= 2, 'runs 1 and 2 are kept');
  assert.ok(state.pid > 0);
});

test('a server stopped mid-import ends the import with exit 1 and a clear message', { skip: installed ? false : 'PostgreSQL is not installed' }, async () => {
  await startServer(postgresql, { cacheDir, port: await freePort() });
  // medium: after its profiles, the relations and the index builds leave seconds for the stop to land in.
  const child = spawn(process.execPath, [BIN, 'import', '--db', 'postgresql', '--scale', 'medium',
    '--out', path.join(cacheDir, 'import-results')], { env: { ...process.env, BENCH_CACHE_DIR: cacheDir }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let stopping = null;
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (!stopping && /import profiles into PostgreSQL: \d+ in/.test(stderr)) stopping = stopServer(postgresql, { cacheDir });
  });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  await stopping;
  assert.ok(stopping, `the profiles phase ended: ${stderr}`);
  assert.equal(code, 1, stderr);
  assert.match(stderr, /^error: .*(127\.0\.0\.1:\d+|ECONNREFUSED|terminat|connection|shut ?down|shutting down)/im);
  assert.doesNotMatch(stderr, CRASH, 'an error the harness reports, not a crash');
});
