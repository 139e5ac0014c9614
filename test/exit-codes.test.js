// `bench run`'s exit code when a database answers wrongly: 1 (a failed workload), not 0 and not 2 (bad usage).
// The wrong answers come from a real SQLite store altered behind the harness's back after its import.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { spawnBench } from './helpers/cli.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-exit-'));
after(() => rmSync(work, { recursive: true, force: true }));

const bench = (args) => spawnBench(args, { cwd: work, env: { BENCH_CACHE_DIR: path.join(work, 'cache') } });

test('bench run exits with 1 and names the workload when a reused store answers wrongly', async () => {
  const store = path.join(work, 'store.sqlite');
  const args = (out) => ['run', '--scale', 'tiny', '--runs', '2', '--workload', 'aggregation', '--database', store, '--out', path.join(work, out)];
  const clean = await bench(args('clean'));
  assert.equal(clean.code, 0, clean.stderr);

  // The profile counts stay as the import left them, so the store is reused; one age moves to another group.
  const db = new Database(store);
  const changed = db.prepare("UPDATE dbshootout_profiles SET doc = json_set(doc, '$.AGE', 500) WHERE _key = (SELECT min(_key) FROM dbshootout_profiles)").run();
  db.close();
  assert.equal(changed.changes, 1);

  const { code, stdout, stderr } = await bench(args('wrong'));
  assert.equal(code, 1, stderr);
  assert.match(stdout, /^aggregation +FAILED .*wrong answers?$/m);
  assert.match(stdout, /^aggregation failed; examples:$/m);
  const [file] = readdirSync(path.join(work, 'wrong'));
  const result = JSON.parse(readFileSync(path.join(work, 'wrong', file), 'utf8'));
  assert.equal(result.import.reused, true);
  assert.equal(result.complete, true);
  assert.equal(result.workloads.aggregation.status, 'failed');
  assert.equal(result.workloads.aggregation.summary, null);
  assert.ok(result.workloads.aggregation.runs.every((run) => run.valid === false && run.ms === undefined));
});

test('with --json the failed workload is named on stderr, the document alone on stdout', { timeout: 120_000 }, async () => {
  const store = path.join(work, 'store-json.sqlite');
  const args = (out) => ['run', '--scale', 'tiny', '--runs', '2', '--workload', 'aggregation', '--database', store, '--out', path.join(work, out), '--json'];
  const clean = await bench(args('json-clean'));
  assert.equal(clean.code, 0, clean.stderr);
  assert.doesNotMatch(clean.stderr, /^failed: /m);
  const db = new Database(store);
  db.prepare("UPDATE dbshootout_profiles SET doc = json_set(doc, '$.AGE', 500) WHERE _key = (SELECT min(_key) FROM dbshootout_profiles)").run();
  db.close();
  const { code, stdout, stderr } = await bench(args('json-wrong'));
  assert.equal(code, 1, stderr);
  assert.equal(JSON.parse(stdout).workloads.aggregation.status, 'failed');
  assert.match(stderr, /^failed: aggregation \(run 1: 1 wrong answers?\)$/m);
});
