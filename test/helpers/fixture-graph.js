// The hand-made graph of the PostgreSQL, OrientDB and Neo4j operation tests, its answers worked out by hand, and
// the tests that compare an adapter's answers with them. The profiles' shape (keys, AGE and the other numbers)
// is shared, so that one histogram fits all; the text in them is each test's own, chosen for what its database
// could get wrong.
import assert from 'node:assert/strict';
import { test } from 'node:test';

const base = {
  public: 1, completion_percentage: 38, gender: 1, region: 'zilinsky kraj, zilina',
  last_login: '2012-05-25 11:20:00.0', registration: '2010-03-04 18:12:00.0',
};

// P1..P8. P5 has no AGE (the histogram counts it under "null"), P6 only a key and AGE.
const SHAPES = [
  { ...base, _key: 'P1', AGE: 26 },
  { ...base, _key: 'P2', AGE: 0, gender: 0 },
  { ...base, _key: 'P3', AGE: 18 },
  { ...base, _key: 'P4', AGE: 0, public: 0, completion_percentage: 0 },
  { ...base, _key: 'P5', region: 'trnavsky kraj, galanta' },
  { _key: 'P6', AGE: 41 },
  { ...base, _key: 'P7', AGE: 18, gender: 0 },
  { ...base, _key: 'P8', AGE: 26 },
];

// The eight profiles, each with the fields `fields[key]` adds or replaces. Fields must leave AGE alone: the
// aggregation test expects AGES, the ages above.
export function graphProfiles(fields) {
  return SHAPES.map((doc) => {
    assert.equal(fields[doc._key]?.AGE, undefined, `${doc._key}: AGE is part of the shared shape`);
    return { ...doc, ...fields[doc._key] };
  });
}

const AGES = { 0: 2, 18: 2, 26: 2, 41: 1, null: 1 };

// P1 <-> P2 reciprocal; P1 -> P2 listed twice; P1 -> P3 -> P4 and P1 -> P2 -> P4 two equally short routes;
// P4 -> P5 -> P6 -> P4 a cycle; P6 -> P6 a self-loop; P7 has no incoming relation, P8 no outgoing one.
export const RELATIONS = [
  ['P1', 'P2'], ['P2', 'P1'], ['P1', 'P2'], ['P1', 'P3'], ['P2', 'P4'], ['P3', 'P4'], ['P4', 'P5'],
  ['P5', 'P6'], ['P6', 'P4'], ['P6', 'P6'], ['P6', 'P8'], ['P7', 'P1'],
].map(([_from, _to]) => ({ _from, _to }));

export const NEIGHBORS = { P1: ['P2', 'P3'], P4: ['P5'], P6: ['P4', 'P6', 'P8'], P7: ['P1'], P8: [] };
export const NEIGHBORS2 = {
  P1: ['P2', 'P3', 'P4'], P4: ['P5', 'P6'], P6: ['P4', 'P5', 'P8'], P7: ['P1', 'P2', 'P3'], P8: [],
};
// [from, to, maxDepth, hops or null]
export const PATHS = [
  ['P1', 'P4', 15, 2], ['P7', 'P8', 15, 6], ['P7', 'P8', 6, 6], ['P7', 'P8', 5, null], ['P6', 'P6', 15, 0],
  ['P8', 'P1', 15, null], ['P1', 'P7', 15, null], ['P5', 'P4', 15, 2], ['P1', 'P2', 1, 1], ['P1', 'P2', 0, null],
  ['P1', 'P99', 15, null], ['P99', 'P1', 15, null],
];

const edges = new Set(RELATIONS.map(({ _from, _to }) => `${_from} ${_to}`));
export const sorted = (keys) => [...keys].sort();

// Imports the graph with `profiles` into a fresh namespace, profiles and relations each in two batches and
// flushed, as the importer sends them.
export async function importGraph(db, profiles) {
  await db.resetNamespace();
  await db.importProfiles(profiles.slice(0, 3));
  await db.importProfiles(profiles.slice(3));
  await db.flushProfiles?.();
  await db.importRelations(RELATIONS.slice(0, 4));
  await db.importRelations(RELATIONS.slice(4));
  await db.flushRelations?.();
  await db.createIndexes();
}

// The tests every adapter runs on this graph, registered in the calling describe(). `db()` is the adapter its
// before() imported the graph into with `profiles`; `neighbors`, `neighbors2` and `paths` are the answers to
// check (NEIGHBORS, NEIGHBORS2 and PATHS, or more); `concurrentTitle` names the test of concurrent searches.
export function graphOperationTests(db, { profiles, neighbors, neighbors2, paths, concurrentTitle }) {
  const byKey = new Map(profiles.map((doc) => [doc._key, doc]));

  test('counts every profile and every relation, duplicates included', async () => {
    assert.deepEqual(await db().counts(), { profiles: profiles.length, relations: RELATIONS.length });
    await db().warmup();
  });

  test('singleRead returns each document exactly as imported, and null for a missing key', async () => {
    for (const doc of profiles) assert.deepStrictEqual(await db().singleRead(doc._key), doc);
    assert.equal(await db().singleRead('P99'), null);
    assert.equal(await db().singleRead("P1' OR '1'='1"), null);
  });

  test('aggregation counts every AGE, a missing one under "null"', async () => {
    assert.deepStrictEqual(await db().aggregation(), AGES);
  });

  test('neighbors and neighbors2 return each key once', async () => {
    for (const [key, expected] of Object.entries(neighbors)) {
      assert.deepEqual(sorted(await db().neighbors(key)), expected, key);
    }
    for (const [key, expected] of Object.entries(neighbors2)) {
      assert.deepEqual(sorted(await db().neighbors2(key)), expected, key);
    }
  });

  test('neighborsData and neighbors2data return the same sets as exact documents', async () => {
    for (const [operation, reference] of [['neighborsData', neighbors], ['neighbors2data', neighbors2]]) {
      for (const [key, expected] of Object.entries(reference)) {
        const documents = await db()[operation](key);
        assert.deepEqual(sorted(documents.map((doc) => doc._key)), expected, `${operation}(${key})`);
        for (const doc of documents) assert.deepStrictEqual(doc, byKey.get(doc._key));
      }
    }
  });

  test('shortestPath is minimal, follows relations and honours maxDepth', async () => {
    for (const [from, to, maxDepth, hops] of paths) {
      const path = await db().shortestPath(from, to, maxDepth);
      const call = `shortestPath(${from}, ${to}, ${maxDepth})`;
      if (hops === null) {
        assert.equal(path, null, call);
        continue;
      }
      assert.equal(path.length - 1, hops, `${call}: ${JSON.stringify(path)}`);
      assert.equal(path[0], from);
      assert.equal(path.at(-1), to);
      for (let i = 1; i < path.length; i += 1) assert.ok(edges.has(`${path[i - 1]} ${path[i]}`), `${call}: ${path}`);
    }
  });

  // 100 searches at once, four times the pool of 25 that serverTarget gives the tests: each answer has the hops
  // its own search expects.
  test(concurrentTitle, async () => {
    const calls = Array.from({ length: 100 }, (_, i) => paths[i % paths.length]);
    const answers = await Promise.all(calls.map(([from, to, maxDepth]) => db().shortestPath(from, to, maxDepth)));
    answers.forEach((path, i) => assert.equal(path === null ? null : path.length - 1, calls[i][3], String(calls[i])));
  });
}
