// Statistics in one place: run-to-run summaries (simple-statistics) and per-operation latencies
// (HDR histograms, encoded so that histograms of several runs or machines merge exactly).
import * as hdr from 'hdr-histogram-js';
import { max, mean, median, min, sampleStandardDeviation } from 'simple-statistics';

const HISTOGRAM = Object.freeze({
  lowestDiscernibleValue: 1, // 1 µs
  highestTrackableValue: 3_600_000_000, // one hour in µs
  numberOfSignificantValueDigits: 3,
});

const round3 = (value) => Math.round(value * 1000) / 1000;

export function summarizeRuns(milliseconds) {
  if (milliseconds.length === 0) return null;
  return {
    medianMs: round3(median(milliseconds)),
    meanMs: round3(mean(milliseconds)),
    stdevMs: milliseconds.length > 1 ? round3(sampleStandardDeviation(milliseconds)) : 0,
    minMs: round3(min(milliseconds)),
    maxMs: round3(max(milliseconds)),
  };
}

// A histogram answers a percentile with the highest value of its bucket, which can lie just above the exact
// largest latency (3 significant digits): no percentile is reported above the largest latency measured.
function percentiles(histogram, largestMs) {
  const at = (p) => round3(Math.min(histogram.getValueAtPercentile(p) / 1000, largestMs));
  return { p50: at(50), p90: at(90), p95: at(95), p99: at(99) };
}

// `latencies` are milliseconds of individual operations. Percentiles come from the histogram
// (3 significant digits); mean and max are exact.
export function summarizeLatencies(latencies) {
  const histogram = hdr.build(HISTOGRAM);
  let sum = 0;
  let largest = 0;
  for (const ms of latencies) {
    histogram.recordValue(Math.min(HISTOGRAM.highestTrackableValue, Math.max(1, Math.round(ms * 1000))));
    sum += ms;
    if (ms > largest) largest = ms;
  }
  const summary = {
    latencyMs: {
      ...percentiles(histogram, largest),
      max: round3(largest),
      mean: latencies.length > 0 ? round3(sum / latencies.length) : 0,
    },
    histogram: hdr.encodeIntoCompressedBase64(histogram),
  };
  histogram.destroy();
  return summary;
}

export function decodeHistogram(encoded) {
  return hdr.decodeFromCompressedBase64(encoded);
}

// The latency summary of several runs together: their encoded histograms are added, so the percentiles are
// those of every operation of every run (not an average of per-run percentiles); mean and max stay exact,
// the mean weighted by each run's operation count. Null when a run lacks its histogram.
export function mergeLatencies(runs) {
  if (runs.length === 0 || runs.some((run) => typeof run.histogram !== 'string' || !run.latencyMs)) return null;
  const merged = hdr.build(HISTOGRAM);
  let count = 0;
  let sum = 0;
  let largest = 0;
  for (const run of runs) {
    const decoded = decodeHistogram(run.histogram);
    merged.add(decoded);
    count += decoded.totalCount;
    sum += run.latencyMs.mean * decoded.totalCount;
    largest = Math.max(largest, run.latencyMs.max);
    decoded.destroy();
  }
  const summary = {
    ...percentiles(merged, largest), max: round3(largest),
    mean: count > 0 ? round3(sum / count) : 0, operations: count,
  };
  merged.destroy();
  return summary;
}

// The latency summary of one run whose operations several client processes timed, each summarized by
// latencyParts(): their histograms are added, so the summary is the one summarizeLatencies() makes of every
// latency together (same percentiles, exact mean and max).
export function mergeLatencyParts(parts) {
  const merged = hdr.build(HISTOGRAM);
  let count = 0;
  let sum = 0;
  let largest = 0;
  for (const part of parts) {
    const decoded = decodeHistogram(part.histogram);
    merged.add(decoded);
    decoded.destroy();
    count += part.count;
    sum += part.sum;
    largest = Math.max(largest, part.max);
  }
  const summary = {
    latencyMs: {
      ...percentiles(merged, largest), max: round3(largest),
      mean: count > 0 ? round3(sum / count) : 0,
    },
    histogram: hdr.encodeIntoCompressedBase64(merged),
  };
  merged.destroy();
  return summary;
}

// One client process's share of a run, for mergeLatencyParts(): its encoded histogram, and the count, sum and
// largest of its latencies unrounded.
export function latencyParts(latencies) {
  let sum = 0;
  let largest = 0;
  for (const ms of latencies) {
    sum += ms;
    if (ms > largest) largest = ms;
  }
  return { histogram: summarizeLatencies(latencies).histogram, count: latencies.length, sum, max: largest };
}
