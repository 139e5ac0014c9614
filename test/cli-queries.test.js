// `bench run --suite queries` through the real CLI: the published table, the result file, `bench report --suite
// queries`, `bench compare --format html`, and the refusals of bad flags with exit 2.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { spawnBench } from './helpers/cli.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-queries-'));
after(() => rmSync(work, { recursive: true, force: true }));
const env = { BENCH_CACHE_DIR: path.join(work, 'cache') };
const bench = (args) => spawnBench(args, { env });
const quick = ['run', '--suite', 'queries', '--size', '1k', '--runs', '2', '--quiet'];

test('a queries run on SQLite prints the published table, loads once, reuses its collection, and reports', async () => {
  const out = path.join(work, 'sqlite');
  const first = await bench([...quick, '--db', 'sqlite', '--out', out]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /test name +\| collection \| runs \| min \(s\) \| max \(s\) \| avg \(s\) \| median \(s\) \| +rows \| status/);
  assert.match(first.stdout, /lookup-skiplist-string \| 1k +\| +2 \| +\d+\.\d{4} \|.*\| +1000 \| ok/);
  assert.match(first.stdout, /load: 1k \d+\.\d\d s \([\d,]+ documents\/s, indexes/);
  const second = await bench([...quick, '--db', 'sqlite', '--workload', 'min-string,join-id', '--out', out]);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /load: 1k reused/);
  const again = await bench([...quick, '--db', 'sqlite', '--workload', 'min-string', '--reimport', '--out', path.join(work, 'again')]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /load: 1k \d+\.\d\d s \(/, '--reimport loads the collection again');
  const files = readdirSync(out).map((file) => path.join(out, file)).sort();
  assert.equal(files.length, 2);
  // The first run's file, which holds every case: by name it sorts after the second's when both ran within one
  // second (the second's name then ends in -2, and '-' sorts before '.').
  const [result] = files.map((file) => JSON.parse(readFileSync(file, 'utf8')))
    .sort((a, b) => Object.keys(b.workloads).length - Object.keys(a.workloads).length);
  assert.equal(result.suite, 'queries');
  assert.equal(result.workloads['collect-count-string 1k'].runs[1].rows, 10, 'n / 100 groups');
  assert.equal(result.workloads['sort-string 1k'].runs[1].rows, 1, 'sorted, the first one kept');
  assert.equal(result.dataset.id, 'queries-groups-of-100');

  const report = await bench(['report', out, '--suite', 'queries']);
  assert.equal(report.code, 0, report.stderr);
  assert.match(report.stdout, /sqlite: per case and collection, seconds \(as the AQL shootout published\)/);
  assert.match(report.stdout, /join-id +1k +4 +\d\.\d{4}/, 'the runs of both files pooled');

  const html = path.join(work, 'compare.html');
  const compare = await bench(['compare', files[0], files[1], '--format', 'html', '--out', html]);
  assert.equal(compare.code, 0, compare.stderr);
  const page = readFileSync(html, 'utf8');
  assert.match(page, /<svg[^>]*aria-label="speedup of b over a per workload"/);
  assert.match(page, /<title>join-id 1k: /, 'a bar for a case both sides ran');
  assert.doesNotMatch(page, /<title>concat 1k: /, 'no bar for a case only one side ran');
});

test('bad queries flags are refused before any work, with exit 2 and what is valid', async () => {
  const size = await bench(['run', '--suite', 'queries', '--db', 'memory', '--size', '1k,2k', '--quiet']);
  assert.equal(size.code, 2);
  assert.match(size.stderr, /--size must be a comma-separated list of 1k, 10k, 100k, 1M; got "1k,2k"/);
  const twice = await bench([...quick, '--db', 'memory', '--size', '10k']);
  assert.equal(twice.code, 2);
  assert.match(twice.stderr, /--size is given 2 times; give it once/);
  const workload = await bench([...quick, '--db', 'memory', '--workload', 'join-nothing']);
  assert.equal(workload.code, 2);
  assert.match(workload.stderr, /unknown workload "join-nothing" of the queries suite; valid workloads:\n  all, collect-number, [^\n]*, lookup-skiplist-string\n/);
  const concurrency = await bench([...quick, '--db', 'memory', '--concurrency', '4']);
  assert.equal(concurrency.code, 2);
  assert.match(concurrency.stderr, /--concurrency does not apply to --suite queries/);
  const foreign = await bench([...quick, '--db', 'memory', '--ops', '100']);
  assert.equal(foreign.code, 2);
  assert.match(foreign.stderr, /--ops is a flag of --suite crud, not of --suite queries/);
  const sizeElsewhere = await bench(['run', '--suite', 'crud', '--db', 'memory', '--size', '1k', '--quiet']);
  assert.equal(sizeElsewhere.code, 2);
  assert.match(sizeElsewhere.stderr, /--size is a flag of --suite queries, not of --suite crud/);
  const report = await bench(['report', work, '--suite', 'mixed']);
  assert.equal(report.code, 2);
});
