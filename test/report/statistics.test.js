// The statistics of `bench report` and `bench compare` on cases small enough to work out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { intervalsOverlap, medianInterval, ratioInterval } from '../../results/bootstrap.js';
import { chooseBaseline, normaliseWorkload } from '../../results/report/normalise.js';
import { suiteRendering } from '../../results/report/suites/index.js';
import { median } from 'simple-statistics';
import { createRandom } from '../../datasets/random.js';
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
  assert.deepEqual(medianInterval([2, 1]), { low: 1, high: 2 }, 'two runs: the median of a resample is 1, 1.5 or 2');
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
  assert.equal(ratioInterval([5, 6], [10]), null);
  assert.deepEqual(ratioInterval([10, 10], [5, 5]), { low: 2, high: 2 });
});

// The exact bootstrap distribution of the median of a resample of the values 1..n (each draw uniform over
// them). X(j) is the j-th smallest of the n draws; X(j) <= k exactly when at least j draws are <= k.
const binomial = (n, k) => {
  let c = 1;
  for (let i = 1; i <= k; i += 1) c = (c * (n - k + i)) / i;
  return c;
};
function atLeast(n, j, k) {
  let p = 0;
  for (let i = j; i <= n; i += 1) p += binomial(n, i) * (k / n) ** i * (1 - k / n) ** (n - i);
  return p;
}
// P(X(m) <= a and X(m+1) <= b): i draws <= a, j - i in (a, b], n - j above b.
function jointBelow(n, m, a, b) {
  if (a <= 0 || b <= 0) return 0;
  if (a >= b) return atLeast(n, m + 1, b);
  let p = 0;
  for (let i = m; i <= n; i += 1) {
    for (let j = Math.max(i, m + 1); j <= n; j += 1) {
      p += binomial(n, i) * binomial(n - i, j - i) * (a / n) ** i * ((b - a) / n) ** (j - i) * ((n - b) / n) ** (n - j);
    }
  }
  return p;
}
// [[t, P(median <= t)]] ascending. Odd n: the median is X((n+1)/2); even n: (X(n/2) + X(n/2+1)) / 2.
function resampledMedianCdf(n) {
  if (n % 2 === 1) return Array.from({ length: n }, (_, i) => [i + 1, atLeast(n, (n + 1) / 2, i + 1)]);
  const m = n / 2;
  const mass = new Map();
  for (let a = 1; a <= n; a += 1) {
    for (let b = a; b <= n; b += 1) {
      const p = jointBelow(n, m, a, b) - jointBelow(n, m, a - 1, b) - jointBelow(n, m, a, b - 1) + jointBelow(n, m, a - 1, b - 1);
      mass.set((a + b) / 2, (mass.get((a + b) / 2) ?? 0) + p);
    }
  }
  let cumulative = 0;
  return [...mass.keys()].sort((x, y) => x - y).map((t) => [t, (cumulative += mass.get(t))]);
}
// The smallest t with P(median <= t) >= q, and how far the probabilities on either side of it are from q.
function quantile(cdf, q) {
  let below = 0;
  for (const [t, p] of cdf) {
    if (p >= q) return { value: t, margin: Math.min(q - below, p - q) };
    below = p;
  }
  return null;
}
// A fixed shuffle of 1..n: the interval must not depend on the order of the runs.
const shuffled = (n) => Array.from({ length: n }, (_, i) => ((i * 7) % n) + 1);

test('the bootstrap interval of the median of 39 and 40 runs is the exact bootstrap distribution\'s 2.5% and 97.5% points', () => {
  for (const n of [39, 40]) {
    const cdf = resampledMedianCdf(n);
    assert.ok(Math.abs(cdf.at(-1)[1] - 1) < 1e-9, 'the probabilities add up to 1');
    for (const level of [0.95, 0.9]) {
      const tail = (1 - level) / 2;
      const low = quantile(cdf, tail);
      const high = quantile(cdf, 1 - tail);
      // With 10,000 resamples a cumulative probability is estimated to within about 0.0016 (one standard
      // error), so each end is decided when its neighbours' probabilities are further than 0.0035 from the cut.
      assert.ok(low.margin > 0.0035 && high.margin > 0.0035, `n ${n}, level ${level}: margins ${low.margin}, ${high.margin}`);
      assert.deepEqual(medianInterval(shuffled(n), { level }), { low: low.value, high: high.value }, `n ${n}, level ${level}`);
    }
  }
  // Written out: odd 39 gives 14 to 26 (P(median <= 13) = 0.0155, P(median <= 14) = 0.0345); even 40 gives 14.5 to
  // 26.5 (P(median <= 14) = 0.0199, P(median <= 14.5) = 0.0288); a 90% interval is narrower on both sides.
  assert.deepEqual(medianInterval(shuffled(39)), { low: 14, high: 26 });
  assert.deepEqual(medianInterval(shuffled(40)), { low: 14.5, high: 26.5 });
  assert.deepEqual(medianInterval(shuffled(40), { level: 0.9 }), { low: 15.5, high: 25.5 });
});

// The percentile bootstrap written out plainly, drawing from the same generator in the same order.
function sortedStatistics(statistic, resamples, seed = 1) {
  const random = createRandom(seed);
  return Array.from({ length: resamples }, () => statistic(random)).sort((x, y) => x - y);
}
const resampledMedian = (values) => (random) => median(Array.from(values, () => values[random.int(values.length)]));

test('the interval leaves out as many of R resampled statistics below as above: the (floor(R·tail) + 1)-th to the (R − floor(R·tail))-th', () => {
  const runs = [10.1, 11.7, 12.2, 13.9, 14.3, 15.8, 16.4, 17.0, 18.6, 19.5];
  const other = [20.3, 21.1, 22.9, 23.4, 24.8, 25.0];
  // 40 resamples: a 95% interval is the 2nd to the 39th statistic, a 90% one the 3rd to the 38th.
  const statistics = sortedStatistics(resampledMedian(runs), 40, 10);
  for (const i of [1, 2, 37, 38]) assert.notEqual(statistics[i], statistics[i + 1], `the ${i + 1}th and the next statistic differ`);
  assert.deepEqual(medianInterval(runs, { resamples: 40, seed: 10 }), { low: statistics[1], high: statistics[38] });
  assert.deepEqual(medianInterval(runs, { resamples: 40, seed: 10, level: 0.9 }), { low: statistics[2], high: statistics[37] });
  const ratios = sortedStatistics((random) => resampledMedian(runs)(random) / resampledMedian(other)(random), 40, 10);
  for (const i of [1, 2, 37, 38]) assert.notEqual(ratios[i], ratios[i + 1]);
  assert.deepEqual(ratioInterval(runs, other, { resamples: 40, seed: 10 }), { low: ratios[1], high: ratios[38] });
  assert.deepEqual(ratioInterval(runs, other, { resamples: 40, seed: 10, level: 0.9 }), { low: ratios[2], high: ratios[37] });
  // The default: 10,000 resamples, the 251st and the 9,750th.
  const all = sortedStatistics(resampledMedian(runs), 10_000);
  assert.deepEqual(medianInterval(runs), { low: all[250], high: all[9749] });
});

test('intervals overlap when they share any value', () => {
  assert.equal(intervalsOverlap({ low: 1, high: 2 }, { low: 2, high: 3 }), true);
  assert.equal(intervalsOverlap({ low: 2, high: 3 }, { low: 1, high: 2 }), true);
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

test('merging no runs gives nothing; merging runs without operations gives zeros, not NaN', () => {
  assert.equal(mergeLatencies([]), null);
  const empty = summarizeLatencies([]);
  assert.deepEqual(mergeLatencies([empty, empty]), { p50: 0, p90: 0, p95: 0, p99: 0, max: 0, mean: 0, operations: 0 });
  // The mean is weighted by operations: 1 run of 3 operations averaging 2 ms and 1 of 1 operation of 10 ms.
  const merged = mergeLatencies([summarizeLatencies([1, 2, 3]), summarizeLatencies([10])]);
  assert.deepEqual([merged.mean, merged.max, merged.operations, merged.p50], [4, 10, 4, 2]);
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
      arangodb: [100, null], neo4j: [50, true], mongodb: [102.5, false], orientdb: [25, null], mysql: [null, null], sqlite: [null, null],
    },
  );
  // One run has no interval: said as such, with the fewer runs of the two, never as "not significant".
  assert.equal(results.orientdb.noInterval, 1);
  assert.equal(results.mongodb.noInterval, undefined);
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

test('a suite\'s own reference is its default baseline (graph: PostgreSQL, Unum\'s 1x); with nothing compared, the most workloads passed decide', () => {
  const { baseline } = suiteRendering('graph');
  const all = { findEdge: 'passed', upsertEdge: 'passed' };
  const one = { findEdge: 'passed', upsertEdge: 'failed' };
  const graph = [database('mysql', all), database('postgresql', one), database('sqlite', all)];
  assert.deepEqual(chooseBaseline(graph, ['findEdge', 'upsertEdge'], null, { preferred: baseline }),
    { id: 'postgresql', reason: 'PostgreSQL, the 1x of the published graph tables (Unum, 2021)' });
  assert.equal(chooseBaseline(graph, ['findEdge', 'upsertEdge'], 'sqlite', { preferred: baseline }).id, 'sqlite');
  assert.match(chooseBaseline(graph.filter((d) => d.id !== 'postgresql'), ['findEdge'], null, { preferred: baseline }).reason,
    /^PostgreSQL is not in these results; mysql passed the most compared workloads \(1 of 1\), as many as sqlite/);
  // An open loop compares no time: the choice counts every workload, and says so.
  const open = chooseBaseline([database('neo4j', one), database('sqlite', all)], [], null, { names: ['findEdge', 'upsertEdge'] });
  assert.deepEqual(open, { id: 'sqlite', reason: 'ArangoDB is not in these results; sqlite passed the most workloads (2 of 2)' });
});
