// bench report given crash tests (`bench crash` documents): per database and write mode, the crashes pooled
// and the verdict against the adapter's declaration; beside the workloads of run documents, or alone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { REPORT_FORMATS, buildReport, loadResults } from '../results/report/index.js';
import { spawnBench } from './helpers/cli.js';

const SUITE = fileURLToPath(new URL('./fixtures/results/suite/', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-crash-report-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function mode(operation, { trials, acknowledged, lost, durablePerWrite }) {
  return { operation, trials, acknowledged, lost, claim: `${operation} claim`, durablePerWrite, verdict: 'as computed', crashes: [] };
}

// A crash test's result document, as bench crash writes it (the fields a report reads).
function crashDocument(id, modes) {
  return {
    schema: 'db-shootout/result@1', startedAt: '2026-11-24T08:00:00.000Z', db: { id, name: id, version: '1' }, dataset: null,
    config: { trials: 5, concurrency: 25 }, complete: true, workloads: {}, durability: modes,
  };
}

const pg = (lost) => crashDocument('postgresql', {
  singleWrite: mode('singleWrite', { trials: 2, acknowledged: 1000, lost: 7, durablePerWrite: false }),
  singleWriteSync: mode('singleWriteSync', { trials: 2, acknowledged: 900, lost, durablePerWrite: true }),
});

test('crash tests alone: pooled per database and mode, "verified: 0 of N acknowledged writes lost in K crashes"', () => {
  const report = buildReport([{ file: 'a.json', result: pg(0) }, { file: 'b.json', result: pg(0) }]);
  assert.deepEqual(report.workloads, []);
  const [database] = report.durability;
  assert.equal(database.id, 'postgresql');
  assert.deepEqual(database.files, ['a.json', 'b.json']);
  const sync = database.modes.find((m) => m.operation === 'singleWriteSync');
  assert.deepEqual([sync.trials, sync.acknowledged, sync.lost, sync.verdict], [4, 1800, 0, 'verified']);
  const table = REPORT_FORMATS.table(report);
  assert.match(table, /singleWriteSync\s+durable per write\s+verified: 0 of 1,800 acknowledged writes lost in 4 crashes/);
  assert.match(table, /singleWrite\s+no per-write claim\s+14 of 2,000 acknowledged writes lost in 4 crashes \(not declared durable per write\)/);
  assert.match(table, /not a power loss/);
  for (const format of ['markdown', 'html']) assert.match(REPORT_FORMATS[format](report), /verified: 0 of 1,800/);
  assert.deepEqual(JSON.parse(REPORT_FORMATS.json(report)).durability, report.durability);
});

test('a mode declared durable per write that lost a write is reported as failed', () => {
  const report = buildReport([{ file: 'a.json', result: pg(0) }, { file: 'b.json', result: pg(2) }]);
  assert.equal(report.durability[0].modes.find((m) => m.operation === 'singleWriteSync').verdict, 'failed');
  assert.match(REPORT_FORMATS.table(report), /FAILED: 2 of 1,800 acknowledged writes lost in 4 crashes/);
});

test('crash tests beside run documents: the workloads as before, and the durability block', async () => {
  const runs = await loadResults([SUITE]);
  const plain = buildReport(runs);
  const report = buildReport([...runs, { file: 'crash.json', result: pg(0) }]);
  assert.deepEqual(report.workloads, plain.workloads);
  assert.deepEqual(report.databases, plain.databases);
  assert.equal(report.durability.length, 1);
  assert.match(REPORT_FORMATS.table(report), /Durability \(bench crash\)[^]*verified: 0 of 900 acknowledged writes lost in 2 crashes/);
});

test('bench report reads a crash document from a directory with run documents', async () => {
  const file = path.join(dir, 'postgresql-crash-20261124T080000Z.json');
  writeFileSync(file, JSON.stringify(pg(0)));
  const { code, stdout, stderr } = await spawnBench(['report', file]);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /crash tests: postgresql/);
  assert.match(stdout, /verified: 0 of 900 acknowledged writes lost in 2 crashes/);
});
