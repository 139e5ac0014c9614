// A mix's latency per kind of operation (the mixed suite's gets, updates, inserts and deletes apart): grouped from
// each operation's latency off the clock, merged over runs through the histograms, in the terminal table and in the
// report's mixed block; and a real mixed run on the in-process store that records it.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { latencyByKind } from '../results/model.js';
import { formatTable } from '../results/table.js';
import { crossInserts } from '../workloads/mixed/workloads.js';
import { latenciesByKind } from '../runner/run.js';
import { spawnBench } from './helpers/cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-kinds-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('each kind\'s latencies are summarised apart, in the order the kinds first occur; one kind gives none', () => {
  const inputs = [{ kind: 'update' }, { kind: 'get' }, { kind: 'get' }, { kind: 'update' }, { kind: 'get' }];
  const byKind = latenciesByKind(inputs, [10, 1, 2, 30, 3], (op) => op.kind);
  assert.deepEqual(Object.keys(byKind), ['update', 'get']);
  assert.equal(byKind.get.operations, 3);
  assert.equal(byKind.update.operations, 2);
  assert.equal(byKind.get.latencyMs.max, 3);
  assert.equal(byKind.update.latencyMs.max, 30);
  assert.ok(Math.abs(byKind.get.latencyMs.p50 - 2) < 0.01, JSON.stringify(byKind.get.latencyMs));
  assert.equal(typeof byKind.get.histogram, 'string');
  assert.equal(latenciesByKind([{ kind: 'get' }, { kind: 'get' }], [1, 2], (op) => op.kind), null, 'a single kind: the overall figure');
  assert.equal(latenciesByKind(inputs, null, (op) => op.kind), null, 'no latencies kept');
});

test('runs merge per kind through their histograms, and the terminal table gives a row per mixed workload', () => {
  const run = (gets, updates) => ({ byKind: latenciesByKind(
    [...gets.map(() => ({ kind: 'get' })), ...updates.map(() => ({ kind: 'update' }))], [...gets, ...updates], (op) => op.kind) });
  const merged = latencyByKind([run([1, 1, 1], [9]), run([1, 1], [9, 9])]);
  assert.equal(merged.get.operations, 5);
  assert.equal(merged.update.operations, 3);
  assert.equal(latencyByKind([run([1], [2]), { byKind: undefined }]), null, 'a run without kinds: none');
  const result = {
    db: { name: 'memory', version: '1', execution: 'parallel' },
    dataset: { label: '10 documents' },
    config: { concurrency: 2, runs: 2 },
    workloads: {
      '50-50 n=8 c=2': { supported: true, compared: true, status: 'passed', ops: 8, summary: { medianMs: 1, stdevMs: 0 }, runs: [{ ms: 1, latencyMs: { p50: 1, p99: 9 } }], latencyByKind: merged },
    },
    complete: true,
  };
  const lines = formatTable(result).split('\n');
  const at = lines.findIndex((line) => line.startsWith('latency by operation'));
  assert.ok(at > 0, formatTable(result));
  assert.match(lines[at + 1], /^workload\s+get\s+update$/);
  assert.match(lines[at + 2], /^50-50 n=8 c=2\s+1\.00 \/ 1\.00 \(5\)\s+9\.00 \/ 9\.00 \(3\)$/);
});

test('a real mixed run records each kind of the 50-50 and cross-action mixes, and the report shows them', { timeout: 180_000 }, async () => {
  const out = path.join(dir, 'results');
  const { code, stderr } = await spawnBench(['run', '--suite', 'mixed', '--db', 'memory', '--workload', '50-50,igiugid,read-only',
    '--records', '200', '--ops', '2000', '--concurrency', '4', '--runs', '2', '--out', out, '--quiet'], { timeoutMs: 150_000 });
  assert.equal(code, 0, stderr);
  const [file] = readdirSync(out).filter((name) => name.endsWith('.json'));
  const result = JSON.parse(readFileSync(path.join(out, file), 'utf8'));
  const of = (mix) => Object.entries(result.workloads).find(([name]) => name.startsWith(`${mix} `))[1];
  assert.deepEqual(Object.keys(of('50-50').latencyByKind).sort(), ['get', 'update']);
  assert.equal(of('50-50').latencyByKind.get.operations + of('50-50').latencyByKind.update.operations, 2 * 2000, 'every operation of both runs');
  assert.deepEqual(Object.keys(of('igiugid').latencyByKind).sort(), ['delete', 'get', 'insert', 'update']);
  assert.equal(of('igiugid').latencyByKind.insert.operations, 2 * crossInserts(2000), 'the pattern\'s inserts of both runs');
  assert.equal(of('read-only').latencyByKind, undefined, 'one kind: no split');
  for (const run of of('igiugid').runs) assert.equal(Object.keys(run.byKind).length, 4, 'each run keeps its own');
  const report = await spawnBench(['report', out, '--format', 'markdown'], { timeoutMs: 60_000 });
  assert.equal(report.code, 0, report.stderr);
  assert.match(report.stdout, /## Latency by operation: each kind of a mix apart/);
  assert.match(report.stdout, /\| workload \| operations \| level \| database \| operation \| p50 \| p99 \|/);
  // A row per kind, in the suite's order; a kind the mix lacks has none.
  const rows = report.stdout.split('\n').filter((line) => /^\| (igiugid|50-50) \| 2,000 \| c=4 \| memory \| /.test(line))
    .map((line) => line.split(' | ').slice(0, 5).join(' | '));
  assert.deepEqual(rows, ['| 50-50 | 2,000 | c=4 | memory | get', '| 50-50 | 2,000 | c=4 | memory | update', '| igiugid | 2,000 | c=4 | memory | get',
    '| igiugid | 2,000 | c=4 | memory | update', '| igiugid | 2,000 | c=4 | memory | insert', '| igiugid | 2,000 | c=4 | memory | delete']);
  assert.match(report.stdout, /\| igiugid \| 2,000 \| c=4 \| memory \| insert( \| [\d.]+){2} \|/);
});
