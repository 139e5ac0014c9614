#!/usr/bin/env node
// What a newcomer meets: 75 inputs a new user types wrong or tries first (bad flags and values, unknown names,
// unreachable servers, malformed and missing files, outputs that cannot be written), each run through the real
// CLI in a scratch folder with a scratch cache, printed with its exit code and the first lines of its answer.
// Every answer should name what was wrong and what to do, in one line, with exit 2 for bad usage and 1 for a
// failure found at work. Run it after changing a message: `node benchmarks/newcomer-sweep.js [--lines 2]`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/bench.js', import.meta.url));
const { values } = parseArgs({ options: { lines: { type: 'string', default: '2' } } });
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-sweep-'));
const cache = path.join(work, 'cache');
const out = path.join(work, 'out');
mkdirSync(out);
const malformed = path.join(work, 'malformed.json');
writeFileSync(malformed, '{ "schema": "db-shootout/result@1", ');
const notResult = path.join(work, 'other.json');
writeFileSync(notResult, JSON.stringify({ hello: 'world' }));
const empty = path.join(work, 'empty');
mkdirSync(empty);
const aFile = path.join(work, 'a-file');
writeFileSync(aFile, 'x');
const edgesBad = path.join(work, 'bad-edges.tsv');
writeFileSync(edgesBad, '1\t2\nthree\tfour\n');

// Two result files for the report and compare inputs: SQLite and memory, crud, tiny.
const results = path.join(work, 'results');
for (const db of ['sqlite', 'memory']) {
  spawnSync(process.execPath, [BIN, 'run', '--suite', 'crud', '--db', db, '--ops', '50', '--concurrency', '1', '--cache-dir', cache, '--out', results, '--quiet'], { stdio: 'ignore' });
}
const social = path.join(work, 'social');
spawnSync(process.execPath, [BIN, 'run', '--db', 'memory', '--scale', 'tiny', '--runs', '1', '--cache-dir', cache, '--out', social, '--quiet'], { stdio: 'ignore' });

const c = ['--cache-dir', cache];
const o = ['--out', out];
const INPUTS = [
  [], ['--help'], ['frob'], ['runn'], ['run', '--help'],
  ['run', '--db', 'nosuch', ...c], ['run', '--db', 'postgres', ...c], ['run', '--db', 'sqlite,nosuch', ...c], ['run', '--suite', 'nosuch', ...c], ['run', '--scale', 'huge', ...c],
  ['run', '--runs', '0', ...c], ['run', '--runs', '-1', ...c], ['run', '--runs', 'abc', ...c], ['run', '--runs', '1.5', ...c], ['run', '--concurrency', '0', ...c],
  ['run', '--concurrency', 'abc', ...c], ['run', '--workload', '', ...c], ['run', '--workload', 'nosuch', ...c], ['run', '--suite', 'crud', '--workload', 'neighbors', ...c], ['run', '--out', '/proc/nope', ...c],
  ['run', '--out', aFile, ...c], ['run', '--db', 'postgresql', '--port', '1', ...c, ...o], ['run', '--db', 'postgresql', '--port', '99999', ...c], ['run', '--db', 'postgresql', '--host', 'nosuch.invalid', ...c, ...o], ['run', '--shape', 'x', ...c],
  ['run', '--suite', 'crud', '--shape', 'x', ...c], ['run', '--suite', 'queries', '--size', '5k', ...c], ['run', '--suite', 'mixed', '--rate', 'abc', ...c], ['run', '--suite', 'mixed', '--rate', '0', ...c], ['run', '--suite', 'mixed', '--distribution', 'nosuch', ...c],
  ['run', '--suite', 'crud', '--ops', '0', ...c], ['run', '--suite', 'crud', '--ops', 'abc', ...c], ['run', '--suite', 'graph', '--dataset', 'file:/nonexistent.tsv', ...c, ...o], ['run', '--suite', 'graph', '--dataset', `file:${edgesBad}`, ...c, ...o], ['run', '--suite', 'graph', '--dataset', 'nosuch', ...c],
  ['run', '--dataset', 'pokec', ...c, ...o], ['run', '--skip-bad', ...c], ['run', '--cache', '10XB', ...c], ['run', '--cache', '0', ...c], ['run', '--durability', 'maybe', ...c],
  ['run', '--suite', 'crud', '--sync', '--durability', 'relaxed', ...c], ['run', '--clients', '0', ...c], ['run', '--clients', '1000', ...c], ['run', '--suite', 'mixed', '--shard', '3/2', ...c], ['run', '--shard', '0/2', ...c],
  ['run', '--preset', 'nosuch', ...c], ['run', '--preset', 'crud-2012', '--suite', 'social', ...c], ['run', '--stall-timeout', '0', ...c], ['run', '--db', 'postgresql', '--server-pid', '999999', ...c], ['run', '--server-pid', '1', ...c],
  ['run', '--db', 'postgresql', '--driver', 'nosuch', ...c], ['run', '--seed', 'abc', ...c], ['run', '--frobnicate', ...c], ['run', 'extra', ...c], ['report'],
  ['report', '/nonexistent'], ['report', malformed], ['report', notResult], ['report', empty], ['report', results, '--format', 'pdf'],
  ['report', results, '--baseline', 'nosuch'], ['report', results, '--out', '/proc/nope/report.txt'], ['report', results, social], ['compare', results], ['compare', path.join(results, '..', 'results'), social],
  ['compare', results, results, '--fail-if-slower', 'abc'], ['merge', results], ['merge', results, '--out', path.join(work, 'merged.json')], ['list', '--suite', 'nosuch'], ['check', '--db', 'nosuch', ...c],
  ['check', ...c, '--scale', 'huge'], ['server', 'frobnicate'], ['server', 'start', 'nosuch'], ['server', 'stop', 'postgresql', ...c], ['data', 'fetch', 'nosuch', ...c],
  ['crash', '--db', 'memory', ...c], ['k8s', 'job', '--suite', 'crud'], ['generate', '--scale', 'huge'], ['generate', '--out', '/proc/nope', '--scale', 'tiny'], ['import', '--db', 'nosuch', ...c],
];

let n = 0;
try {
  for (const args of INPUTS) {
    n += 1;
    const shown = args.map((arg) => (arg === '' ? '""' : arg.replaceAll(work, '$WORK')))
      .filter((arg, i, all) => !(arg === '--cache-dir' || all[i - 1] === '--cache-dir'));
    const run = spawnSync(process.execPath, [BIN, ...args], { cwd: work, encoding: 'utf8', timeout: 120_000, env: { ...process.env, BENCH_CACHE_DIR: cache } });
    // From the error, when there is one (progress lines may come before it), else from the top.
    const lines = (run.stderr.trim() || run.stdout.trim()).split('\n');
    const at = Math.max(0, lines.findIndex((line) => line.startsWith('error: ')));
    const answer = lines.slice(at, at + Number(values.lines)).map((line) => line.replaceAll(work, '$WORK'));
    console.log(`${String(n).padStart(2)}. bench ${shown.join(' ')}  → exit ${run.status ?? run.signal}`);
    for (const line of answer) console.log(`      ${line.length > 220 ? `${line.slice(0, 217)}...` : line}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`${n} inputs`);
