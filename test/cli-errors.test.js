// What the CLI prints and stores when things go wrong, without spawning it: errors in words, the hint for a
// malformed dataset line, the redacted --restart-cmd, the event-loop note under the table, and the bounded
// filesystem steps behind --out.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { makeDirectory } from '../core/paths.js';
import { MAX_FIRST_LINE, formatError, isConnectionFailure } from '../cli/errors.js';
import { redactCommand, storedResult } from '../cli/redact.js';
import { formatTable } from '../results/table.js';
import { claimResultFile, resultFileName } from '../results/write.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-cli-errors-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a long first error line is cut at a clause, the rest indented below it', () => {
  const message = `${'a'.repeat(150)}: ${'b'.repeat(100)}; ${'c'.repeat(30)}\nthe runs completed so far are in /x.json`;
  const lines = formatError(new Error(message)).split('\n');
  assert.equal(lines[0], `error: ${'a'.repeat(150)}:`);
  assert.ok(lines.every((line) => line.length < MAX_FIRST_LINE + 10), lines.join('\n'));
  assert.deepEqual(lines.slice(1), [`  ${'b'.repeat(100)}; ${'c'.repeat(30)}`, '  the runs completed so far are in /x.json']);
  assert.equal(formatError(new Error('short')), 'error: short');
});

test('raw system errors are said in words, naming the path', () => {
  const raw = Object.assign(new Error("EACCES: permission denied, open '/r/x.json'"),
    { code: 'EACCES', errno: -13, syscall: 'open', path: '/r/x.json' });
  assert.equal(formatError(raw), 'error: cannot open /r/x.json: permission denied');
  const dirError = Object.assign(new Error("EISDIR: illegal operation on a directory, open '/r'"),
    { code: 'EISDIR', errno: -21, syscall: 'open', path: '/r' });
  assert.equal(formatError(dirError), 'error: cannot open /r: illegal operation on a directory');
});

test('a driver\'s raw connection error reads as the PostgreSQL adapter words it', () => {
  const mysql = new BenchError(ErrorCodes.CONNECT, 'mysql: cannot connect to 127.0.0.1:3307 as root: connect ECONNREFUSED 127.0.0.1:3307');
  assert.equal(formatError(mysql),
    'error: mysql: cannot connect to 127.0.0.1:3307 as root: connection refused (is the server running and listening there?)');
  const dns = new BenchError(ErrorCodes.CONNECT, 'x: cannot connect to nowhere.invalid:1: getaddrinfo ENOTFOUND nowhere.invalid');
  assert.match(formatError(dns), /: host "nowhere\.invalid" not found$/);
});

test('a connection failure is told apart from other errors, through its causes too', () => {
  assert.equal(isConnectionFailure(new BenchError(ErrorCodes.CONNECT, 'x')), true);
  assert.equal(isConnectionFailure(new Error('wrapped', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) })), true);
  assert.equal(isConnectionFailure(Object.assign(new Error('any'), { errors: [{ code: 'ECONNREFUSED' }] })), true);
  assert.equal(isConnectionFailure(new Error('wrong answer')), false);
  assert.equal(isConnectionFailure(new BenchError(ErrorCodes.DATASET, 'bad line')), false);
});

test('a malformed dataset line comes with the way out: --skip-bad for the real files, regeneration for generated ones', () => {
  const generated = new BenchError(ErrorCodes.DATASET, '/c/datasets/synthetic-tiny-s1/soc-pokec-relationships.txt:42: expected two ids');
  const lines = formatError(generated, { dataset: 'synthetic' }).split('\n');
  assert.equal(lines[0], 'error: /c/datasets/synthetic-tiny-s1/soc-pokec-relationships.txt:42: expected two ids');
  assert.match(lines[1], /delete its directory and the next run generates it again: rm -r '\/c\/datasets\/synthetic-tiny-s1'$/);

  const real = new BenchError(ErrorCodes.DATASET, '/c/datasets/pokec/soc-pokec-profiles.txt.gz:7: 3 columns instead of 59');
  assert.match(formatError(real, { dataset: 'pokec', 'skip-bad': false }), /\n {2}add --skip-bad to skip and count the malformed lines/);
  assert.equal(formatError(real, { dataset: 'pokec', 'skip-bad': true }).split('\n').length, 1);
  assert.equal(formatError(new BenchError(ErrorCodes.DATASET, 'no manifest'), { dataset: 'synthetic' }), 'error: no manifest');
});

test('--restart-cmd is stored as its program alone, wherever the document holds it', () => {
  assert.equal(redactCommand('mysqladmin -u root -psecret shutdown'), 'mysqladmin [4 words redacted]');
  assert.equal(redactCommand('PGPASSWORD=secret pg_ctl restart'), 'pg_ctl [2 words redacted]');
  assert.equal(redactCommand('restart-db.sh'), 'restart-db.sh');
  const command = 'sudo -S "pa ss" systemctl restart';
  const stored = storedResult(command)({
    command: `bench run --restart-cmd ${command}`,
    config: { restartCmd: command },
    error: { message: `--restart-cmd exited with code 3: ${command}` },
  });
  assert.doesNotMatch(JSON.stringify(stored), /pa ss/);
  assert.equal(stored.config.restartCmd, 'sudo [5 words redacted]');
  assert.equal(stored.error.message, '--restart-cmd exited with code 3: sudo [5 words redacted]');
  const result = { config: { restartCmd: null } };
  assert.equal(storedResult(null)(result), result);
});

test('the table explains the event-loop delay it shows', () => {
  const result = {
    db: { name: 'Some DB', version: '1', kind: 'server', execution: 'parallel' },
    dataset: { name: 'synthetic', scale: 'tiny', profiles: 1, relations: 1, seed: 1, readStats: null },
    config: { concurrency: 25, runs: 1 },
    resources: { server: null, client: { cpuPeakPct: 40, eventLoopDelayP99MaxMs: 2175 } },
    complete: true,
    workloads: {},
  };
  const lines = formatTable(result).split('\n');
  assert.ok(lines.some((line) => line.includes('event-loop delay p99 up to 2175')), lines.join('\n'));
  assert.ok(lines.some((line) => /^event-loop delay: how long the harness's own event loop was blocked .*latencies may include/.test(line)));
  result.resources.client = { cpuPeakPct: null, eventLoopDelayP99MaxMs: null };
  assert.doesNotMatch(formatTable(result), /event-loop/);
});

test('making the --out folder fails at once where Node\'s recursive mkdir spins for ever', () => {
  const begin = performance.now();
  assert.throws(() => makeDirectory('/proc/foo/bar'), { code: 'ENOENT' });
  assert.ok(performance.now() - begin < 1000);
  const file = path.join(dir, 'plain-file');
  writeFileSync(file, '');
  assert.throws(() => makeDirectory(path.join(file, 'a', 'b')), { code: 'ENOTDIR', path: file });
  makeDirectory(path.join(dir, 'x', 'y', 'z'));
  makeDirectory(path.join(dir, 'x', 'y', 'z'));
});

test('claiming a result file gives up after a bounded number of names', () => {
  const result = { startedAt: '2026-11-21T23:45:01.123Z', db: { id: 'sqlite' }, dataset: { scale: 'tiny' } };
  const out = path.join(dir, 'full');
  makeDirectory(out);
  const base = resultFileName(result).replace(/\.json$/, '');
  for (let n = 1; n <= 1000; n += 1) closeSync(openSync(path.join(out, n === 1 ? `${base}.json` : `${base}-${n}.json`), 'w'));
  assert.throws(() => claimResultFile(out, result), { code: ErrorCodes.OUTPUT, message: /already holds 1000 result files/ });
});
