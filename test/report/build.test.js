// The report model's own parts (results/report/build.js) on documents made up here: each warning the documents
// call for and its words, the suite filter, the refusal of different work, a report of crash tests alone, and
// what each workload and dataset carries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildReport, checkSameWork, suiteOf } from '../../results/report/build.js';

function document(db, { file = `${db}.json`, ops = 10, times = [10, 11, 12], extra = {}, workloads } = {}) {
  const entry = (compared = true) => ({
    supported: true, compared, status: 'passed', valid: true, ops, description: `${compared ? '' : 'not '}compared work`,
    runs: times.map((ms, i) => ({ run: i + 1, valid: true, ms, errors: 0 })),
  });
  return {
    file,
    result: {
      schema: 'db-shootout/result@1', db: { id: db, version: '1' }, dataset: { id: 'synthetic-tiny-s1-g1' },
      harness: { version: '0.1.0', commit: 'abc' }, config: { concurrency: 25, runs: 3 },
      environment: { cpu: 'cpu A', cores: 2, memoryBytes: 1, os: 'linux', hostname: 'one' },
      complete: true, interrupted: false, error: null,
      workloads: workloads ?? { warmup: entry(false), singleRead: entry() },
      ...extra,
    },
  };
}

test('documents alike: no warning; each difference between them a warning of its own words', () => {
  assert.deepEqual(buildReport([document('a'), document('b')]).warnings, []);
  const warnings = buildReport([
    document('a'),
    document('b', { extra: { environment: { cpu: 'cpu B', cores: 8, memoryBytes: 1, os: 'linux', hostname: 'two' }, config: { concurrency: 50, runs: 3 } } }),
    document('b', { file: 'b2.json', extra: { harness: { version: '0.2.0', commit: null }, db: { id: 'b', version: '2' } } }),
    document('c', { extra: { complete: false, interrupted: true } }),
    document('c', { file: 'c2.json', extra: { complete: false, error: { message: 'lost the connection' } } }),
    document('c', { file: 'c3.json', extra: { complete: false } }),
    document('c', { file: 'c4.json', extra: { complete: false }, workloads: {} }),
  ]).warnings;
  assert.deepEqual(warnings, [
    'the results come from 2 different machines (one: cpu A, 2 cores; two: cpu B, 8 cores): differences between databases include differences between machines',
    'the results were run at different concurrencies (25, 50)',
    'the results come from different harness versions (0.1.0 abc; 0.2.0)',
    'b was run in 2 versions (1, 2); its runs are pooled',
    'c.json is incomplete (interrupted); its completed runs are used',
    'c2.json is incomplete (lost the connection); its completed runs are used',
    'c3.json is incomplete (stopped early); its completed runs are used',
  ]);
  // A suite that runs a list of levels names them in its keys: different lists are no warning.
  assert.deepEqual(buildReport([document('a', { extra: { config: { concurrency: [1, 4] } } }), document('b', { extra: { config: { concurrency: [1, 8] } } })]).warnings, []);
});

test('the client as bottleneck in any workload is a warning', () => {
  const bound = document('a');
  bound.result.workloads.singleRead.resources = { clientBound: true };
  assert.deepEqual(buildReport([bound]).warnings, ['in some workloads the harness itself was the bottleneck (marked !): those figures may understate the database']);
});

test('a workload carries the first description given and the largest count of operations; the dataset its known fields', () => {
  const a = document('a', { ops: 10 });
  const b = document('b', { ops: 10 });
  a.result.workloads.singleRead.description = undefined;
  b.result.dataset = { id: 'synthetic-tiny-s1-g1', name: 'synthetic', scale: 'tiny', seed: 1, profiles: 1000, relations: 17531, sha256: 'x' };
  const report = buildReport([a, b]);
  const read = report.workloads.find((w) => w.name === 'singleRead');
  assert.deepEqual([read.description, read.ops, read.compared], ['compared work', 10, true]);
  const warmup = report.workloads.find((w) => w.name === 'warmup');
  assert.deepEqual([warmup.compared, warmup.results.a.normalisedPct, warmup.results.a.significant], [false, null, null]);
  assert.deepEqual(report.datasets, [
    { id: 'synthetic-tiny-s1-g1', name: null, scale: null, seed: null, profiles: null, relations: null },
    { id: 'synthetic-tiny-s1-g1', name: 'synthetic', scale: 'tiny', seed: 1, profiles: 1000, relations: 17531 },
  ]);
  // A workload no database passed has no count of operations.
  const none = document('a', { ops: 0 });
  assert.equal(buildReport([none]).workloads.find((w) => w.name === 'singleRead').ops, null);
  assert.equal(buildReport([document('a')]).suite, 'social');
  assert.deepEqual([suiteOf({ suite: 'crud' }), suiteOf({})], ['crud', 'social']);
});

test('--suite keeps that suite\'s documents, and none of it is an error naming the suites found', () => {
  const crud = document('a', { extra: { suite: 'crud' } });
  assert.deepEqual(buildReport([document('a')], { suite: 'social' }).databases.map((d) => d.id), ['a']);
  assert.throws(() => buildReport([document('a'), document('b')], { suite: 'crud' }),
    { code: 'E_NO_RESULTS', message: 'no result of the crud suite in the files; they hold results of: social' });
  assert.equal(buildReport([crud], { suite: 'crud' }).suite, 'crud');
  assert.equal(buildReport([], { suite: 'crud' }).workloads.length, 0);
});

test('crash tests alone: a report with no runs, only their durability', () => {
  const crash = { file: 'crash.json', result: { schema: 'db-shootout/result@1', db: { id: 'sqlite', name: 'SQLite' }, workloads: {}, durability: { singleWrite: { trials: 1, acknowledged: 5, lost: 0, durablePerWrite: true, claim: 'c' } } } };
  const report = buildReport([crash]);
  assert.deepEqual({ ...report, statistics: undefined, durability: undefined }, {
    schema: 'db-shootout/report@1', statistics: undefined, baseline: null, datasets: [], datasetChoice: null, databases: [], workloads: [], durability: undefined, warnings: [],
  });
  assert.equal(report.durability.length, 1);
  assert.equal(buildReport([crash, document('a')]).durability.length, 1);
  assert.equal(buildReport([document('a')]).durability.length, 0);
});

test('different work refused: the first difference on the first line, the others and the files below, the remedy last', () => {
  const a = document('a', { ops: 10 });
  const b = document('b', { ops: 20 });
  b.result.dataset = { id: 'other' };
  const names = ['warmup', 'singleRead'];
  assert.throws(() => checkSameWork([a, b], names, { allowMixed: false, remedy: 'do this' }, []), {
    code: 'E_MIXED_DATASETS',
    message: [
      'the results are of 2 different datasets: synthetic-tiny-s1-g1 (1 file); other (1 file)',
      '  synthetic-tiny-s1-g1:', '    a.json', '  other:', '    b.json',
      '  warmup ran 10 / 20 operations per run in different files',
      '  singleRead ran 10 / 20 operations per run in different files',
      '  results of different work are not comparable',
      '  do this',
    ].join('\n'),
  });
  const c = document('c', { ops: 20 });
  assert.throws(() => checkSameWork([a, c], names, { allowMixed: false }, []), {
    message: 'warmup ran 10 / 20 operations per run in different files\n  singleRead ran 10 / 20 operations per run in different files\n  results of different work are not comparable',
  });
  const warnings = [];
  checkSameWork([a, c], names, { allowMixed: true }, warnings);
  assert.deepEqual(warnings, [
    'warmup ran 10 / 20 operations per run in different files: the figures do not compare the same work (--allow-mixed)',
    'singleRead ran 10 / 20 operations per run in different files: the figures do not compare the same work (--allow-mixed)',
  ]);
  // A workload not run (0 operations) in one file is no difference.
  checkSameWork([a, document('d', { ops: 0 })], names, { allowMixed: false }, []);
  // Results of different suites, whatever the flags.
  assert.throws(() => checkSameWork([a, document('e', { extra: { suite: 'crud' } })], names, { allowMixed: true }, []), {
    code: 'E_MIXED_SUITES',
    message: 'the results are of 2 different suites: social, crud\n  social:\n    a.json\n  crud:\n    e.json\n  report each suite on its own (one folder or list of files per suite)',
  });
});
