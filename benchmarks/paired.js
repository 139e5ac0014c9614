// Ratios that hold on a noisy machine: each round of a benchmark script runs every contender back to back, so the
// ratio of two contenders is taken within each round (a paired measurement: both saw the same load), and the
// headline is the median of those per-round ratios, with their range and interquartile range stated beside it.
// A ratio of medians, taken across rounds, mixes a quiet round of one contender with a loaded round of the other.
import { quantileSorted } from 'simple-statistics';

// { median, min, max, q1, q3, ratios }: `numerators[r] / denominators[r]` per round r.
export function pairedRatio(numerators, denominators) {
  if (numerators.length !== denominators.length || numerators.length === 0) {
    throw new Error(`paired rounds differ: ${numerators.length} against ${denominators.length}`);
  }
  const ratios = numerators.map((value, round) => value / denominators[round]);
  const sorted = [...ratios].sort((a, b) => a - b);
  return {
    median: quantileSorted(sorted, 0.5),
    min: sorted[0],
    max: sorted.at(-1),
    q1: quantileSorted(sorted, 0.25),
    q3: quantileSorted(sorted, 0.75),
    ratios,
  };
}

// "0.912 (median of 9 paired rounds; interquartile 0.89–0.93, range 0.85–0.97)"
export function formatPaired({ median, min, max, q1, q3, ratios }) {
  const f = (value) => value.toFixed(3);
  return `${f(median)} (median of ${ratios.length} paired rounds; interquartile ${f(q1)}–${f(q3)}, range ${f(min)}–${f(max)})`;
}

// A target judged on the paired median: PASS or FAIL, and whether the spread straddles it (a verdict to repeat).
export function verdict(paired, target) {
  const pass = paired.median >= target;
  const doubtful = paired.q1 < target && paired.q3 >= target;
  return `${pass ? 'PASS' : 'FAIL'}${doubtful ? ' (the interquartile range straddles the target: repeat on a quieter machine)' : ''}`;
}
