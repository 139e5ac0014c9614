// The crud suite's documents (workloads/crud/documents.js): the same bytes for a seed on every machine, since a
// published run is reproduced from its seed, and each field within what the suite says of it.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { SHAPES, crudDocuments, crudKey } from '../../workloads/crud/documents.js';

const digest = (value) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
const WORD = /^(alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliett|kilo|lima|mike|november|oscar|papa|quebec|romeo|sierra|tango)$/;
const CITIES = ['Bratislava', 'Košice', 'Žilina', 'Nitra', 'Prešov', 'Banská Bystrica', 'Trnava', 'Martin', 'Trenčín',
  'Poprad', 'Zürich', 'Kraków', 'São Paulo', '東京', 'Αθήνα'];

test('a seed gives the same documents everywhere: 300 of each shape for seed 7, byte for byte', () => {
  assert.deepEqual(SHAPES, ['uniform', 'varied']);
  const uniform = crudDocuments({ count: 300, shape: 'uniform', seed: 7 });
  assert.deepEqual(uniform.docs[0], {
    _key: 'C1', name: 'oscar romeo', email: 'kilo.1@example.org', city: 'Žilina', age: 51, score: -615756, visits: 61902,
    bio: 'sierra golf golf oscar alpha romeo india india', version: 1,
  });
  assert.deepEqual(uniform.updates[0], {
    _key: 'C1', name: 'golf kilo', email: 'golf.1@example.org', city: 'Martin', age: 71, score: -676034, visits: 69501,
    bio: 'foxtrot alpha bravo foxtrot romeo sierra', version: 2,
  });
  assert.equal(digest(uniform), '24dc5d40da76326c6377c52bd2e8fc0a817e401a478530d32120d05bdca00bd0');
  const varied = crudDocuments({ count: 300, shape: 'varied', seed: 7 });
  assert.deepEqual(varied.updates[0], { _key: 'C1', DWkREqceq34_V: 'quebec sierra india alpha', mJldQOBt7KINJi4: 0, X2sbxvg8PTgmk: -384132, QF6YwrZHs7_2jJF2Fv0Cgd: 981053 });
  assert.equal(digest(varied), '9677e187903111c0332ad94cfa797ffa00a900b32e343f6a2a83a95ba93b468e');
  assert.notEqual(digest(crudDocuments({ count: 300, shape: 'uniform', seed: 8 })), digest(uniform), 'another seed, other documents');
  assert.throws(() => crudDocuments({ count: 1, shape: 'round', seed: 7 }), /^Error: internal: unknown document shape round$/);
});

test('uniform documents: each field in its range, words from the list, cities with non-ASCII names', () => {
  const { docs, updates } = crudDocuments({ count: 2000, shape: 'uniform', seed: 3 });
  assert.equal(docs.length, 2000);
  assert.equal(updates.length, 2000);
  const cities = new Set();
  for (const [i, doc] of docs.entries()) {
    assert.equal(doc._key, crudKey(i + 1));
    assert.deepEqual(Object.keys(doc), ['_key', 'name', 'email', 'city', 'age', 'score', 'visits', 'bio', 'version']);
    assert.equal(doc.version, 1);
    assert.equal(updates[i].version, 2);
    const name = doc.name.split(' ');
    assert.ok(name.length === 2 && name.every((word) => WORD.test(word)), doc.name);
    assert.match(doc.email, new RegExp(`^[a-z]+\\.${i + 1}@example\\.org$`));
    assert.ok(WORD.test(doc.email.split('.')[0]), doc.email);
    assert.ok(CITIES.includes(doc.city), doc.city);
    cities.add(doc.city);
    assert.ok(Number.isInteger(doc.age) && doc.age >= 18 && doc.age < 88, `age ${doc.age}`);
    assert.ok(Number.isInteger(doc.score) && doc.score >= -1_000_000 && doc.score <= 1_000_000, `score ${doc.score}`);
    assert.ok(Number.isInteger(doc.visits) && doc.visits >= 0 && doc.visits < 100_000, `visits ${doc.visits}`);
    const bio = doc.bio.split(' ');
    assert.ok(bio.length >= 4 && bio.length <= 8 && bio.every((word) => WORD.test(word)), doc.bio);
  }
  assert.equal(cities.size, CITIES.length, 'every city is drawn');
  const ages = docs.map((doc) => doc.age);
  assert.ok(Math.min(...ages) < 25 && Math.max(...ages) > 80, 'ages spread over their range');
  const scores = docs.map((doc) => doc.score);
  assert.ok(Math.min(...scores) < -900_000 && Math.max(...scores) > 900_000, 'scores of both signs, near their bounds');
});

test('varied documents: another shape per version, names never with a leading _, inherited names among them, values of four kinds', () => {
  const { docs, updates } = crudDocuments({ count: 2000, shape: 'varied', seed: 3 });
  const names = new Set();
  const kinds = { integer: 0, edge: 0, empty: 0, city: 0, words: 0 };
  for (const [i, doc] of [...docs, ...updates].entries()) {
    assert.equal(doc._key, crudKey((i % 2000) + 1));
    const fields = Object.keys(doc).filter((name) => name !== '_key');
    assert.ok(fields.length >= 1 && fields.length <= 12, `${fields.length} fields`);
    for (const name of fields) {
      names.add(name);
      assert.match(name, /^[A-Za-z0-9][A-Za-z0-9_]{0,39}$/);
      const value = doc[name];
      if ([0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER].includes(value)) kinds.edge += 1;
      else if (Number.isInteger(value)) {
        assert.ok(value >= -1_000_000 && value <= 1_000_000, `${value}`);
        kinds.integer += 1;
      } else if (value === '') kinds.empty += 1;
      else if (CITIES.includes(value)) kinds.city += 1;
      else {
        const words = value.split(' ');
        assert.ok(words.length >= 1 && words.length <= 6 && words.every((word) => WORD.test(word)), JSON.stringify(value));
        kinds.words += 1;
      }
    }
  }
  for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty']) assert.ok(names.has(name), name);
  for (const [kind, count] of Object.entries(kinds)) assert.ok(count > 50, `${kind}: ${count}`);
  assert.ok([...names].some((name) => name.length === 40) && [...names].some((name) => name.length === 1), 'names of 1 to 40 characters');
  assert.ok(docs.some((doc, i) => Object.keys(doc).join() !== Object.keys(updates[i]).join()), 'an update changes the shape');
});
