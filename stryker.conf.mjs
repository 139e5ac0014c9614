// Mutation testing (`npm run test:mutation`): Stryker changes one expression at a time and runs the fast unit
// tests of the folder it changed; a change that no test notices marks a check that is missing. Not part of
// `npm test` or CI: it takes minutes per folder. What survived, and why, is in test/MUTATION.md.
//
//   STRYKER_SCOPE=results,runner npm run test:mutation      # the scopes below, default all of them
//   STRYKER_SCOPE=runner npm run test:mutation -- --mutate runner/execute.js   # narrower still
//
// Each scope names its files and the test files that check them (with a name pattern where a file also spawns
// the CLI): no database server, no spawned CLI, a few seconds per mutant. The test files run one after the
// other and stop at the first that fails, so a mutant costs only the tests up to the one that notices it.

import { readdirSync } from 'node:fs';

const COMPARE_SYNTHETIC = '--test-name-pattern=^synthetic test/report/compare.test.js';
const STATISTICS = ['results/stats.js', 'results/bootstrap.js', 'results/compare.js', 'results/model.js'];

// The report tests that open a page in chromium are left out of the report's sub-scopes (a browser per mutant):
// a name pattern that matches every other test (and not the file's root, which would select them all).
const NO_BROWSER = "--test-name-pattern='^(?!<root>$|.*in a browser)'";
const REPORT_SUITE_TESTS = (file) => `${NO_BROWSER} ${file}`;

const SCOPES = {
  statistics: {
    mutate: STATISTICS,
    tests: ['test/result-model.test.js', 'test/stats.test.js', 'test/report/statistics.test.js', COMPARE_SYNTHETIC, 'test/report/significance.test.js'],
  },
  report: {
    mutate: [
      ...readdirSync('results').filter((name) => name.endsWith('.js')).map((name) => `results/${name}`).filter((file) => !STATISTICS.includes(file)),
      'results/report/**/*.js',
    ],
    tests: ['test/report/pooling.test.js', 'test/report/significance.test.js', 'test/report/statistics.test.js', 'test/report/compare-format.test.js', 'test/report/report.test.js', COMPARE_SYNTHETIC, 'test/write.test.js'],
  },
  // The report scope in parts, each file with the tests that read what it makes (no spawned CLI, no browser).
  'report-crud': { mutate: ['results/report/suites/crud.js'], tests: [REPORT_SUITE_TESTS('test/report/crud-report.test.js')] },
  'report-mixed': { mutate: ['results/report/suites/mixed.js'], tests: [REPORT_SUITE_TESTS('test/report/mixed-report.test.js')] },
  // The graph report's model on documents made up here (a second), the terminal's table, and only then the real runs
  // of graph-report.test.js (five seconds) for a change the first two let through.
  'report-graph': {
    mutate: ['results/report/suites/graph.js', 'results/graph-table.js'],
    tests: ['test/report/graph-model.test.js', 'test/report/terminal.test.js', REPORT_SUITE_TESTS('test/report/graph-report.test.js')],
  },
  'report-queries': {
    mutate: ['results/report/suites/queries.js', 'results/report/suites/index.js', 'results/queries-table.js'],
    tests: ['test/report/queries-model.test.js', 'test/report/terminal.test.js', 'test/report/suites.test.js', REPORT_SUITE_TESTS('test/report/queries-report.test.js')],
  },
  'report-html': {
    mutate: ['results/report/html.js', 'results/report/blocks.js', 'results/report/format-text.js', 'results/report/format-csv.js'],
    tests: ['test/report/blocks.test.js', 'test/report/formats.test.js', 'test/report/html-page.test.js', 'test/report/html-charts.test.js', 'test/report/significance.test.js', 'test/report/report.test.js', REPORT_SUITE_TESTS('test/report/crud-report.test.js'), REPORT_SUITE_TESTS('test/report/mixed-report.test.js')],
  },
  'report-build': {
    mutate: ['results/report/build.js', 'results/report/datasets.js', 'results/report/durability.js', 'results/report/errors.js', 'results/report/load.js', 'results/report/index.js'],
    tests: ['test/report/build.test.js', 'test/report/load.test.js', 'test/report/report.test.js', 'test/report/significance.test.js', 'test/report/suites.test.js',
      "--test-name-pattern='^(?!<root>$|bench report)' test/report/datasets.test.js", "--test-name-pattern='^(?!<root>$|bench report)' test/crash-report.test.js"],
  },
  'report-files': {
    mutate: ['results/compare-format.js', 'results/compare-html.js', 'results/format.js', 'results/import-summary.js', 'results/table.js', 'results/write.js'],
    tests: ['test/report/terminal.test.js', 'test/report/compare-format.test.js', 'test/write.test.js', 'test/cli-errors.test.js', 'test/resources/client.test.js',
      "--test-name-pattern='import (summary|line)' test/import.test.js"],
  },
  'report-merge': { mutate: ['results/merge.js'], tests: ["--test-name-pattern='^merging the shards' test/merge.test.js"] },
  runner: {
    mutate: ['runner/**/*.js'],
    tests: ['test/runner-run.test.js', 'test/runner.test.js', 'test/validation.test.js', 'test/suites/crud.test.js', 'test/open-loop.test.js',
      'test/shards.test.js', 'test/clients.test.js'],
  },
  // The runner in parts, each file with the tests that drive it (the open loop's schedule, the shards' split and
  // meeting, the load clients' processes); the runner scope holds them all.
  'runner-open-loop': {
    mutate: ['runner/open-loop.js'],
    // The exact tests first (a second); the whole file, with its real schedules and stalls (twenty seconds), after them.
    tests: ["--test-name-pattern='^open loop, exactly' test/open-loop.test.js", 'test/open-loop.test.js'],
  },
  // The rest of the runner (run.js, execute.js, restart.js), with the tests that run it: the checks and the crud
  // suite's rounds on the memory store first, then the runs, the closed loop's times, the timed loop and the
  // connections refused, the shards' meeting in one process and the runs from two client processes.
  'runner-run': {
    mutate: ['runner/run.js', 'runner/execute.js', 'runner/restart.js'],
    tests: ['test/validation.test.js', 'test/suites/crud.test.js', 'test/runner-run.test.js', "--test-name-pattern='^closed loop with times' test/open-loop.test.js",
      'test/runner.test.js', "--test-name-pattern='^the shards. meeting' test/shards.test.js", "--test-name-pattern='^runs from two client processes' test/clients.test.js"],
  },
  // The exact tests first (a second or two); the meetings and the runs of whole shards after them.
  'runner-shards': {
    mutate: ['runner/shards.js'],
    tests: ["--test-name-pattern='^shards, exactly' test/shards.test.js", 'test/shards.test.js'],
  },
  'runner-clients': {
    mutate: ['runner/clients.js', 'runner/client-worker.js'],
    tests: ["--test-name-pattern='^(the split of a step over|merged latencies|the client-bound flag|--clients refusals|clients, exactly)' test/clients.test.js",
      'test/clients.test.js'],
  },
  workloads: {
    mutate: ['workloads/**/*.js'],
    tests: ['test/workloads/compare.test.js', 'test/workloads/checks.test.js', 'test/validation.test.js', 'test/suites/crud.test.js', 'test/suites/mixed.test.js', 'test/workloads/declarations.test.js'],
  },
  graph: {
    mutate: ['workloads/graph/check.js', 'workloads/graph/reference.js', 'workloads/graph/params.js', 'workloads/graph/workloads.js'],
    tests: ['test/graph.test.js'],
  },
  // The mixed suite's unit tests first (under a second), its runs through the runner (ten seconds) only for a
  // change they let through.
  mixed: {
    mutate: ['workloads/mixed/*.js'],
    tests: ["--test-name-pattern='^(mixed key|mixed operation|the consistency|mixed plan)' test/suites/mixed.test.js", 'test/workloads/declarations.test.js',
      "--test-name-pattern='^mixed through the runner' test/suites/mixed.test.js"],
  },
  // The rest of workloads/ in parts, each with the tests that exercise its files: the unit tests first, the runs
  // through the runner (the memory store or SQLite, a second or more) after them.
  'workloads-queries': {
    mutate: ['workloads/queries/*.js'],
    tests: ['test/workloads/queries-suite.test.js', "--test-name-pattern='^(?!<root>$|a run measures|a query that stalls)' test/queries.test.js",
      "--test-name-pattern='^(a run measures|a query that stalls)' test/queries.test.js"],
  },
  'workloads-suites': {
    mutate: ['workloads/crud/documents.js', 'workloads/crud/suite.js', 'workloads/social/presets.js', 'workloads/social/suite.js', 'workloads/index.js'],
    tests: ['test/workloads/suites.test.js', 'test/workloads/social-suite.test.js', 'test/workloads/crud-documents.test.js', 'test/workloads/declarations.test.js', 'test/suites/crud.test.js',
      "--test-name-pattern='^(the presets|givenFlags|a limited dataset|a preset runs on the real)' test/presets.test.js", 'test/validation.test.js'],
  },
  'workloads-graph-load': {
    mutate: ['workloads/graph/load.js', 'workloads/graph/suite.js'],
    tests: ['test/workloads/graph-suite.test.js', 'test/graph-load.test.js', REPORT_SUITE_TESTS('test/report/graph-report.test.js')],
  },
  import: {
    mutate: ['import/**/*.js'],
    tests: ['test/import.test.js'],
  },
  datasets: {
    mutate: ['datasets/read.js', 'datasets/profile-parser.js', 'datasets/relation-parser.js', 'datasets/read-source.js', 'datasets/profile-lines.js', 'datasets/import-rows.js'],
    tests: ['test/datasets/relation-parser.test.js', 'test/datasets/profile-parser.test.js', 'test/datasets/read.test.js', 'test/datasets/read-quirks.test.js',
      'test/datasets/profile-lines.test.js', 'test/datasets/import-rows.test.js'],
  },
  // The datasets scope in parts, each file with the tests that read what it makes: the profile reader (the fast
  // readers' tests first; the COPY lines' for the parser's JSON text), and the lines made for COPY and the rows made
  // on a thread of their own.
  'datasets-profiles': {
    mutate: ['datasets/profile-parser.js', 'datasets/read.js'],
    tests: ['test/datasets/read.test.js', 'test/datasets/profile-parser.test.js', 'test/datasets/read-quirks.test.js', 'test/datasets/profile-lines.test.js'],
  },
  'datasets-lines': {
    mutate: ['datasets/profile-lines.js', 'datasets/import-rows.js'],
    tests: ['test/datasets/profile-lines.test.js', 'test/datasets/import-rows.test.js'],
  },
};

// By default every scope but the parts of the report, the datasets, the workloads and the runner (the report, datasets,
// workloads and runner scopes hold them).
const names = (process.env.STRYKER_SCOPE ?? Object.keys(SCOPES).filter((name) => !/^(report|datasets|workloads|runner)-/.test(name)).join(',')).split(',').map((name) => name.trim()).filter(Boolean);
const unknown = names.filter((name) => !(name in SCOPES));
if (unknown.length > 0) throw new Error(`STRYKER_SCOPE: unknown scope ${unknown.join(', ')}; scopes: ${Object.keys(SCOPES).join(', ')}`);
const chosen = names.map((name) => SCOPES[name]);
const tests = [...new Set(chosen.flatMap((scope) => scope.tests))];
const label = names.join('-');

export default {
  testRunner: 'command',
  commandRunner: {
    command: tests.map((file) => `node --test ${file} >/dev/null 2>&1`).join(' && '),
  },
  mutate: chosen.flatMap((scope) => scope.mutate),
  // The command runner cannot tell which test covers which mutant: every mutant runs the scope's tests.
  coverageAnalysis: 'off',
  concurrency: 1,
  // A mutant that makes the tests loop (a stall watchdog that never fires) is cut off and counted as killed.
  timeoutMS: 20_000,
  timeoutFactor: 2,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${label}.html` },
  jsonReporter: { fileName: `reports/mutation/${label}.json` },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
