import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRandom } from '../../datasets/random.js';

const draw = (rng, count) => Array.from({ length: count }, () => rng.uint32());

test('a seed names one sequence, forever', () => {
  assert.deepEqual(draw(createRandom(1), 1000), draw(createRandom(1), 1000));
  // Pinned values: a change here changes every generated dataset, so GENERATOR_VERSION must change with it.
  assert.deepEqual(draw(createRandom(1), 3), [4256269819, 2662892271, 2569821126]);
  assert.deepEqual(draw(createRandom(1, 3), 2), [451189275, 1737730083]);
  assert.notDeepEqual(draw(createRandom(1), 10), draw(createRandom(2), 10));
  assert.notDeepEqual(draw(createRandom(1), 10), draw(createRandom(2 ** 40 + 1), 10));
  assert.notDeepEqual(draw(createRandom(1, 1), 10), draw(createRandom(1, 2), 10));
});

test('next is in [0, 1) and int(n) in 0..n-1, covering the range', () => {
  const rng = createRandom(7);
  const seen = new Set();
  for (let i = 0; i < 10000; i += 1) {
    const x = rng.next();
    assert.ok(x >= 0 && x < 1);
    const k = rng.int(10);
    assert.ok(Number.isInteger(k) && k >= 0 && k < 10);
    seen.add(k);
  }
  assert.equal(seen.size, 10);
});

test('a seed must be a non-negative integer', () => {
  for (const bad of [-1, 1.5, '1', Number.NaN]) assert.throws(() => createRandom(bad), { code: 'E_USAGE' });
});
