// What each suite declares to the runner and the CLI, as data: the registry of suites, the social and crud suites'
// identities, flags, defaults, descriptions of their data and plans of rounds, checked without running them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_SUITE, SUITES, getSuite, isSupported, suiteIds, suiteOperations } from '../../workloads/index.js';
import crud, { DEFAULT_LEVELS, DEFAULT_OPS, stepKey } from '../../workloads/crud/suite.js';
import social from '../../workloads/social/suite.js';
import { limitDataset, presetLimits } from '../../workloads/social/presets.js';
import { WORKLOADS as SOCIAL } from '../../workloads/social/workloads.js';
import { WORKLOADS as CRUD } from '../../workloads/crud/workloads.js';

test('the registry: five suites by id, social by default, an unknown or inherited name refused with the valid ones', () => {
  assert.deepEqual(suiteIds(), ['social', 'crud', 'mixed', 'queries', 'graph']);
  assert.equal(DEFAULT_SUITE, 'social');
  assert.ok(Object.isFrozen(SUITES));
  for (const id of suiteIds()) {
    assert.equal(getSuite(id), SUITES[id]);
    assert.equal(getSuite(id).id, id);
  }
  for (const id of ['nosuch', 'constructor', 'toString']) {
    assert.throws(() => getSuite(id), { code: 'E_USAGE', message: `unknown suite "${id}"; valid suites: social, crud, mixed, queries, graph` });
  }
});

test('a suite\'s operations, each once in the order its workloads name them; a workload runs where its operation is supported', () => {
  assert.deepEqual(suiteOperations(crud), ['insertDocument', 'getDocument', 'updateDocument', 'deleteDocument']);
  assert.deepEqual(suiteOperations({ workloads: [{ operation: 'b' }, { operation: 'a' }, { operation: 'b' }] }), ['b', 'a']);
  assert.equal(isSupported({ supports: ['getDocument'] }, { operation: 'getDocument' }), true);
  assert.equal(isSupported({ supports: ['getDocument'] }, { operation: 'insertDocument' }), false);
});

test('social: its identity, flags and defaults; one --concurrency only; its dataset described with what reading it met', () => {
  assert.equal(social.id, 'social');
  assert.equal(social.name, 'social network');
  assert.equal(social.description, 'reads, writes, an aggregation, neighbourhoods and shortest paths on the Pokec social network');
  assert.equal(social.workloads, SOCIAL);
  assert.deepEqual(social.alwaysRun, ['warmup']);
  assert.deepEqual(social.flags, ['scale', 'dataset', 'skip-bad', 'reimport', 'import-path']);
  assert.deepEqual(social.defaults, { runs: 5, concurrency: [25] });
  assert.deepEqual(social.configure({ concurrency: [8] }), { concurrency: 8, importPath: 'auto' });
  assert.deepEqual(social.configure({ concurrency: [8], 'import-path': 'offline' }), { concurrency: 8, importPath: 'offline' });
  assert.throws(() => social.configure({ concurrency: [1, 2] }),
    { code: 'E_USAGE', message: 'the social suite runs at one --concurrency; a list of levels is for --suite crud' });
  const dataset = {
    id: 'pokec-tiny-s1', name: 'synthetic', scale: 'tiny', seed: 1, profiles: 100, relations: 400, sha256: { profiles: 'a', relations: 'b' }, dir: '/tmp/x',
  };
  const described = {
    id: 'pokec-tiny-s1', name: 'synthetic', scale: 'tiny', seed: 1, profiles: 100, relations: 400, sha256: { profiles: 'a', relations: 'b' }, readStats: null,
  };
  assert.deepEqual(social.describeData(dataset), described);
  const readStats = { repaired: 1, skipped: 2 };
  assert.deepEqual(social.describeData({ ...dataset, readStats }), { ...described, readStats });
});

test('social: one round per run over every selected workload, each step keyed by its name alone', () => {
  const workloads = SOCIAL.slice(0, 3);
  const rounds = social.rounds({ config: { runs: 2, concurrency: 7 }, workloads });
  assert.deepEqual(rounds.map((r) => [r.run, r.label, r.concurrency]), [[1, 'run 1/2', 7], [2, 'run 2/2', 7]]);
  // A write step's params say whether its writes are durable: singleWrite's follow the run's term (relaxed by
  // default), singleWriteSync's are durable whatever the term.
  const durableOf = { singleWrite: false, singleWriteSync: true };
  assert.deepEqual(rounds[1].steps, workloads.map((workload) => ({
    key: workload.name, workload, params: workload.name in durableOf ? { durable: durableOf[workload.name] } : null,
  })));
  assert.ok(workloads.some((workload) => workload.name === 'singleWrite'));
  const durable = social.rounds({ config: { runs: 1, concurrency: 7, durability: 'durable' }, workloads: SOCIAL });
  assert.deepEqual(durable[0].steps.filter((step) => step.params).map((step) => [step.key, step.params.durable]),
    [['singleWrite', true], ['singleWriteSync', true]]);
  assert.deepEqual(social.rounds({ config: { runs: 0, concurrency: 1 }, workloads }), []);
});

test('crud: its identity, flags and defaults, its data described, one labelled round per count, level and run', async () => {
  assert.equal(crud.id, 'crud');
  assert.equal(crud.name, 'crud');
  assert.equal(crud.description, 'individual inserts, gets, updates and deletes of small documents at rising concurrency');
  assert.equal(crud.workloads, CRUD);
  assert.deepEqual(crud.alwaysRun, ['insert']);
  assert.deepEqual(crud.flags, ['ops', 'shape', 'sync']);
  assert.deepEqual(DEFAULT_OPS, [10_000]);
  assert.deepEqual(DEFAULT_LEVELS, [1, 2, 4, 8, 16, 32, 64]);
  assert.deepEqual(crud.defaults, { runs: 3, concurrency: DEFAULT_LEVELS, ops: DEFAULT_OPS, shape: 'uniform', sync: false });
  assert.deepEqual(crud.configure({ concurrency: [2], ops: [5], shape: 'varied', sync: true, seed: 3, runs: 9 }),
    { concurrency: [2], ops: [5], shape: 'varied', durable: true, seed: 3 });
  const data = await crud.prepare({ ops: [3, 7], shape: 'varied', seed: 2 });
  assert.equal(data.docs.length, 7);
  assert.equal(data.updates.length, 7);
  assert.deepEqual([data.shape, data.seed], ['varied', 2]);
  assert.equal(crud.context(data), data);
  assert.deepEqual(crud.describeData(data), {
    id: 'crud-varied-s2', name: 'crud documents', shape: 'varied', seed: 2, documents: 7, label: 'varied documents, seed 2',
  });
  const rounds = crud.rounds({ config: { ops: [10], concurrency: [1, 4], runs: 2, durable: false }, workloads: CRUD });
  assert.deepEqual(rounds.map((r) => r.label), ['n=10 c=1 run 1/2', 'n=10 c=1 run 2/2', 'n=10 c=4 run 1/2', 'n=10 c=4 run 2/2']);
  assert.equal(stepKey('get', { ops: 3, concurrency: 2 }), 'get n=3 c=2');
});

test('a social preset\'s limits: its pathPairs alone, cut to a prefix, never past the list', () => {
  assert.deepEqual(presetLimits({ scale: 'full', runs: 5, pathPairs: 19 }), { pathPairs: 19 });
  assert.deepEqual(presetLimits({ scale: 'full', runs: 5 }), {});

  const dataset = {
    id: 'd', params: { pathPairs: [[1, 2], [3, 4], [5, 6]], readIds: [7] }, reference: { pathLengths: [1, 2, 3], other: [9] }, sizes: { pathPairs: 3, reads: 1 },
  };
  assert.equal(limitDataset(dataset), dataset);
  const limited = limitDataset(dataset, { pathPairs: 2 });
  assert.deepEqual(limited, {
    id: 'd', params: { pathPairs: [[1, 2], [3, 4]], readIds: [7] }, reference: { pathLengths: [1, 2], other: [9] }, sizes: { pathPairs: 2, reads: 1 },
  });
  assert.deepEqual(dataset.sizes, { pathPairs: 3, reads: 1 }, 'the original is unchanged');
  assert.deepEqual(limitDataset(dataset, { pathPairs: 3 }).params.pathPairs, dataset.params.pathPairs, 'as many as there are');
  assert.throws(() => limitDataset(dataset, { pathPairs: 4 }), { code: 'E_USAGE', message: 'the dataset has 3 pathPairs, fewer than the 4 asked for' });
  assert.throws(() => limitDataset(dataset, { readIds: 1 }), { message: 'internal: parameter list "readIds" cannot be limited' });
});
