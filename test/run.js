#!/usr/bin/env node
// `npm test`: every test file (or the files named on the command line), one file at a time, each test bounded in
// time, under a watchdog (test/watchdog.js) that ends a run which has stopped making progress and prints why.
//   BENCH_TEST_TIMEOUT_S  the longest one test may take (300); Node.js 20 applies it to each file as a whole,
//                         so there the bound is BENCH_TEST_FILE_TIMEOUT_S (1500) per file instead
//   BENCH_TEST_STALL_S    the longest time without a line of output before the watchdog ends the run (600)
//   BENCH_TEST_BUDGET_S   the longest the whole run may last (none unless set; CI sets it)
//   BENCH_TEST_SLOWEST    how many of the slowest files the last line names, with their times (10, a whole number)
//   BENCH_TEST_JOBS       how many files may run at once (1); above 1, files that need nothing in common (the same
//                         local server, the shared cache: test/schedule.js) run side by side (test/jobs.js)
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultCacheDir } from '../core/paths.js';
import { runFilesWatched } from './jobs.js';
import { fileNeeds } from './schedule.js';
import { runWatched } from './watchdog.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

// The positive number `name` holds (`fallback` when unset); `integer` asks for a whole one. Anything else ends
// the run with exit code 2, saying what the variable takes.
function positive(name, fallback, { integer = false, unit = 'seconds' } = {}) {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    process.stderr.write(`${name} must be a positive ${integer ? 'whole ' : ''}number of ${unit}, not "${text}"\n`);
    process.exit(2);
  }
  return value;
}

const seconds = (name, fallback) => positive(name, fallback);

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.js'))
    .map((entry) => path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}

// Node.js 22 and later bound each test with --test-timeout; Node.js 20 bounds each file's whole run with it.
const perTest = Number(process.versions.node.split('.')[0]) >= 22;
const timeoutS = perTest ? seconds('BENCH_TEST_TIMEOUT_S', 300) : seconds('BENCH_TEST_FILE_TIMEOUT_S', 1500);
const files = process.argv.length > 2 ? process.argv.slice(2) : testFiles(path.join(root, 'test'));

const nodeArgs = [
  '--test', '--test-concurrency=1', `--test-timeout=${timeoutS * 1000}`,
  '--test-reporter=tap', '--test-reporter-destination=stdout',
  '--test-reporter=./test/reporters/failures.js', '--test-reporter-destination=stdout',
];
const watch = {
  stallMs: seconds('BENCH_TEST_STALL_S', 600) * 1000,
  budgetMs: process.env.BENCH_TEST_BUDGET_S ? seconds('BENCH_TEST_BUDGET_S') * 1000 : 0,
  cacheDir: defaultCacheDir(),
  slowest: positive('BENCH_TEST_SLOWEST', 10, { integer: true, unit: 'files' }),
};
const jobs = positive('BENCH_TEST_JOBS', 1, { integer: true, unit: 'files' });

const code = jobs === 1 || files.length === 1
  ? await runWatched({ command: process.execPath, args: [...nodeArgs, ...files], ...watch, fileCount: files.length })
  : await runFilesWatched({
    files,
    needsByFile: new Map(files.map((file) => [file, fileNeeds(file, readFileSync(path.resolve(root, file), 'utf8'))])),
    jobs,
    command: process.execPath,
    argsFor: (file) => [...nodeArgs, file],
    ...watch,
  });
process.exitCode = code;
