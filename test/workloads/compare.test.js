// The comparisons every check is built on, fed each kind of wrong answer they exist to catch.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abbreviate, documentDifference, histogramDifference, keySetDifference } from '../../workloads/compare.js';
import { withField, withoutField } from './context.js';

const DOC = { _key: 'P5', public: 1, AGE: 25, I_like_books: '5', region: 'zilinsky kraj' };
const INHERITED = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

test('a document equal field by field, in any order, has no difference', () => {
  assert.equal(documentDifference(DOC, { region: 'zilinsky kraj', I_like_books: '5', AGE: 25, public: 1, _key: 'P5' }), null);
  assert.equal(documentDifference(DOC, JSON.parse(JSON.stringify(DOC))), null);
});

test('an extra, a missing, a retyped or a null field is a difference', () => {
  assert.match(documentDifference(DOC, { ...DOC, hobbies: 'šport' }), /^unexpected field hobbies: "šport"$/);
  assert.match(documentDifference(DOC, withoutField(DOC, 'region')), /^missing field region: expected "zilinsky kraj"$/,
    'the last field');
  assert.match(documentDifference(DOC, withoutField(DOC, '_key')), /missing field _key/);
  assert.match(documentDifference(DOC, { ...DOC, AGE: '25' }), /^field AGE: expected 25, got "25"$/);
  assert.match(documentDifference(DOC, { ...DOC, I_like_books: 5 }), /^field I_like_books: expected "5", got 5$/);
  assert.match(documentDifference(DOC, { ...DOC, gender: null }), /^unexpected field gender: null$/);
  assert.match(documentDifference(DOC, { ...DOC, AGE: null }), /^field AGE: expected 25, got null$/);
  assert.match(documentDifference(DOC, { ...DOC, region: undefined }), /^field region: expected "zilinsky kraj", got undefined$/);
  assert.match(documentDifference(withField(DOC, 'gender', 1), DOC), /^missing field gender: expected 1$/);
});

test('an answer that is no document is a difference', () => {
  for (const got of [null, undefined, 'P5', 5, [DOC], true]) {
    assert.match(documentDifference(DOC, got), /^expected a document, got /, abbreviate(got));
  }
});

for (const field of INHERITED) {
  test(`a field named ${field} counts as a field, extra or missing`, () => {
    const extra = withField(DOC, field, 1);
    assert.ok(Object.hasOwn(extra, field), 'the answer holds the field as its own');
    assert.equal(documentDifference(DOC, extra), `unexpected field ${field}: 1`);

    const expected = withField(DOC, field, 'x');
    assert.equal(documentDifference(expected, DOC), `missing field ${field}: expected "x"`);
    assert.equal(documentDifference(expected, withField(DOC, field, 'y')), `field ${field}: expected "x", got "y"`);
    assert.equal(documentDifference(expected, withField(DOC, field, 'x')), null);
  });
}

test('an object literal with __proto__ sets the prototype: its fields are not own fields', () => {
  const got = { __proto__: { region: 'zilinsky kraj' }, _key: 'P5', public: 1, AGE: 25, I_like_books: '5' };
  assert.equal(documentDifference(DOC, got), 'missing field region: expected "zilinsky kraj"');
});

test('a key set must hold exactly the expected keys, each once', () => {
  const expected = ['P1', 'P2', 'P3'];
  assert.equal(keySetDifference(expected, ['P3', 'P1', 'P2']), null);
  assert.equal(keySetDifference([], []), null);
  assert.match(keySetDifference(expected, ['P1', 'P2', 'P3', 'P2']), /^duplicate key "P2"$/);
  assert.match(keySetDifference(expected, ['P1', 'P1', 'P2', 'P3']), /^duplicate key "P1"$/);
  assert.match(keySetDifference(expected, ['P1', 'P3']), /3 keys expected, 2 returned; missing \["P2"\], extra \[\]/);
  assert.match(keySetDifference(expected, ['P1', 'P2', 'P3', 'P4']), /missing \[\], extra \["P4"\]/);
  assert.match(keySetDifference(expected, ['P1', 'P2', 'P4']), /missing \["P3"\], extra \["P4"\]/);
  assert.match(keySetDifference(expected, ['P1', 'P2', 3]), /missing \["P3"\], extra \[3\]/);
  assert.match(keySetDifference(expected, ['P1', 'P2', 'p3']), /extra \["p3"\]/);
  assert.match(keySetDifference([], ['P1']), /extra \["P1"\]/);
  const many = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7'];
  assert.equal(keySetDifference(many, ['P8', 'P9']),
    '7 keys expected, 2 returned; missing ["P1","P2","P3","P4","P5"], extra ["P8","P9"]', 'five examples at most');
  assert.match(keySetDifference(expected, []), /missing \["P1","P2","P3"\]/);
  for (const got of [null, undefined, 'P1', { P1: true }]) {
    assert.match(keySetDifference(expected, got), /^expected an array of keys, got /);
  }
});

test('a histogram must have every bucket, no other bucket, and numbers as counts', () => {
  const expected = { 0: 3, 25: 2, 30: 1, null: 4 };
  assert.equal(histogramDifference(expected, { null: 4, 30: 1, 25: 2, 0: 3 }), null);
  assert.equal(histogramDifference(expected, { 0: 3, 25: 2, null: 4 }), 'AGE 30: expected 1, got no bucket');
  assert.equal(histogramDifference(expected, { 0: 3, 25: 2, 30: 1 }), 'AGE null: expected 4, got no bucket');
  assert.equal(histogramDifference(expected, { ...expected, 31: 1 }), 'AGE 31: expected no bucket, got 1');
  assert.equal(histogramDifference(expected, { ...expected, 99: 0 }), 'AGE 99: expected no bucket, got 0');
  assert.equal(histogramDifference(expected, { ...expected, 25: '2' }), 'AGE 25: expected 2, got "2"');
  assert.equal(histogramDifference(expected, { ...expected, 25: 3 }), 'AGE 25: expected 2, got 3');
  assert.equal(histogramDifference(expected, { ...expected, 25: 2n }), 'AGE 25: expected 2, got 2n');
  assert.equal(histogramDifference(expected, {}), 'AGE 0: expected 3, got no bucket');
  assert.equal(histogramDifference({ 25: 2 }, { 25: 3, 18: 1 }), 'AGE 18: expected no bucket, got 1', 'the lowest AGE first');
  assert.equal(histogramDifference(withField(expected, 'toString', 1), expected), 'AGE toString: expected 1, got no bucket');
  for (const field of INHERITED) {
    assert.equal(histogramDifference(expected, withField(expected, field, 1)), `AGE ${field}: expected no bucket, got 1`);
  }
  for (const got of [null, [3, 2], 10]) assert.match(histogramDifference(expected, got), /^expected an object of counts/);
});

test('abbreviate describes any value a driver may return without throwing', () => {
  const cycle = {};
  cycle.self = cycle;
  assert.equal(abbreviate(undefined), 'undefined');
  assert.equal(abbreviate(5n), '5n');
  assert.equal(abbreviate(Object.prototype.toString), '[function toString]');
  assert.equal(abbreviate(() => 1), '[function anonymous]');
  assert.equal(abbreviate(Symbol('s')), 'Symbol(s)');
  assert.equal(abbreviate(cycle), '[object Object]');
  assert.equal(abbreviate('x'.repeat(500)).length, 160);
});
