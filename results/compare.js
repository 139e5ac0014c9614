// `bench compare`: two result sets of one database (two versions, two configurations), workload by workload.
// The speedup is median(a) / median(b) — above 1, b is faster — with a bootstrap interval of that ratio;
// a change counts only when its interval excludes 1.
import { geometricMean, median } from 'simple-statistics';
import { BOOTSTRAP, ratioInterval } from './bootstrap.js';
import { distinct, groupByDatabase, isCompared, poolWorkload, workloadNames } from './report/aggregate.js';
import { checkSameWork } from './report/build.js';
import { ReportErrorCodes, reportError } from './report/errors.js';
import { loadResults } from './report/load.js';

export const COMPARE_SCHEMA = 'db-shootout/compare@1';
export const COMPARE_STATISTICS = Object.freeze({
  speedup: 'median time of a / median time of b: above 1 means b is faster, below 1 that b is slower',
  interval: { method: 'percentile bootstrap of the ratio of the medians, each side resampled on its own', level: BOOTSTRAP.level, resamples: BOOTSTRAP.resamples, seed: BOOTSTRAP.seed },
  significance: 'a workload is faster or slower only when the interval excludes 1',
  summary: 'geometric mean of the speedups of the compared workloads both sides passed',
});

const round3 = (value) => Math.round(value * 1000) / 1000;
const round1 = (value) => Math.round(value * 10) / 10;

function describeSide(label, documents) {
  const groups = groupByDatabase(documents);
  if (groups.size > 1) {
    throw reportError(ReportErrorCodes.MIXED_DATABASES, `${label} holds results of ${groups.size} databases (${[...groups.keys()].join(', ')}); each side of a comparison must be one database`);
  }
  const [result] = documents.map((document) => document.result);
  return {
    label,
    files: documents.map(({ file }) => file),
    database: result.db.id,
    versions: distinct(documents.map((d) => d.result.db.version ?? null)),
    dataset: result.dataset.id,
    harness: distinct(documents.map((d) => d.result.harness && `${d.result.harness.version}${d.result.harness.commit ? ` ${d.result.harness.commit.slice(0, 12)}` : ''}`)),
    config: distinct(documents.map((d) => ({ concurrency: d.result.config?.concurrency ?? null, runs: d.result.config?.runs ?? null }))),
  };
}

function validTimes(name, documents) {
  return documents.map(({ result }) => result.workloads[name]).filter((entry) => entry?.status === 'passed')
    .flatMap((entry) => entry.runs.filter((run) => run.valid).map((run) => run.ms));
}

function verdictOf(interval) {
  if (!interval) return 'not significant';
  if (interval.low > 1) return 'faster';
  if (interval.high < 1) return 'slower';
  return 'not significant';
}

function compareWorkload(name, compared, a, b) {
  const side = (documents) => {
    const { status, runs, medianMs, reason } = poolWorkload(name, documents);
    return { status, runs, medianMs, reason };
  };
  const figures = { name, compared, a: side(a), b: side(b), speedup: null, ci: null, changePct: null, verdict: null };
  if (figures.a.status !== 'passed' || figures.b.status !== 'passed') return figures;
  const timesA = validTimes(name, a);
  const timesB = validTimes(name, b);
  const speedup = median(timesA) / median(timesB);
  const interval = ratioInterval(timesA, timesB);
  return {
    ...figures,
    exactSpeedup: speedup,
    speedup: round3(speedup),
    ci: interval && { low: round3(interval.low), high: round3(interval.high) },
    // How much longer (+) or shorter (−) b's median time is than a's.
    changePct: round1((1 / speedup - 1) * 100),
    verdict: verdictOf(interval),
  };
}

// A gate for CI: a workload fails when b is slower than a by more than `pct` percent and the slowdown is
// significant, or when b answered wrongly where a passed.
function gate(workloads, pct) {
  if (pct === null) return null;
  const failed = [];
  for (const w of workloads.filter((workload) => workload.compared)) {
    if (w.a.status === 'passed' && w.b.status === 'failed') {
      failed.push({ workload: w.name, reason: `failed validation in b${w.b.reason ? ` (${w.b.reason})` : ''}` });
    } else if (w.verdict === 'slower' && w.changePct > pct) {
      failed.push({ workload: w.name, reason: `${w.changePct}% slower (speedup ${w.speedup}, 95% CI ${w.ci.low} – ${w.ci.high})` });
    }
  }
  return { failIfSlowerPct: pct, passed: failed.length === 0, failed };
}

// `a`, `b`: [{ file, result }] from load.js; `labels`: how the user named them.
export function buildComparison(a, b, { labels = ['a', 'b'], failIfSlowerPct = null } = {}) {
  const sideA = describeSide(labels[0], a);
  const sideB = describeSide(labels[1], b);
  const documents = [...a, ...b];
  const names = workloadNames(documents);
  checkSameWork(documents, names, { allowMixed: false }, []);
  const warnings = [];
  if (sideA.database !== sideB.database) {
    warnings.push(`a is ${sideA.database} and b is ${sideB.database}: this compares two databases, not two versions of one (\`bench report\` is made for that)`);
  }
  // A document that records no machine cannot be told apart from the others.
  const machines = distinct(documents.filter(({ result }) => result.environment)
    .map(({ result }) => `${result.environment.hostname}: ${result.environment.cpu}, ${result.environment.cores} cores`));
  if (machines.length > 1) warnings.push(`the results come from different machines (${machines.join('; ')})`);
  const workloads = names.map((name) => compareWorkload(name, isCompared(name, documents), a, b));
  const comparable = workloads.filter((w) => w.compared && w.speedup !== null);
  const count = (verdict) => comparable.filter((w) => w.verdict === verdict).length;
  return {
    schema: COMPARE_SCHEMA,
    statistics: COMPARE_STATISTICS,
    a: sideA,
    b: sideB,
    workloads: workloads.map(({ exactSpeedup: _, ...w }) => w),
    summary: {
      geometricMeanSpeedup: comparable.length > 0 ? round3(geometricMean(comparable.map((w) => w.exactSpeedup))) : null,
      compared: comparable.length,
      faster: count('faster'),
      slower: count('slower'),
      notSignificant: count('not significant'),
      notComparable: workloads.filter((w) => w.compared && w.speedup === null).map((w) => w.name),
    },
    gate: gate(workloads, failIfSlowerPct),
    warnings,
  };
}

export async function createComparison(targetA, targetB, options = {}) {
  const [a, b] = await Promise.all([loadResults([targetA]), loadResults([targetB])]);
  return buildComparison(a, b, { labels: [targetA, targetB], ...options });
}
