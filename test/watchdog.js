// A watchdog over a test run (test/run.js, which `npm test` and CI use): the run's output passes through, and
// when no line has come for `stallMs`, or the whole run has lasted `budgetMs`, it says why, names each test file
// still running (with how long it has run and the last test lines it printed), lists the run's process tree with
// what each process waits on in the kernel, asks each running test file for a Node.js diagnostic report (its
// JavaScript stack and the handles it waits on), prints what every local server `bench server` runs is doing (its
// sessions and what they wait on: server/activity.js), then ends the whole run and fails it. So a hang costs
// minutes, not a CI job's whole time limit, and leaves the evidence of its cause in the log.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverActivity } from '../server/activity.js';
import { SERVER_FAMILIES } from '../server/index.js';
import { runningServer } from '../server/state.js';

const KILL_GRACE_MS = 5_000;
const REPORT_WAIT_MS = 3_000;
const LAST_LINES = 40;
const FILE_SAMPLE_MS = 1000;
// The handles every Node.js process has, which say nothing about what it waits on.
const EVENT_LOOP_HANDLES = new Set(['async', 'check', 'idle', 'prepare', 'loop', 'signal']);

// The pids of `root`'s descendants (not `root` itself), read from /proc.
export function descendants(root) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  const found = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

// Seconds since `pid` started, from /proc (clock ticks since boot).
function ageSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    return Math.round(uptime - startTicks / 100);
  } catch {
    return null;
  }
}

// The test files running under `root` (the `node --test` process): its children, each a Node.js process whose
// last argument is the file it runs.
export function runningTestFiles(root) {
  return descendants(root)
    .map((pid) => ({ pid, args: commandLine(pid) }))
    .filter(({ args }) => args.length > 1 && !args.includes('--test') && /\.[cm]?js$/.test(args.at(-1)))
    .filter(({ pid }) => parentOf(pid) === root)
    .map(({ pid, args }) => ({ pid, file: args.at(-1), seconds: ageSeconds(pid) }));
}

function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

function processTree(root) {
  const pids = [root, ...descendants(root)];
  try {
    return execFileSync('ps', ['-o', 'pid,ppid,etime,time,stat,wchan:28,args', '-p', pids.join(',')], { encoding: 'utf8', timeout: 10_000 })
      .trimEnd().split('\n').map((line) => `  ${line.slice(0, 300)}`);
  } catch (error) {
    return [`  (ps failed: ${error.message})`];
  }
}

// Asks `pid` for a diagnostic report (it runs with --report-on-signal, see watchedEnv) and returns its
// JavaScript stack and the libuv handles still open, or why there is none.
async function nodeReport(pid, reportDir) {
  const before = new Set(readdirSync(reportDir));
  try {
    process.kill(pid, 'SIGUSR2');
  } catch (error) {
    return [`  (no report: ${error.message})`];
  }
  const deadline = performance.now() + REPORT_WAIT_MS;
  while (performance.now() < deadline) {
    const made = readdirSync(reportDir).find((name) => !before.has(name) && name.includes(`.${pid}.`));
    if (made) {
      try {
        const report = JSON.parse(readFileSync(path.join(reportDir, made), 'utf8'));
        const stack = [report.javascriptStack?.message, ...(report.javascriptStack?.stack ?? [])].filter(Boolean);
        const handles = (report.libuv ?? []).filter((handle) => (handle.is_active || handle.is_referenced) && !EVENT_LOOP_HANDLES.has(handle.type))
          .map((handle) => `${handle.type}${handle.remoteEndpoint ? ` to ${handle.remoteEndpoint.host}:${handle.remoteEndpoint.port}` : ''}${handle.localEndpoint ? ` from ${handle.localEndpoint.host}:${handle.localEndpoint.port}` : ''}${handle.filename ? ` ${handle.filename}` : ''}${handle.pid ? ` pid ${handle.pid}` : ''}${handle.is_active ? ' (active)' : ''}`);
        return ['  JavaScript stack:', ...stack.map((line) => `    ${line}`), '  libuv handles:', ...handles.map((line) => `    ${line}`)];
      } catch {
        // half written: read again
      }
    }
    await new Promise((resolve) => { setTimeout(resolve, 100); });
  }
  return ['  (no report within 3 s: the process may be blocked outside JavaScript)'];
}

async function serversActivity(cacheDir) {
  const lines = [];
  for (const family of SERVER_FAMILIES) {
    const state = runningServer(cacheDir, family);
    if (!state) continue;
    lines.push(`${family} ${state.version ?? ''} on ${state.host}:${state.port} (pid ${state.pid}):`);
    for (const line of await serverActivity(family, state)) lines.push(`  ${line}`);
  }
  return lines.length > 0 ? lines : [`(no local server runs under ${cacheDir})`];
}

// A line naming the `count` slowest of the files' times (seconds, to the second they were sampled at), of
// `fileCount` files run.
export function slowestFiles(fileTimes, count, totalSeconds, fileCount = fileTimes.size) {
  const times = [...fileTimes].map(([file, { first, last }]) => [path.relative(process.cwd(), file), Math.round((last - first) / 1000)])
    .sort(([, a], [, b]) => b - a);
  const named = times.slice(0, count).map(([file, seconds]) => `${file} ${seconds} s`).join(', ');
  return `# ${fileCount} test file${fileCount === 1 ? '' : 's'} in ${Math.round(totalSeconds)} s; the slowest: ${named}`;
}

// The environment a watched run's processes get: each Node.js process writes a diagnostic report into `reportDir`
// when sent SIGUSR2 (the signal only the watchdog sends).
export function watchedEnv(env, reportDir) {
  const options = `--report-on-signal --report-signal=SIGUSR2 --report-directory=${reportDir} --report-compact`;
  return { ...env, NODE_OPTIONS: [env.NODE_OPTIONS, options].filter(Boolean).join(' ') };
}

// What a watchdog prints when it ends a run: why, each test file still running (of each `runs` entry: the pid of
// a `node --test` process, the last lines it printed, and what to call it), the process tree, each file's own report, and what the
// local servers are doing.
export async function tellEvidence({ reason, err, runs, reportDir, cacheDir }) {
  const say = (line) => err.write(`watchdog: ${line}\n`);
  say(reason);
  const files = runs.flatMap(({ pid }) => runningTestFiles(pid));
  if (files.length === 0) say('no test file is running (the runner itself is stuck)');
  for (const { file, seconds, pid } of files) say(`stuck: ${path.relative(process.cwd(), file)} (pid ${pid}, running for ${seconds ?? '?'} s)`);
  for (const { recent, label = 'the run' } of runs) {
    say(`the last ${Math.min(LAST_LINES, recent.length)} lines of ${label}'s output:`);
    for (const line of recent.slice(-LAST_LINES)) err.write(`  ${line}\n`);
  }
  say('the run\'s processes (wchan: what each waits on in the kernel):');
  for (const { pid } of runs) for (const line of processTree(pid)) err.write(`${line}\n`);
  for (const { file, pid } of files) {
    say(`${path.relative(process.cwd(), file)}, as its process reports:`);
    for (const line of await nodeReport(pid, reportDir)) err.write(`${line}\n`);
  }
  say(`the local servers' activity (${cacheDir}):`);
  for (const line of await serversActivity(cacheDir)) err.write(`  ${line}\n`);
  say('ending the run: failed');
}

// Runs `command` with `args` in a process group of its own, its output passed to `out`/`err`, and resolves with
// its exit code, or 1 after the watchdog ended it. `stallMs`: the longest time without an output line;
// `budgetMs`: the longest the whole run may last. `cacheDir`: where the local servers' state files are.
// `slowest`: how many of the slowest test files to name, with their times, at the end (0: none), of `fileCount`
// files run (those that lasted less than a second may not have been seen).
export function runWatched({ command, args, env = process.env, stallMs, budgetMs, cacheDir, slowest = 0, fileCount, out = process.stdout, err = process.stderr }) {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'db-shootout-watchdog-'));
  const started = performance.now();
  let lastLine = started;
  const recent = [];
  const child = spawn(command, args, { env: watchedEnv(env, reportDir), stdio: ['inherit', 'pipe', 'pipe'], detached: true });
  const seen = (chunk) => {
    lastLine = performance.now();
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') recent.push(line);
    if (recent.length > LAST_LINES * 4) recent.splice(0, recent.length - LAST_LINES);
  };
  child.stdout.on('data', (chunk) => { seen(chunk); out.write(chunk); });
  child.stderr.on('data', (chunk) => { seen(chunk); err.write(chunk); });

  // Ctrl-C or a CI's stop reaches the run's process group, which is not the terminal's.
  const forward = (signal) => { try { process.kill(-child.pid, signal); } catch { /* ended */ } };
  const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => {
    const listener = () => forward(signal);
    process.on(signal, listener);
    return [signal, listener];
  });

  let firing = false;
  const fire = async (reason) => {
    firing = true;
    clearInterval(timer);
    await tellEvidence({ reason, err, runs: [{ pid: child.pid, recent }], reportDir, cacheDir });
    forward('SIGTERM');
    setTimeout(() => forward('SIGKILL'), KILL_GRACE_MS).unref();
  };
  // Each test file's time, from when its process is first seen to when it is last seen, sampled once a second.
  const fileTimes = new Map();
  let lastSample = 0;
  const sample = (now) => {
    if (now - lastSample < FILE_SAMPLE_MS) return;
    lastSample = now;
    for (const { file } of runningTestFiles(child.pid)) {
      const times = fileTimes.get(file);
      if (times) times.last = now;
      else fileTimes.set(file, { first: now, last: now });
    }
  };
  const timer = setInterval(() => {
    if (firing) return;
    const now = performance.now();
    sample(now);
    if (budgetMs && now - started >= budgetMs) {
      fire(`the run has lasted ${Math.round((now - started) / 1000)} s, its budget is ${budgetMs / 1000} s`);
    } else if (stallMs && now - lastLine >= stallMs) {
      fire(`no test has reported for ${Math.round((now - lastLine) / 1000)} s (the limit is ${stallMs / 1000} s)`);
    }
  }, Math.max(100, Math.min(stallMs || 1000, 1000) / 4));

  return new Promise((resolve) => {
    let done = false;
    const finish = (code, signal) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      for (const [name, listener] of forwarded) process.off(name, listener);
      rmSync(reportDir, { recursive: true, force: true });
      if (fileTimes.size > 0 && slowest > 0) {
        err.write(`${slowestFiles(fileTimes, slowest, (performance.now() - started) / 1000, fileCount)}\n`);
      }
      if (firing) resolve(1);
      else resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1));
    };
    child.on('close', finish);
    // A process that left the group may hold the output open after the run has ended: its end is enough.
    child.on('exit', (code, signal) => { setTimeout(() => finish(code, signal), KILL_GRACE_MS).unref(); });
  });
}
