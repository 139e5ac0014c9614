import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeHistogram, summarizeLatencies, summarizeRuns } from '../results/stats.js';

test('summarizeRuns gives median, mean, sample standard deviation, min and max', () => {
  // mean 5, squared deviations 9+1+1+9 = 20, sample variance 20/3
  assert.deepEqual(summarizeRuns([2, 4, 6, 8]), {
    medianMs: 5, meanMs: 5, stdevMs: Math.round(Math.sqrt(20 / 3) * 1000) / 1000, minMs: 2, maxMs: 8,
  });
  assert.deepEqual(summarizeRuns([7]), { medianMs: 7, meanMs: 7, stdevMs: 0, minMs: 7, maxMs: 7 });
  assert.equal(summarizeRuns([]), null);
});

test('summarizeLatencies reads percentiles from an HDR histogram and keeps mean and max exact', () => {
  const latencies = Float64Array.from({ length: 100 }, (_, i) => (i + 1) / 10); // 0.1 .. 10 ms
  const { latencyMs, histogram } = summarizeLatencies(latencies);
  // Percentiles are the histogram bucket's highest equivalent value: exact to 3 significant digits.
  const near = (actual, expected) => assert.ok(Math.abs(actual - expected) <= expected / 1000 + 0.001, `${actual} ≈ ${expected}`);
  near(latencyMs.p50, 5);
  near(latencyMs.p90, 9);
  near(latencyMs.p99, 9.9);
  assert.equal(latencyMs.max, 10);
  assert.equal(latencyMs.mean, 5.05);
  const decoded = decodeHistogram(histogram);
  assert.equal(decoded.totalCount, 100, 'the encoded histogram holds every operation');
});
