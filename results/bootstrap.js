// Confidence intervals by the percentile bootstrap, for the median of a few runs and for the ratio of two
// medians. Runs are few (3 to 10) and their times skewed (a collection pause or a noisy neighbour lengthens
// a run, nothing shortens one), so an interval that assumes a normal mean would be both off-centre and
// falsely narrow. Every interval draws from its own generator with a fixed seed: the same runs give the same
// interval on every machine, and a report or comparison is reproducible byte for byte.
import { median } from 'simple-statistics';
import { createRandom } from '../datasets/random.js';

export const BOOTSTRAP = Object.freeze({ level: 0.95, resamples: 10_000, seed: 1 });

function resampledMedian(values, random) {
  const sample = new Array(values.length);
  for (let i = 0; i < values.length; i += 1) sample[i] = values[random.int(values.length)];
  return median(sample);
}

// The lower and upper percentile of the bootstrap distribution, as many statistics left out below as above:
// with 10,000 resamples and level 0.95, the 251st and the 9,750th smallest statistic. The small constant
// absorbs rounding: (1 - 0.9) / 2 is 0.04999999999999999, which would leave out one statistic too few below.
function percentileInterval(statistics, level) {
  statistics.sort((a, b) => a - b);
  const outside = Math.floor(((1 - level) / 2) * statistics.length + 1e-9);
  return { low: statistics[outside], high: statistics[statistics.length - 1 - outside] };
}

// { low, high } of the median of `values`; null below two values, where there is nothing to resample.
export function medianInterval(values, { level = BOOTSTRAP.level, resamples = BOOTSTRAP.resamples, seed = BOOTSTRAP.seed } = {}) {
  if (values.length < 2) return null;
  const random = createRandom(seed);
  const statistics = new Float64Array(resamples);
  for (let i = 0; i < resamples; i += 1) statistics[i] = resampledMedian(values, random);
  return percentileInterval(statistics, level);
}

// { low, high } of median(a) / median(b), each set resampled on its own (the runs of two invocations are
// independent); null when either set has fewer than two values.
export function ratioInterval(a, b, { level = BOOTSTRAP.level, resamples = BOOTSTRAP.resamples, seed = BOOTSTRAP.seed } = {}) {
  if (a.length < 2 || b.length < 2) return null;
  const random = createRandom(seed);
  const statistics = new Float64Array(resamples);
  for (let i = 0; i < resamples; i += 1) statistics[i] = resampledMedian(a, random) / resampledMedian(b, random);
  return percentileInterval(statistics, level);
}

// Two intervals that share any value: their medians are not shown to differ at this level. Overlap is the
// conservative reading (two 95% intervals can overlap a little while the difference is still real), which
// is the side a benchmark should err on before it calls one database faster.
export function intervalsOverlap(a, b) {
  return a.low <= b.high && b.low <= a.high;
}
