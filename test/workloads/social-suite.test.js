// The social suite's prepare and load on the tiny datasets, without the CLI: what prepare passes on to the dataset
// (the cache folder, the seed, the dataset's name, skip-bad, the progress label) and the preset's limits it applies,
// and the import path load asks for (--import-path, 'auto' when the run gives none).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import memory from '../../adapters/memory/description.js';
import { pokecDir } from '../../datasets/fetch.js';
import { generate } from '../../datasets/generate.js';
import { OFFLINE_MIN_PROFILES } from '../../import/import.js';
import social from '../../workloads/social/suite.js';

async function tempDir(t) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'db-shootout-social-suite-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

// A progress that records the labels its phases are asked for, and the events each receives.
function recordingProgress() {
  const labels = [];
  const events = [];
  return { labels, events, phases: (label) => { labels.push(label); return (event) => events.push([label, event.phase]); } };
}

const settingsIn = (cacheDir, extra = {}) => ({ scale: 'tiny', seed: 3, dataset: 'synthetic', 'skip-bad': false, 'cache-dir': cacheDir, concurrency: [1], ...extra });

test('social prepare: the synthetic dataset of the scale and seed in the cache folder, its phases under "dataset <scale>", the preset\'s limits applied', async (t) => {
  const cacheDir = await tempDir(t);
  const progress = recordingProgress();
  const limited = await social.prepare(settingsIn(cacheDir), { progress, preset: { limits: { pathPairs: 2 } } });
  assert.equal(limited.dir, path.join(cacheDir, 'datasets', 'synthetic-tiny-s3'));
  assert.equal(limited.name, 'synthetic');
  assert.equal(limited.scale, 'tiny');
  assert.equal(limited.seed, 3);
  assert.match(limited.id, /^synthetic-tiny-s3-/);
  assert.deepEqual(progress.labels, ['dataset tiny']);
  assert.ok(progress.events.length > 0 && progress.events.every(([label]) => label === 'dataset tiny'), 'the generation reports through the labelled phases');
  assert.equal(limited.sizes.pathPairs, 2);
  assert.equal(limited.params.pathPairs.length, 2);
  assert.equal(limited.reference.pathLengths.length, 2);

  // Prepared again, without a progress or a preset: reused, whole.
  for (const context of [{}, { progress: null, preset: null }, { preset: { limits: {} } }]) {
    const whole = await social.prepare(settingsIn(cacheDir), context);
    assert.equal(whole.id, limited.id);
    assert.equal(whole.sizes.pathPairs, 50);
    assert.equal(whole.params.pathPairs.length, 50);
    assert.deepEqual(whole.params.pathPairs.slice(0, 2), limited.params.pathPairs);
  }
  // A preset asking for more than the dataset has is refused.
  await assert.rejects(social.prepare(settingsIn(cacheDir), { preset: { limits: { pathPairs: 51 } } }),
    { code: 'E_USAGE', message: 'the dataset has 50 pathPairs, fewer than the 51 asked for' });
  // Another seed is another dataset.
  const other = await social.prepare(settingsIn(cacheDir, { seed: 4 }), {});
  assert.equal(other.dir, path.join(cacheDir, 'datasets', 'synthetic-tiny-s4'));
  assert.equal(other.seed, 4);
});

test('social prepare: --dataset pokec looks for the real files in the cache folder, and skip-bad gives a dataset of its own', async (t) => {
  const cacheDir = await tempDir(t);
  await assert.rejects(social.prepare(settingsIn(cacheDir, { dataset: 'pokec' }), {}), {
    code: 'E_DATASET',
    message: `the real Pokec files are not in ${path.join(cacheDir, 'datasets', 'pokec')} (soc-pokec-profiles.txt.gz is missing): `
      + 'run `bench data fetch pokec` to download them, or leave out --dataset pokec to use the synthetic dataset',
  });
  await assert.rejects(social.prepare(settingsIn(cacheDir, { dataset: 'nosuch' }), {}), { code: 'E_USAGE', message: /^unknown dataset "nosuch"/ });
  // The real layout, unpacked: the generator's two files where `bench data fetch pokec` leaves SNAP's.
  await generate({ dir: pokecDir(cacheDir), scale: 'tiny', seed: 9 });
  const progress = recordingProgress();
  const skipping = await social.prepare(settingsIn(cacheDir, { dataset: 'pokec', 'skip-bad': true }), { progress });
  assert.equal(skipping.name, 'pokec');
  assert.equal(skipping.dir, path.join(cacheDir, 'datasets', 'pokec-tiny-s3-skip-bad'));
  assert.match(skipping.id, /^pokec-tiny-s3-.*-skip-bad$/);
  assert.deepEqual(skipping.readOptions, { skipBad: true });
  assert.deepEqual(progress.labels, ['dataset tiny']);
  const strict = await social.prepare(settingsIn(cacheDir, { dataset: 'pokec' }), {});
  assert.equal(strict.dir, path.join(cacheDir, 'datasets', 'pokec-tiny-s3'));
  assert.doesNotMatch(strict.id, /skip-bad/);
  assert.deepEqual(strict.readOptions, { skipBad: false });
});

// The memory store with an offline importer that records what it is asked and refuses, so that the import goes
// on online and its result says why.
function offlineRecorder() {
  const adapter = memory.create({ namespace: `social_suite_test_${process.pid}_${Math.random()}`, concurrency: 1 });
  const asked = [];
  adapter.offlineImport = async ({ server, marker }) => {
    asked.push({ server, dataset: marker.dataset });
    return { refused: 'made-up refusal' };
  };
  return { adapter, asked };
}

test('social load: the import path the run asked for (--import-path), "auto" without one, the run\'s server and --reimport passed on', async (t) => {
  const cacheDir = await tempDir(t);
  const data = await social.prepare(settingsIn(cacheDir), {});
  assert.ok(data.profiles < OFFLINE_MIN_PROFILES);
  const server = { pid: 1234 };
  const run = async (extra) => {
    const { adapter, asked } = offlineRecorder();
    await adapter.connect();
    try {
      const result = await social.load({ adapter, description: memory, options: {}, data, reimport: false, server, ...extra });
      return { result, asked, adapter };
    } finally {
      await adapter.close?.();
    }
  };
  const auto = `the dataset has fewer than ${OFFLINE_MIN_PROFILES.toLocaleString('en-US')} profiles, where the offline importer's start-up costs more than it saves (--import-path offline takes it anyway)`;
  for (const config of [undefined, {}, { importPath: 'auto' }, { importPath: undefined }]) {
    const { result, asked } = await run({ config });
    assert.equal(result.reused, false);
    assert.equal(result.path, 'online', JSON.stringify(config));
    assert.equal(result.onlineBecause, auto, JSON.stringify(config));
    assert.deepEqual(asked, [], 'a tiny dataset on auto never asks for the offline importer');
  }
  const offline = await run({ config: { importPath: 'offline' } });
  assert.deepEqual(offline.asked, [{ server, dataset: data.id }]);
  assert.equal(offline.result.path, 'online');
  assert.equal(offline.result.onlineBecause, 'made-up refusal');
  const online = await run({ config: { importPath: 'online' } });
  assert.deepEqual(online.asked, []);
  assert.equal(online.result.onlineBecause, 'the online path was asked for');
  // A namespace that holds the dataset already is reused, unless --reimport.
  const { adapter } = offlineRecorder();
  await adapter.connect();
  t.after(() => adapter.close());
  const load = (reimport) => social.load({ adapter, description: memory, options: {}, data, reimport, server: null, config: { importPath: 'online' } });
  assert.equal((await load(false)).reused, false);
  assert.equal((await load(false)).reused, true);
  assert.equal((await load(true)).reused, false);
});
