// `bench run --suite crud` through the real CLI on the embedded default database: the result document, the
// file it is written to, the flags of one suite refused in another, and bad list values.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { spawnBench } from '../helpers/cli.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-suite-cli-'));
after(() => rmSync(work, { recursive: true, force: true }));
const env = { BENCH_CACHE_DIR: path.join(work, 'cache') };
const bench = (args) => spawnBench(args, { env });

test('bench run --suite crud sweeps the levels and counts on SQLite, every phase validated', async () => {
  const out = path.join(work, 'results');
  const { code, stdout, stderr } = await bench(['run', '--suite', 'crud', '--ops', '300,600', '--concurrency', '1,4',
    '--shape', 'varied', '--sync', '--json', '--quiet', '--out', out]);
  assert.equal(code, 0, stderr);
  const result = JSON.parse(stdout);
  assert.equal(result.suite, 'crud');
  assert.deepEqual(result.config.concurrency, [1, 4]);
  assert.deepEqual(result.config.ops, [300, 600]);
  assert.equal(result.config.shape, 'varied');
  assert.equal(result.config.durable, true);
  assert.equal(result.config.runs, 3, 'three runs by default: a comparison with an interval');
  assert.equal(result.dataset.id, 'crud-varied-s1');
  const names = Object.keys(result.workloads);
  assert.equal(names.length, 16);
  assert.deepEqual(names.slice(0, 4), ['insert n=300 c=1', 'get n=300 c=1', 'update n=300 c=1', 'delete n=300 c=1']);
  assert.equal(names[15], 'delete n=600 c=4');
  for (const entry of Object.values(result.workloads)) {
    assert.equal(entry.status, 'passed');
    assert.equal(entry.ops, entry.params.ops);
    assert.equal(typeof entry.runs[0].latencyMs.p95, 'number');
  }
  const files = readdirSync(out);
  assert.equal(files.length, 1);
  assert.match(files[0], /^sqlite-crud-\d{8}T\d{6}Z\.json$/);
  assert.equal(JSON.parse(readFileSync(path.join(out, files[0]), 'utf8')).suite, 'crud');
});

test('the terminal table names the suite and its documents', async () => {
  const { code, stdout, stderr } = await bench(['run', '--suite', 'crud', '--ops', '100', '--concurrency', '2',
    '--workload', 'get', '--quiet', '--out', path.join(work, 'table')]);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^suite crud · SQLite [\d.]+ · uniform documents, seed 1 · concurrency 2 /m);
  assert.match(stdout, /^insert n=100 c=2 +ok +100 /m, 'insert runs with get, as get reads what it stored');
  assert.match(stdout, /^get n=100 c=2 +ok +100 /m);
  assert.doesNotMatch(stdout, /update n=|delete n=/);
});

test('bench run --suite mixed closed and open loop on SQLite: every read and the final state checked', async () => {
  const out = path.join(work, 'mixed');
  const closed = await bench(['run', '--suite', 'mixed', '--records', '300', '--ops', '1500', '--concurrency', '4',
    '--workload', '50-50,igiugid', '--distribution', 'latest', '--json', '--quiet', '--out', out]);
  assert.equal(closed.code, 0, closed.stderr);
  const result = JSON.parse(closed.stdout);
  assert.equal(result.suite, 'mixed');
  assert.deepEqual(Object.keys(result.workloads), ['50-50 n=1500 c=4', 'igiugid n=1500 c=4']);
  assert.ok(Object.values(result.workloads).every((entry) => entry.status === 'passed'));
  assert.equal(result.config.distribution, 'latest');
  const open = await bench(['run', '--suite', 'mixed', '--records', '200', '--ops', '600', '--workload', 'read-only',
    '--rate', '2000', '--json', '--quiet', '--out', out]);
  assert.equal(open.code, 0, open.stderr);
  const [entry] = Object.values(JSON.parse(open.stdout).workloads);
  assert.equal(entry.status, 'passed');
  assert.equal(entry.runs[0].openLoop.targetRate, 2000);
});

test('a flag of one suite is refused in another, and list values are checked one by one (exit 2)', async () => {
  const cases = [
    [['run', '--suite', 'crud', '--scale', 'tiny'], /--scale is a flag of --suite social, not of --suite crud/],
    [['run', '--suite', 'crud', '--preset', 'nosql-tests-2018'], /--preset nosql-tests-2018 is a preset of --suite social, not of --suite crud/],
    [['run', '--ops', '100'], /--ops is a flag of --suite crud, not of --suite social/],
    [['run', '--sync'], /--sync is a flag of --suite crud/],
    [['run', '--concurrency', '1,2'], /the social suite runs at one --concurrency; a list of levels is for --suite crud/],
    [['run', '--suite', 'crud', '--concurrency', '0'], /--concurrency must be a positive integer up to 10,000 or a comma-separated list of them, got 0/],
    [['run', '--suite', 'crud', '--concurrency', '1,x'], /--concurrency must be .* got x/],
    [['run', '--suite', 'crud', '--concurrency', '4,4'], /--concurrency names a value twice: 4,4/],
    [['run', '--suite', 'crud', '--ops', '1,,2'], /--ops must be a positive integer up to 10,000,000 or a comma-separated list of them, got "1,,2"/],
    [['run', '--suite', 'crud', '--shape', 'round'], /^error: --shape round is not a choice: uniform or varied$/m],
    [['run', '--suite', 'crud', '--workload', 'neighbors'], /unknown workload "neighbors" of the crud suite; valid workloads:\s+all, insert, get, update, delete/],
    [['run', '--suite', 'nope'], /^error: --suite nope is not a choice: social, crud, mixed, queries or graph$/m],
    [['run', '--suite', 'crud', '--rate', '100'], /--rate is a flag of --suite mixed, not of --suite crud/],
    [['run', '--records', '10'], /--records is a flag of --suite mixed, not of --suite social/],
    [['run', '--suite', 'mixed', '--records', '0'], /--records must be a positive integer up to 10,000,000, got 0/],
    [['run', '--suite', 'mixed', '--rate', '0'], /--rate must be a positive number of operations per second/],
    [['run', '--suite', 'mixed', '--distribution', 'pareto'], /^error: --distribution pareto is not a choice: uniform, zipfian or latest$/m],
    [['run', '--db', 'couchdb'], /CouchDB supports no workload of the social suite; it runs --suite crud or --suite mixed/],
    [['import', '--db', 'couchdb'], /CouchDB supports no workload of the social suite/],
  ];
  for (const [args, message] of cases) {
    const { code, stderr } = await bench(args);
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
    assert.match(stderr, message, args.join(' '));
  }
});

test('bench check runs every suite the adapter supports, each validated', async () => {
  const { code, stdout, stderr } = await bench(['check', '--db', 'memory', '--quiet']);
  assert.equal(code, 0, stderr + stdout);
  for (const suite of ['social', 'crud', 'mixed']) assert.match(stdout, new RegExp(`validated run of every workload of the ${suite} suite`));
  assert.match(stdout, /^insert n=200 c=4 +ok/m);
  assert.match(stdout, /^igiugid n=1000 c=4 +ok/m);
  assert.match(stdout, /PASS: 0 conformance case\(s\) failed; 0 workload\(s\) failed/);
});
