// The arangodb adapter's graph operations on a hand-made graph whose answers are known, with the cases the
// shared fixture lacks: a relation listed twice and a relation from a profile to itself. Needs an ArangoDB
// server (BENCH_ARANGODB_URL); without one every case skips with that reason.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import arangodb from '../../adapters/arangodb/description.js';
import { serverTarget } from '../helpers/servers.js';

const { options, skip } = serverTarget(arangodb, { namespace: 'dbshootout_arangotest_operations', concurrency: 8 });

const PROFILES = [
  { _key: 'P1', AGE: 26, region: 'zilinsky kraj, zilina', hobbies: 'čítanie, <b>tanec</b>' },
  { _key: 'P2', AGE: 0, public: 1 },
  { _key: 'P3', AGE: 17, more: 'emoji 😀, quotes \' " and a backslash \\' },
  { _key: 'P4', gender: 1 },
  { _key: 'P5', AGE: 26 },
  { _key: 'P6', AGE: 33 },
];
// P1 -> P2 twice, P1 -> P1, a chain P2 -> P3 -> P4 -> P5, and P6 -> P1 that nobody reaches.
const RELATIONS = [['P1', 'P2'], ['P1', 'P2'], ['P1', 'P1'], ['P2', 'P3'], ['P3', 'P4'], ['P4', 'P5'], ['P6', 'P1']]
  .map(([_from, _to]) => ({ _from, _to }));
const byKey = new Map(PROFILES.map((doc) => [doc._key, doc]));

const sorted = (keys) => [...keys].sort();
const documentsSorted = (documents) => [...documents].sort((a, b) => a._key.localeCompare(b._key));

describe('arangodb operations', { skip }, () => {
  let adapter;

  before(async () => {
    adapter = arangodb.create(options);
    await adapter.connect();
    await adapter.resetNamespace();
    await adapter.importProfiles(PROFILES);
    await adapter.importRelations(RELATIONS);
    await adapter.createIndexes();
  });

  after(async () => {
    await adapter?.close();
    await arangodb.testSupport.dropNamespace(options);
  });

  test('duplicate relations are kept, as the dataset counts them', async () => {
    assert.deepEqual(await adapter.counts(), { profiles: PROFILES.length, relations: RELATIONS.length });
  });

  test('documents come back exactly, without ArangoDB\'s _id and _rev', async () => {
    for (const doc of PROFILES) assert.deepEqual(await adapter.singleRead(doc._key), doc);
    assert.equal(await adapter.singleRead('P404'), null);
  });

  test('the AGE histogram counts a missing AGE under "null"', async () => {
    assert.deepEqual(await adapter.aggregation(), { 0: 1, 17: 1, 26: 2, 33: 1, null: 1 });
  });

  test('neighbors are distinct and include a profile that lists itself', async () => {
    assert.deepEqual(sorted(await adapter.neighbors('P1')), ['P1', 'P2']);
    assert.deepEqual(documentsSorted(await adapter.neighborsData('P1')), [byKey.get('P1'), byKey.get('P2')]);
    assert.deepEqual(await adapter.neighbors('P5'), []);
  });

  test('the two-hop neighbourhood is distinct and leaves out the start', async () => {
    assert.deepEqual(sorted(await adapter.neighbors2('P1')), ['P2', 'P3']);
    assert.deepEqual(documentsSorted(await adapter.neighbors2data('P1')), [byKey.get('P2'), byKey.get('P3')]);
    assert.deepEqual(sorted(await adapter.neighbors2('P6')), ['P1', 'P2']);
  });

  test('shortestPath is minimal, bounded by maxDepth, and null without a path', async () => {
    assert.deepEqual(await adapter.shortestPath('P6', 'P5', 5), ['P6', 'P1', 'P2', 'P3', 'P4', 'P5']);
    assert.equal(await adapter.shortestPath('P6', 'P5', 4), null);
    assert.equal(await adapter.shortestPath('P5', 'P1', 15), null);
    assert.deepEqual(await adapter.shortestPath('P3', 'P3', 15), ['P3']);
  });

  test('operations overlapping up to the concurrency give the same answers', async () => {
    const answers = await Promise.all(Array.from({ length: options.concurrency * 3 },
      () => adapter.shortestPath('P1', 'P5', 15)));
    for (const path of answers) assert.deepEqual(path, ['P1', 'P2', 'P3', 'P4', 'P5']);
  });
});
