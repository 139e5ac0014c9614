// The /proc readings and the process-tree sampler, on real processes: a tree that holds 200 MB and keeps
// three processes busy, and processes that vanish while they are sampled.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { parseStat, parseStatus, processTree, readTree } from '../../resources/proc.js';
import { sampleTree, ticksSince } from '../../resources/tree-sampler.js';

const MB = 1024 * 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Spins on the CPU in 50 ms slices until stdin closes, then prints its own CPU time in ms on a line (the
// kernel's figure to compare with; descendants print to the same pipe). With a depth, it first touches `megabytes` of memory and starts a copy of itself one level
// down, which it stops when it is stopped: a tree of depth + 1 busy processes.
const SCRIPT = `
  const [depth, megabytes] = process.argv.slice(1).map(Number);
  // Filled, so every page is resident; global, so it stays.
  globalThis.memory = Buffer.alloc(megabytes * 1024 * 1024, 1);
  const kid = depth > 0
    ? require('node:child_process').spawn(process.execPath, ['-e', process.env.TREE_SCRIPT, String(depth - 1), '0'], { stdio: ['pipe', 'inherit', 'inherit'] })
    : null;
  const spin = () => { const end = performance.now() + 50; while (performance.now() < end); };
  const timer = setInterval(spin, 0);
  process.stdin.on('end', () => {
    clearInterval(timer);
    kid?.stdin.end();
    const { user, system } = process.cpuUsage();
    process.stdout.write(String((user + system) / 1000) + '\\n');
  });
  process.stdin.resume();
`;

function spawnTree(depth, megabytes) {
  return spawn(process.execPath, ['-e', SCRIPT, String(depth), String(megabytes)], {
    stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, TREE_SCRIPT: SCRIPT },
  });
}

// Stops the tree and resolves with the CPU time its processes reported, in ms.
async function stopTree(child) {
  let reported = '';
  child.stdout.on('data', (chunk) => { reported += chunk; });
  child.stdin.end();
  // 'close' waits for every process holding the pipe, the descendants included.
  await once(child, 'close');
  return reported.trim().split('\n').reduce((total, line) => total + Number(line), 0);
}

// Resolves once the tree has `size` members and its root holds at least `bytes`.
async function grown(pid, size, bytes) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const members = await processTree(pid);
    const reading = await readTree(pid);
    if (members.length === size && reading?.rssBytes >= bytes) return members;
    await sleep(50);
  }
  throw new Error(`the process tree of ${pid} did not grow to ${size} processes and ${bytes} bytes`);
}

test('parses /proc/<pid>/stat of this process', () => {
  const stat = parseStat(readFileSync('/proc/self/stat', 'utf8'));
  assert.equal(stat.ppid, process.ppid);
  assert.equal(stat.state, 'R');
  assert.match(stat.startTime, /^\d+$/);
  assert.ok(Number.isInteger(stat.cpuTicks) && stat.cpuTicks >= 0);
});

test('parses a stat line whose command name holds spaces and parentheses', () => {
  const line = '4242 (post gres) (x)) S 7 4242 4242 0 -1 4194560 10 0 0 0 123 45 6 7 20 0 1 0 98765 1000 200';
  assert.deepEqual(parseStat(line), { state: 'S', ppid: 7, cpuTicks: 168, startTime: '98765' });
});

test('parses the resident memory of /proc/<pid>/status, split by kind', () => {
  const own = parseStatus(readFileSync(`/proc/${process.pid}/status`, 'utf8'));
  const rss = process.memoryUsage().rss;
  assert.ok(own.anonBytes > 0 && own.fileBytes > 0, JSON.stringify(own));
  assert.ok(Math.abs(own.rssBytes - rss) < 0.2 * rss, `VmRSS ${own.rssBytes} vs process.memoryUsage().rss ${rss}`);
  assert.equal(own.anonBytes + own.fileBytes + own.shmemBytes, own.rssBytes);
});

test('samples the RSS and CPU of a whole process tree', { timeout: 60_000 }, async () => {
  const begin = performance.now();
  const child = spawnTree(2, 200);
  let figures;
  try {
    const members = await grown(child.pid, 3, 200 * MB);
    assert.equal(members[0], child.pid, 'the root first, then its child and grandchild');

    const sampler = sampleTree(child.pid, { intervalMs: 250 });
    await sampler.ready;
    await sleep(2500);
    figures = await sampler.stop();
    assert.ok(figures.rssPeakBytes > 200 * MB, `peak ${figures.rssPeakBytes / MB} MB`);
    assert.ok(figures.rssMeanBytes > 200 * MB && figures.rssMeanBytes <= figures.rssPeakBytes);
    assert.ok(figures.cpuMeanPct > 0 && figures.cpuMeanPct <= figures.cpuPeakPct);
    assert.ok(figures.samples >= 8, `${figures.samples} samples`);
    assert.ok(figures.ms >= 2400, `${figures.ms} ms sampled`);
  } finally {
    const reportedMs = await stopTree(child);
    // Three busy processes get up to 200% of a free 2-core machine, less when other work shares it. What
    // they got, by their own account, over their life: the CPU peak cannot be much below it.
    const lifePct = (reportedMs / (performance.now() - begin)) * 100;
    if (figures) {
      assert.ok(lifePct > 10, `the tree used ${lifePct}% over its life`);
      assert.ok(figures.cpuPeakPct > 0.7 * lifePct, `peak CPU ${figures.cpuPeakPct}%, ${lifePct}% over the tree's life`);
    }
  }
});

test('the CPU time sampled agrees with the time the processes report themselves', { timeout: 60_000 }, async () => {
  // A busy process and its busy child, sampled from the root's start to just before both stop.
  const child = spawnTree(1, 0);
  const sampler = sampleTree(child.pid, { intervalMs: 200 });
  await sampler.ready;
  await grown(child.pid, 2, 0);
  await sleep(2000);
  const figures = await sampler.stop();
  const reportedMs = await stopTree(child);
  const sampledMs = (figures.cpuMeanPct / 100) * figures.ms;
  // Unsampled: the root's start before the first reading, and the last slices after the closing one.
  assert.ok(reportedMs > 500, `the tree reported ${reportedMs} ms of CPU`);
  assert.ok(Math.abs(sampledMs - reportedMs) < 0.15 * reportedMs + 150, `sampled ${sampledMs} ms, reported ${reportedMs} ms`);
});

test('a vanished process ends sampling without throwing', async () => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 300)'], { stdio: 'ignore' });
  const sampler = sampleTree(child.pid, { intervalMs: 100 });
  const begin = performance.now();
  await sampler.ready;
  await once(child, 'exit');
  const exitedMs = performance.now() - begin;
  await sleep(400);
  const figures = await sampler.stop();
  assert.ok(figures.samples >= 1, `${figures.samples} samples`);
  // The samples end with the process, not with stop().
  assert.ok(figures.ms <= exitedMs + 50, `samples span ${figures.ms} ms; the process exited after ${exitedMs} ms`);
  assert.ok(figures.rssPeakBytes > 0);
  assert.equal(await readTree(child.pid), null);
});

test('a process that is not there gives no figures at all', async () => {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await once(child, 'exit');
  const sampler = sampleTree(child.pid, { intervalMs: 50 });
  await sampler.ready;
  await sleep(150);
  assert.equal(await sampler.stop(), null);
});

test('after the process has gone the sampler reads nothing more', async () => {
  let reads = 0;
  const readings = [
    { at: 0, ticks: new Map([['1:1', 0]]), rssBytes: 100 },
    { at: 1000, ticks: new Map([['1:1', 50]]), rssBytes: 300 },
  ];
  const read = async () => {
    reads += 1;
    if (reads === 3) throw new Error('/proc is not readable');
    return readings[reads - 1] ?? null;
  };
  const sampler = sampleTree(1, { intervalMs: 20, read });
  await sampler.ready;
  await sleep(200);
  assert.equal(reads, 3);
  const figures = await sampler.stop();
  assert.equal(reads, 3, 'stop() does not read a process already gone');
  assert.deepEqual(figures, {
    rssPeakBytes: 300, rssMeanBytes: 200, cpuPeakPct: 50, cpuMeanPct: 50, samples: 2, ms: 1000, io: null,
  });
});

test('a short burst at the end cannot set the peak alone, and the peak is never below the mean', async () => {
  const readings = [
    { at: 0, ticks: new Map([['1:1', 0]]), rssBytes: 10 },
    { at: 1000, ticks: new Map([['1:1', 40]]), rssBytes: 10 },
    // 200% over 100 ms: two ticks too many or too few would swing it by 20%.
    { at: 1100, ticks: new Map([['1:1', 60]]), rssBytes: 10 },
  ];
  let reads = 0;
  const sampler = sampleTree(1, { intervalMs: 20, read: async () => readings[reads++] ?? null });
  await sampler.ready;
  await sleep(200);
  const figures = await sampler.stop();
  assert.equal(figures.cpuMeanPct, 54.5);
  assert.equal(figures.cpuPeakPct, 54.5);
});

test('a run shorter than a peak\'s interval has a mean but no peak: its ticks cannot say one', async () => {
  const readings = [
    { at: 0, ticks: new Map([['1:1', 0], ['2:1', 0]]), rssBytes: 10 },
    // 11 ticks of two processes in 30 ms: 367% on a machine of two cores, rounding and nothing else.
    { at: 30, ticks: new Map([['1:1', 6], ['2:1', 5]]), rssBytes: 10 },
  ];
  let reads = 0;
  const sampler = sampleTree(1, { intervalMs: 1000, read: async () => readings[reads++] ?? null });
  await sampler.ready;
  const figures = await sampler.stop();
  assert.equal(figures.cpuMeanPct, 366.7);
  assert.equal(figures.cpuPeakPct, null);
});

test('CPU ticks between readings: new processes count whole, exited ones stop counting, pids are not confused', () => {
  const known = new Map();
  assert.equal(ticksSince(known, new Map([['10:1', 100], ['11:1', 5]])), 105);
  // 10 spent 20 more, 11 exited, 12 is new with 7, and pid 10 did not run backwards.
  assert.equal(ticksSince(known, new Map([['10:1', 120], ['12:9', 7]])), 27);
  // A recycled pid 11 with another start time is another process.
  assert.equal(ticksSince(known, new Map([['10:1', 120], ['11:50', 3]])), 3);
});
