// The report's data model (documented in results/README.md): every figure the formats print, computed once.
// The same documents and flags give the same model, so every format of a report is reproducible.
import { BOOTSTRAP } from '../bootstrap.js';
import { clusterSeries } from './clusters.js';
import { distinct, groupByDatabase, isCompared, poolDatabase, workloadNames } from './aggregate.js';
import { countFiles, datasetGroups, fileLines, selectDataset } from './datasets.js';
import { durabilityReport, isCrashDocument } from './durability.js';
import { ReportErrorCodes, reportError } from './errors.js';
import { chooseBaseline, normaliseWorkload } from './normalise.js';
import { suiteRendering } from './suites/index.js';
import { compareTerms, databaseTerms } from './terms.js';

export const REPORT_SCHEMA = 'db-shootout/report@1';
export const STATISTICS = Object.freeze({
  centre: 'median of the valid runs (every run of every given file of the database)',
  interval: { method: 'percentile bootstrap of the median', level: BOOTSTRAP.level, resamples: BOOTSTRAP.resamples, seed: BOOTSTRAP.seed },
  significance: 'a database differs from the baseline when the two 95% intervals do not overlap',
  normalised: 'median time / the baseline\'s median time × 100 (lower is faster)',
});

function describeDataset(result) {
  const { id, name = null, scale = null, seed = null, profiles = null, relations = null } = result.dataset;
  return { id, name, scale, seed, profiles, relations };
}

// A result document of a time before suites is the social suite's.
export const suiteOf = (result) => result.suite ?? 'social';

// Results of different suites measure different things under the same words: never reported together, whatever
// the flags.
function checkOneSuite(documents) {
  const suites = distinct(documents.map(({ result }) => suiteOf(result)));
  if (suites.length < 2) return;
  throw reportError(ReportErrorCodes.MIXED_SUITES, [
    `the results are of ${suites.length} different suites: ${suites.join(', ')}`,
    ...suites.flatMap((suite) => [`${suite}:`, ...fileLines(documents.filter(({ result }) => suiteOf(result) === suite).map(({ file }) => file), '  ')])
      .map((line) => `  ${line}`),
    '  report each suite on its own (one folder or list of files per suite), or choose one with --suite <id>',
  ].join('\n'));
}

// The documents must describe the same work: one dataset, and the same operations per run in each workload
// (a preset can shorten a workload). Otherwise a percentage compares different work: refused, with the
// `remedy` line when the command has one, or a warning with `allowMixed`. The error's first line is short; the
// files and any further difference follow, one a line.
export function checkSameWork(documents, names, { allowMixed, remedy = null }, warnings) {
  checkOneSuite(documents);
  const problems = [];
  const groups = datasetGroups(documents);
  if (groups.length > 1) {
    problems.push({
      summary: `the results are of ${groups.length} different datasets: ${groups.map((group) => `${group.id} (${countFiles(group.files)})`).join('; ')}`,
      details: groups.flatMap((group) => [`${group.id}:`, ...fileLines(group.files, '  ')]),
    });
  }
  for (const name of names) {
    const counts = distinct(documents.map(({ result }) => result.workloads[name]?.ops).filter((ops) => ops > 0));
    if (counts.length > 1) problems.push({ summary: `${name} ran ${counts.join(' / ')} operations per run in different files`, details: [] });
  }
  if (problems.length === 0) return;
  if (!allowMixed) {
    const [first, ...more] = problems;
    throw reportError(ReportErrorCodes.MIXED_DATASETS, [
      first.summary,
      ...[...first.details, ...more.flatMap((problem) => [problem.summary, ...problem.details])].map((line) => `  ${line}`),
      '  results of different work are not comparable',
      ...(remedy ? [`  ${remedy}`] : []),
    ].join('\n'));
  }
  warnings.push(...problems.map((problem) => `${problem.summary}: the figures do not compare the same work (--allow-mixed)`));
}

function machineOf(result) {
  const { cpu = null, cores = null, memoryBytes = null, os = null, hostname = null } = result.environment ?? {};
  return { cpu, cores, memoryBytes, os, hostname };
}

function consistencyWarnings(documents, groups, warnings) {
  const machines = distinct(documents.map(({ result }) => machineOf(result)));
  if (machines.length > 1) {
    warnings.push(`the results come from ${machines.length} different machines (${machines.map((m) => `${m.hostname}: ${m.cpu}, ${m.cores} cores`).join('; ')}): differences between databases include differences between machines`);
  }
  // A suite that runs a list of levels names the level in every workload key: different lists compare nothing
  // different.
  const concurrency = distinct(documents.map(({ result }) => result.config?.concurrency ?? null).filter((value) => !Array.isArray(value)));
  if (concurrency.length > 1) warnings.push(`the results were run at different concurrencies (${concurrency.join(', ')})`);
  const harnesses = distinct(documents.map(({ result }) => result.harness && `${result.harness.version} ${result.harness.commit ?? ''}`.trim()));
  if (harnesses.length > 1) warnings.push(`the results come from different harness versions (${harnesses.join('; ')})`);
  for (const [id, group] of groups) {
    const versions = distinct(group.map(({ result }) => result.db.version ?? null));
    if (versions.length > 1) warnings.push(`${id} was run in ${versions.length} versions (${versions.join(', ')}); its runs are pooled`);
  }
  for (const { file, result } of documents) {
    if (result.complete === false && Object.keys(result.workloads).length > 0) {
      warnings.push(`${file} is incomplete (${result.interrupted ? 'interrupted' : result.error?.message ?? 'stopped early'}); its completed runs are used`);
    }
  }
}

function orderDatabases(databases, baselineId) {
  return [...databases.filter((d) => d.id === baselineId), ...databases.filter((d) => d.id !== baselineId)];
}

const REMEDY = 'pass --allow-mixed to report them anyway, with a warning';

// With `suite` (bench report --suite), only the run results of that suite; none is an error naming those found.
function ofSuite(documents, suite) {
  if (!suite) return documents;
  const chosen = documents.filter(({ result }) => suiteOf(result) === suite);
  if (chosen.length === 0 && documents.length > 0) {
    throw reportError(ReportErrorCodes.NO_RESULTS,
      `no result of the ${suite} suite in the files; they hold results of: ${distinct(documents.map(({ result }) => suiteOf(result))).join(', ')}`);
  }
  return chosen;
}

// `given`: [{ file, result }] from load.js. Options: `baseline` (a database id), `dataset` (a dataset id),
// `allowMixed`, `suite` (only that suite's results). Crash tests (`bench crash`) go to `durability`; a report of them alone has no workloads.
export function buildReport(given, options = {}) {
  const runs = ofSuite(given.filter((document) => !isCrashDocument(document)), options.suite);
  const durability = durabilityReport(given.filter(isCrashDocument));
  if (runs.length === 0) {
    return {
      schema: REPORT_SCHEMA, statistics: STATISTICS, baseline: null, datasets: [], datasetChoice: null, databases: [], workloads: [], durability, warnings: [],
    };
  }
  return { ...buildRunReport(runs, options), durability };
}

function buildRunReport(given, { baseline: requested, dataset, allowMixed = false, allowUnequalTerms = false }) {
  const warnings = [];
  // Different suites first: choosing the latest dataset would otherwise drop a whole suite with a note.
  checkOneSuite(given);
  const { documents, choice } = selectDataset(given, { dataset, allowMixed });
  const names = workloadNames(documents);
  checkSameWork(documents, names, { allowMixed, remedy: REMEDY }, warnings);
  const groups = groupByDatabase(documents);
  consistencyWarnings(documents, groups, warnings);
  const pooled = [...groups.entries()].map(([id, group]) => ({ ...poolDatabase(id, group, names), terms: databaseTerms(group) }));
  // Databases that wrote under different terms did different work: no percentages unless asked for.
  const terms = compareTerms(pooled);
  const comparison = terms.equal || pooled.length < 2
    ? { refused: false, reason: null }
    : allowUnequalTerms
      ? { refused: false, reason: 'shown as asked (--allow-unequal-terms), though the terms differ' }
      : { refused: true, reason: 'no percentages or gains: the databases ran under different terms (pass --allow-unequal-terms to show them anyway)' };
  if (!terms.equal) warnings.push(terms.line);
  const comparedNames = names.filter((name) => isCompared(name, documents));
  const suite = suiteOf(documents[0].result);
  const baseline = chooseBaseline(pooled, comparedNames, requested, { names, ...(suiteRendering(suite).baseline ? { preferred: suiteRendering(suite).baseline } : {}) });
  const databases = orderDatabases(pooled, baseline.id);

  const workloads = names.map((name) => {
    const compared = isCompared(name, documents);
    const results = Object.fromEntries(databases.map((database) => [database.id, database.workloads[name]]));
    const description = documents.map(({ result }) => result.workloads[name]?.description).find(Boolean) ?? null;
    const ops = Math.max(0, ...Object.values(results).map((figures) => figures.ops ?? 0)) || null;
    // An open-loop step's time is its schedule's: reported, never compared (isCompared).
    const openLoop = documents.some(({ result }) => result.workloads[name]?.params?.rate > 0);
    return {
      name, compared, openLoop, description, ops,
      results: compared && !comparison.refused ? normaliseWorkload(results, baseline.id)
        : Object.fromEntries(Object.entries(results).map(([id, figures]) => [id, { ...figures, normalisedPct: null, significant: null }])),
    };
  });
  if (workloads.some((workload) => Object.values(workload.results).some((figures) => figures.clientBound))) {
    warnings.push('figures marked ! may understate the database: the harness itself was the bottleneck (over 85% of a core, '
      + 'its event loop over 90% busy, or its CPU over half of each operation\'s latency)');
  }
  const own = suiteRendering(suite).model?.({ workloads, databases, documents, comparison });
  const clusters = clusterSeries(documents, names);
  if (own) warnings.push(...own.warnings);

  return {
    schema: REPORT_SCHEMA,
    suite,
    statistics: STATISTICS,
    baseline,
    terms: { equal: terms.equal, line: terms.line },
    comparison,
    datasets: distinct(documents.map(({ result }) => describeDataset(result))),
    datasetChoice: choice,
    databases: databases.map(({ workloads: _, ...database }) => database),
    workloads,
    ...(own ? { [suite]: own.block } : {}),
    ...(clusters ? { clusters } : {}),
    warnings,
  };
}
