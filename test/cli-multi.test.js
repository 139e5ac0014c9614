// Several databases in one command: `bench run --db a,b` runs each in turn into a file of its own, one failing
// database does not stop the others, and one report of them ends the run; `bench server` takes several families.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { spawnBench } from './helpers/cli.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-multi-'));
after(() => rmSync(work, { recursive: true, force: true }));
// A cache of its own: no local server runs under it, so a server database is unreachable.
const env = { BENCH_CACHE_DIR: path.join(work, 'cache') };
const bench = (args) => spawnBench(args, { env });
const tiny = ['--scale', 'tiny', '--runs', '1', '--workload', 'aggregation'];

test('bench run --db sqlite,memory runs both, a file each, and --json prints both documents', async () => {
  const out = path.join(work, 'both');
  const { code, stdout, stderr } = await bench(['run', '--db', 'sqlite,memory', ...tiny, '--json', '--quiet', '--out', out]);
  assert.equal(code, 0, stderr);
  const documents = JSON.parse(stdout);
  assert.deepEqual(documents.map((d) => d.db.id), ['sqlite', 'memory']);
  assert.ok(documents.every((d) => d.workloads.aggregation.status === 'passed'));
  assert.deepEqual(readdirSync(out).map((f) => f.split('-')[0]).sort(), ['memory', 'sqlite']);
});

test('an unreachable database fails alone: the others run, the report of them follows, exit 1', async () => {
  const out = path.join(work, 'one-down');
  const { code, stdout, stderr } = await bench(['run', '--db', 'postgresql,sqlite,memory', ...tiny, '--out', out]);
  assert.equal(code, 1, stderr);
  assert.match(stderr, /== postgresql \(1 of 3\)\nerror: postgresql: cannot connect to /);
  assert.match(stderr, /== sqlite \(2 of 3\)/);
  assert.match(stderr, /not every database passed: postgresql\n/);
  assert.deepEqual(readdirSync(out).map((f) => f.split('-')[0]).sort(), ['memory', 'sqlite']);
  assert.match(stdout, /aggregation/);
  assert.match(stdout, /files: .*memory-tiny-/);
  assert.match(stdout, /files: .*sqlite-tiny-/);
});

test('several databases: every name and flag checked before any work (exit 2)', async () => {
  const cases = [
    [['run', '--db', 'sqlite,oracle'], /unknown database "oracle"/],
    [['run', '--db', 'sqlite,sqlite'], /--db names a database twice: sqlite,sqlite/],
    [['run', '--db', 'sqlite,postgresql', '--port', '5432'], /--port applies to one database, but --db names 2; run them one at a time/],
    [['run', '--db', 'sqlite,memory', '--out', '/proc/x'], /--out/],
  ];
  for (const [args, message] of cases) {
    const { code, stderr } = await bench([...args, '--scale', 'tiny']);
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
    assert.match(stderr, message);
    assert.doesNotMatch(stderr, /dataset tiny/, 'nothing was prepared');
  }
});

test('bench server takes several families: each in turn, every name checked first, one --port refused', async () => {
  const status = await bench(['server', 'status', 'postgresql,mariadb']);
  assert.equal(status.code, 1);
  assert.equal(status.stdout, 'PostgreSQL is not running\nMariaDB is not running\n');
  const unknown = await bench(['server', 'status', 'postgresql,nope']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown server "nope"; valid servers: postgresql, mariadb/);
  assert.equal(unknown.stdout, '', 'nothing done before every name was checked');
  const port = await bench(['server', 'start', 'postgresql,mariadb', '--port', '6000']);
  assert.equal(port.code, 2);
  assert.match(port.stderr, /--port names one port, but 2 servers were named/);
});
