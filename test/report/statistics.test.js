// The statistics of `bench report` and `bench compare` on cases small enough to work out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { intervalsOverlap, medianInterval, ratioInterval } from '../../results/bootstrap.js';
import { chooseBaseline, normaliseWorkload } from '../../results/report/normalise.js';
import { mergeLatencies, summarizeLatencies } from '../../results/stats.js';

test('the bootstrap interval of a median of 3 or 5 runs is the range of the runs', () => {
  // n = 3: a resample's median is the smallest value when at least 2 of the 3 draws are the smallest value,
  // P = 3·(1/3)²·(2/3) + (1/3)³ = 7/27 ≈ 0.26, far above the 0.025 of a 95% interval; the same for the largest.
  assert.deepEqual(medianInterval([30, 10, 20]), { low: 10, high: 30 });
  // n = 5: P(median = smallest) = P(at least 3 of 5 draws are it) = 10·0.2³·0.8² + 5·0.2⁴·0.8 + 0.2⁵ ≈ 0.058.
  assert.deepEqual(medianInterval([5, 1, 4, 2, 3]), { low: 1, high: 5 });
});

test('the bootstrap interval of a median of 7 runs leaves out the extremes', () => {
  // n = 7: P(median = smallest) = P(at least 4 of 7 draws are it) ≈ 0.0104 < 0.025, while
  // P(median ≤ second smallest) = P(at least 4 of 7 draws are among the 2 smallest) ≈ 0.10 > 0.025.
  assert.deepEqual(medianInterval([1, 2, 3, 4, 5, 6, 7]), { low: 2, high: 6 });
  assert.deepEqual(medianInterval([7, 6, 5, 4, 3, 2, 1], { seed: 99 }), { low: 2, high: 6 }, 'any seed: the probabilities are far from 0.025');
});

test('an interval needs two runs, and the same runs always give the same interval', () => {
  assert.equal(medianInterval([12]), null);
  assert.equal(medianInterval([]), null);
  const runs = [10.2, 11.9, 10.7, 13.1, 10.4, 12.2, 11.0, 10.9, 12.8];
  assert.deepEqual(medianInterval(runs), medianInterval([...runs]));
  const { low, high } = medianInterval(runs);
  assert.ok(low >= 10.2 && low <= 11.0 && high >= 11.0 && high <= 13.1, `${low} – ${high} brackets the median 11.0`);
});

test('the ratio interval of medians of 3 runs is from min(a)/max(b) to max(a)/min(b)', () => {
  // Each side's resampled median is its extreme with probability 7/27; both at once 49/729 ≈ 0.067 > 0.025.
  assert.deepEqual(ratioInterval([10, 11, 12], [5, 5.5, 6]), { low: 10 / 6, high: 12 / 5 });
  assert.deepEqual(ratioInterval([10, 10, 10], [20, 20, 20]), { low: 0.5, high: 0.5 });
  assert.equal(ratioInterval([10], [5, 6]), null);
});

test('intervals overlap when they share any value', () => {
  assert.equal(intervalsOverlap({ low: 1, high: 2 }, { low: 2, high: 3 }), true);
  assert.equal(intervalsOverlap({ low: 1, high: 2 }, { low: 1.5, high: 1.6 }), true);
  assert.equal(intervalsOverlap({ low: 1, high: 2 }, { low: 2.01, high: 3 }), false);
  assert.equal(intervalsOverlap({ low: 5, high: 6 }, { low: 1, high: 4.9 }), false);
});

test('merged histograms give the percentiles of all operations, not an average of per-run percentiles', () => {
  const fast = summarizeLatencies(Array.from({ length: 90 }, () => 1)); // 90 operations of 1 ms
  const slow = summarizeLatencies(Array.from({ length: 10 }, () => 100)); // 10 operations of 100 ms
  const merged = mergeLatencies([fast, slow]);
  assert.equal(merged.operations, 100);
  assert.equal(merged.p50, 1);
  assert.equal(merged.p90, 1, 'the 90th of 100 operations is still a 1 ms one');
  // Percentiles are the histogram bucket's highest equivalent value: exact to 3 significant digits.
  assert.ok(merged.p99 >= 100 && merged.p99 <= 100.1, `p99 ${merged.p99} ≈ 100`);
  assert.equal(merged.max, 100);
  assert.equal(merged.mean, (90 * 1 + 10 * 100) / 100);
  assert.equal(mergeLatencies([fast, { latencyMs: fast.latencyMs }]), null, 'a run without its histogram');
});

const passed = (medianMs, lowMs, highMs) => ({ status: 'passed', medianMs, ci: lowMs === undefined ? null : { lowMs, highMs } });

test('normalisation: the baseline is 100%, the others their median over its median, with significance', () => {
  const results = normaliseWorkload({
    arangodb: passed(200, 190, 210),
    neo4j: passed(100, 95, 105), // apart from [190, 210]
    mongodb: passed(205, 180, 230), // overlaps
    orientdb: passed(50), // one run: no interval
    mysql: { status: 'failed', medianMs: null, ci: null },
    sqlite: { status: 'unsupported', medianMs: null, ci: null },
  }, 'arangodb');
  assert.deepEqual(
    Object.fromEntries(Object.entries(results).map(([id, f]) => [id, [f.normalisedPct, f.significant]])),
    {
      arangodb: [100, null], neo4j: [50, true], mongodb: [102.5, false], orientdb: [25, false], mysql: [null, null], sqlite: [null, null],
    },
  );
});

test('normalisation against a baseline that failed gives no percentage to anyone', () => {
  const results = normaliseWorkload({ arangodb: { status: 'failed', medianMs: null, ci: null }, neo4j: passed(100, 95, 105) }, 'arangodb');
  assert.equal(results.neo4j.normalisedPct, null);
  assert.equal(results.neo4j.significant, null);
});

// Pooled databases reduced to what the choice reads: the status of each workload.
const database = (id, statuses) => ({ id, workloads: Object.fromEntries(Object.entries(statuses).map(([name, status]) => [name, { status }])) });

test('the baseline is ArangoDB when present, else the database that passed the most, ties by id, and says why', () => {
  const names = ['singleRead', 'aggregation'];
  const all = { singleRead: 'passed', aggregation: 'passed' };
  const one = { singleRead: 'passed', aggregation: 'failed' };
  assert.equal(chooseBaseline([database('neo4j', all), database('arangodb', one)], names).id, 'arangodb');
  const chosen = chooseBaseline([database('postgresql', one), database('sqlite', all), database('neo4j', all)], names);
  assert.equal(chosen.id, 'neo4j');
  assert.match(chosen.reason, /ArangoDB is not in these results; neo4j passed the most compared workloads \(2 of 2\), as many as sqlite; the first by id/);
  assert.equal(chooseBaseline([database('postgresql', all), database('sqlite', one)], names).id, 'postgresql');
  assert.deepEqual(chooseBaseline([database('neo4j', all), database('sqlite', one)], names, 'sqlite'), { id: 'sqlite', reason: 'named with --baseline' });
  assert.throws(() => chooseBaseline([database('neo4j', all)], names, 'arangodb'), { code: 'E_BASELINE', message: /--baseline arangodb: no result of that database was given; the results hold neo4j/ });
});
