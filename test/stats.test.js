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

// A fixed shuffle of 1..n, so no statistic can lean on its input being sorted.
const shuffled = (n) => Array.from({ length: n }, (_, i) => ((i * 7) % n) + 1);

test('summarizeRuns on 40 and 39 runs: the median of an even count is the mean of the two middle runs', () => {
  // 1..40: median (20 + 21) / 2, mean 20.5; the sample variance of 1..n is n(n + 1) / 12.
  assert.deepEqual(summarizeRuns(shuffled(40)), {
    medianMs: 20.5, meanMs: 20.5, stdevMs: Math.round(Math.sqrt((40 * 41) / 12) * 1000) / 1000, minMs: 1, maxMs: 40,
  });
  assert.deepEqual(summarizeRuns(shuffled(39)), {
    medianMs: 20, meanMs: 20, stdevMs: Math.round(Math.sqrt((39 * 40) / 12) * 1000) / 1000, minMs: 1, maxMs: 39,
  });
  // Two runs: the median is their mean; the sample standard deviation of {a, b} is |a - b| / √2.
  assert.deepEqual(summarizeRuns([13, 10]), { medianMs: 11.5, meanMs: 11.5, stdevMs: 2.121, minMs: 10, maxMs: 13 });
  assert.deepEqual(summarizeRuns([1.00049, 1.0004]), { medianMs: 1, meanMs: 1, stdevMs: 0, minMs: 1, maxMs: 1 }, 'rounded to the microsecond');
});

test('latency percentiles below 2.048 ms are exact: 1,000 operations of 1 µs to 1,000 µs', () => {
  const { latencyMs } = summarizeLatencies(Array.from({ length: 1000 }, (_, i) => (i + 1) / 1000));
  assert.deepEqual([latencyMs.p50, latencyMs.p90, latencyMs.p99, latencyMs.max], [0.5, 0.9, 0.99, 1]);
});

test('p99 of 1,000 operations is the 990th smallest: 980 fast ones and 20 slow ones', () => {
  const latencies = [...Array(980).fill(0.2), ...Array(20).fill(1.5)];
  assert.deepEqual(summarizeLatencies(latencies).latencyMs, { p50: 0.2, p90: 0.2, p95: 0.2, p99: 1.5, max: 1.5, mean: 0.226 });
  const fewerSlow = [...Array(991).fill(0.2), ...Array(9).fill(1.5)];
  assert.equal(summarizeLatencies(fewerSlow).latencyMs.p99, 0.2, 'the 990th of 1,000 is still a fast one');
});

test('latencies outside the histogram\'s range are clamped into it, while max and mean stay exact', () => {
  // Below 1 µs counts as 1 µs; above an hour as an hour (to 3 significant digits).
  const { latencyMs, histogram } = summarizeLatencies([0, 0.0004, 7_200_000]);
  assert.equal(latencyMs.p50, 0.001);
  assert.ok(latencyMs.p99 >= 3_600_000 && latencyMs.p99 <= 3_600_000 * 1.001, `${latencyMs.p99}`);
  assert.equal(latencyMs.max, 7_200_000);
  assert.equal(latencyMs.mean, 2_400_000);
  assert.equal(decodeHistogram(histogram).totalCount, 3);
  assert.deepEqual(summarizeLatencies([]).latencyMs, { p50: 0, p90: 0, p95: 0, p99: 0, max: 0, mean: 0 });
  assert.equal(summarizeLatencies([5, 1]).latencyMs.max, 5, 'the largest, wherever it comes');
});

test('no percentile exceeds the largest latency, though the histogram\'s bucket reaches above it', () => {
  // 12,346 µs falls in a bucket 8 µs wide whose highest value is 12,351 µs.
  const { latencyMs } = summarizeLatencies([12.3456, 1, 2]);
  assert.equal(latencyMs.max, 12.346);
  assert.equal(latencyMs.p99, 12.346);
  assert.ok(latencyMs.p50 <= latencyMs.p99);
});
