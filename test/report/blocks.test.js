// The report laid out as blocks (results/report/blocks.js), which the table, Markdown and HTML formats each render:
// on documents made up here, every cell of the summary, the matrix, the workload tables, the resources and the
// reproducibility list, for two databases and for one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportBlocks, normalisedCell } from '../../results/report/blocks.js';
import { buildReport } from '../../results/report/build.js';
import { REPORT_FORMATS } from '../../results/report/index.js';

const latency = (ms) => ({ p50: ms / 10, p90: ms / 5, p99: ms / 2, max: ms, mean: ms / 10 });
const passed = (times, { ops = 10, compared = true } = {}) => ({
  supported: true, compared, status: 'passed', valid: true, ops,
  runs: times.map((ms, i) => ({ run: i + 1, valid: true, ms, errors: 0, latencyMs: latency(ms) })),
});

function document(db, { file = `${db}.json`, workloads, extra = {} }) {
  return {
    file,
    result: {
      schema: 'db-shootout/result@1', db: { id: db, name: db.toUpperCase(), version: '1', driver: { name: 'drv', version: '2' }, settings: { a: 1, b: 'x' } },
      dataset: { id: 'synthetic-tiny-s1-g1', name: 'synthetic', scale: 'tiny', seed: 1, profiles: 1000, relations: 17531 },
      harness: { name: 'db-shootout', version: '0.1.0', commit: '0123456789abcdef' }, config: { concurrency: 25, runs: 3, preset: null },
      environment: { cpu: 'cpu A', cores: 2, memoryBytes: 2 * 1024 ** 3, os: 'linux', node: '20', hostname: 'one' },
      import: { importedAt: 't', ms: 1500, diskBytes: 1024 ** 2, diskScope: 'data directory' },
      resources: { server: { rssPeakBytes: 3 * 1024 ** 2, rssMeanBytes: 1024 ** 2, cpuPeakPct: 150.4, source: 'docker' } },
      complete: true, interrupted: false, error: null,
      workloads,
      ...extra,
    },
  };
}

// a, the baseline: singleRead 10-12 ms, aggregation failed, neighbors 1 ms; b: singleRead 30-32 ms (client-bound),
// aggregation 5 ms, neighbors 20 ms once (2,000%), shortestPath unsupported; warmup not compared.
function twoDatabases() {
  const bound = passed([30, 31, 32]);
  bound.resources = { clientBound: true };
  const a = document('a', {
    workloads: {
      warmup: passed([5, 6, 7], { compared: false }), singleRead: passed([10, 11, 12]), neighbors: passed([1, 1, 1]),
      aggregation: { supported: true, compared: true, status: 'failed', ops: 10, runs: [{ run: 1, valid: false, reason: '2 wrong answers' }] },
    },
  });
  const b = document('b', {
    workloads: {
      warmup: passed([5, 6, 7], { compared: false }), singleRead: bound, aggregation: passed([5]), neighbors: passed([20]),
      shortestPath: { supported: false, compared: true, status: 'unsupported', ops: 0, runs: [] },
    },
    extra: {
      db: { id: 'b', name: 'B', version: '2', driver: null, settings: {} },
      harness: { name: 'db-shootout', version: '0.1.0', commit: null },
      config: { concurrency: 25, runs: 1, preset: 'quick' },
      environment: { cpu: 'cpu A', cores: 2, memoryBytes: 2 * 1024 ** 3, os: 'linux', node: '20', hostname: null },
      import: { importedAt: 't', ms: null, diskBytes: 5 * 1024 ** 3, diskScope: 'namespace' },
      resources: { server: null },
    },
  });
  return [a, b];
}

const block = (report, id) => reportBlocks(report).find((b) => b.id === id);

test('two databases: the summary, then the matrix relative to the baseline, words for a workload without a time', () => {
  const report = buildReport(twoDatabases(), { baseline: 'a' });
  assert.deepEqual(reportBlocks(report).map((b) => b.id), ['summary', 'terms', 'normalised', 'workloads', 'not-compared', 'resources', 'reproducibility', 'legend', 'warnings']);
  assert.deepEqual(block(report, 'summary').lines, [
    'dataset: synthetic-tiny-s1-g1 (synthetic tiny, 1,000 profiles, 17,531 relations, seed 1)',
    'databases: a, b',
    'baseline: a (named with --baseline)',
    'terms: not recorded in these results (run before durability terms were recorded): the databases may have written under different durability',
    'intervals: none where a database or the baseline has 1 run (marked "1 run: no interval"): a difference of any size may be noise; --runs 3 or more gives a 95% interval',
  ]);
  const matrix = block(report, 'normalised');
  assert.equal(matrix.title, 'Median time relative to a (= 100%; lower is faster)');
  assert.deepEqual([matrix.header, matrix.numeric], [['workload', 'a', 'b'], [1, 2]]);
  assert.deepEqual(matrix.rows, [
    ['singleRead', '100% (baseline)', '281.8% !'],
    ['aggregation', 'failed', 'n/a (no baseline time)'],
    ['neighbors', '100% (baseline)', '2,000% (1 run: no interval)'],
    ['shortestPath', 'not run', 'unsupported'],
  ]);
  assert.equal(report.warnings.length, 3);
  assert.deepEqual(block(report, 'warnings').items, report.warnings.map((warning) => ({ label: 'warning', lines: [warning] })));
});

test('two databases: the workload tables, each database a row, the figures only where it passed', () => {
  const report = buildReport(twoDatabases(), { baseline: 'a' });
  const workloads = block(report, 'workloads');
  assert.deepEqual(workloads.header, ['workload', 'ops/run', 'database', 'status', 'runs', 'median ms', '95% CI ms', 'ops/s', 'p50 ms', 'p99 ms', 'vs baseline']);
  assert.deepEqual(workloads.numeric, [1, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(workloads.rows, [
    ['singleRead', '10', 'a', 'ok', '3', '11.00', '10.00 – 12.00', '909', '1.10', '5.50', '100% (baseline)'],
    ['', '', 'b', 'ok', '3', '31.00', '30.00 – 32.00', '323', '3.10', '15.50', '281.8% !'],
    ['aggregation', '10', 'a', 'failed: 2 wrong answers', '', '', '', '', '', '', ''],
    ['', '', 'b', 'ok', '1', '5.00', 'n/a (one run)', '2,000', '0.500', '2.50', 'n/a (no baseline time)'],
    ['neighbors', '10', 'a', 'ok', '3', '1.00', '1.00 – 1.00', '10,000', '0.100', '0.500', '100% (baseline)'],
    ['', '', 'b', 'ok', '1', '20.00', 'n/a (one run)', '500', '2.00', '10.00', '2,000% (1 run: no interval)'],
    ['shortestPath', '', 'a', 'not run', '', '', '', '', '', '', ''],
    ['', '', 'b', 'unsupported', '', '', '', '', '', '', ''],
  ]);
  const separate = block(report, 'not-compared');
  assert.equal(separate.title, 'Not compared (warmup: reported, never normalised)');
  assert.equal(separate.header.at(-1), '');
  assert.deepEqual(separate.rows, [
    ['warmup', '10', 'a', 'ok', '3', '6.00', '5.00 – 7.00', '1,667', '0.600', '3.00', ''],
    ['', '', 'b', 'ok', '3', '6.00', '5.00 – 7.00', '1,667', '0.600', '3.00', ''],
  ]);
});

test('two databases: resources with n/a where not measured, and what another person needs to run it again', () => {
  const report = buildReport(twoDatabases(), { baseline: 'a' });
  const resources = block(report, 'resources');
  assert.deepEqual(resources.header, ['database', 'server peak RSS', 'server mean RSS', 'server peak CPU', 'import', 'on disk after import']);
  assert.deepEqual(resources.numeric, [1, 2, 3, 4, 5]);
  assert.deepEqual(resources.rows, [
    ['a', '3.0 MiB', '1.0 MiB', '150%', '1.50 s', '1.0 MiB (whole data directory)'],
    ['b', 'n/a', 'n/a', 'n/a', 'n/a', '5.0 GiB'],
  ]);
  assert.deepEqual(block(report, 'reproducibility').items, [
    {
      label: 'a (A)',
      lines: [
        'version: 1', 'driver: drv 2', 'dataset: synthetic-tiny-s1-g1 (tiny, seed 1)', 'config: concurrency 25, 3 runs',
        'harness: db-shootout 0.1.0 (0123456789ab)', 'server settings: a=1, b=x', 'machine: cpu A, 2 cores, 2.0 GiB RAM, linux, node 20, host one', 'files: a.json',
      ],
    },
    {
      label: 'b (B)',
      lines: [
        'version: 2', 'driver: n/a', 'dataset: synthetic-tiny-s1-g1 (tiny, seed 1)', 'config: concurrency 25, 1 runs, preset quick',
        'harness: db-shootout 0.1.0 (no git commit)', 'server settings: none recorded', 'machine: cpu A, 2 cores, 2.0 GiB RAM, linux, node 20', 'files: b.json',
      ],
    },
  ]);
  // Two invocations of one database that differ: each value, in order, apart.
  const [a] = twoDatabases();
  const again = document('a', { file: 'a2.json', workloads: a.result.workloads, extra: { db: { id: 'a', name: 'A', version: '1.1', driver: { name: 'drv', version: null }, settings: { a: 1, b: 'x' } } } });
  const lines = buildReport([a, again]).databases[0];
  const item = block(buildReport([a, again]), 'reproducibility').items[0];
  assert.deepEqual(item.lines.slice(0, 2), ['version: 1 | 1.1', 'driver: drv 2 | drv']);
  assert.equal(item.lines.at(-1), 'files: a.json, a2.json');
  assert.deepEqual(lines.files, ['a.json', 'a2.json']);
});

test('the legend gives the interval\'s level, method, resamples and seed', () => {
  const legend = block(buildReport(twoDatabases()), 'legend');
  assert.deepEqual(legend.items.map((item) => item.label), ['~', 'no interval', '!', 'failed', 'unsupported', 'not run', 'n/a', '95% CI']);
  assert.equal(legend.items[0].lines[0], 'not significant: the 95% interval of the median overlaps the baseline\'s; the difference may be noise');
  assert.deepEqual(legend.items[7].lines, ['percentile bootstrap of the median (10,000 resamples, seed 1)']);
  // Every database with enough runs: no word of a missing interval.
  const [a, b] = twoDatabases();
  b.result.workloads.neighbors = passed([20, 21, 22]);
  b.result.workloads.aggregation = passed([5, 6, 7]);
  const three = buildReport([a, b], { baseline: 'a' });
  assert.deepEqual(block(three, 'legend').items.map((item) => item.label), ['~', '!', 'failed', 'unsupported', 'not run', 'n/a', '95% CI']);
  assert.ok(!block(three, 'summary').lines.some((line) => line.startsWith('intervals:')));
});

test('one database: absolute figures, no matrix, no percentages; the datasets the files held besides', () => {
  const [a] = twoDatabases();
  const other = document('a', { file: 'old.json', workloads: { singleRead: passed([1]) }, extra: { dataset: { id: 'synthetic-small-s1-g1' }, startedAt: '2020-01-01T00:00:00Z' } });
  a.result.startedAt = '2026-01-01T00:00:00Z';
  a.result.workloads.singleRead.resources = { clientBound: true };
  const report = buildReport([a, other]);
  const blocks = reportBlocks(report);
  assert.deepEqual(blocks.map((b) => b.id), ['summary', 'terms', 'workloads', 'not-compared', 'resources', 'reproducibility', 'legend', 'warnings']);
  assert.deepEqual(blocks[0].lines, [
    'dataset: synthetic-tiny-s1-g1 (synthetic tiny, 1,000 profiles, 17,531 relations, seed 1)',
    'not reported (other datasets in the files; --dataset <id> chooses): synthetic-small-s1-g1 (1 file)',
    'databases: a',
    'baseline: none (one database: absolute figures, no percentages)',
    'terms: not recorded in these results (run before durability terms were recorded): the databases may have written under different durability',
  ]);
  assert.equal(blocks[2].header.at(-1), '');
  assert.deepEqual(blocks[2].rows.map((row) => row.at(-1)), ['!', '', '']);
});

test('a dataset\'s unknown fields are question marks', () => {
  const [a] = twoDatabases();
  a.result.dataset = { id: 'x' };
  assert.equal(block(buildReport([a]), 'summary').lines[0], 'dataset: x (? ?, ? profiles, ? relations, seed ?)');
});

test('a cell relative to the baseline: a word without a time, one decimal below 1,000%, none from it', () => {
  const figures = (normalisedPct, extra = {}) => ({ status: 'passed', normalisedPct, significant: true, clientBound: false, ...extra });
  assert.equal(normalisedCell(figures(999.9), false, true), '999.9%');
  assert.equal(normalisedCell(figures(1000), false, true), '1,000%');
  assert.equal(normalisedCell(figures(12345.6), false, true), '12,346%');
  assert.equal(normalisedCell(figures(50, { significant: false, clientBound: true }), false, true), '50.0% ~ !');
  assert.equal(normalisedCell(figures(50, { significant: null }), false, true), '50.0%');
  assert.equal(normalisedCell({ status: 'not run' }, false, true), 'not run');
});

test('the kinds and titles of the lists, every line of the legend, the warnings\' block', () => {
  const report = buildReport(twoDatabases(), { baseline: 'a' });
  assert.deepEqual(reportBlocks(report).map((b) => [b.id, b.kind, b.title]), [
    ['summary', 'text', 'db-shootout report'],
    ['terms', 'table', 'Terms each database ran under (the same for all, or the comparison says so)'],
    ['normalised', 'table', 'Median time relative to a (= 100%; lower is faster)'],
    ['workloads', 'table', 'Workloads'],
    ['not-compared', 'table', 'Not compared (warmup: reported, never normalised)'],
    ['resources', 'table', 'Server memory and CPU during the suite, import time and size on disk'],
    ['reproducibility', 'list', 'Reproducibility'],
    ['legend', 'list', 'Legend'],
    ['warnings', 'list', 'Warnings'],
  ]);
  assert.deepEqual(block(report, 'legend').items.slice(1, 7), [
    { label: 'no interval', lines: ['1 run: no interval (the fewer runs of the database and the baseline): an interval needs 2 runs or more, so a difference of any size may be noise; --runs 3 or more gives one'] },
    { label: '!', lines: ['client was the bottleneck: in at least one run the harness process itself used more than 85% of a core, so the figure may understate the database'] },
    { label: 'failed', lines: ['a wrong answer or an error in at least one run: no time is given'] },
    { label: 'unsupported', lines: ['the adapter does not implement the operation'] },
    { label: 'not run', lines: ['the workload is not in the given files, or the run was interrupted before it'] },
    { label: 'n/a', lines: ['not measured in the given files'] },
  ]);
});

test('one database: the tables\' headers without the baseline\'s column; no table of the workloads not compared when there are none', () => {
  const [a] = twoDatabases();
  delete a.result.workloads.warmup;
  const blocks = reportBlocks(buildReport([a]));
  assert.deepEqual(blocks.map((b) => b.id), ['summary', 'terms', 'workloads', 'resources', 'reproducibility', 'legend']);
  assert.deepEqual(blocks[2].header, ['workload', 'ops/run', 'database', 'status', 'runs', 'median ms', '95% CI ms', 'ops/s', 'p50 ms', 'p99 ms', '']);
  // Two workloads not compared: both named in the title, the same header.
  const [b] = twoDatabases();
  b.result.workloads.cooldown = passed([2], { compared: false });
  const separate = block(buildReport([b]), 'not-compared');
  assert.equal(separate.title, 'Not compared (warmup, cooldown: reported, never normalised)');
  assert.deepEqual(separate.header, ['workload', 'ops/run', 'database', 'status', 'runs', 'median ms', '95% CI ms', 'ops/s', 'p50 ms', 'p99 ms', '']);
});

test('several datasets in the summary, several left out; a failure without a reason is the word alone', () => {
  const [a, b] = twoDatabases();
  b.result.dataset = { id: 'other', name: 'synthetic', scale: 'small', seed: 2, profiles: 5, relations: 7 };
  const report = buildReport([a, b], { baseline: 'a', allowMixed: true });
  assert.equal(block(report, 'summary').lines[0],
    'dataset: synthetic-tiny-s1-g1 (synthetic tiny, 1,000 profiles, 17,531 relations, seed 1); other (synthetic small, 5 profiles, 7 relations, seed 2)');
  const [c] = twoDatabases();
  const small = document('a', { file: 'small.json', workloads: { singleRead: passed([1]) }, extra: { dataset: { id: 'synthetic-small-s1-g1' }, startedAt: '2020-01-01T00:00:00Z' } });
  const large = document('a', { file: 'large.json', workloads: { singleRead: passed([1]) }, extra: { dataset: { id: 'synthetic-large-s1-g1' }, startedAt: '2020-01-01T00:00:00Z' } });
  c.result.startedAt = '2026-01-01T00:00:00Z';
  assert.equal(block(buildReport([c, small, large]), 'summary').lines[1],
    'not reported (other datasets in the files; --dataset <id> chooses): synthetic-large-s1-g1 (1 file), synthetic-small-s1-g1 (1 file)');
  // A run that failed without naming why: no reason to give.
  const [d] = twoDatabases();
  d.result.workloads.aggregation.runs = [{ run: 1, valid: false }];
  assert.equal(block(buildReport([d]), 'workloads').rows.find((row) => row[0] === 'aggregation')[3], 'failed');
});

test('crash tests alone: their durability blocks and nothing of the runs\' report', async () => {
  const { durabilityBlocks } = await import('../../results/report/durability.js');
  const crash = { file: 'crash.json', result: { schema: 'db-shootout/result@1', db: { id: 'sqlite', name: 'SQLite' }, workloads: {}, durability: { singleWrite: { trials: 1, acknowledged: 5, lost: 0, durablePerWrite: true, claim: 'c' } } } };
  const report = buildReport([crash]);
  const blocks = reportBlocks(report);
  assert.ok(blocks.length > 0);
  assert.deepEqual(blocks, durabilityBlocks(report));
});

// The durability term of a result, as runner/terms.js records it.
const withTerm = (document, term, verified = true) => {
  const cache = document.result.db.id === 'a'
    ? { requested: 2 ** 26, bytes: 2 ** 26, settings: {}, cold: { rounds: 3, restarted: 3, pageCacheDropped: 3, notes: [] } }
    : { requested: null, bytes: 2 ** 30, settings: {} };
  document.result.terms = {
    durability: { term, source: 'default', verified, how: `${term} how`, settings: { fsync: { value: 'on', source: 'server (default)' } } },
    cache,
  };
  return document;
};

test('equal terms: said after the baseline, a terms row per database above the figures, percentages as usual', () => {
  const [a, b] = twoDatabases();
  const report = buildReport([withTerm(a, 'relaxed'), withTerm(b, 'relaxed')], { baseline: 'a' });
  assert.deepEqual(report.terms, { equal: true, line: 'terms: every database wrote under the relaxed durability term, read back from each server' });
  assert.equal(report.comparison.refused, false);
  assert.deepEqual(block(report, 'summary').lines.slice(-2), [report.terms.line, 'intervals: none where a database or the baseline has 1 run (marked "1 run: no interval"): a difference of any size may be noise; --runs 3 or more gives a 95% interval']);
  const terms = block(report, 'terms');
  assert.deepEqual(terms.header, ['database', 'durability', 'read back from the server', 'cache', 'cores', 'version']);
  assert.deepEqual(terms.rows, [
    ['a', 'relaxed', 'fsync=on', '64MB (--cache), cold', '2 (the machine\'s)', '1'],
    ['b', 'relaxed', 'fsync=on', '1GB', '2 (the machine\'s)', '2'],
  ]);
  assert.ok(block(report, 'normalised'));
  // A database whose settings were not read back is named.
  const unread = buildReport([withTerm(twoDatabases()[0], 'durable', false), withTerm(twoDatabases()[1], 'durable')], { baseline: 'a' });
  assert.equal(unread.terms.line, 'terms: every database wrote under the durable durability term (not read back from a)');
  assert.equal(block(unread, 'terms').rows[0][1], 'durable (unverified)');
});

test('unequal terms: the first line says so, no percentages, no matrix, unless asked; then shown with a warning', () => {
  const [a, b] = twoDatabases();
  const report = buildReport([withTerm(a, 'relaxed'), withTerm(b, 'durable')], { baseline: 'a' });
  const first = 'UNEQUAL TERMS: the databases did not write under the same durability (a relaxed, b durable): the figures compare different work';
  assert.equal(block(report, 'summary').lines[0], first);
  assert.equal(block(report, 'summary').lines[1], 'no percentages or gains: the databases ran under different terms (pass --allow-unequal-terms to show them anyway)');
  assert.equal(report.comparison.refused, true);
  assert.equal(block(report, 'normalised'), undefined);
  assert.equal(block(report, 'workloads').header.at(-1), '');
  assert.ok(report.workloads.every((workload) => Object.values(workload.results).every((figures) => figures.normalisedPct === null)));
  assert.ok(report.warnings.includes(first));
  assert.match(REPORT_FORMATS.table(report), /^db-shootout report\nUNEQUAL TERMS:/);
  assert.match(REPORT_FORMATS.html(report), /UNEQUAL TERMS: the databases did not write under the same durability/);
  assert.doesNotMatch(REPORT_FORMATS.table(report), /100% \(baseline\)/);
  const asked = buildReport([withTerm(twoDatabases()[0], 'relaxed'), withTerm(twoDatabases()[1], 'durable')], { baseline: 'a', allowUnequalTerms: true });
  assert.equal(block(asked, 'summary').lines[0], first);
  assert.equal(block(asked, 'summary').lines[1], 'shown as asked (--allow-unequal-terms), though the terms differ');
  assert.ok(block(asked, 'normalised'));
  // A result of a time before terms beside one with a term is unequal too; one database pooled over two terms is.
  const legacy = buildReport([withTerm(twoDatabases()[0], 'relaxed'), twoDatabases()[1]], { baseline: 'a' });
  assert.match(block(legacy, 'summary').lines[0], /^UNEQUAL TERMS: .*\(a relaxed, b not recorded\)/);
  const [one] = twoDatabases();
  const two = { ...structuredClone(one), file: 'a2.json' };
  const pooled = buildReport([withTerm(one, 'relaxed'), withTerm(two, 'durable')]);
  assert.match(block(pooled, 'summary').lines[0], /^UNEQUAL TERMS: .*\(a relaxed and durable\)/);
});

test('a preset with overridden values: the summary and the reproducibility name each override; a preset run as published says nothing more', () => {
  const [a, b] = twoDatabases();
  const preset = {
    name: 'crud-2012', suite: 'crud', description: 'd', parameters: { ops: [100], concurrency: [1, 2] },
    overridden: [{ parameter: 'ops', flag: 'ops', preset: [10000, 100000], used: [100] }],
  };
  a.result.config = { ...a.result.config, preset };
  b.result.config = { ...b.result.config, preset: { ...preset, overridden: [] } };
  const report = buildReport([a, b], { baseline: 'a' });
  const line = 'preset crud-2012 (overridden: --ops 100 instead of the preset\'s 10000,100000)';
  assert.equal(block(report, 'summary').lines.at(-1), line);
  const reproducibility = block(report, 'reproducibility').items;
  assert.ok(reproducibility[0].lines.includes(`config: concurrency 25, 3 runs, ${line}`));
  assert.ok(reproducibility[1].lines.includes('config: concurrency 25, 1 runs, preset crud-2012'));
  // A document of a time before presets recorded their parameters.
  const [old] = twoDatabases();
  old.result.config = { ...old.result.config, preset: 'nosql-tests-2018' };
  assert.ok(block(buildReport([old]), 'reproducibility').items[0].lines.includes('config: concurrency 25, 3 runs, preset nosql-tests-2018'));
});
