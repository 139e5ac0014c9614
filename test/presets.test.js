// Presets (the parameters of published runs, one suite each) and `bench import`: what each preset sets, the suite it
// chooses, the flags that override it and how the result records them, `bench list`, and runs of the real CLI.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import memory from '../adapters/memory/description.js';
import { givenFlags } from '../cli/options.js';
import { withPreset } from '../cli/run.js';
import { ErrorCodes } from '../core/errors.js';
import { prepareDataset } from '../datasets/dataset.js';
import { SCALES } from '../datasets/scales.js';
import { runBenchmark } from '../runner/run.js';
import { SUITES, suiteIds } from '../workloads/index.js';
import { BATCH_SIZE } from '../workloads/graph/operations.js';
import {
  PRESETS, applyPreset, checkPresetFlags, getPreset, presetLine, presetNames, presetsOf,
} from '../workloads/presets.js';
import { limitDataset } from '../workloads/social/presets.js';
import { WORKLOADS } from '../workloads/social/workloads.js';
import { spawnBench } from './helpers/cli.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-presets-'));
const cacheDir = path.join(work, 'cache');
after(() => rmSync(work, { recursive: true, force: true }));
const bench = (args, timeoutMs = 120_000) => spawnBench(args, { cwd: work, env: { BENCH_CACHE_DIR: cacheDir }, timeoutMs });

const ALL_NAMES = 'nosql-tests-2018, nosql-tests-2015-autumn, nosql-tests-2015 (social), crud-2012 (crud), cluster-2015 (mixed), '
  + 'aql-shootout-2015 (queries), unum-graph-2021 (graph)';
const CLASSIC = {
  scale: 'full', dataset: 'pokec-if-present', concurrency: 25, runs: 5, durability: 'relaxed',
};
// No dataset fetched: `locate` as withPreset's finds an empty cache.
const nothingFetched = { locate: (dataset) => ({ present: false, dir: `/cache/datasets/${dataset}` }) };
const apply = (argv, typed = [], options = nothingFetched) => applyPreset({ suite: 'social', ...argv }, new Set(typed), options);

test('every suite has its presets, each naming its suite and every parameter it sets, as published', () => {
  assert.deepEqual(presetNames(), ['nosql-tests-2018', 'nosql-tests-2015-autumn', 'nosql-tests-2015', 'crud-2012', 'cluster-2015',
    'aql-shootout-2015', 'unum-graph-2021']);
  assert.deepEqual(Object.fromEntries(presetNames().map((name) => [name, [PRESETS[name].suite, PRESETS[name].parameters]])), {
    'nosql-tests-2018': ['social', CLASSIC],
    'nosql-tests-2015-autumn': ['social', { ...CLASSIC, pathPairs: 40 }],
    'nosql-tests-2015': ['social', { ...CLASSIC, pathPairs: 19 }],
    'crud-2012': ['crud', {
      ops: [10_000, 100_000], concurrency: [1, 2, 4, 8, 16, 32, 64], shape: 'uniform', durability: 'relaxed', runs: 1,
    }],
    'cluster-2015': ['mixed', {
      workload: ['read-only', 'write-only', '50-50'],
      distribution: 'uniform',
      docBytes: 864,
      shape: 'uniform',
      records: 10_000,
      ops: [100_000],
      concurrency: [25],
      runs: 1,
      durability: 'relaxed',
    }],
    'aql-shootout-2015': ['queries', { size: ['10k', '100k', '1M'], runs: 5, concurrency: 1 }],
    'unum-graph-2021': ['graph', {
      dataset: 'cit-patents',
      scale: 'full',
      workload: ['findEdge', 'edgesOf', 'inEdges', 'friends', 'countFriends', 'countFollowers', 'upsertEdge', 'upsertEdges', 'removeEdge', 'removeEdges'],
      concurrency: 1,
      runs: 3,
      cache: '512MB',
      durability: 'relaxed',
    }],
  });
  for (const preset of Object.values(PRESETS)) {
    assert.match(preset.name, /^[a-z][a-z0-9-]*$/);
    assert.match(preset.name, /-(19|20)\d\d\b/, `${preset.name} names its year`);
    assert.ok(preset.description.length > 20, preset.name);
    assert.equal(getPreset(preset.name), preset);
    // A named workload is one of the suite's, in the suite's order.
    if (preset.parameters.workload) {
      const names = SUITES[preset.suite].workloads.map(({ name }) => name);
      assert.deepEqual(preset.parameters.workload, names.filter((name) => preset.parameters.workload.includes(name)), preset.name);
    }
  }
  assert.deepEqual(suiteIds().map((id) => presetsOf(id).length), [3, 1, 1, 1, 1], 'a preset for every suite');
  // The values the suites hold themselves: Unum's batches of 500, and the full scale's sizes the nosql-tests
  // published (100,000 reads and writes, 1,000 warm-ups, 1,000 neighbourhoods, 100 neighbors2data, 1,000 paths).
  assert.equal(BATCH_SIZE, 500);
  assert.deepEqual(
    (({ reads, writes, warmups, neighborStarts, neighbors2dataStarts, pathPairs }) => ({
      reads, writes, warmups, neighborStarts, neighbors2dataStarts, pathPairs,
    }))(SCALES.full),
    { reads: 100000, writes: 100000, warmups: 1000, neighborStarts: 1000, neighbors2dataStarts: 100, pathPairs: 1000 },
  );
  // 0.95 GB a second for 1.1 million documents a second.
  assert.equal(PRESETS['cluster-2015'].parameters.docBytes, Math.round(0.95e9 / 1.1e6));
});

test('an unknown preset is a usage error listing every preset with its suite', () => {
  for (const name of ['nosql-tests-2016', 'constructor', 'toString']) {
    assert.throws(() => getPreset(name), { code: ErrorCodes.USAGE, message: `unknown preset "${name}"; valid presets: ${ALL_NAMES}` });
  }
  assert.throws(() => checkPresetFlags(['crud-2012', 'cluster-2015'], new Set()), { code: ErrorCodes.USAGE, message: '--preset is given 2 times; give it once' });
});

test('the preset chooses its suite: --suite may be left out, and one naming another suite is refused naming the preset\'s', () => {
  assert.equal(checkPresetFlags('crud-2012', new Set(['db']), 'social'), PRESETS['crud-2012'], 'the default --suite, not typed');
  assert.equal(checkPresetFlags('crud-2012', new Set(['suite']), 'crud'), PRESETS['crud-2012']);
  assert.throws(() => checkPresetFlags('crud-2012', new Set(['suite']), 'social'), {
    code: ErrorCodes.USAGE,
    message: '--preset crud-2012 is a preset of --suite crud, not of --suite social; drop --suite (the preset chooses its suite) or give --suite crud',
  });
  assert.equal(apply({ preset: 'crud-2012' }).argv.suite, 'crud');
  assert.equal(apply({ preset: 'aql-shootout-2015', suite: 'queries' }, ['suite']).argv.suite, 'queries');
  assert.throws(() => apply({ preset: 'cluster-2015', suite: 'crud' }, ['suite']), { code: ErrorCodes.USAGE, message: /a preset of --suite mixed, not of --suite crud/ });
});

test('a preset sets every parameter in the form bench run takes it, and the record lists each as run', () => {
  const { argv, preset } = apply({ preset: 'crud-2012', runs: undefined, db: 'sqlite' });
  assert.deepEqual(
    { suite: argv.suite, ops: argv.ops, concurrency: argv.concurrency, shape: argv.shape, durability: argv.durability, runs: argv.runs, db: argv.db },
    { suite: 'crud', ops: '10000,100000', concurrency: '1,2,4,8,16,32,64', shape: 'uniform', durability: 'relaxed', runs: 1, db: 'sqlite' },
  );
  assert.deepEqual(preset, {
    name: 'crud-2012',
    suite: 'crud',
    description: PRESETS['crud-2012'].description,
    parameters: { ops: [10_000, 100_000], concurrency: [1, 2, 4, 8, 16, 32, 64], shape: 'uniform', durability: 'relaxed', runs: 1 },
    overridden: [],
  });
  const mixed = apply({ preset: 'cluster-2015' });
  assert.equal(mixed.argv.workload, 'read-only,write-only,50-50');
  assert.equal(mixed.argv.docBytes, 864);
  assert.equal(mixed.argv.distribution, 'uniform');
  assert.equal(apply({ preset: 'aql-shootout-2015' }).argv.size, '10k,100k,1M');
});

test('a flag typed with a preset overrides its value; the record keeps both, and a flag with the preset\'s own value is no override', () => {
  const { argv, preset } = apply({ preset: 'crud-2012', ops: '1000', concurrency: '1,2,4,8,16,32,64' }, ['ops', 'concurrency']);
  assert.equal(argv.ops, '1000', 'the flag as typed');
  assert.deepEqual(preset.parameters.ops, [1000]);
  assert.deepEqual(preset.overridden, [{ parameter: 'ops', flag: 'ops', preset: [10_000, 100_000], used: [1000] }]);
  assert.equal(presetLine(preset), `preset crud-2012 (suite crud): ${PRESETS['crud-2012'].description}; ops 1000, concurrency 1,2,4,8,16,32,64, `
    + 'shape uniform, durability relaxed, runs 1; overridden: ops 1000 (--ops; the preset\'s 10000,100000)');

  // --doc-bytes overrides the document size of the cluster preset, as typed (yargs gives it as docBytes too).
  const sized = apply({ preset: 'cluster-2015', docBytes: 200, 'doc-bytes': 200 }, ['doc-bytes']);
  assert.equal(sized.argv.docBytes, 200);
  assert.deepEqual(sized.preset.overridden, [{ parameter: 'docBytes', flag: 'doc-bytes', preset: 864, used: 200 }]);

  // --sync means the durable term: an override of the durability named by the flag typed.
  const synced = apply({ preset: 'crud-2012', sync: true }, ['sync']);
  assert.equal(synced.argv.durability, undefined, 'left to --sync');
  assert.deepEqual(synced.preset.overridden, [{ parameter: 'durability', flag: 'sync', preset: 'relaxed', used: 'durable' }]);
  const durable = apply({ preset: 'cluster-2015', durability: 'durable', workload: 'read-only', records: 300 }, ['durability', 'workload', 'records']);
  assert.deepEqual(durable.preset.overridden, [
    { parameter: 'workload', flag: 'workload', preset: ['read-only', 'write-only', '50-50'], used: ['read-only'] },
    { parameter: 'records', flag: 'records', preset: 10_000, used: 300 },
    { parameter: 'durability', flag: 'durability', preset: 'relaxed', used: 'durable' },
  ]);
  assert.match(presetLine(durable.preset), /; overridden: workload read-only \(--workload; the preset's read-only,write-only,50-50\), records 300 \(--records; the preset's 10000\), durability durable \(--durability; the preset's relaxed\)$/);
  const queries = apply({ preset: 'aql-shootout-2015', size: '10k', runs: 1 }, ['size', 'runs']);
  assert.deepEqual(queries.preset.parameters, { size: ['10k'], runs: 1, concurrency: 1 });
  assert.deepEqual(queries.preset.overridden.map(({ flag, used }) => [flag, used]), [['size', ['10k']], ['runs', 1]]);
  // Social: the old refusal of --scale, --runs and --concurrency is an override now.
  const social = apply({ preset: 'nosql-tests-2015', scale: 'tiny', runs: 1 }, ['scale', 'runs']);
  assert.deepEqual(social.preset.parameters, {
    scale: 'tiny', dataset: 'synthetic', concurrency: 25, runs: 1, durability: 'relaxed', pathPairs: 19,
  });
  assert.deepEqual(social.preset.limits, { pathPairs: 19 });
  assert.doesNotThrow(() => checkPresetFlags('nosql-tests-2018', givenFlags(['--runs=3', '--concurrency', '8'])));
});

test('the social presets run on the real Pokec when its files are in the cache, unless --dataset says otherwise', () => {
  const cache = path.join(work, 'preset-cache');
  const argv = {
    preset: 'nosql-tests-2015', suite: 'social', dataset: 'synthetic', scale: 'small', 'cache-dir': cache,
  };
  const none = withPreset(argv, new Set());
  assert.deepEqual({ dataset: none.argv.dataset, scale: none.argv.scale, runs: none.argv.runs, concurrency: none.argv.concurrency },
    { dataset: 'synthetic', scale: 'full', runs: 5, concurrency: 25 });
  assert.deepEqual(none.preset.limits, { pathPairs: 19 });
  assert.deepEqual(withPreset({ ...argv, preset: 'nosql-tests-2018' }, new Set()).preset.limits, {});
  const dir = path.join(cache, 'datasets', 'pokec');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'soc-pokec-profiles.txt.gz'), '');
  assert.equal(withPreset(argv, new Set()).argv.dataset, 'synthetic', 'one file is not the dataset');
  writeFileSync(path.join(dir, 'soc-pokec-relationships.txt'), '');
  assert.equal(withPreset(argv, new Set()).argv.dataset, 'pokec');
  assert.equal(withPreset(argv, new Set()).preset.parameters.dataset, 'pokec');
  const typed = withPreset(argv, new Set(['dataset']));
  assert.equal(typed.argv.dataset, 'synthetic', '--dataset synthetic typed');
  assert.deepEqual(typed.preset.overridden, [{ parameter: 'dataset', flag: 'dataset', preset: 'pokec-if-present', used: 'synthetic' }]);
  const plain = { ...argv, preset: undefined };
  assert.deepEqual(withPreset(plain, new Set()), { argv: plain, preset: null }, 'no preset: the flags as given');
});

test('the graph preset needs cit-Patents fetched, naming the command, unless --dataset overrides it; it sets --cache 512MB', () => {
  const cache = path.join(work, 'graph-cache');
  const argv = { preset: 'unum-graph-2021', suite: 'social', dataset: 'synthetic', scale: 'small', 'cache-dir': cache };
  const dir = path.join(cache, 'datasets', 'cit-patents');
  assert.throws(() => withPreset(argv, new Set()), {
    code: ErrorCodes.DATASET,
    message: `--preset unum-graph-2021 runs on cit-patents, whose files are not in ${dir}: fetch them first with `
      + '`bench data fetch cit-patents`, or give --dataset to run the preset on another dataset',
  });
  assert.throws(() => withPreset({ ...argv, 'cache-dir': '/tmp/my cache' }, new Set(['cache-dir'])),
    { message: /`bench data fetch cit-patents --cache-dir '\/tmp\/my cache'`/ });
  const other = withPreset({ ...argv, scale: 'tiny' }, new Set(['dataset', 'scale']));
  assert.equal(other.argv.dataset, 'synthetic');
  assert.deepEqual(other.preset.overridden.map(({ flag, used }) => [flag, used]), [['dataset', 'synthetic'], ['scale', 'tiny']]);
  assert.equal(other.argv.cache, '512MB');
  assert.equal(other.preset.parameters.cache, '512MB');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'cit-Patents.txt.gz'), '');
  const fetched = withPreset(argv, new Set());
  assert.deepEqual([fetched.argv.dataset, fetched.argv.scale, fetched.argv.cache, fetched.argv.concurrency], ['cit-patents', 'full', '512MB', 1]);
  assert.equal(fetched.argv.suite, 'graph');
  assert.deepEqual(fetched.preset.overridden, []);
  // A size is compared by its bytes: 512mb is the preset's own.
  assert.deepEqual(withPreset({ ...argv, cache: '512mb' }, new Set(['cache'])).preset.overridden, []);
  const bigger = withPreset({ ...argv, cache: '1GB' }, new Set(['cache']));
  assert.deepEqual(bigger.preset.overridden, [{ parameter: 'cache', flag: 'cache', preset: '512MB', used: '1GB' }]);
  assert.match(presetLine(bigger.preset), /, cache 1GB, durability relaxed; overridden: cache 1GB \(--cache; the preset's 512MB\)$/);
});

test('a limited dataset keeps a prefix of the path pairs aligned with their reference answers', async () => {
  const dataset = await prepareDataset({ scale: 'tiny', cacheDir });
  assert.equal(limitDataset(dataset, {}), dataset, 'no limits: the same dataset');
  const limited = limitDataset(dataset, { pathPairs: 19 });
  assert.deepEqual(limited.params.pathPairs, dataset.params.pathPairs.slice(0, 19));
  assert.deepEqual(limited.reference.pathLengths, dataset.reference.pathLengths.slice(0, 19));
  assert.equal(limited.sizes.pathPairs, 19);
  assert.equal(dataset.params.pathPairs.length, SCALES.tiny.pathPairs, 'the original is unchanged');
  assert.deepEqual(limited.params.readIds, dataset.params.readIds);
  assert.equal(limited.id, dataset.id, 'the same data, so an import is reused');
  assert.throws(() => limitDataset(dataset, { pathPairs: SCALES.tiny.pathPairs + 1 }), (error) => error.code === ErrorCodes.USAGE);

  // A validated run over the limited dataset: 19 paths, every answer checked against its own reference.
  const result = await runBenchmark({
    description: memory,
    adapterOptions: { namespace: 'presets', concurrency: 4, connectTimeoutMs: 1000, dataDir: work },
    dataset: limited,
    workloads: WORKLOADS.filter(({ name }) => ['warmup', 'shortestPath'].includes(name)),
    config: { concurrency: 4, runs: 1, workloads: ['warmup', 'shortestPath'], stallTimeoutMs: 10_000 },
    command: 'test',
  });
  assert.equal(result.workloads.shortestPath.status, 'passed', JSON.stringify(result.workloads.shortestPath.failures));
  assert.equal(result.workloads.shortestPath.ops, 19);
});

test('the CLI: an unknown preset or a contradicting --suite exits 2 naming the presets or the suite; --help names them', { timeout: 180_000 }, async () => {
  const unknown = await bench(['run', '--preset', 'nosql-tests-1999']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr.replace(/\s+/g, ' '), new RegExp(`unknown preset "nosql-tests-1999"; valid presets: ${ALL_NAMES.replace(/[()]/g, '\\$&')}`));
  const contradicted = await bench(['run', '--preset', 'cluster-2015', '--suite', 'crud']);
  assert.equal(contradicted.code, 2);
  assert.match(contradicted.stderr, /--preset cluster-2015 is a preset of --suite mixed, not of --suite crud/);
  const foreign = await bench(['run', '--preset', 'crud-2012', '--scale', 'tiny']);
  assert.equal(foreign.code, 2);
  assert.match(foreign.stderr, /--scale is a flag of --suite social, not of --suite crud/);
  const help = await bench(['run', '--help']);
  assert.match(help.stdout.replace(/\s+/g, ' '), /--preset .*crud-2012, cluster-2015, aql-shootout-2015, unum-graph-2021/);
});

test('bench list shows every preset under its suite, with its description and parameters (text and --json)', { timeout: 120_000 }, async () => {
  const json = await bench(['list', '--json']);
  assert.equal(json.code, 0, json.stderr);
  const listing = JSON.parse(json.stdout);
  assert.deepEqual(listing.suites.map(({ id, presets }) => [id, presets.map(({ name }) => name)]), [
    ['social', ['nosql-tests-2018', 'nosql-tests-2015-autumn', 'nosql-tests-2015']], ['crud', ['crud-2012']], ['mixed', ['cluster-2015']],
    ['queries', ['aql-shootout-2015']], ['graph', ['unum-graph-2021']]]);
  const crud = listing.suites.find(({ id }) => id === 'crud').presets[0];
  assert.deepEqual(crud, { name: 'crud-2012', description: PRESETS['crud-2012'].description, parameters: PRESETS['crud-2012'].parameters });
  const text = await bench(['list']);
  assert.equal(text.code, 0, text.stderr);
  const graph = text.stdout.slice(text.stdout.indexOf('suite graph:'));
  assert.match(graph, /\n {2}presets \(bench run --preset <name>; a flag given as well overrides the preset's value\):\n {4}unum-graph-2021 {2}Unum's graph benchmark/);
  assert.match(graph, /\n {6}dataset cit-patents, scale full, workload findEdge,edgesOf,.*, concurrency 1, runs 3, cache 512MB, durability relaxed\n/);
  for (const name of presetNames()) assert.match(text.stdout, new RegExp(`\n {4}${name} {2}`));
});

test('bench run --preset reruns a publication on SQLite with --suite inferred, the overrides recorded and named at the start', { timeout: 300_000 }, async () => {
  const out = path.join(work, 'preset-runs');
  const crud = await bench(['run', '--preset', 'crud-2012', '--db', 'sqlite', '--ops', '200', '--concurrency', '1,4', '--json', '--out', out]);
  assert.equal(crud.code, 0, crud.stderr);
  const result = JSON.parse(crud.stdout);
  assert.equal(result.suite, 'crud');
  assert.equal(result.complete, true);
  assert.ok(Object.values(result.workloads).every(({ status }) => status === 'passed'), JSON.stringify(result.workloads));
  assert.deepEqual([result.config.ops, result.config.concurrency, result.config.shape, result.config.durability], [[200], [1, 4], 'uniform', 'relaxed']);
  assert.deepEqual(result.config.preset, {
    name: 'crud-2012',
    suite: 'crud',
    description: PRESETS['crud-2012'].description,
    parameters: { ops: [200], concurrency: [1, 4], shape: 'uniform', durability: 'relaxed', runs: 1 },
    overridden: [
      { parameter: 'ops', flag: 'ops', preset: [10_000, 100_000], used: [200] },
      { parameter: 'concurrency', flag: 'concurrency', preset: [1, 2, 4, 8, 16, 32, 64], used: [1, 4] },
    ],
  });
  assert.match(crud.stderr.split('\n')[0], /^preset crud-2012 \(suite crud\): .*; overridden: ops 200 \(--ops; the preset's 10000,100000\), concurrency 1,4 \(--concurrency; the preset's 1,2,4,8,16,32,64\)$/);
  const file = readdirSync(out).find((name) => JSON.parse(readFileSync(path.join(out, name), 'utf8')).suite === 'crud');
  assert.deepEqual(JSON.parse(readFileSync(path.join(out, file), 'utf8')).config.preset, result.config.preset, 'the file holds the same');

  // The mixed preset's documents of 864 bytes, its three workloads and uniform keys, shrunk by three overrides.
  const mixed = await bench(['run', '--preset', 'cluster-2015', '--db', 'sqlite', '--records', '200', '--ops', '300', '--concurrency', '4',
    '--json', '--quiet', '--out', out]);
  assert.equal(mixed.code, 0, mixed.stderr);
  const loaded = JSON.parse(mixed.stdout);
  assert.equal(loaded.suite, 'mixed');
  assert.deepEqual(Object.keys(loaded.workloads), ['read-only n=300 c=4', 'write-only n=300 c=4', '50-50 n=300 c=4']);
  assert.ok(Object.values(loaded.workloads).every(({ status }) => status === 'passed'));
  assert.deepEqual([loaded.config.distribution, loaded.config.docBytes, loaded.dataset.id], ['uniform', 864, 'mixed-uniform-b864-r200-s1']);
  assert.deepEqual(loaded.config.preset.overridden.map(({ flag }) => flag), ['records', 'ops', 'concurrency']);
});

test('bench import imports again, verifies the counts and records the import alone', { timeout: 180_000 }, async () => {
  const out = path.join(work, 'import');
  const first = await bench(['import', '--scale', 'tiny', '--json', '--quiet', '--out', out]);
  assert.equal(first.code, 0, first.stderr);
  const second = await bench(['import', '--scale', 'tiny', '--out', out]);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /import: [\d.]+ s, counts verified/);
  assert.match(second.stdout, /relations +[\d.]+ s +[\d,]+ rows\/s/);
  const result = JSON.parse(first.stdout);
  assert.equal(result.import.reused, false);
  assert.ok(result.import.ms > 0 && result.import.profilesPerSec > 0 && result.import.relationsPerSec > 0);
  assert.deepEqual(result.workloads, {});
  assert.equal(result.config.runs, 0);
  assert.equal(result.complete, true);
  const files = readdirSync(out).map((file) => JSON.parse(readFileSync(path.join(out, file), 'utf8')));
  assert.equal(files.length, 2);
  assert.ok(files.every((file) => file.import.reused === false), 'every bench import imports');
});
