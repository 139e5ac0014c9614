// The real CLI, spawned as users run it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { adapterIds } from '../adapters/index.js';
import { WORKLOAD_NAMES } from '../workloads/social/workloads.js';
import { BIN, spawnBench } from './helpers/cli.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-cli-'));
const cacheDir = path.join(work, 'cache');
after(() => rmSync(work, { recursive: true, force: true }));

// In the test's working directory, with the test's dataset cache unless `env` names another.
function bench(args, { env = {}, timeoutMs } = {}) {
  return spawnBench(args, { cwd: work, env: { BENCH_CACHE_DIR: cacheDir, ...env }, timeoutMs });
}

test('bench run --json on the tiny dataset validates every workload and writes the result file', async () => {
  const out = path.join(work, 'results');
  const { code, stdout, stderr } = await bench(['run', '--scale', 'tiny', '--runs', '2', '--json', '--out', out]);
  assert.equal(code, 0, stderr);
  const result = JSON.parse(stdout);
  assert.equal(result.schema, 'db-shootout/result@1');
  assert.equal(result.db.id, 'sqlite');
  assert.match(result.db.version, /^3\.\d+/);
  assert.deepEqual(
    { scale: result.dataset.scale, seed: result.dataset.seed, profiles: result.dataset.profiles },
    { scale: 'tiny', seed: 1, profiles: 1000 },
  );
  assert.ok(result.dataset.relations > 5000);
  assert.deepEqual({ concurrency: result.config.concurrency, runs: result.config.runs }, { concurrency: 25, runs: 2 });
  for (const field of ['node', 'os', 'cpu', 'cores', 'memoryBytes']) assert.ok(result.environment[field], field);
  assert.equal(result.complete, true);
  assert.deepEqual(Object.keys(result.workloads), WORKLOAD_NAMES);
  for (const [name, workload] of Object.entries(result.workloads)) {
    assert.equal(workload.status, 'passed', `${name}: ${JSON.stringify(workload.failures)}`);
    assert.equal(workload.supported, true);
    assert.equal(workload.runs.length, 2);
    assert.ok(workload.summary.medianMs > 0, name);
    for (const run of workload.runs) {
      for (const p of ['p50', 'p90', 'p99', 'max', 'mean']) assert.equal(typeof run.latencyMs[p], 'number', `${name} ${p}`);
    }
  }
  assert.equal(result.workloads.warmup.compared, false);
  const files = readdirSync(out);
  assert.equal(files.length, 1);
  assert.deepEqual(JSON.parse(readFileSync(path.join(out, files[0]))), result, 'the file holds the same document');
  assert.doesNotMatch(stdout, /password/i);
});

test('a second run reuses the imported data', async () => {
  const { code, stdout, stderr } = await bench(['run', '--scale', 'tiny', '--runs', '1', '--workload', 'aggregation', '--json', '--out', path.join(work, 'r2')]);
  assert.equal(code, 0, stderr);
  const result = JSON.parse(stdout);
  assert.equal(result.import.reused, true);
  assert.deepEqual(Object.keys(result.workloads), ['warmup', 'aggregation']);
});

test('bad usage exits with 2 and names the valid choices', async () => {
  const unknownDb = await bench(['run', '--db', 'oracle']);
  assert.equal(unknownDb.code, 2);
  assert.match(unknownDb.stderr, new RegExp(`unknown database "oracle"; valid databases: ${adapterIds().join(', ')}`));
  // A typo, or the name of the server the adapter drives, is answered with the adapter's name.
  for (const [typed, meant] of [['postgres', 'postgresql'], ['mariadb', 'mysql'], ['pouchdb', 'couchdb'], ['sqlit', 'sqlite']]) {
    const near = await bench(['run', '--db', typed]);
    assert.equal(near.code, 2);
    assert.match(near.stderr, new RegExp(`^error: unknown database "${typed}" \\(did you mean "${meant}"\\?\\); valid databases: `));
  }

  const unknownWorkload = await bench(['run', '--workload', 'neighbours']);
  assert.equal(unknownWorkload.code, 2);
  assert.match(unknownWorkload.stderr, /unknown workload "neighbours" of the social suite; valid workloads:\s+all, warmup, singleRead/);

  const badRuns = await bench(['run', '--runs', '0']);
  assert.equal(badRuns.code, 2);
  assert.match(badRuns.stderr, /--runs must be a positive integer up to 1,000, got 0/);

  const badFlag = await bench(['run', '--concurency', '5']);
  assert.equal(badFlag.code, 2);
  assert.match(badFlag.stderr, /^error: bench run takes no --concurency \(did you mean --concurrency\?\): see "bench run --help"$/m);

  const badScale = await bench(['run', '--scale', 'huge']);
  assert.equal(badScale.code, 2);
  assert.match(badScale.stderr, /^error: --scale huge is not a choice: tiny, small, medium or full$/m);
});

test('every command has --help', async () => {
  for (const args of [['--help'], ['run', '--help'], ['list', '--help'], ['generate', '--help'], ['check', '--help']]) {
    const { code, stdout } = await bench(args);
    assert.equal(code, 0, args.join(' '));
    assert.match(stdout, /--help/);
  }
});

test('bench list shows databases, workloads and the support matrix', async () => {
  const { code, stdout } = await bench(['list', '--json']);
  assert.equal(code, 0);
  const listing = JSON.parse(stdout);
  assert.deepEqual(listing.adapters.map((a) => a.id), adapterIds());
  assert.deepEqual(listing.adapters[0].supports, WORKLOAD_NAMES);
  assert.deepEqual(listing.workloads.map((w) => w.name), WORKLOAD_NAMES);
  // The durability terms each database offers.
  const durability = Object.fromEntries(listing.adapters.map((a) => [a.id, a.durability]));
  assert.deepEqual(durability.sqlite, ['relaxed', 'durable']);
  assert.deepEqual(durability.neo4j, ['durable']);
  assert.deepEqual(durability.orientdb, ['relaxed']);
  assert.deepEqual(durability.memory, ['relaxed']);
  const text = await bench(['list']);
  assert.match(text.stdout, /\n {2}duckdb {14}DuckDB \(embedded, driver @duckdb\/node-api; durability: durable\)\n/);
});

test('a corrupt dataset file is reported with its line number', async () => {
  const dir = path.join(work, 'corrupt');
  const generated = await bench(['generate', '--scale', 'tiny', '--out', dir]);
  assert.equal(generated.code, 0, generated.stderr);
  const corruptCache = path.join(work, 'corrupt-cache');
  cpSync(dir, path.join(corruptCache, 'datasets', 'synthetic-tiny-s1'), { recursive: true });
  const relations = path.join(corruptCache, 'datasets', 'synthetic-tiny-s1', 'soc-pokec-relationships.txt');
  const lines = readFileSync(relations, 'utf8').split('\n');
  // Same length, so the file still matches the manifest's size and the reader must find it.
  lines[41] = lines[41].replace(/\d/g, 'x');
  writeFileSync(relations, lines.join('\n'));
  const { code, stderr } = await bench(['run', '--scale', 'tiny', '--runs', '1', '--reimport'], { env: { BENCH_CACHE_DIR: corruptCache } });
  assert.equal(code, 1);
  assert.match(stderr, /soc-pokec-relationships\.txt(:42|.*line 42)/);
  assert.match(stderr, /\n {2}the generated file was changed after it was written; delete its directory and the next run generates it again: rm -r '.*synthetic-tiny-s1'\n/);
});

test('Ctrl-C keeps the completed runs, marks the result incomplete and exits with 130', async () => {
  const out = path.join(work, 'interrupted');
  const child = spawn(process.execPath, [BIN, 'run', '--scale', 'tiny', '--runs', '1000', '--out', out], {
    cwd: work, env: { ...process.env, BENCH_CACHE_DIR: cacheDir }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let signalled = false;
  child.stdout.resume();
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (!signalled && /run 3\/1000/.test(stderr)) {
      signalled = true;
      child.kill('SIGINT');
    }
  });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 130, stderr);
  assert.match(stderr, /interrupted: stopping after the operations in flight/);
  const [file] = readdirSync(out);
  const result = JSON.parse(readFileSync(path.join(out, file)));
  assert.equal(result.complete, false);
  assert.equal(result.interrupted, true);
  assert.ok(result.workloads.hardPath.runs.length >= 2, 'the completed runs are kept');
  assert.ok(result.workloads.singleRead.summary.medianMs > 0);
});

test('a namespace holding data the harness did not create is refused and left intact', async () => {
  const { default: Database } = await import('better-sqlite3');
  const file = path.join(work, 'someone-elses.sqlite');
  const db = new Database(file);
  db.exec("CREATE TABLE dbshootout_profiles (name TEXT); INSERT INTO dbshootout_profiles VALUES ('precious')");
  db.close();
  const { code, stderr } = await bench(['run', '--scale', 'tiny', '--runs', '1', '--database', file]);
  assert.equal(code, 1);
  assert.match(stderr, /namespace "dbshootout" holds objects that db-shootout did not create/);
  const after = new Database(file, { readonly: true });
  assert.deepEqual(after.prepare('SELECT name FROM dbshootout_profiles').all(), [{ name: 'precious' }]);
  after.close();
});

test('--restart-cmd runs between runs, not before the first', async () => {
  const marker = path.join(work, 'restarts.txt');
  const { code, stderr } = await bench(['run', '--scale', 'tiny', '--runs', '3', '--workload', 'aggregation',
    '--out', path.join(work, 'restart'), '--restart-cmd', `echo restarted >> '${marker}'`]);
  assert.equal(code, 0, stderr);
  assert.equal(readFileSync(marker, 'utf8'), 'restarted\nrestarted\n');

  const failing = await bench(['run', '--scale', 'tiny', '--runs', '2', '--workload', 'aggregation',
    '--out', path.join(work, 'restart-fail'), '--restart-cmd', 'exit 3']);
  assert.equal(failing.code, 1);
  assert.match(failing.stderr, /--restart-cmd exited with code 3/);
  assert.match(failing.stderr, /the runs completed so far are in /);
});
