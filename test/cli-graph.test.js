// `bench run --suite graph` through the real CLI: an edge file of the user's (three columns), the table and the
// result file, the reuse of a loaded collection, a malformed edge file refused with its file and line (exit 1,
// nothing claimed loaded) or skipped and counted with --skip-bad, and bad flags refused with exit 2.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { createRandom } from '../datasets/random.js';
import { spawnBench } from './helpers/cli.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-graph-'));
after(() => rmSync(work, { recursive: true, force: true }));
const env = { BENCH_CACHE_DIR: path.join(work, 'cache') };
const bench = (args) => spawnBench(args, { env });
const quick = ['run', '--suite', 'graph', '--scale', 'tiny', '--runs', '1', '--quiet'];

// An edge file with a hub (vertex 1), weights in the third column, a comment, a repeated pair and a self-loop.
function edgeFile(name) {
  const random = createRandom(4, 1);
  const lines = ['# source target weight'];
  for (let i = 0; i < 3000; i += 1) lines.push(`${1 + random.int(400)}\t${1 + random.int(400)}\t${random.int(100)}`);
  for (let v = 2; v < 200; v += 1) lines.push(`${v}\t1\t${v}`);
  lines.push('7\t7\t1', '2\t1\t99');
  const file = path.join(work, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function lastResult(dir) {
  const files = readdirSync(dir).sort();
  return JSON.parse(readFileSync(path.join(dir, files.at(-1)), 'utf8'));
}

for (const db of ['memory', 'sqlite']) {
  test(`a graph run on ${db} over an edge file: every workload checked, the floor beside the import, reused the second time`, async () => {
    const file = edgeFile(`edges-${db}.tsv`);
    const out = path.join(work, `out-${db}`);
    const first = await bench([...quick, '--db', db, '--dataset', `file:${file}`, '--out', out]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /import: [\d,]+ edges in \d+\.\d\d s \([\d,]+ edges\/s, indexes \d+\.\d\d s\); reading and parsing the file alone \(the floor, the faster of 2 passes\)/);
    for (const name of ['findEdge', 'edgesOf', 'inEdges', 'friends', 'countFriends', 'countFollowers', 'upsertEdge', 'upsertEdges', 'removeEdge', 'removeEdges']) {
      assert.match(first.stdout, new RegExp(`^${name} +ok +\\d+ `, 'm'), `${name} passed`);
    }
    assert.match(first.stdout, /dataset files read: edge file \d+ repeated pairs dropped, \d+ self-loops dropped/);
    const result = lastResult(out);
    assert.equal(result.suite, 'graph');
    assert.equal(result.dataset.name, 'file');
    assert.equal(result.dataset.weights, 'file');
    assert.match(result.dataset.sha256.edges, /^[0-9a-f]{64}$/);
    assert.equal(result.import.reused, false);
    assert.ok(result.import.floor.ms > 0 && result.import.floorMultiple > 0);
    assert.equal(result.workloads.upsertEdges.runs[0].edges, 4 * 500);
    assert.ok(result.workloads.edgesOf.runs[0].edges > 0);
    if (db === 'sqlite') assert.ok(result.workloads.findEdge.runs[0].resources.client.io, 'an embedded database: the harness\'s own I/O');

    const second = await bench([...quick, '--db', db, '--dataset', `file:${file}`, '--workload', 'findEdge,upsertEdges', '--out', out]);
    assert.equal(second.code, 0, second.stderr);
    if (db === 'sqlite') assert.match(second.stdout, /import: reused the edge collection loaded before/);
  });
}

test('a malformed edge file: exit 1 naming the file and line and nothing loaded; --skip-bad counts and skips it', async () => {
  const file = path.join(work, 'bad.tsv');
  writeFileSync(file, '1\t2\t5\n2\t3\t7\n3\tx\t1\n4\t1\t2\n');
  const out = path.join(work, 'bad-out');
  const refused = await bench([...quick, '--db', 'memory', '--dataset', `file:${file}`, '--out', out]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, new RegExp(`error: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: non-numeric target id`));
  assert.match(refused.stderr, /add --skip-bad/);
  const skipped = await bench([...quick, '--db', 'memory', '--dataset', `file:${file}`, '--skip-bad', '--out', out]);
  assert.equal(skipped.code, 0, skipped.stderr);
  assert.match(skipped.stdout, /dataset files read: edge file 1 line skipped \(malformed, --skip-bad\)/);
  assert.equal(lastResult(out).dataset.readStats.skippedLines, 1);

  for (const [content, problem] of [['', /holds no edge/], ['1\t2\t-3\n', /:1: .*weight/], ['1\n', /:1: /], ['1\t2\t3\n4\t5', /:2: .*(newline|truncated)/]]) {
    writeFileSync(file, content);
    const run = await bench([...quick, '--db', 'memory', '--dataset', `file:${file}`]);
    assert.equal(run.code, 1, `${JSON.stringify(content)}: ${run.stderr}`);
    assert.match(run.stderr, problem);
  }
  const missing = await bench([...quick, '--db', 'memory', '--dataset', `file:${path.join(work, 'absent.tsv')}`]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /absent\.tsv/);
});

test('bad graph flags are refused with exit 2 and why', async () => {
  for (const [args, message] of [
    [['--clients', '2'], /--clients does not apply to --suite graph/],
    [['--size', '1k'], /--size is a flag of --suite queries, not of --suite graph/],
    [['--workload', 'nope'], /unknown workload|nope/],
  ]) {
    const run = await bench([...quick, '--db', 'memory', ...args]);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
  }
});
