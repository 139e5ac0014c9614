// The figure of the published nosql-tests charts: each database's median time as a percentage of the
// baseline database's median on the same workload (baseline = 100%, lower is faster), and whether the
// difference is shown at all by the runs (the two medians' confidence intervals do not overlap).
import { intervalsOverlap } from '../bootstrap.js';
import { ReportErrorCodes, reportError } from './errors.js';

// The reference of the published charts.
export const PREFERRED_BASELINE = 'arangodb';
const PREFERRED = Object.freeze({ id: PREFERRED_BASELINE, name: 'ArangoDB', reason: 'ArangoDB, the reference of the published nosql-tests charts' });

// In-process stores the tests use, not databases: never a baseline unless nothing else was run.
const NOT_DATABASES = new Set(['memory']);

const round1 = (value) => Math.round(value * 10) / 10;

function passedCompared(database, comparedNames) {
  return comparedNames.filter((name) => database.workloads[name]?.status === 'passed').length;
}

// { id, reason }: --baseline when given (it must be in the results), else the suite's reference when present
// (`preferred`: ArangoDB for the nosql-tests charts, PostgreSQL for Unum's graph tables, where it is 1x), else the
// database that passed the most compared workloads (all workloads when none is compared, as in an open loop; an
// in-process test store only when it is alone), ties broken by id, so the choice never depends on the order of
// the files.
export function chooseBaseline(databases, comparedNames, requested, { preferred = PREFERRED, names = comparedNames } = {}) {
  const ids = databases.map((database) => database.id);
  if (requested !== undefined && requested !== null) {
    if (!ids.includes(requested)) {
      throw reportError(ReportErrorCodes.BASELINE, `--baseline ${requested}: no result of that database was given; the results hold ${ids.join(', ')}`);
    }
    return { id: requested, reason: `named with --baseline` };
  }
  if (ids.includes(preferred.id)) return { id: preferred.id, reason: preferred.reason };
  const ranking = comparedNames.length > 0 ? comparedNames : names;
  const what = comparedNames.length > 0 ? 'compared workloads' : 'workloads';
  const ranked = databases
    .map((database) => ({ id: database.id, passed: passedCompared(database, ranking) }))
    .sort((a, b) => NOT_DATABASES.has(a.id) - NOT_DATABASES.has(b.id) || b.passed - a.passed
      || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const [best] = ranked;
  const tied = ranked.filter((entry) => entry.id !== best.id && entry.passed === best.passed && !NOT_DATABASES.has(entry.id))
    .map((entry) => entry.id);
  return {
    id: best.id,
    reason: `${preferred.name} is not in these results; ${best.id} passed the most ${what} (${best.passed} of ${ranking.length})`
      + (tied.length > 0 ? `, as many as ${tied.join(', ')}; the first by id is taken` : ''),
  };
}

// `results`: { [databaseId]: { status, medianMs, ci } } of one workload. Adds to each database's figures
// `normalisedPct` (null without a passed time of its own and of the baseline) and `significant`: true when
// the intervals are apart, false when they overlap, null for the baseline itself, where there is no percentage,
// and where either database has fewer than two runs: then no interval can be given, and `noInterval` holds the
// fewer runs of the two (a difference of any size may be noise, and saying "not significant" would claim a test
// that was never made).
export function normaliseWorkload(results, baselineId) {
  const baseline = results[baselineId];
  const baselinePassed = baseline?.status === 'passed' && baseline.medianMs > 0;
  return Object.fromEntries(Object.entries(results).map(([id, figures]) => {
    if (figures.status !== 'passed' || !baselinePassed) return [id, { ...figures, normalisedPct: null, significant: null }];
    if (id === baselineId) return [id, { ...figures, normalisedPct: 100, significant: null }];
    const noInterval = !figures.ci || !baseline.ci ? Math.min(figures.runs ?? 1, baseline.runs ?? 1) : null;
    const normalisedPct = round1((figures.medianMs / baseline.medianMs) * 100);
    if (noInterval !== null) return [id, { ...figures, normalisedPct, significant: null, noInterval }];
    const apart = !intervalsOverlap({ low: figures.ci.lowMs, high: figures.ci.highMs }, { low: baseline.ci.lowMs, high: baseline.ci.highMs });
    return [id, { ...figures, normalisedPct, significant: apart }];
  }));
}
