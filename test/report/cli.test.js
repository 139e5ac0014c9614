// `bench report` as users run it: the real CLI, spawned, on the real result files.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { spawnBench } from '../helpers/cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/results/', import.meta.url));
const SUITE = path.join(FIXTURES, 'suite');
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-report-cli-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('bench report prints the table on stdout by default and writes any format with --out', async () => {
  const table = await spawnBench(['report', SUITE, '--baseline', 'postgresql']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^db-shootout report\n/);
  assert.match(table.stdout, /baseline: postgresql \(named with --baseline\)/);
  const out = path.join(work, 'report.html');
  const html = await spawnBench(['report', SUITE, '--format', 'html', '--out', out]);
  assert.equal(html.code, 0, html.stderr);
  assert.equal(html.stdout, '');
  assert.match(html.stderr, /report \(html\) written to .*report\.html/);
  assert.match(readFileSync(out, 'utf8'), /^<!doctype html>/);
  const json = await spawnBench(['report', SUITE, path.join(FIXTURES, 'sqlite-b'), '--format', 'json']);
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.equal(report.schema, 'db-shootout/report@1');
  assert.equal(report.workloads.find((w) => w.name === 'singleRead').results.sqlite.runs, 6);
});

test('bench report exits with 2 on files that are not results and an absent baseline, and reports the latest of mixed datasets', async () => {
  const stray = path.join(work, 'notes.json');
  writeFileSync(stray, '{"hello": 1}');
  const notResult = await spawnBench(['report', SUITE, stray]);
  assert.equal(notResult.code, 2);
  assert.match(notResult.stderr, /^error: .*notes\.json is not a db-shootout\/result@1 result document: schema is null/);
  // Two datasets are not an error: the latest is reported, and stderr says which and how to choose.
  const mixed = await spawnBench(['report', SUITE, path.join(FIXTURES, 'seed2'), '--format', 'json']);
  assert.equal(mixed.code, 0, mixed.stderr);
  assert.deepEqual(JSON.parse(mixed.stdout).datasets.map((d) => d.id), ['synthetic-tiny-s2-g1']);
  assert.match(mixed.stderr, /^note: the results hold 2 datasets; this report is of synthetic-tiny-s2-g1 .*\n {2}skipped synthetic-tiny-s1-g1, 4 files:\n/);
  const allowed = await spawnBench(['report', SUITE, path.join(FIXTURES, 'seed2'), '--allow-mixed', '--format', 'csv']);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.match(allowed.stderr, /warning: the results are of 2 different datasets/);
  const baseline = await spawnBench(['report', SUITE, '--baseline', 'arangodb']);
  assert.equal(baseline.code, 2);
  assert.match(baseline.stderr, /--baseline arangodb: no result of that database was given/);
  const format = await spawnBench(['report', SUITE, '--format', 'pdf']);
  assert.equal(format.code, 2);
  assert.match(format.stderr, /^error: --format pdf is not a choice: table, markdown, csv, json or html$/m);
});
