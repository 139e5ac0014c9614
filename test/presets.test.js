// Presets (the parameters of published runs) and `bench import`.
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
import { PRESETS, checkPresetFlags, getPreset, limitDataset, presetNames } from '../workloads/social/presets.js';
import { WORKLOADS } from '../workloads/social/workloads.js';
import { spawnBench } from './helpers/cli.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-presets-'));
const cacheDir = path.join(work, 'cache');
after(() => rmSync(work, { recursive: true, force: true }));
const bench = (args) => spawnBench(args, { cwd: work, env: { BENCH_CACHE_DIR: cacheDir } });

test('the presets carry the published parameters', () => {
  assert.deepEqual(presetNames(), ['nosql-tests-2018', 'nosql-tests-2015-autumn', 'nosql-tests-2015']);
  for (const preset of Object.values(PRESETS)) {
    assert.deepEqual({ scale: preset.scale, concurrency: preset.concurrency, runs: preset.runs },
      { scale: 'full', concurrency: 25, runs: 5 });
  }
  // The full scale's own sizes are the published ones: 100,000 reads and writes, 1,000 warm-ups disjoint from
  // the reads, 1,000 neighbourhoods, 100 neighbors2data starts, 1,000 path pairs.
  assert.deepEqual(
    (({ reads, writes, warmups, neighborStarts, neighbors2dataStarts, pathPairs }) => ({
      reads, writes, warmups, neighborStarts, neighbors2dataStarts, pathPairs,
    }))(SCALES.full),
    { reads: 100000, writes: 100000, warmups: 1000, neighborStarts: 1000, neighbors2dataStarts: 100, pathPairs: 1000 },
  );
  assert.deepEqual(getPreset('nosql-tests-2018').limits, {});
  assert.deepEqual(getPreset('nosql-tests-2015-autumn').limits, { pathPairs: 40 });
  assert.deepEqual(getPreset('nosql-tests-2015').limits, { pathPairs: 19 });
  assert.throws(() => getPreset('nosql-tests-2016'), (error) => error.code === ErrorCodes.USAGE
    && /valid presets: nosql-tests-2018, nosql-tests-2015-autumn, nosql-tests-2015/.test(error.message));
});

test('givenFlags finds the flags that were typed, in every spelling', () => {
  assert.deepEqual([...givenFlags(['run', '--runs', '3', '--scale=tiny', '--no-json', '-h', '--', '--concurrency'])],
    ['runs', 'scale', 'json']);
  assert.doesNotThrow(() => checkPresetFlags('nosql-tests-2018', givenFlags(['--db', 'sqlite', '--namespace', 'x'])));
  assert.throws(() => checkPresetFlags('nosql-tests-2018', givenFlags(['--runs=3', '--concurrency', '8'])),
    (error) => error.code === ErrorCodes.USAGE && error.message.includes('fixes --runs 5, --concurrency 25'));
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

test('a preset refuses the flags it fixes, with exit code 2', async () => {
  const clash = await bench(['run', '--preset', 'nosql-tests-2018', '--runs', '3']);
  assert.equal(clash.code, 2);
  assert.match(clash.stderr, /--preset nosql-tests-2018 fixes --runs 5; drop those flags/);
  const unknown = await bench(['run', '--preset', 'nosql-tests-1999']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /nosql-tests-2018/);
  const help = await bench(['run', '--help']);
  assert.match(help.stdout, /--preset/);
});

test('bench import imports again, verifies the counts and records the import alone', async () => {
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

test('a preset runs on the real Pokec when its files are in the cache, unless --dataset says otherwise', () => {
  const cache = path.join(work, 'preset-cache');
  const argv = { preset: 'nosql-tests-2015', dataset: 'synthetic', scale: 'small', runs: 1, concurrency: 2, 'cache-dir': cache };
  const none = withPreset(argv, new Set());
  assert.deepEqual({ dataset: none.argv.dataset, scale: none.argv.scale, runs: none.argv.runs, concurrency: none.argv.concurrency },
    { dataset: 'synthetic', scale: 'full', runs: 5, concurrency: 25 });
  assert.deepEqual(none.preset.limits, { pathPairs: 19 });
  const dir = path.join(cache, 'datasets', 'pokec');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'soc-pokec-profiles.txt.gz'), '');
  assert.equal(withPreset(argv, new Set()).argv.dataset, 'synthetic', 'one file is not the dataset');
  writeFileSync(path.join(dir, 'soc-pokec-relationships.txt'), '');
  assert.equal(withPreset(argv, new Set()).argv.dataset, 'pokec');
  assert.equal(withPreset(argv, new Set(['dataset'])).argv.dataset, 'synthetic', '--dataset synthetic typed');
  const plain = { ...argv, preset: undefined };
  assert.deepEqual(withPreset(plain, new Set()), { argv: plain, preset: null }, 'no preset: the flags as given');
});
