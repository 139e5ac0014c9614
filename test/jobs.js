// Test files run side by side (test/run.js with BENCH_TEST_JOBS above 1), under the same watchdog as a run of one
// file at a time (test/watchdog.js): each file is a `node --test` of its own, started when a place is free and it
// needs nothing a running file holds (test/schedule.js). Its output is kept and printed whole when it ends, so
// that the log reads file by file; the run ends with the counts of every file and each failed test repeated.
// A file that prints nothing for `stallMs`, or a run that lasts `budgetMs`, ends the run as the watchdog does.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nextFile, startOrder } from './schedule.js';
import { slowestFiles, tellEvidence, watchedEnv } from './watchdog.js';

const KILL_GRACE_MS = 5_000;
const COUNTS = ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];
const REPEATED = /^# \d+ failed tests?, repeated here:$/m;

// The counts a `node --test` TAP output ends with ("# pass 12"), summed over `outputs`.
export function summedCounts(outputs) {
  const sums = Object.fromEntries(COUNTS.map((name) => [name, 0]));
  for (const output of outputs) {
    for (const name of COUNTS) {
      const found = [...output.matchAll(new RegExp(`^# ${name} (\\d+)$`, 'gm'))].at(-1);
      if (found) sums[name] += Number(found[1]);
    }
  }
  return sums;
}

// The failed tests a file's output repeats at its end (test/reporters/failures.js), without the heading.
export function repeatedFailures(output) {
  const at = output.search(REPEATED);
  return at < 0 ? '' : output.slice(at).replace(REPEATED, '').trim();
}

// Runs `files` (paths relative to the working directory), at most `jobs` at once, each as `command` with
// `argsFor(file)`; `needsByFile` maps each to what it needs (test/schedule.js). Resolves with 0 when every file
// passed, else 1.
export function runFilesWatched({ files, needsByFile, jobs, command, argsFor, env = process.env, stallMs, budgetMs, cacheDir,
  slowest = 0, out = process.stdout, err = process.stderr }) {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'db-shootout-watchdog-'));
  const started = performance.now();
  const pending = startOrder(new Map(files.map((file) => [file, needsByFile.get(file) ?? []])));
  const running = new Map();
  const finished = [];
  const fileTimes = new Map();
  let firing = false;
  let telling = false;
  let resolveRun;
  const done = new Promise((resolve) => { resolveRun = resolve; });

  const held = () => new Set([...running.keys()].flatMap((file) => needsByFile.get(file) ?? []));
  const signalAll = (signal) => {
    for (const { child } of running.values()) {
      try { process.kill(-child.pid, signal); } catch { /* ended */ }
    }
  };

  const start = (file) => {
    const child = spawn(command, argsFor(file), { env: watchedEnv(env, reportDir), stdio: ['inherit', 'pipe', 'pipe'], detached: true });
    const job = { child, output: '', recent: [], began: performance.now(), lastLine: performance.now() };
    running.set(file, job);
    out.write(`# started ${file}${(needsByFile.get(file) ?? []).length ? ` (needs ${needsByFile.get(file).join(', ')})` : ''}\n`);
    const seen = (chunk) => {
      const text = chunk.toString('utf8');
      job.output += text;
      job.lastLine = performance.now();
      for (const line of text.split('\n')) if (line.trim() !== '') job.recent.push(line);
      if (job.recent.length > 160) job.recent.splice(0, job.recent.length - 40);
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    let ended = false;
    const end = (code, signal) => {
      if (ended) return;
      ended = true;
      running.delete(file);
      const seconds = (performance.now() - job.began) / 1000;
      fileTimes.set(path.resolve(file), { first: job.began, last: performance.now() });
      const exit = code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1);
      finished.push({ file, exit, output: job.output });
      out.write(`# ---- ${file}: ${exit === 0 ? 'passed' : `failed (exit code ${exit})`} in ${seconds.toFixed(1)} s ----\n`);
      out.write(job.output.endsWith('\n') || job.output === '' ? job.output : `${job.output}\n`);
      fill();
    };
    child.on('close', end);
    child.on('exit', (code, signal) => { setTimeout(() => end(code, signal), KILL_GRACE_MS).unref(); });
  };

  const fill = () => {
    if (firing) {
      if (running.size === 0 && !telling) finish();
      return;
    }
    while (running.size < jobs) {
      const file = nextFile(pending, needsByFile, held());
      if (file === null) break;
      pending.splice(pending.indexOf(file), 1);
      start(file);
    }
    if (running.size === 0 && pending.length === 0) finish();
  };

  const fire = async (reason) => {
    firing = true;
    telling = true;
    clearInterval(timer);
    const runs = [...running].map(([file, { child, recent }]) => ({ pid: child.pid, recent, label: file }));
    await tellEvidence({ reason, err, runs, reportDir, cacheDir });
    telling = false;
    signalAll('SIGTERM');
    setTimeout(() => signalAll('SIGKILL'), KILL_GRACE_MS).unref();
    if (running.size === 0) finish();
  };

  const timer = setInterval(() => {
    if (firing) return;
    const now = performance.now();
    if (budgetMs && now - started >= budgetMs) {
      fire(`the run has lasted ${Math.round((now - started) / 1000)} s, its budget is ${budgetMs / 1000} s`);
      return;
    }
    for (const [file, job] of running) {
      if (stallMs && now - job.lastLine >= stallMs) {
        fire(`no test of ${file} has reported for ${Math.round((now - job.lastLine) / 1000)} s (the limit is ${stallMs / 1000} s)`);
        return;
      }
    }
  }, Math.max(100, Math.min(stallMs || 1000, 1000) / 4));

  const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => {
    const listener = () => { firing = true; pending.length = 0; signalAll(signal); };
    process.on(signal, listener);
    return [signal, listener];
  });

  let finishedOnce = false;
  function finish() {
    if (finishedOnce) return;
    finishedOnce = true;
    clearInterval(timer);
    for (const [name, listener] of forwarded) process.off(name, listener);
    rmSync(reportDir, { recursive: true, force: true });
    const counts = summedCounts(finished.map(({ output }) => output));
    const failed = finished.filter(({ exit }) => exit !== 0);
    out.write(`\n# ${files.length} files, ${jobs} at a time: ${COUNTS.map((name) => `${name} ${counts[name]}`).join(', ')}\n`);
    for (const name of COUNTS) out.write(`# ${name} ${counts[name]}\n`);
    if (pending.length > 0) out.write(`# not started: ${pending.join(', ')}\n`);
    if (failed.length > 0) {
      out.write(`\n# ${failed.length} file${failed.length === 1 ? '' : 's'} failed: ${failed.map(({ file, exit }) => `${file} (exit code ${exit})`).join(', ')}\n`);
      for (const { file, output } of failed) {
        const repeated = repeatedFailures(output);
        if (repeated) out.write(`\n# ${file}:\n${repeated}\n`);
      }
    }
    if (slowest > 0 && fileTimes.size > 0) err.write(`${slowestFiles(fileTimes, slowest, (performance.now() - started) / 1000, files.length)}\n`);
    resolveRun(firing || failed.length > 0 || pending.length > 0 ? 1 : 0);
  }

  fill();
  return done;
}
