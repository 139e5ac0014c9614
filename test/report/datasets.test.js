// A report is of one dataset: when the files hold several (a results folder collects every run), the latest is
// reported and the others are named; --dataset chooses; --allow-mixed combines. Errors and notes keep their
// first line short, with the detail on the lines below.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkSameWork } from '../../results/report/build.js';
import { chartData } from '../../results/report/html.js';
import { buildReport, datasetNote } from '../../results/report/index.js';
import { spawnBench } from '../helpers/cli.js';

const SUITE = fileURLToPath(new URL('../fixtures/results/suite/', import.meta.url));
const sqlite = JSON.parse(readFileSync(path.join(SUITE, readdirSync(SUITE).find((f) => f.startsWith('sqlite-'))), 'utf8'));
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-report-datasets-'));
after(() => rmSync(work, { recursive: true, force: true }));

const MAX_LINE = 200;

// The real SQLite document, relabelled: only the dataset id, the time and the file name differ.
function document(file, datasetId, startedAt) {
  return { file, result: { ...sqlite, dataset: { ...sqlite.dataset, id: datasetId }, startedAt } };
}

function assertShortLines(text) {
  for (const line of text.split('\n')) assert.ok(line.length < MAX_LINE, `a line of ${line.length} characters:\n${line}`);
}

test('of several datasets, the one with the latest document is reported, whatever the order or names of the files', () => {
  const documents = [
    document('z-old.json', 'small', '2026-01-02T10:00:00.000Z'),
    document('a.json', 'tiny', '2026-01-01T10:00:00.000Z'),
    document('b.json', 'tiny', '2026-01-03T10:00:00.000Z'),
  ];
  for (const order of [documents, [...documents].reverse()]) {
    const report = buildReport(order);
    assert.deepEqual(report.datasets.map((d) => d.id), ['tiny']);
    assert.deepEqual(report.databases[0].files.sort(), ['a.json', 'b.json']);
    assert.deepEqual(report.datasetChoice, { id: 'tiny', reason: 'the latest of the 2 datasets in the files', skipped: [{ id: 'small', files: ['z-old.json'] }] });
    assert.equal(report.warnings.length, 0, report.warnings.join('\n'));
  }
  const one = buildReport([documents[1], documents[2]]);
  assert.equal(one.datasetChoice, null, 'one dataset: nothing was chosen');
  assert.deepEqual(datasetNote(one.datasetChoice), []);
});

test('--dataset reports the named dataset, and an unknown one is refused with the datasets listed below', () => {
  const documents = [document('tiny.json', 'tiny', '2026-01-01T10:00:00.000Z'), document('small.json', 'small', '2026-01-02T10:00:00.000Z')];
  const report = buildReport(documents, { dataset: 'tiny' });
  assert.deepEqual(report.datasets.map((d) => d.id), ['tiny']);
  assert.deepEqual(report.datasetChoice, { id: 'tiny', reason: 'named with --dataset', skipped: [{ id: 'small', files: ['small.json'] }] });
  assert.throws(() => buildReport(documents, { dataset: 'medium' }), (error) => {
    assert.equal(error.code, 'E_UNKNOWN_DATASET');
    assert.deepEqual(error.message.split('\n'), [
      '--dataset medium: no result of that dataset was given; the results hold:',
      '  small (1 file)',
      '  tiny (1 file)',
    ]);
    return true;
  });
  const mixed = buildReport(documents, { allowMixed: true });
  assert.deepEqual(mixed.datasets.map((d) => d.id), ['tiny', 'small']);
  assert.equal(mixed.datasetChoice, null);
});

test('the note names every skipped dataset and how to choose, on short lines, however many files there are', () => {
  const long = (i) => path.join('/var/lib/benchmarks/archive/2026/november/a-long-folder-name-for-the-results', `sqlite-tiny-${i}.json`);
  const documents = [
    ...Array.from({ length: 40 }, (_, i) => document(long(i), 'synthetic-tiny-s1-g1', '2026-01-01T10:00:00.000Z')),
    document('latest.json', 'synthetic-small-s1-g1', '2026-01-05T10:00:00.000Z'),
  ];
  const note = datasetNote(buildReport(documents).datasetChoice);
  assert.deepEqual(note, [
    'note: the results hold 2 datasets; this report is of synthetic-small-s1-g1 (the latest of the 2 datasets in the files)',
    '  skipped synthetic-tiny-s1-g1, 40 files:',
    `    ${long(0)}`, `    ${long(1)}`, `    ${long(2)}`, '    and 37 more',
    '  choose one with --dataset <id> (as --dataset synthetic-tiny-s1-g1), or report them together with --allow-mixed',
  ]);
  assertShortLines(note.join('\n'));
  // The refusal `bench compare` gives for the same files: the datasets on the first line, their files below.
  assert.throws(() => checkSameWork(documents, [], { allowMixed: false }, []), (error) => {
    const lines = error.message.split('\n');
    assert.equal(lines[0], 'the results are of 2 different datasets: synthetic-tiny-s1-g1 (40 files); synthetic-small-s1-g1 (1 file)');
    assert.deepEqual(lines.slice(1), [
      '  synthetic-tiny-s1-g1:', `    ${long(0)}`, `    ${long(1)}`, `    ${long(2)}`, '    and 37 more',
      '  synthetic-small-s1-g1:', '    latest.json',
      '  results of different work are not comparable',
    ]);
    assertShortLines(error.message);
    return true;
  });
});

test('different operation counts in one dataset are refused with a short first line and one difference a line', () => {
  const shortened = document('preset.json', sqlite.dataset.id, sqlite.startedAt);
  shortened.result = { ...shortened.result, workloads: { ...sqlite.workloads, shortestPath: { ...sqlite.workloads.shortestPath, ops: 19 } } };
  assert.throws(() => buildReport([{ file: 'sqlite.json', result: sqlite }, shortened]), (error) => {
    assert.equal(error.code, 'E_MIXED_DATASETS');
    assert.deepEqual(error.message.split('\n'), [
      `shortestPath ran ${sqlite.workloads.shortestPath.ops} / 19 operations per run in different files`,
      '  results of different work are not comparable',
      '  pass --allow-mixed to report them anyway, with a warning',
    ]);
    return true;
  });
});

// The README's own examples, in order, in an empty folder: a tiny run, then a small one, then the HTML report.
test('bench report of a folder holding a tiny and a small run reports the latest, says so on stderr, and --dataset picks the other', { timeout: 180_000 }, async () => {
  const bench = (args) => spawnBench(args, { cwd: work, env: { BENCH_CACHE_DIR: path.join(work, 'cache') } });
  const tiny = await bench(['run', '--scale', 'tiny', '--runs', '1', '--json', '--quiet']);
  assert.equal(tiny.code, 0, tiny.stderr);
  writeFileSync(path.join(work, 'result.json'), tiny.stdout);
  const small = await bench(['run', '--scale', 'small', '--workload', 'aggregation', '--runs', '1', '--quiet']);
  assert.equal(small.code, 0, small.stderr);
  assert.equal(readdirSync(path.join(work, 'bench-results')).length, 2);

  const html = await bench(['report', 'bench-results/', '--format', 'html', '--out', 'report.html']);
  assert.equal(html.code, 0, html.stderr);
  assertShortLines(html.stderr);
  const lines = html.stderr.trimEnd().split('\n');
  assert.equal(lines[0], 'note: the results hold 2 datasets; this report is of synthetic-small-s1-g1 (the latest of the 2 datasets in the files)');
  assert.equal(lines[1], '  skipped synthetic-tiny-s1-g1, 1 file:');
  assert.match(lines[2], /^ {4}bench-results\/sqlite-tiny-\d{8}T\d{6}Z\.json$/);
  assert.match(lines[3], /--dataset synthetic-tiny-s1-g1/);
  assert.ok(existsSync(path.join(work, 'report.html')));
  const page = readFileSync(path.join(work, 'report.html'), 'utf8');
  const data = JSON.parse(page.match(/<script type="application\/json" id="report-data">(.*?)<\/script>/s)[1]);
  assert.deepEqual(data.throughput.workloads, ['aggregation'], 'the small run\'s one workload');

  const json = await bench(['report', 'bench-results/', '--dataset', 'synthetic-tiny-s1-g1', '--format', 'json']);
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.deepEqual(report.datasets.map((d) => d.id), ['synthetic-tiny-s1-g1']);
  assert.deepEqual(chartData(report).throughput.workloads, report.workloads.filter((w) => w.compared).map((w) => w.name));

  const unknown = await bench(['report', 'bench-results/', '--dataset', 'synthetic-medium-s1-g1']);
  assert.equal(unknown.code, 2);
  assertShortLines(unknown.stderr);
  assert.equal(unknown.stderr, 'error: --dataset synthetic-medium-s1-g1: no result of that dataset was given; the results hold:\n  synthetic-small-s1-g1 (1 file)\n  synthetic-tiny-s1-g1 (1 file)\n');

  const mixed = await bench(['report', 'bench-results/', '--allow-mixed', '--format', 'csv', '--out', 'mixed.csv']);
  assert.equal(mixed.code, 0, mixed.stderr);
  assert.match(mixed.stderr, /warning: the results are of 2 different datasets/);
  assert.doesNotMatch(mixed.stderr, /^note:/m);
});
