// The test runner's watchdog (test/run.js, test/watchdog.js): a run that stops making progress is ended, and the
// log says which file was stuck and what it was waiting on; a run that ends by itself keeps its exit code.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { innodbSections } from '../server/activity.js';
import { slowestFiles } from './watchdog.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const fixture = (name) => path.join('test', 'fixtures', 'watchdog', name);

// The runner as a user starts it: not as a child of this test runner (NODE_TEST_CONTEXT would make its `node
// --test` report to this one instead of running the files).
function runner(files, env = {}) {
  const { NODE_TEST_CONTEXT, ...outside } = process.env;
  const cache = mkdtempSync(path.join(os.tmpdir(), 'db-shootout-watchdog-test-'));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['test/run.js', ...files], {
      cwd: root, env: { ...outside, BENCH_CACHE_DIR: cache, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (code) => {
      rmSync(cache, { recursive: true, force: true });
      resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 });
    });
  });
}

describe('test runner watchdog', { timeout: 60_000 }, () => {
  test('a file that stops making progress is ended, named, and its open connections listed', async () => {
    const { code, stdout, stderr, seconds } = await runner([fixture('hangs.js')], { BENCH_TEST_STALL_S: '2' });
    assert.equal(code, 1);
    assert.ok(seconds < 30, `ended after ${seconds} s`);
    assert.match(stdout, /ok 1 - passes/);
    assert.match(stderr, /watchdog: no test has reported for \d+ s \(the limit is 2 s\)/);
    assert.match(stderr, /watchdog: stuck: test\/fixtures\/watchdog\/hangs\.js \(pid \d+, running for \d+ s\)/);
    assert.match(stderr, /libuv handles:\n(.*\n)*\s+tcp to localhost:\d+/, 'the socket it waits on');
    assert.match(stderr, /the local servers' activity/);
    assert.match(stderr, /watchdog: ending the run: failed/);
  });

  test('a run over its budget is ended even while it prints', async () => {
    const { code, stderr } = await runner([fixture('hangs.js')], { BENCH_TEST_STALL_S: '600', BENCH_TEST_BUDGET_S: '2' });
    assert.equal(code, 1);
    assert.match(stderr, /watchdog: the run has lasted \d+ s, its budget is 2 s/);
  });

  test('a run that ends by itself keeps its exit code', async () => {
    const passed = await runner([fixture('passes.js')], { BENCH_TEST_STALL_S: '20' });
    assert.equal(passed.code, 0, passed.stderr);
    assert.doesNotMatch(passed.stderr, /watchdog:/);
    assert.match(passed.stderr, /^# 1 test file in \d+ s; the slowest: test\/fixtures\/watchdog\/passes\.js \d+ s$/m);
    const failed = await runner([fixture('fails.js')], { BENCH_TEST_STALL_S: '20' });
    assert.equal(failed.code, 1);
    assert.match(failed.stdout, /not ok 1 - fails/);
    assert.doesNotMatch(failed.stderr, /watchdog:/);
  });

  test('files run side by side: each file\'s output whole, the counts summed, a failed file named', async () => {
    const { code, stdout } = await runner([fixture('passes.js'), fixture('fails.js')], { BENCH_TEST_STALL_S: '20', BENCH_TEST_JOBS: '2' });
    assert.equal(code, 1);
    assert.match(stdout, /# ---- test\/fixtures\/watchdog\/passes\.js: passed in [\d.]+ s ----\n/);
    assert.match(stdout, /# ---- test\/fixtures\/watchdog\/fails\.js: failed \(exit code 1\) in [\d.]+ s ----\n(.*\n)*not ok 1 - fails/);
    assert.match(stdout, /# 2 files, 2 at a time: tests 2, pass 1, fail 1,/);
    assert.match(stdout, /# 1 file failed: test\/fixtures\/watchdog\/fails\.js \(exit code 1\)\n\n# test\/fixtures\/watchdog\/fails\.js:\n# 1\. fails/);
    const passed = await runner([fixture('passes.js'), fixture('passes.js')], { BENCH_TEST_STALL_S: '20', BENCH_TEST_JOBS: '2' });
    assert.equal(passed.code, 0, passed.stderr);
  });

  test('a file that stops making progress beside others is ended and named, and so is the run', async () => {
    const { code, stdout, stderr, seconds } = await runner([fixture('hangs.js'), fixture('passes.js')], { BENCH_TEST_STALL_S: '3', BENCH_TEST_JOBS: '2' });
    assert.equal(code, 1);
    assert.ok(seconds < 40, `ended after ${seconds} s`);
    assert.match(stdout, /# ---- test\/fixtures\/watchdog\/passes\.js: passed/);
    assert.match(stderr, /watchdog: the last \d+ lines of test\/fixtures\/watchdog\/hangs\.js's output:\n  (.*\n)*  ok 1 - passes/);
    assert.match(stderr, /watchdog: no test of test\/fixtures\/watchdog\/hangs\.js has reported for \d+ s \(the limit is 3 s\)/);
    assert.match(stderr, /watchdog: stuck: test\/fixtures\/watchdog\/hangs\.js \(pid \d+, running for \d+ s\)/);
    assert.match(stderr, /libuv handles:\n(.*\n)*\s+tcp to localhost:\d+/, 'the socket it waits on');
    assert.match(stderr, /watchdog: ending the run: failed/);
  });

  test('a bad limit is refused', async () => {
    const { code, stderr } = await runner([fixture('passes.js')], { BENCH_TEST_STALL_S: 'soon' });
    assert.equal(code, 2);
    assert.match(stderr, /BENCH_TEST_STALL_S must be a positive number of seconds, not "soon"/);
    for (const jobs of ['0', '0.4', '2.5', 'two']) {
      const refused = await runner([fixture('passes.js')], { BENCH_TEST_JOBS: jobs });
      assert.equal(refused.code, 2, `BENCH_TEST_JOBS=${jobs}`);
      assert.match(refused.stderr, new RegExp(`BENCH_TEST_JOBS must be a positive whole number of files, not "${jobs.replace('.', '\\.')}"`));
    }
    const slowest = await runner([fixture('passes.js')], { BENCH_TEST_SLOWEST: '2.5' });
    assert.equal(slowest.code, 2);
    assert.match(slowest.stderr, /BENCH_TEST_SLOWEST must be a positive whole number of files, not "2\.5"/);
  });
});

test('the InnoDB status keeps the sections that say who waits on whom', () => {
  const status = ['', '=====', 'header', '-----', 'BACKGROUND THREAD', '-----', 'srv_master_thread loops: 1',
    '----------', 'SEMAPHORES', '----------', 'OS WAIT ARRAY INFO: reservation count 2', '------------',
    'TRANSACTIONS', '------------', '---TRANSACTION 42, ACTIVE 600 sec', 'mysql tables in use 1, locked 1', '--------',
    'FILE I/O', '--------', 'I/O thread 0 state: waiting'].join('\n');
  assert.deepEqual(innodbSections(status), [
    '  SEMAPHORES', '    OS WAIT ARRAY INFO: reservation count 2',
    '  TRANSACTIONS', '    ---TRANSACTION 42, ACTIVE 600 sec', '    mysql tables in use 1, locked 1',
  ]);
});

test('the slowest test files are named, slowest first, with their times', () => {
  const at = (first, last) => ({ first: first * 1000, last: last * 1000 });
  const times = new Map([[path.join(process.cwd(), 'test/a.test.js'), at(0, 12)], [path.join(process.cwd(), 'test/b.test.js'), at(12, 95)],
    [path.join(process.cwd(), 'test/c.test.js'), at(95, 96)]]);
  assert.equal(slowestFiles(times, 2, 96.4), '# 3 test files in 96 s; the slowest: test/b.test.js 83 s, test/a.test.js 12 s');
  assert.match(slowestFiles(times, 1, 96.4, 140), /^# 140 test files in 96 s; the slowest: test\/b\.test\.js 83 s$/, 'the files run, also those too quick to be seen');
});
