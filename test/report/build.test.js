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
  assert.deepEqual(buildReport([bound]).warnings, ["figures marked ! may understate the database: the harness itself was the bottleneck (over 85% of a core, its event loop over 90% busy, or its CPU over half of each operation's latency)"]);
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
    message: 'the results are of 2 different suites: social, crud\n  social:\n    a.json\n  crud:\n    e.json\n  report each suite on its own (one folder or list of files per suite), or choose one with --suite <id>',
  });
  // Even when the suites' datasets differ: refused, never one suite's results dropped for the latest dataset.
  const crud = document('f', { extra: { suite: 'crud', dataset: { id: 'crud-uniform-s1' }, startedAt: '2030-01-01T00:00:00Z' } });
  assert.throws(() => buildReport([a, crud]), { code: 'E_MIXED_SUITES' });
  assert.equal(buildReport([a, crud], { suite: 'crud' }).suite, 'crud', '--suite chooses one');
});

test('the dataset chosen: the latest document\'s, by its start or else its end, ties by id, an undated one last', async () => {
  const { datasetGroups, fileLines, countFiles, selectDataset, datasetNote } = await import('../../results/report/datasets.js');
  const dated = (file, id, times) => ({ file, result: { dataset: { id }, ...times } });
  const documents = [
    dated('undated.json', 'a', {}),
    dated('ended.json', 'b', { finishedAt: '2026-01-03T00:00:00Z' }),
    dated('started.json', 'c', { startedAt: '2026-01-02T00:00:00Z', finishedAt: '2026-01-09T00:00:00Z' }),
    dated('bad.json', 'a', { startedAt: 'yesterday' }),
  ];
  assert.deepEqual(datasetGroups(documents), [
    { id: 'a', files: ['undated.json', 'bad.json'], latest: -Infinity },
    { id: 'b', files: ['ended.json'], latest: Date.parse('2026-01-03T00:00:00Z') },
    { id: 'c', files: ['started.json'], latest: Date.parse('2026-01-02T00:00:00Z') },
  ]);
  const chosen = selectDataset(documents);
  assert.deepEqual(chosen.choice, {
    id: 'b', reason: 'the latest of the 3 datasets in the files', skipped: [{ id: 'c', files: ['started.json'] }, { id: 'a', files: ['undated.json', 'bad.json'] }],
  });
  assert.deepEqual(chosen.documents.map((d) => d.file), ['ended.json']);
  // Equal times: the first id in code-point order, whatever the order of the files.
  const tie = [dated('y.json', 'y', { startedAt: '2026-01-01T00:00:00Z' }), dated('x.json', 'x', { startedAt: '2026-01-01T00:00:00Z' })];
  assert.equal(selectDataset(tie).choice.id, 'x');
  assert.equal(selectDataset([...tie].reverse()).choice.id, 'x');
  assert.equal(selectDataset(documents, { dataset: null }).choice.id, 'b');
  assert.equal(selectDataset(documents, { allowMixed: true }).choice, null);
  assert.equal(selectDataset(documents, { dataset: 'a', allowMixed: true }).choice.id, 'a');
  assert.throws(() => selectDataset(documents, { dataset: 'z' }), {
    code: 'E_UNKNOWN_DATASET',
    message: '--dataset z: no result of that dataset was given; the results hold:\n  b (1 file)\n  c (1 file)\n  a (2 files)',
  });
  assert.deepEqual(fileLines(['1', '2', '3'], '- '), ['- 1', '- 2', '- 3']);
  assert.deepEqual(fileLines(['1', '2', '3', '4'], ''), ['1', '2', '3', 'and 1 more']);
  assert.deepEqual([countFiles([]), countFiles(['x']), countFiles(['x', 'y'])], ['0 files', '1 file', '2 files']);
  assert.deepEqual(datasetNote({ id: 'a', reason: 'r', skipped: [] }), []);
  assert.deepEqual(datasetNote(null), []);
});

test('crash tests beside runs: the durability table and claims, each mode\'s verdict in words, no summary of their own', async () => {
  const { durabilityBlocks, durabilityLine, durabilityReport } = await import('../../results/report/durability.js');
  const crash = (db, modes, version) => ({ file: `${db}-crash.json`, result: { db: { id: db, name: db.toUpperCase(), ...(version ? { version } : {}) }, durability: modes } });
  const mode = (trials, acknowledged, lost, durablePerWrite, claim) => ({ trials, acknowledged, lost, durablePerWrite, claim });
  const durability = durabilityReport([
    crash('pg', { singleWrite: mode(1, 1000, 3, false, 'may lose the last commits'), singleWriteSync: mode(2, 2000, 0, true, 'fsync per commit') }, '17'),
    crash('pg', { singleWriteSync: mode(3, 500, 1, true, 'ignored: the first document\'s claim stands') }),
    crash('lite', { singleWrite: mode(1, 10, 0, true, undefined) }),
  ]);
  assert.deepEqual(durability, [
    {
      id: 'pg', name: 'PG', version: '17', files: ['pg-crash.json', 'pg-crash.json'],
      modes: [
        { operation: 'singleWrite', trials: 1, acknowledged: 1000, lost: 3, durablePerWrite: false, claim: 'may lose the last commits', verdict: 'not claimed' },
        { operation: 'singleWriteSync', trials: 5, acknowledged: 2500, lost: 1, durablePerWrite: true, claim: 'fsync per commit', verdict: 'failed' },
      ],
    },
    { id: 'lite', name: 'LITE', version: null, files: ['lite-crash.json'], modes: [{ operation: 'singleWrite', trials: 1, acknowledged: 10, lost: 0, durablePerWrite: true, claim: undefined, verdict: 'verified' }] },
  ]);
  assert.equal(durabilityLine({ lost: 1234, acknowledged: 56789, trials: 1000, verdict: 'failed' }), 'FAILED: 1,234 of 56,789 acknowledged writes lost in 1,000 crashes, though declared durable per write');
  const blocks = durabilityBlocks({ databases: [{ id: 'x' }], durability });
  assert.deepEqual(blocks.map((b) => b.id), ['durability', 'durability-claims']);
  assert.equal(blocks[0].title, 'Durability (bench crash): acknowledged writes lost in crashes of the database process, not power losses');
  assert.deepEqual([blocks[0].header, blocks[0].numeric], [['database', 'write mode', 'declared', 'result'], []]);
  assert.deepEqual(blocks[0].rows, [
    ['pg', 'singleWrite', 'no per-write claim', '3 of 1,000 acknowledged writes lost in 1 crashes (not declared durable per write)'],
    ['', 'singleWriteSync', 'durable per write', 'FAILED: 1 of 2,500 acknowledged writes lost in 5 crashes, though declared durable per write'],
    ['lite', 'singleWrite', 'durable per write', 'verified: 0 of 10 acknowledged writes lost in 1 crashes'],
  ]);
  assert.deepEqual(blocks[1], {
    kind: 'list', id: 'durability-claims', title: 'What each adapter declares',
    items: [
      { label: 'pg singleWrite', lines: ['may lose the last commits'] },
      { label: 'pg singleWriteSync', lines: ['fsync per commit'] },
      { label: 'lite singleWrite', lines: ['nothing declared'] },
    ],
  });
  assert.deepEqual(durabilityBlocks({ databases: [], durability: [] }), []);
  assert.deepEqual(durabilityBlocks({ databases: [] }), []);
  const alone = durabilityBlocks({ databases: [], durability });
  assert.deepEqual(alone[0], {
    kind: 'text', id: 'summary', title: 'db-shootout report',
    lines: ['crash tests: pg, lite', 'a process crash (SIGKILL to the database\'s process tree under write load), not a power loss: the operating system\'s page cache survives it'],
  });
});

test('the statistics the model states; a suite\'s own block and warnings; a run document with a null durability is a run', () => {
  const report = buildReport([document('a')]);
  assert.deepEqual(report.statistics, {
    centre: 'median of the valid runs (every run of every given file of the database)',
    interval: { method: 'percentile bootstrap of the median', level: 0.95, resamples: 10_000, seed: 1 },
    significance: 'a database differs from the baseline when the two 95% intervals do not overlap',
    normalised: 'median time / the baseline\'s median time × 100 (lower is faster)',
  });
  // A crud document: the suite's block, and its warning for durable and default writes mixed.
  const crud = (db, durable) => document(db, {
    extra: { suite: 'crud' },
    workloads: { 'insert n=10 c=1': { supported: true, compared: true, status: 'passed', valid: true, ops: 10, params: { ops: 10, concurrency: 1, durable }, runs: [{ run: 1, valid: true, ms: 10, errors: 0 }] } },
  });
  const mixed = buildReport([crud('a', false), crud('b', true)]);
  assert.deepEqual(mixed.crud.series.map((s) => s.phase), ['insert']);
  assert.deepEqual(mixed.warnings, ["the results mix durable writes (--sync) and the databases' default acknowledgement (a: default, b: durable), which do not measure the same work"]);
  const run = document('a', { extra: { durability: null } });
  const withNull = buildReport([run]);
  assert.deepEqual([withNull.databases.map((d) => d.id), withNull.durability], [['a'], []]);
  // --suite naming none of the suites found lists each.
  assert.throws(() => buildReport([document('a'), document('b', { extra: { suite: 'crud' } })], { suite: 'mixed' }),
    { code: 'E_NO_RESULTS', message: 'no result of the mixed suite in the files; they hold results of: social, crud' });
});
