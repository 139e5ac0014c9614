// Bad input to the real CLI, as a newcomer types it: exit code 2 for bad usage and 1 for a run that could not
// complete, one short error line with any detail below it, never a stack trace, and nothing prepared first.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { BIN, spawnBench } from './helpers/cli.js';
import { freePort } from './helpers/net.js';
import { NOBODY, projectForNobody } from './helpers/nobody.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-cli-usage-'));
const cacheDir = path.join(work, 'cache');
after(() => rmSync(work, { recursive: true, force: true }));

function bench(args, { env = {}, timeoutMs = 60_000 } = {}) {
  return spawnBench(args, { cwd: work, env: { BENCH_CACHE_DIR: cacheDir, ...env }, timeoutMs });
}

// An executable run directly (a link to the bin, or node as another user): resolves { code, stdout, stderr }.
function runFile(file, args, { cwd, env = {}, uid, gid, timeoutMs = 30_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env: { ...process.env, ...env }, uid, gid, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} ${args.join(' ')} timed out\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

// The first line says what is wrong, under 200 characters; no line is a stack frame.
function assertShortError(stderr, pattern) {
  const lines = stderr.trimEnd().split('\n');
  const first = lines.find((line) => line.startsWith('error: '));
  assert.ok(first, stderr);
  assert.ok(first.length < 200, `${first.length} characters: ${first}`);
  assert.match(first, pattern);
  assert.ok(!lines.some((line) => /^\s+at /.test(line)), stderr);
}

test('every numeric flag of every command names its range and what was typed', async () => {
  const cases = [
    [['run', '--runs', 'abc'], /--runs must be a positive integer up to 1,000, got abc$/],
    [['run', '--stall-timeout', '-5'], /--stall-timeout must be a number of seconds above 0, at most 86,400, got -5$/],
    [['check', '--concurrency=1.5'], /--concurrency must be a positive integer up to 10,000, got 1.5$/],
    [['run', '--runs=1.5'], /--runs must be a positive integer up to 1,000, got 1.5$/],
    [['import', '--connect-timeout', '0'], /--connect-timeout must be a number of seconds above 0, at most 3,600, got 0$/],
    [['generate', '--seed', '-1'], /--seed must be an integer from 0 to 9,007,199,254,740,991, got -1$/],
    [['check', '--port', '70000'], /--port must be a positive integer up to 65,535, got 70000$/],
    [['run', '--server-pid', 'x'], /--server-pid must be a positive integer up to 2,147,483,647, got x$/],
    [['crash', '--trials', 'many'], /--trials must be a positive integer up to 1,000, got many$/],
    [['server', 'start', 'postgresql', '--port', '0'], /--port must be a positive integer up to 65,535, got 0$/],
    [['compare', 'a', 'b', '--fail-if-slower', '-5'], /--fail-if-slower must be a percentage of at least 0, got -5$/],
    [['run', '--runs', '2', '--runs', '3'], /--runs is given 2 times; give it once$/],
  ];
  for (const [args, pattern] of cases) {
    const { code, stderr } = await bench(args);
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
    assertShortError(stderr, pattern);
  }
  assert.equal(existsSync(path.join(cacheDir, 'datasets')), false, 'no dataset was prepared');
});

test('bench compare with one result set says what is missing', async () => {
  const { code, stderr } = await bench(['compare', 'x']);
  assert.equal(code, 2);
  assertShortError(stderr, /^error: bench compare needs two result sets: <a> <b>/);
  assert.doesNotMatch(stderr, /non-option arguments/);
});

test('an --out that cannot hold the results is refused at once, before any dataset is prepared', async () => {
  const file = path.join(work, 'a-file');
  writeFileSync(file, 'not a directory\n');
  const cases = [
    [['run', '--out', file], /^error: --out .*a-file is a file, not a directory$/],
    [['import', '--out', path.join(file, 'below')], /^error: --out .*below: .*a-file is a file, not a directory$/],
    // Node's recursive mkdir spins for ever here (bench run's case is in e2e-interrupt.test.js).
    [['generate', '--out', '/proc/foo'], /^error: --out \/proc\/foo: cannot create the directory/],
    [['report', 'x.json', '--out', work], /^error: --out .* is a directory; name a file in it$/],
    [['compare', 'a', 'b', '--out', path.join(file, 'c.txt')], /^error: the directory of --out .*c\.txt is a file, not a directory$/],
  ];
  for (const [args, pattern] of cases) {
    const { code, stderr } = await bench(args, { timeoutMs: 20_000 });
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
    assertShortError(stderr, pattern);
  }
  assert.equal(existsSync(path.join(cacheDir, 'datasets')), false, 'no dataset was prepared');
});

// Root writes through any permission bits, so the read-only folder is tried as an unprivileged user, on a copy of
// the project nobody can read when the clone's folders keep it out (helpers/nobody.js).
test('a read-only --out is refused before the dataset is generated and imported', { skip: process.getuid?.() !== 0 && 'needs root to run the CLI as nobody', timeout: 120_000 }, async (t) => {
  const project = projectForNobody();
  if (project.skip) return t.skip(project.skip);
  const shared = mkdtempSync(path.join(os.tmpdir(), 'bench-cli-readonly-'));
  try {
    chmodSync(shared, 0o755);
    const readOnly = path.join(shared, 'results');
    mkdirSync(readOnly, { mode: 0o555 });
    const nobodyCache = path.join(shared, 'cache');
    mkdirSync(nobodyCache, { mode: 0o777 });
    chmodSync(nobodyCache, 0o777);
    const bin = path.join(project.root, path.relative(ROOT, BIN));
    const { code, stderr } = await runFile(process.execPath, [bin, 'run', '--scale', 'tiny', '--runs', '1', '--out', readOnly], {
      cwd: shared, env: { BENCH_CACHE_DIR: nobodyCache, HOME: shared }, ...NOBODY,
    });
    assert.equal(code, 2, stderr);
    assertShortError(stderr, /^error: --out .*results: cannot write in it: permission denied$/);
    assert.deepEqual(readdirSync(nobodyCache), [], 'nothing generated or imported');
  } finally {
    rmSync(shared, { recursive: true, force: true });
    project.dispose();
  }
});

test('--skip-bad with a generated dataset is refused with why', async () => {
  const { code, stderr } = await bench(['run', '--scale', 'tiny', '--skip-bad']);
  assert.equal(code, 2);
  assertShortError(stderr, /--skip-bad applies to a real dataset's files \(--dataset pokec, cit-patents, file:<path>\)/);
});

test('--dataset: an unknown one, an edge list outside --suite graph, and file: without a path are refused with why', async () => {
  for (const [args, message] of [
    [['--dataset', 'bogus'], /unknown dataset "bogus"; valid datasets: synthetic, pokec, and for --suite graph cit-patents or file:<path>/],
    [['--dataset', 'cit-patents'], /--dataset cit-patents is an edge list: it serves --suite graph only/],
    [['--dataset', 'file:x.tsv'], /--dataset file:x.tsv is an edge list: it serves --suite graph only/],
    [['--dataset', 'file:', '--suite', 'graph', '--db', 'memory'], /--dataset file: needs a path/],
  ]) {
    const { code, stderr } = await bench(['run', '--scale', 'tiny', ...args]);
    assert.equal(code, 2, args.join(' '));
    assertShortError(stderr, message);
  }
});

test('an unreachable MySQL server reads like an unreachable PostgreSQL server', async () => {
  const port = await freePort();
  for (const db of ['mysql', 'postgresql']) {
    const { code, stderr } = await bench(['run', '--db', db, '--port', String(port), '--scale', 'tiny', '--runs', '1',
      '--out', path.join(work, 'unreachable')]);
    assert.equal(code, 1, stderr);
    assertShortError(stderr, new RegExp(`^error: ${db}: cannot connect to 127\\.0\\.0\\.1:${port} .*: connection refused \\(is the server running and listening there\\?\\)$`));
    assert.doesNotMatch(stderr, /ECONNREFUSED/);
  }
});

test('bench check against a server that is not there says so once, then how many cases did not run', async () => {
  const port = await freePort();
  const { code, stdout, stderr } = await bench(['check', '--db', 'postgresql', '--port', String(port)]);
  assert.equal(code, 1, stderr);
  assert.equal(stdout.match(/connection refused/g)?.length, 1, stdout);
  assert.match(stdout, /^ {2}\d+ case\(s\) not run: cannot connect to the server$/m);
  assert.match(stdout, /FAIL: cannot connect to PostgreSQL; 1 conformance case\(s\) failed, \d+ not run; the validated run not run/);
});

test('bench check --scale runs the scale it was given', async () => {
  const { code, stdout, stderr } = await bench(['check', '--db', 'memory', '--scale', 'small'], { timeoutMs: 300_000 });
  assert.equal(code, 0, `${stdout}\n${stderr}`);
  assert.match(stdout, /validated run of every workload of the social suite on the small dataset/);
  assert.match(stdout, /dataset synthetic small \(10000 profiles/);
});

test('--restart-cmd runs as typed but the result keeps only its program', async () => {
  const out = path.join(work, 'redacted');
  const marker = path.join(work, 'restarted.txt');
  const { code, stdout, stderr } = await bench(['run', '--scale', 'tiny', '--runs', '2', '--workload', 'aggregation', '--json',
    '--out', out, '--restart-cmd', `echo hunter2-secret >> '${marker}'`], { timeoutMs: 120_000 });
  assert.equal(code, 0, stderr);
  assert.equal(readFileSync(marker, 'utf8'), 'hunter2-secret\n', 'the command ran as typed');
  const [file] = readdirSync(out);
  const stored = readFileSync(path.join(out, file), 'utf8');
  assert.doesNotMatch(stored, /hunter2/);
  assert.doesNotMatch(stdout, /hunter2/);
  const result = JSON.parse(stored);
  assert.equal(result.config.restartCmd, 'echo [3 words redacted]');
  assert.match(result.command, /--restart-cmd echo \[3 words redacted\]$/);

  const help = await bench(['run', '--help']);
  assert.match(help.stdout.replace(/\s+/g, ' '), /the result keeps only its program name/);
});

test('the bench command runs through a link from another folder, as npm link and npm install -g make it', async () => {
  const elsewhere = path.join(work, 'elsewhere');
  mkdirSync(elsewhere);
  const link = path.join(elsewhere, 'bench');
  symlinkSync(BIN, link);
  // The package's own files, not the working folder's, decide what runs.
  writeFileSync(path.join(elsewhere, 'package.json'), '{"name":"bench","version":"9.9.9"}\n');
  const { code, stdout } = await runFile(link, ['--help'], { cwd: elsewhere });
  assert.equal(code, 0);
  assert.match(stdout, /Reproducible, validated database benchmarks/);
  const version = await runFile(link, ['--version'], { cwd: elsewhere });
  assert.equal(version.stdout.trim(), JSON.parse(readFileSync(new URL('../package.json', import.meta.url))).version);
  // yargs' own guess misses it in a clone whose folder has a dot in its name (mktemp's tmp.XXXXXX): "unknown".
  assert.match(readFileSync(BIN, 'utf8'), /\.version\(HARNESS_VERSION\)/, 'the version is named to yargs, not guessed');
});
