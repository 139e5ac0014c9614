// The mongodb adapter's neighbourhood pipelines (adapters/mongodb/social.js), run through an evaluator of the
// few stages they use (pipeline-evaluator.js, written from MongoDB's documented semantics; not MongoDB), on
// hand-checked graphs and on random graphs checked against a plain breadth-first search. What a real server
// answers is tested by operations.test.js and the conformance suite when BENCH_MONGODB_URL names one.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fromStored, toStored, toStoredRelation } from '../../adapters/mongodb/documents.js';
import { COLLECTIONS } from '../../adapters/mongodb/namespace.js';
import { neighbors2Pipeline, neighbors2dataPipeline, neighborsDataPipeline } from '../../adapters/mongodb/social.js';
import { documentDifference, keySetDifference } from '../../workloads/compare.js';
import { FULL_DOCUMENT, NEIGHBORS, NEIGHBORS2, PROFILES, RELATIONS } from '../conformance/fixture.js';
import { mulberry32, neighbours, randomGraph, twoHopNeighbours } from '../helpers/graphs.js';
import { runPipeline } from './pipeline-evaluator.js';

// The collections as the adapter stores them: profiles keyed by _id, relations with a generated _id each.
function database(profiles, relations) {
  return {
    [COLLECTIONS.profiles]: profiles.map(toStored),
    [COLLECTIONS.relations]: relations.map((relation, i) => ({ _id: `r${i}`, ...toStoredRelation(relation) })),
  };
}

// What the adapter makes of each pipeline's answer.
const answers = {
  neighborsData: (db, key) => runPipeline(db, COLLECTIONS.relations, neighborsDataPipeline(key)).map(fromStored),
  neighbors2: (db, key) => runPipeline(db, COLLECTIONS.relations, neighbors2Pipeline(key)).map(({ _id }) => _id),
  neighbors2data: (db, key) => runPipeline(db, COLLECTIONS.relations, neighbors2dataPipeline(key)).map(fromStored),
};

function assertDocuments(byKey, expectedKeys, documents, context) {
  assert.equal(keySetDifference(expectedKeys, documents.map((doc) => doc._key)), null, context);
  for (const doc of documents) assert.equal(documentDifference(byKey.get(doc._key), doc), null, `${context}: ${doc._key}`);
}

describe('mongodb neighbourhood pipelines, evaluated in memory', () => {
  // The fixture with one more profile holding every field, listed by P10 and listing P10 twice and itself.
  const full = { ...FULL_DOCUMENT, _key: 'P11' };
  const profiles = [...PROFILES, full];
  const relations = [...RELATIONS, { _from: 'P11', _to: 'P10' }, { _from: 'P11', _to: 'P10' },
    { _from: 'P11', _to: 'P11' }, { _from: 'P10', _to: 'P11' }];
  const db = database(profiles, relations);
  const byKey = new Map(profiles.map((doc) => [doc._key, doc]));

  test('the conformance fixture\'s neighbourhoods, as keys and as whole documents', () => {
    for (const [key, expected] of Object.entries(NEIGHBORS)) {
      const keys = key === 'P10' ? ['P11'] : expected;
      assertDocuments(byKey, keys, answers.neighborsData(db, key), `neighborsData(${key})`);
    }
    for (const [key, expected] of Object.entries(NEIGHBORS2)) {
      const keys = key === 'P10' ? ['P11'] : expected;
      assert.equal(keySetDifference(keys, answers.neighbors2(db, key)), null, `neighbors2(${key})`);
      assertDocuments(byKey, keys, answers.neighbors2data(db, key), `neighbors2data(${key})`);
    }
  });

  test('duplicate relations and a self-loop: each key once; the start only as its own neighbour in one hop', () => {
    assertDocuments(byKey, ['P10', 'P11'], answers.neighborsData(db, 'P11'), 'neighborsData(P11)');
    assert.deepEqual(answers.neighbors2(db, 'P11').sort(), ['P10']);
    assertDocuments(byKey, ['P10'], answers.neighbors2data(db, 'P11'), 'neighbors2data(P11)');
    assert.deepEqual(answers.neighbors2(db, 'P8').sort(), ['P10', 'P11']);
  });

  test('the document with every field comes back whole, without _id', () => {
    const [doc] = answers.neighborsData(db, 'P10');
    assert.equal(documentDifference(full, doc), null);
    assert.equal('_id' in doc, false);
  });

  test('a key without relations, or unknown, gives empty answers', () => {
    for (const operation of Object.keys(answers)) assert.deepEqual(answers[operation](db, 'P999'), [], operation);
  });

  // Random directed graphs, sparse to dense, with duplicate relations and self-loops.
  for (const spec of [{ nodes: 60, edges: 80, seed: 21 }, { nodes: 80, edges: 400, seed: 22 }]) {
    test(`${spec.nodes} nodes, ${spec.edges} relations: every start's neighbourhoods match plain BFS`, () => {
      const { nodes, relations: drawn, out } = randomGraph(spec, mulberry32);
      const keys = Array.from({ length: nodes }, (_, i) => `P${i + 1}`);
      const randomProfiles = keys.map((_key, i) => ({ _key, AGE: i % 7, ...(i % 3 === 0 ? {} : { region: `r${i}` }) }));
      const randomDb = database(randomProfiles, drawn);
      const randomByKey = new Map(randomProfiles.map((doc) => [doc._key, doc]));
      for (const key of keys) {
        assertDocuments(randomByKey, neighbours(out, key), answers.neighborsData(randomDb, key), `neighborsData(${key})`);
        const expected = twoHopNeighbours(out, key);
        assert.equal(keySetDifference(expected, answers.neighbors2(randomDb, key)), null, `neighbors2(${key})`);
        assertDocuments(randomByKey, expected, answers.neighbors2data(randomDb, key), `neighbors2data(${key})`);
      }
    });
  }
});
