// The paired ratios of the benchmark scripts: per-round ratios, their median, quartiles and range, and a verdict
// that says when the spread straddles the target.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatPaired, pairedRatio, verdict } from '../benchmarks/paired.js';

test('the ratio is taken within each round, and its median is not the ratio of the medians', () => {
  // A loaded round (3) slows both contenders alike: paired, it changes nothing.
  const a = [90, 95, 45, 92, 93];
  const b = [100, 100, 50, 100, 100];
  const paired = pairedRatio(a, b);
  assert.deepEqual(paired.ratios, [0.9, 0.95, 0.9, 0.92, 0.93]);
  assert.equal(paired.median, 0.92);
  assert.equal(paired.min, 0.9);
  assert.equal(paired.max, 0.95);
  assert.equal(paired.q1, 0.9);
  assert.equal(paired.q3, 0.93);
  assert.equal(formatPaired(paired), '0.920 (median of 5 paired rounds; interquartile 0.900–0.930, range 0.900–0.950)');
});

test('an even number of rounds takes the mean of the middle two', () => {
  assert.equal(pairedRatio([1, 2, 3, 4], [1, 1, 1, 1]).median, 2.5);
});

test('rounds that do not pair are refused', () => {
  assert.throws(() => pairedRatio([1, 2], [1]), /paired rounds differ: 2 against 1/);
  assert.throws(() => pairedRatio([], []), /paired rounds differ/);
});

test('the verdict: PASS or FAIL on the median, and a warning when the quartiles straddle the target', () => {
  assert.equal(verdict(pairedRatio([95, 96, 97], [100, 100, 100]), 0.9), 'PASS');
  assert.equal(verdict(pairedRatio([80, 81, 82], [100, 100, 100]), 0.9), 'FAIL');
  assert.match(verdict(pairedRatio([85, 91, 95], [100, 100, 100]), 0.9), /^PASS \(the interquartile range straddles the target/);
  assert.match(verdict(pairedRatio([85, 86, 95], [100, 100, 100]), 0.9), /^FAIL \(the interquartile range straddles/);
});
