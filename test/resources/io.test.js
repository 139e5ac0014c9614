// The I/O counters of /proc/<pid>/io and what the process-tree sampler makes of them: parsed from a real file,
// summed over processes that appear, exit, are reaped by their parent or reuse a pid, and measured on real
// processes writing 8 MiB with fsync, alone and as a child that its parent reaps.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ownIo } from '../../resources/client.js';
import { sumIo } from '../../resources/io.js';
import { NOBODY, projectForNobody } from '../helpers/nobody.js';
import { parseIo, processTree } from '../../resources/proc.js';
import { ioSince, ioTracker, sampleTree } from '../../resources/tree-sampler.js';

const MiB = 1024 * 1024;
const TMPFS_MAGIC = 0x01021994;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-io-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// Why the measured tests cannot run here, or null.
function unmeasurable() {
  if (ownIo() === null) return '/proc/self/io is not readable here (no task I/O accounting)';
  // tmpfs has no storage layer: its writes never count as write_bytes.
  if (statfsSync(dir).type === TMPFS_MAGIC) return `${dir} is on tmpfs, where nothing reaches storage`;
  return null;
}

// A sample captured from a PostgreSQL postmaster.
const SAMPLE = `rchar: 870140
wchar: 200021
syscr: 206
syscw: 61
read_bytes: 950272
write_bytes: 335872
cancelled_write_bytes: 0
`;

test('parses /proc/<pid>/io into the four figures the result records', () => {
  assert.deepEqual(parseIo(SAMPLE), { readBytes: 950272, writeBytes: 335872, readChars: 870140, writeChars: 200021 });
  assert.equal(parseIo('rchar: 1\nwchar: 2\n'), null, 'a text without the storage counters is no reading');
  const own = ownIo();
  if (own) {
    assert.ok(own.readChars > 0, 'this process has read its own modules');
    assert.deepEqual(Object.keys(own), ['readBytes', 'writeBytes', 'readChars', 'writeChars']);
  }
});

const io = (writeBytes, readChars = 0) => ({ readBytes: 0, writeBytes, readChars, writeChars: 0 });
const at = (entries) => new Map(entries.map(([process, parent, counters]) => [process, { parent, counters }]));

test('I/O between readings: new processes count whole, exited ones up to their last reading, a recycled pid is new', () => {
  const state = ioTracker();
  // The baseline: whatever the tree did before it is the caller's to discard.
  assert.deepEqual(ioSince(state, at([['10:1', null, io(1000)], ['11:1', '10:1', io(50)]])), io(1050));
  // 10 wrote 20 more, 11 wrote 5 more, 12 is new with 7.
  assert.deepEqual(ioSince(state, at([['10:1', null, io(1020)], ['11:1', '10:1', io(55)], ['12:9', '10:1', io(7)]])), io(32));
  // 11 exited and its parent has not reaped it (or an init outside the tree did): 10 adds nothing of it; pid 12
  // came back as another process, which counts whole; 10's counters do not run backwards.
  assert.deepEqual(ioSince(state, at([['10:1', null, io(1020)], ['12:40', '10:1', io(3)]])), io(3));
  assert.equal(state.unknown, false);
});

test('a parent that reaps an exited child gains its counters, and what was already counted is not counted again', () => {
  const state = ioTracker();
  ioSince(state, at([['10:1', null, io(1000)], ['11:1', '10:1', io(50)]]));
  assert.deepEqual(ioSince(state, at([['10:1', null, io(1000)], ['11:1', '10:1', io(80)]])), io(30));
  // 11 wrote 5 more after the last reading, exited, and 10 reaped it: 10's counters gained all of 11's 85, and 10
  // itself wrote 2. Counted: 11's 5 unseen, and 10's own 2.
  assert.deepEqual(ioSince(state, at([['10:1', null, io(1087)]])), io(7));
  // The debt is settled: 10's next increase is its own.
  assert.deepEqual(ioSince(state, at([['10:1', null, io(1090)]])), io(3));
});

test('a reaping seen one reading late is still settled, and a debt is not kept beyond that', () => {
  const state = ioTracker();
  ioSince(state, at([['10:1', null, io(1000)], ['11:1', '10:1', io(50)], ['12:1', '10:1', io(30)]]));
  // 11 has gone but 10 had not reaped it yet when it was read.
  assert.deepEqual(ioSince(state, at([['10:1', null, io(1001)], ['12:1', '10:1', io(30)]])), io(0));
  assert.deepEqual(ioSince(state, at([['10:1', null, io(1061)], ['12:1', '10:1', io(30)]])), io(11));
  // 12 exits and is never reaped into 10 (its parent ignored SIGCHLD): 10 owes nothing after one more reading.
  ioSince(state, at([['10:1', null, io(1061)]]));
  ioSince(state, at([['10:1', null, io(1061)]]));
  assert.deepEqual(ioSince(state, at([['10:1', null, io(1070)]])), io(9));
});

test('a child and its parent exiting together are owed by the nearest ancestor still in the tree', () => {
  const state = ioTracker();
  ioSince(state, at([['1:1', null, io(0)], ['10:1', '1:1', io(100)], ['11:1', '10:1', io(50)]]));
  // 10 reaped 11 and exited; 1 reaped 10: 1 gained 10's 100 + 11's 50 + what both did unseen (4 and 6).
  assert.deepEqual(ioSince(state, at([['1:1', null, io(160)]])), io(10));
});

test('a process whose counters cannot be read makes the sum unknown, not smaller', async () => {
  const state = ioTracker();
  ioSince(state, at([['10:1', null, io(1000)], ['11:1', '10:1', null]]));
  assert.equal(state.unknown, true);
  const readings = [
    { at: 0, ticks: new Map([['10:1', 0]]), io: at([['10:1', null, io(0)], ['11:1', '10:1', null]]), rssBytes: 1 },
    { at: 1000, ticks: new Map([['10:1', 10]]), io: at([['10:1', null, io(500)]]), rssBytes: 1 },
  ];
  let reads = 0;
  const sampler = sampleTree(10, { intervalMs: 20, read: async () => readings[reads++] ?? null });
  await sampler.ready;
  await sleep(100);
  const figures = await sampler.stop();
  assert.equal(figures.samples, 2);
  assert.equal(figures.io, null);
});

test('the sampler sums the tree\'s I/O from its baseline on', async () => {
  const readings = [
    { at: 0, ticks: new Map([['10:1', 0]]), io: at([['10:1', null, io(1000, 10)]]), rssBytes: 1 },
    { at: 1000, ticks: new Map([['10:1', 0], ['11:1', 0]]), io: at([['10:1', null, io(1500, 10)], ['11:1', '10:1', io(20, 4)]]), rssBytes: 1 },
    { at: 2000, ticks: new Map([['10:1', 0]]), io: at([['10:1', null, io(1600, 30)]]), rssBytes: 1 },
  ];
  let reads = 0;
  const sampler = sampleTree(10, { intervalMs: 20, read: async () => readings[reads++] ?? null });
  await sampler.ready;
  await sleep(150);
  const figures = await sampler.stop();
  // 500 + 20 written, then 10 reaped 11: 100 and 20 more gained, of which 20 and 4 were 11's, counted already.
  assert.deepEqual(figures.io, { readBytes: 0, writeBytes: 600, readChars: 20, writeChars: 0 });
});

test('with ioSettleMs the I/O counters are read once more after the run, the memory and CPU figures staying the run\'s', async () => {
  // The run: 500 bytes written. Then, after it, a deferred flush writes 300 more (a WAL writer).
  const runReadings = () => [
    { at: 0, ticks: new Map([['10:1', 0]]), io: at([['10:1', null, io(1000)]]), rssBytes: 10 },
    { at: 1000, ticks: new Map([['10:1', 100]]), io: at([['10:1', null, io(1500)]]), rssBytes: 20 },
  ];
  // The readings in order, then the last one with `flush` as its counters (none: the same counters).
  const sampled = (readings) => {
    let reads = 0;
    const read = async () => {
      const reading = reads < readings.length ? readings[reads] : { ...readings.at(-1), ...(readings.flush ? { io: readings.flush } : {}) };
      reads += 1;
      return reading;
    };
    return { sampler: sampleTree(10, { intervalMs: 60_000, read }), reads: () => reads };
  };
  const readings = runReadings();
  readings.flush = at([['10:1', null, io(1800)]]);
  const { sampler, reads } = sampled(readings);
  await sampler.ready;
  const started = performance.now();
  const plain = sampled(Object.assign(runReadings(), { flush: null }));
  await plain.sampler.ready;
  // Without settling: the run's 500 bytes alone.
  const before = await plain.sampler.stop();
  assert.equal(before.io.writeBytes, 500);
  assert.equal(before.ioSettleMs, undefined);
  const figures = await sampler.stop({ ioSettleMs: 150 });
  assert.ok(performance.now() - started >= 145, 'it waited');
  assert.equal(reads(), 3, 'the baseline, the closing reading and one after the wait');
  assert.equal(figures.io.writeBytes, 800);
  assert.equal(figures.ioSettleMs, 150);
  assert.deepEqual([figures.rssPeakBytes, figures.samples, figures.ms], [before.rssPeakBytes, before.samples, before.ms]);
});

test('sums of runs or processes: absent when none carries counters, unknown when any is unknown', () => {
  assert.equal(sumIo([]), undefined);
  assert.equal(sumIo([undefined, undefined]), undefined);
  assert.deepEqual(sumIo([io(1, 2), undefined, io(3, 4)]), io(4, 6));
  assert.equal(sumIo([io(1), null]), null);
});

// On "go" writes `mib` MiB with fsync to the file named, reads it back, prints "done" and waits for stdin to
// close. With CHILD set, a child process does so instead; on "exit" the child ends, and once it has been reaped
// the parent prints "reaped" and waits the same.
const WRITER = `
  const fs = require('node:fs');
  const [file, mib] = process.argv.slice(1);
  const wait = () => { process.stdin.resume(); process.stdin.on('end', () => process.exit(0)); };
  if (process.env.CHILD) {
    delete process.env.CHILD;
    const kid = require('node:child_process').spawn(process.execPath, ['-e', process.env.WRITER, file, mib], { stdio: ['pipe', 'inherit', 'inherit'] });
    process.stdin.on('data', (chunk) => {
      if (String(chunk).includes('go')) kid.stdin.write('go\\n');
      if (String(chunk).includes('exit')) kid.stdin.end();
    });
    kid.on('exit', () => { process.stdout.write('reaped\\n'); wait(); });
  } else {
    process.stdin.once('data', () => {
      const fd = fs.openSync(file, 'w');
      fs.writeSync(fd, Buffer.alloc(Number(mib) * 1024 * 1024, 7));
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      fs.readFileSync(file);
      process.stdout.write('done\\n');
      wait();
    });
  }
`;

function startWriter(file, mib, { child = false } = {}) {
  const env = { ...process.env, WRITER };
  if (child) env.CHILD = '1';
  const proc = spawn(process.execPath, ['-e', WRITER, file, String(mib)], { stdio: ['pipe', 'pipe', 'inherit'], env });
  let out = '';
  proc.stdout.on('data', (chunk) => { out += chunk; });
  const said = async (word) => {
    while (!out.includes(word)) await once(proc.stdout, 'data');
  };
  return { proc, said };
}

test('a process that writes 8 MiB with fsync and reads them back: the sampler sees every byte', { timeout: 30_000 }, async (t) => {
  const reason = unmeasurable();
  if (reason) return t.skip(reason);
  const { proc, said } = startWriter(path.join(dir, 'alone.bin'), 8);
  try {
    const sampler = sampleTree(proc.pid, { intervalMs: 100 });
    await sampler.ready;
    proc.stdin.write('go\n');
    await said('done');
    const figures = await sampler.stop();
    assert.ok(figures.io.writeBytes >= 8 * MiB, `writeBytes ${figures.io.writeBytes}`);
    assert.ok(figures.io.writeBytes < 9 * MiB, `writeBytes ${figures.io.writeBytes}: more than the file and its metadata`);
    assert.ok(figures.io.writeChars >= 8 * MiB && figures.io.writeChars < 9 * MiB, `writeChars ${figures.io.writeChars}`);
    // The read went through read(): counted whole, whether the page cache or the disk served it.
    assert.ok(figures.io.readChars >= 8 * MiB, `readChars ${figures.io.readChars}`);
    assert.ok(Number.isInteger(figures.io.readBytes) && figures.io.readBytes >= 0);
  } finally {
    proc.stdin.end();
    await once(proc, 'close');
  }
});

test('a child that writes 8 MiB and is reaped by its sampled parent counts once, not twice', { timeout: 30_000 }, async (t) => {
  const reason = unmeasurable();
  if (reason) return t.skip(reason);
  const { proc, said } = startWriter(path.join(dir, 'reaped.bin'), 8, { child: true });
  try {
    for (let attempt = 0; (await processTree(proc.pid)).length < 2; attempt += 1) {
      if (attempt > 200) throw new Error('the writer\'s child did not start');
      await sleep(25);
    }
    const sampler = sampleTree(proc.pid, { intervalMs: 100 });
    await sampler.ready;
    proc.stdin.write('go\n');
    await said('done');
    // A reading sees the child's 8 MiB before it exits and its parent gains them.
    await sleep(400);
    proc.stdin.write('exit\n');
    await said('reaped');
    await sleep(400);
    const figures = await sampler.stop();
    assert.ok(figures.io.writeBytes >= 8 * MiB, `writeBytes ${figures.io.writeBytes}`);
    assert.ok(figures.io.writeBytes < 10 * MiB, `writeBytes ${figures.io.writeBytes}: the reaped child counted twice`);
    assert.ok(figures.io.readChars >= 8 * MiB && figures.io.readChars < 12 * MiB, `readChars ${figures.io.readChars}`);
  } finally {
    proc.stdin.end();
    await once(proc, 'close');
  }
});

test('the I/O of a process another user may not trace is unknown, not 0', { timeout: 30_000 }, async (t) => {
  if (process.getuid?.() !== 0) return t.skip('needs root, to sample as another user (nobody) a process of root');
  if (ownIo() === null) return t.skip('/proc/self/io is not readable here (no task I/O accounting)');
  // The sampler is loaded from a copy nobody can read when the clone's folders keep it out (helpers/nobody.js).
  const project = projectForNobody();
  if (project.skip) return t.skip(project.skip);
  t.after(() => project.dispose());
  const target = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'inherit'] });
  const module = path.join(project.root, 'resources', 'tree-sampler.js');
  const script = `
    const { sampleTree } = await import(${JSON.stringify(module)});
    const sampler = sampleTree(${target.pid}, { intervalMs: 50 });
    await sampler.ready;
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.stdout.write(JSON.stringify(await sampler.stop()));
  `;
  try {
    const sampler = spawn(process.execPath, ['--input-type=module', '-e', script], { ...NOBODY, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    sampler.stdout.on('data', (chunk) => { out += chunk; });
    sampler.stderr.on('data', (chunk) => { err += chunk; });
    const [code] = await once(sampler, 'exit');
    assert.equal(code, 0, err);
    const figures = JSON.parse(out);
    assert.ok(figures.samples >= 2 && figures.rssPeakBytes > 0, 'the rest of /proc stays readable');
    assert.equal(figures.io, null);
  } finally {
    target.stdin.end();
    await once(target, 'close');
  }
});
