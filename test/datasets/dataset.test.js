import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openDataset, prepareDataset, writeDataset } from '../../datasets/dataset.js';
import { GENERATOR_VERSION } from '../../datasets/generate.js';
import { hasEdge } from '../../datasets/graph.js';
import { MAX_PATH_DEPTH, SCALES } from '../../datasets/scales.js';

async function tempDir(t) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'db-shootout-dataset-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const sha256 = async (file) => createHash('sha256').update(await readFile(file)).digest('hex');

test('prepareDataset generates a complete, self-consistent dataset into the cache', async (t) => {
  const cacheDir = await tempDir(t);
  const dataset = await prepareDataset({ scale: 'tiny', seed: 1, cacheDir });
  assert.equal(dataset.id, `synthetic-tiny-s1-g${GENERATOR_VERSION}`);
  assert.equal(dataset.name, 'synthetic');
  assert.equal(dataset.dir, path.join(cacheDir, 'datasets', 'synthetic-tiny-s1'));
  assert.deepEqual(dataset.sizes, SCALES.tiny);
  assert.equal(dataset.profiles, 1000);
  assert.equal(dataset.sha256.profiles, await sha256(dataset.files.profiles));
  assert.equal(dataset.sha256.relations, await sha256(dataset.files.relations));
  const lines = (await readFile(dataset.files.relations, 'utf8')).split('\n').length - 1;
  assert.equal(dataset.relations, lines);

  const { params, reference } = dataset;
  assert.equal(Object.values(reference.ageHistogram).reduce((sum, count) => sum + count, 0), 1000);
  assert.equal(reference.neighbors.length, params.neighborStarts.length);
  assert.equal(reference.neighbors2.length, params.neighborStarts.length);
  assert.equal(reference.pathLengths.length, params.pathPairs.length);
  assert.ok(reference.pathLengths.every((hops) => hops >= 1 && hops <= MAX_PATH_DEPTH));

  const g = await dataset.loadGraph();
  params.neighborStarts.forEach((id, i) => {
    for (const neighbor of reference.neighbors[i]) assert.ok(hasEdge(g, id, neighbor));
    assert.ok(!reference.neighbors2[i].includes(id));
  });
  const profiles = await dataset.loadProfiles(params.readIds.slice(0, 3));
  assert.deepEqual([...profiles.keys()].sort((a, b) => a - b), params.readIds.slice(0, 3).sort((a, b) => a - b));
  assert.equal(profiles.get(params.readIds[0])._key, `P${params.readIds[0]}`);
});

test('a second prepareDataset reuses the cache without generating', async (t) => {
  const cacheDir = await tempDir(t);
  const first = await prepareDataset({ scale: 'tiny', seed: 3, cacheDir });
  const before = (await stat(first.files.profiles)).mtimeMs;
  const events = [];
  const again = await prepareDataset({ scale: 'tiny', seed: 3, cacheDir, onProgress: (event) => events.push(event) });
  assert.deepEqual(events, []);
  assert.equal((await stat(again.files.profiles)).mtimeMs, before);
  assert.deepEqual(again.params, first.params);
  assert.deepEqual(again.reference, first.reference);
  assert.equal(again.id, first.id);
});

test('a data file changed after generation is an error that says how to regenerate', async (t) => {
  const cacheDir = await tempDir(t);
  const dataset = await prepareDataset({ scale: 'tiny', seed: 1, cacheDir });
  await appendFile(dataset.files.relations, '1\t2\n');
  await assert.rejects(prepareDataset({ scale: 'tiny', seed: 1, cacheDir }), (error) => {
    assert.equal(error.code, 'E_DATASET');
    assert.match(error.message, new RegExp(dataset.files.relations));
    assert.match(error.message, new RegExp(`delete ${dataset.dir}`));
    return true;
  });
  await rm(dataset.files.profiles);
  await assert.rejects(openDataset(dataset.dir), { code: 'E_DATASET', message: /is missing/ });
});

for (const [difference, change] of [['another generator version', { generatorVersion: GENERATOR_VERSION - 1 }], ['another seed', { seed: 9 }]]) {
  test(`a cached dataset whose manifest names ${difference} is generated again`, async (t) => {
    const cacheDir = await tempDir(t);
    const dataset = await prepareDataset({ scale: 'tiny', seed: 1, cacheDir });
    const manifestFile = path.join(dataset.dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    await writeFile(manifestFile, JSON.stringify({ ...manifest, ...change }));
    const phases = [];
    const again = await prepareDataset({ scale: 'tiny', seed: 1, cacheDir, onProgress: ({ phase }) => phases.push(phase) });
    assert.ok(phases.includes('profiles'));
    assert.deepEqual(JSON.parse(await readFile(manifestFile, 'utf8')), manifest);
    assert.deepEqual(again.params, dataset.params);
  });
}

test('a damaged parameter file is an error that says how to regenerate', async (t) => {
  const cacheDir = await tempDir(t);
  const dataset = await prepareDataset({ scale: 'tiny', seed: 1, cacheDir });
  await writeFile(path.join(dataset.dir, 'params.json'), '{"readIds": [1, 2');
  await assert.rejects(prepareDataset({ scale: 'tiny', seed: 1, cacheDir }),
    { code: 'E_DATASET', message: new RegExp(`params\\.json: .*delete ${dataset.dir}`) });
});

test('writeDataset fills any directory, and openDataset reads it back', async (t) => {
  const dir = path.join(await tempDir(t), 'out');
  const written = await writeDataset({ dir, scale: 'tiny', seed: 2 });
  const opened = await openDataset(dir);
  for (const field of ['id', 'name', 'scale', 'seed', 'dir', 'profiles', 'relations', 'files', 'sha256', 'sizes', 'params', 'reference']) {
    assert.deepEqual(opened[field], written[field], field);
  }
  assert.equal(opened.id, `synthetic-tiny-s2-g${GENERATOR_VERSION}`);
});

test('a directory without a manifest is not a dataset', async (t) => {
  const dir = await tempDir(t);
  await assert.rejects(openDataset(dir), { code: 'E_DATASET', message: /manifest\.json/ });
});
