// The hand-made graph of the sqlite operation tests, which the mysql ones share, its answers worked out by hand,
// and the tests that compare an adapter's answers with them. P7 has no incoming relation, P8 no outgoing one;
// P1 <-> P2 is reciprocal; P4 -> P5 -> P6 -> P4 is a cycle; P1 -> P2 is listed twice.
import assert from 'node:assert/strict';
import { test } from 'node:test';

// Pokec-like profiles.
export const PROFILES = [
  {
    _key: 'P1', public: 1, completion_percentage: 14, gender: 1, region: 'zilinsky kraj, zilina',
    last_login: '2012-05-25 11:20:00.0', registration: '2005-04-03 00:00:00.0', AGE: 26,
    body: '185 cm, 90 kg', I_am_working_in_field: 'it', spoken_languages: 'slovensky, anglicky',
  },
  {
    _key: 'P2', public: 1, completion_percentage: 62, gender: 0, region: 'zilinsky kraj, kysucke nove mesto',
    last_login: '2012-05-25 23:08:00.0', registration: '2007-11-30 00:00:00.0', AGE: 0,
    hobbies: 'čítanie, <b>tanec</b>, cestovanie', pets: 'mačka', I_like_books: 'Harry Potter',
  },
  {
    _key: 'P3', public: 0, completion_percentage: 38, gender: 0, region: 'bratislavsky kraj, bratislava - karlova ves',
    last_login: '2012-05-10 18:05:00.0', registration: '2010-05-23 00:00:00.0', AGE: 0,
  },
  {
    _key: 'P4', public: 1, completion_percentage: 12, gender: 1, region: 'banskobystricky kraj, brezno',
    last_login: '2012-05-25 18:46:00.0', registration: '2006-12-13 00:00:00.0', AGE: 17,
    eye_color: 'hnedé', hair_color: 'čierne',
  },
  {
    _key: 'P5', public: 1, completion_percentage: 0, region: 'trnavsky kraj, galanta',
    last_login: '2012-04-02 13:13:00.0', registration: '2003-01-21 00:00:00.0', AGE: 26,
  },
  {
    _key: 'P6', public: 0, completion_percentage: 47, gender: 0, region: 'kosicky kraj, kosice - sever',
    last_login: '2012-05-24 20:42:00.0', registration: '2009-08-08 00:00:00.0', AGE: 21,
    music: 'rock, metal', movies: 'horory', more: '<br />nič viac',
  },
  {
    _key: 'P7', public: 1, completion_percentage: 100, gender: 1, region: 'presovsky kraj, poprad',
    last_login: '2012-05-25 09:00:00.0', registration: '2004-02-15 00:00:00.0', AGE: 33,
    children: 'zatiaľ nie', marital_status: 'slobodný(á)',
  },
  {
    _key: 'P8', public: 1, completion_percentage: 5, gender: 0, region: 'nitriansky kraj, nitra',
    last_login: '2012-05-20 07:30:00.0', registration: '2011-09-01 00:00:00.0', AGE: 0,
  },
];

export const RELATIONS = [
  ['P1', 'P2'], ['P2', 'P1'], ['P1', 'P3'], ['P2', 'P4'], ['P3', 'P4'],
  ['P4', 'P5'], ['P5', 'P6'], ['P6', 'P4'], ['P5', 'P8'], ['P7', 'P1'],
  ['P7', 'P3'], ['P3', 'P6'], ['P6', 'P8'], ['P3', 'P2'], ['P1', 'P2'],
].map(([_from, _to]) => ({ _from, _to }));

// The distinct targets of each key's outgoing relations; P999 names no profile.
export const NEIGHBORS = {
  P1: ['P2', 'P3'], P2: ['P1', 'P4'], P3: ['P2', 'P4', 'P6'], P4: ['P5'],
  P5: ['P6', 'P8'], P6: ['P4', 'P8'], P7: ['P1', 'P3'], P8: [], P999: [],
};

// The distinct keys within two hops of each key, without the key itself.
export const NEIGHBORS2 = {
  P1: ['P2', 'P3', 'P4', 'P6'], P2: ['P1', 'P3', 'P4', 'P5'], P3: ['P1', 'P2', 'P4', 'P5', 'P6', 'P8'],
  P4: ['P5', 'P6', 'P8'], P5: ['P4', 'P6', 'P8'], P6: ['P4', 'P5', 'P8'],
  P7: ['P1', 'P2', 'P3', 'P4', 'P6'], P8: [], P999: [],
};

const EDGE_SET = new Set(RELATIONS.map(({ _from, _to }) => `${_from}>${_to}`));
const sortedKeys = (keys) => [...keys].sort();
const sortedDocs = (docs) => [...docs].sort((a, b) => a._key.localeCompare(b._key));

function assertValidPath(path, from, to, hops, label) {
  assert.ok(Array.isArray(path), `${label}: ${JSON.stringify(path)} is a path`);
  assert.equal(path.length - 1, hops, `${label}: ${path.join(' > ')} should have ${hops} hops`);
  assert.equal(path[0], from, label);
  assert.equal(path.at(-1), to, label);
  for (let i = 1; i < path.length; i += 1) {
    assert.ok(EDGE_SET.has(`${path[i - 1]}>${path[i]}`), `${label}: ${path[i - 1]} -> ${path[i]} is not a relation`);
  }
}

// The graph tests, registered in the calling describe(). `db()` is the adapter its before() imported `profiles`
// and RELATIONS into: PROFILES, or the test's own variant of them with the same keys.
export function graphTests(db, profiles) {
  const byKey = new Map(profiles.map((doc) => [doc._key, doc]));
  const docsOf = (keys) => keys.map((key) => byKey.get(key));

  test('neighbors returns the distinct targets of outgoing relations', async () => {
    for (const [key, keys] of Object.entries(NEIGHBORS)) {
      assert.deepStrictEqual(sortedKeys(await db().neighbors(key)), keys, key);
      assert.deepStrictEqual(sortedDocs(await db().neighborsData(key)), docsOf(keys), key);
    }
  });

  test('neighbors2 returns the distinct keys within two hops, without the start', async () => {
    for (const [key, keys] of Object.entries(NEIGHBORS2)) {
      assert.deepStrictEqual(sortedKeys(await db().neighbors2(key)), keys, key);
      assert.deepStrictEqual(sortedDocs(await db().neighbors2data(key)), docsOf(keys), key);
    }
  });

  test('shortestPath finds a minimal path made of existing relations', async () => {
    assert.deepStrictEqual(await db().shortestPath('P7', 'P8', 10), ['P7', 'P3', 'P6', 'P8']);
    assert.deepStrictEqual(await db().shortestPath('P1', 'P2', 1), ['P1', 'P2']);
    assert.deepStrictEqual(await db().shortestPath('P5', 'P4', 10), ['P5', 'P6', 'P4']);
    const cases = [['P1', 'P5', 3], ['P2', 'P6', 3], ['P7', 'P5', 3], ['P3', 'P1', 2], ['P6', 'P5', 2]];
    for (const [from, to, hops] of cases) {
      assertValidPath(await db().shortestPath(from, to, 10), from, to, hops, `${from} -> ${to}`);
    }
  });

  test('shortestPath follows relations only in their direction', async () => {
    assert.equal(await db().shortestPath('P8', 'P1', 10), null);
    assert.equal(await db().shortestPath('P1', 'P7', 10), null);
    assert.equal(await db().shortestPath('P4', 'P1', 10), null);
    assert.equal(await db().shortestPath('P1', 'P999', 10), null);
  });

  test('shortestPath returns null when the path needs more than maxDepth hops', async () => {
    assert.equal(await db().shortestPath('P7', 'P8', 2), null);
    assert.deepStrictEqual(await db().shortestPath('P7', 'P8', 3), ['P7', 'P3', 'P6', 'P8']);
    assert.equal(await db().shortestPath('P1', 'P2', 0), null);
  });

  test('shortestPath from a key to itself is that key alone', async () => {
    assert.deepStrictEqual(await db().shortestPath('P3', 'P3', 0), ['P3']);
    assert.deepStrictEqual(await db().shortestPath('P8', 'P8', 5), ['P8']);
  });
}
