// An import through the reader's thread (datasets/import-rows.js) interrupted end to end through the real CLI, for
// each adapter whose rows are made there: SQLite here, PostgreSQL and MySQL against their local servers (skipped
// without one, failing instead when BENCH_REQUIRE lists the adapter). One Ctrl-C lets the import in progress end:
// the next run reuses it. Two Ctrl-Cs quit at once: the namespace is left unfinished, and the next run says so and
// imports again, then passes. `medium`, so that the profiles take long enough to be interrupted; the dataset and
// SQLite's file in a cache of the test's own.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { loadAdapter } from '../adapters/index.js';
import { BIN, spawnBench } from './helpers/cli.js';
import { connectionFlags, serverTarget } from './helpers/servers.js';

const NAMESPACE = 'dbshootout_e2e_interrupt';
const TIMEOUT_MS = 300_000;
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-e2e-import-interrupt-'));
after(() => rmSync(work, { recursive: true, force: true }));

// `bench import` interrupted `signals` times (200 ms apart) half a second after the namespace was cleared, that is
// while the profiles are read; resolves with its exit code and stderr.
function interruptedImport(args, signals) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'import', ...args], { cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (data) => {
      stderr += data;
      if (sent || !/clearing the namespace: /.test(stderr)) return;
      sent = true;
      setTimeout(() => {
        child.kill('SIGINT');
        if (signals > 1) setTimeout(() => child.kill('SIGINT'), 200);
      }, 500);
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

for (const id of ['sqlite', 'postgresql', 'mysql']) {
  const description = await loadAdapter(id);
  const target = description.kind === 'server' ? serverTarget(description, { namespace: NAMESPACE }) : { options: {} };
  const { flags } = connectionFlags(description, target.options);
  const common = ['--db', id, '--scale', 'medium', '--namespace', NAMESPACE, '--out', path.join(work, 'out'),
    '--cache-dir', path.join(work, 'cache'), ...flags];
  if (description.kind === 'server' && !target.skip) after(() => description.testSupport.dropNamespace(target.options));

  test(`bench import --db ${id}: one Ctrl-C ends the import in progress, two leave it unfinished and the next run imports again`,
    { skip: target.skip, timeout: TIMEOUT_MS }, async () => {
      const once = await interruptedImport(common, 1);
      assert.equal(once.code, 130, once.stderr);
      assert.match(once.stderr, /interrupted: stopping when the import in progress ends/);
      assert.match(once.stderr, /import relations into /, 'the import went on to its end');
      const reused = await spawnBench(['run', ...common, '--workload', 'aggregation', '--runs', '1'], { cwd: work, timeoutMs: TIMEOUT_MS });
      assert.equal(reused.code, 0, reused.stderr);
      assert.match(reused.stdout + reused.stderr, /import: reused the data imported at/);

      const twice = await interruptedImport(common, 2);
      assert.equal(twice.code, 130, twice.stderr);
      assert.doesNotMatch(twice.stderr, /import relations into /, 'quit before the relations');
      const again = await spawnBench(['run', ...common, '--workload', 'aggregation', '--runs', '1'], { cwd: work, timeoutMs: TIMEOUT_MS });
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stderr, /not reusing the data in the namespace \(its last import did not finish\); importing again/);
      assert.match(again.stdout, /^aggregation +ok /m);
    });
}
