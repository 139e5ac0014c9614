// The harness's own figures and the client-bound flag, on hand-made numbers and on real work; the figures
// of a workload and of the suite gathered from the runs'.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import {
  CLIENT_BOUND_CPU_PCT, CLIENT_BOUND_MIN_MS, clientCost, combineClients, costIsBound, cpuPercent, isClientBound, meterClient, ownIo,
} from '../../resources/client.js';
import { suiteResources, workloadResources } from '../../resources/summary.js';
import { formatTable } from '../../results/table.js';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const MiB = 1024 * 1024;
const TMPFS_MAGIC = 0x01021994;

test('CPU% is the CPU time over the wall time, 100% being one core', () => {
  assert.equal(cpuPercent({ user: 600_000, system: 300_000 }, 1000), 90);
  assert.equal(cpuPercent({ user: 1_500_000, system: 500_000 }, 1000), 200);
  assert.equal(cpuPercent({ user: 10, system: 0 }, 0), null);
});

test('a run is client-bound above 85% of one core, once it lasted long enough to tell', () => {
  assert.equal(CLIENT_BOUND_CPU_PCT, 85);
  assert.equal(isClientBound(85, 5000), false);
  assert.equal(isClientBound(85.1, 5000), true);
  assert.equal(isClientBound(140, 5000), true);
  assert.equal(isClientBound(40, 5000), false);
  assert.equal(isClientBound(99, CLIENT_BOUND_MIN_MS - 1), false);
  assert.equal(isClientBound(99, CLIENT_BOUND_MIN_MS), true);
  assert.equal(isClientBound(null, 5000), false);
});

test('a run is client-bound too when its event loop was busy more than 90% of the time, whatever its CPU', () => {
  assert.equal(isClientBound(26, 5000, 0.991), true, 'a starved loop on a loaded machine: every answer waited for it');
  assert.equal(isClientBound(26, 5000, 0.9), false);
  assert.equal(isClientBound(26, 5000, null), false, 'older figures have none');
  assert.equal(isClientBound(26, CLIENT_BOUND_MIN_MS - 1, 1), false, 'too short to tell');
});

test('the harness\'s cost per operation: its CPU (every process that ran operations) per operation, and that over the mean latency', () => {
  // Concurrency 1 against a server: 74 us of CPU in a 128 us cycle, at 58% of one core.
  const one = clientCost({ client: { cpuPct: 57.8 } }, { ops: 10_000, ms: 1280, meanLatencyMs: 0.128 });
  assert.deepEqual(one, { cpuPerOpUs: 74, latencyShare: 0.578 });
  // Three processes (the harness's own first) share the operations.
  assert.deepEqual(clientCost({ client: { cpuPct: 60, processes: [{ cpuPct: 2 }, { cpuPct: 60 }, { cpuPct: 58 }] } },
    { ops: 24_000, ms: 1000, meanLatencyMs: 1 }), { cpuPerOpUs: 50, latencyShare: 0.05 });
  assert.equal(clientCost({ client: { cpuPct: null } }, { ops: 10, ms: 50, meanLatencyMs: 1 }), null, 'CPU not measured');
  assert.equal(clientCost(null, { ops: 10, ms: 500, meanLatencyMs: 1 }), null);
  // More than half of each operation's latency in the client makes a server's run client-bound, at 58% of a core.
  assert.equal(costIsBound(one, { embedded: false, wallMs: 1280 }), true);
  assert.equal(costIsBound({ cpuPerOpUs: 40, latencyShare: 0.5 }, { embedded: false, wallMs: 1280 }), false);
  assert.equal(costIsBound(one, { embedded: true, wallMs: 1280 }), false, 'an embedded database\'s own work is in that CPU');
  assert.equal(costIsBound(one, { embedded: false, wallMs: CLIENT_BOUND_MIN_MS - 1 }), false, 'too short to tell');
  assert.equal(costIsBound(null, { embedded: false, wallMs: 1280 }), false);
});

test('the client meter sees a busy harness and a blocked event loop, also when the block lasts to the end', () => {
  const meter = meterClient();
  const end = performance.now() + 300;
  while (performance.now() < end);
  const figures = meter.stop();
  assert.ok(figures.eventLoopDelayP99Ms >= 250, `p99 ${figures.eventLoopDelayP99Ms} ms`);
  assert.ok(figures.cpuPct > 0 && figures.wallMs >= 290, JSON.stringify(figures));
});

test('a span too short for the kernel\'s accounting has no CPU share at all', () => {
  const meter = meterClient();
  const figures = meter.stop();
  assert.ok(figures.wallMs < 100, `${figures.wallMs} ms`);
  assert.equal(figures.cpuPct, null);
  // The busiest of several processes, and none when no process has a figure.
  assert.equal(combineClients([{ ...figures }, { ...figures }]).client.cpuPct, null);
  assert.equal(combineClients([{ ...figures }, { ...figures, cpuPct: 40, wallMs: 500 }]).client.cpuPct, 40);
});

test('an idle harness has a small event-loop delay and little CPU', async () => {
  const meter = meterClient();
  await sleep(500);
  const figures = meter.stop();
  assert.ok(figures.cpuPct < 50, `${figures.cpuPct}%`);
  assert.ok(figures.eventLoopDelayP99Ms < 100, `p99 ${figures.eventLoopDelayP99Ms} ms`);
});

test('the client meter counts the harness\'s own I/O, its worker threads\' too, and not a child process\'s', async (t) => {
  if (ownIo() === null) return t.skip('/proc/self/io is not readable here (no task I/O accounting)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-client-io-'));
  try {
    const meter = meterClient();
    const fd = openSync(path.join(dir, 'written.bin'), 'w');
    writeSync(fd, Buffer.alloc(4 * MiB, 1));
    fsyncSync(fd);
    closeSync(fd);
    // Written by a thread of libuv's pool.
    await writeFile(path.join(dir, 'pooled.bin'), Buffer.alloc(MiB, 2));
    // A child process, reaped before the meter stops: its 3 MiB are its own, not the harness's.
    const child = spawnSync('sh', ['-c', `head -c ${3 * MiB} /dev/zero > ${path.join(dir, 'child.bin')}`]);
    assert.equal(child.status, 0, String(child.stderr));
    const { io } = meter.stop();
    assert.ok(io.writeChars >= 5 * MiB && io.writeChars < 6 * MiB, `writeChars ${io.writeChars}`);
    // Nothing reaches storage on tmpfs.
    if (statfsSync(dir).type !== TMPFS_MAGIC) {
      assert.ok(io.writeBytes >= 4 * MiB && io.writeBytes < 6 * MiB, `writeBytes ${io.writeBytes}`);
    }
    assert.ok(io.readBytes >= 0 && io.readChars >= 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('with client processes the I/O is the sum of every process\'s, each kept beside it', () => {
  const figures = (cpuPct, writeBytes) => ({
    cpuPct, eventLoopDelayP99Ms: 1, wallMs: 2000, io: { readBytes: 1, writeBytes, readChars: 2, writeChars: 3 },
  });
  const combined = combineClients([figures(5, 0), figures(60, 100), figures(70, 300)]);
  assert.deepEqual(combined.client.io, { readBytes: 3, writeBytes: 400, readChars: 6, writeChars: 9 });
  assert.deepEqual(combined.client.processes.map((p) => p.io.writeBytes), [0, 100, 300]);
  assert.equal(combineClients([figures(5, 0), { ...figures(60, 100), io: null }]).client.io, null, 'one unknown: unknown');
});

const server = (rssPeakBytes, rssMeanBytes, cpuPeakPct, cpuMeanPct, ms) => ({
  rssPeakBytes, rssMeanBytes, cpuPeakPct, cpuMeanPct, samples: 3, ms,
});
const runs = {
  quick: [
    { run: 1, valid: true, resources: { server: server(100, 80, 50, 40, 1000), client: { cpuPct: 30, eventLoopDelayP99Ms: 2 }, clientBound: false } },
    { run: 2, valid: false, resources: { server: server(300, 200, 120, 100, 3000), client: { cpuPct: 90, eventLoopDelayP99Ms: 1 }, clientBound: true } },
  ],
  slow: [
    { run: 1, valid: true, resources: { server: null, client: { cpuPct: 20, eventLoopDelayP99Ms: 7 }, clientBound: false } },
    { run: 2, valid: false, resources: null },
  ],
};

test('a workload keeps the peaks and maxima of its runs, valid or not, and is client-bound if any run was', () => {
  assert.deepEqual(workloadResources(runs.quick), {
    server: { rssPeakBytes: 300, cpuPeakPct: 120 },
    client: { cpuPct: 90, eventLoopDelayP99Ms: 2 },
    clientBound: true,
  });
  assert.deepEqual(workloadResources(runs.slow), {
    server: null, client: { cpuPct: 20, eventLoopDelayP99Ms: 7 }, clientBound: false,
  });
  assert.equal(workloadResources([]), null);
});

test('the suite keeps the peaks, and means weighted by the time each run was sampled', () => {
  const workloads = { quick: { runs: runs.quick }, slow: { runs: runs.slow }, unsupported: { runs: [] } };
  assert.deepEqual(suiteResources({ pid: 42, source: '--server-pid' }, workloads), {
    server: {
      pid: 42, source: '--server-pid', rssPeakBytes: 300, rssMeanBytes: 170, cpuPeakPct: 120, cpuMeanPct: 85,
    },
    client: { cpuPeakPct: 90, eventLoopDelayP99MaxMs: 7 },
  });
  assert.deepEqual(suiteResources(null, workloads).server, null);
  assert.deepEqual(suiteResources({ pid: 42, source: 'bench server' }, {}), {
    server: {
      pid: 42, source: 'bench server', rssPeakBytes: null, rssMeanBytes: null, cpuPeakPct: null, cpuMeanPct: null,
    },
    client: { cpuPeakPct: null, eventLoopDelayP99MaxMs: null },
  });
});

test('the workload and the suite carry the I/O summed over their runs; unknown when any run\'s is', () => {
  const io = (bytes) => ({ readBytes: bytes, writeBytes: 2 * bytes, readChars: 3 * bytes, writeChars: 4 * bytes });
  const measuredRun = (serverIo, clientIo) => ({
    run: 1,
    valid: true,
    resources: {
      server: { ...server(100, 80, 50, 40, 1000), io: serverIo }, client: { cpuPct: 30, eventLoopDelayP99Ms: 2, io: clientIo }, clientBound: false,
    },
  });
  const reads = [measuredRun(io(10), io(1)), measuredRun(io(20), io(2)), { run: 3, valid: false, resources: null }];
  const writes = [measuredRun(io(100), null)];
  assert.deepEqual(workloadResources(reads).server.io, io(30));
  assert.deepEqual(workloadResources(reads).client.io, io(3));
  assert.equal(workloadResources(writes).client.io, null);
  const suite = suiteResources({ pid: 42, source: 'bench server' }, { reads: { runs: reads }, writes: { runs: writes } });
  assert.deepEqual(suite.server.io, io(130), 'the import is not among the runs');
  assert.equal(suite.client.io, null);
  assert.equal(suite.server.rssPeakBytes, 100, 'the other figures as before');
});

test('the terminal table marks client-bound workloads and explains the mark', () => {
  const passed = (clientBound) => ({
    supported: true, compared: true, status: 'passed', ops: 10,
    summary: { medianMs: 100, stdevMs: 0 },
    runs: [{ run: 1, valid: true, ms: 100, latencyMs: { p50: 1, p99: 2 } }],
    resources: { server: null, client: { cpuPct: clientBound ? 95 : 20, eventLoopDelayP99Ms: 1 }, clientBound },
  });
  const result = {
    db: { name: 'Some DB', version: '1', kind: 'server', execution: 'parallel' },
    dataset: { name: 'synthetic', scale: 'tiny', profiles: 1, relations: 1, seed: 1 },
    config: { concurrency: 25, runs: 1 },
    import: { reused: true, importedAt: 'then', diskBytes: 3 * 1024 * 1024, diskScope: 'namespace' },
    resources: {
      server: { pid: 7, source: 'bench server', rssPeakBytes: 512 * 1024 * 1024, rssMeanBytes: 1, cpuPeakPct: 150, cpuMeanPct: 80 },
      client: { cpuPeakPct: 95, eventLoopDelayP99MaxMs: 1.5 },
    },
    complete: true,
    workloads: { busy: passed(true), calm: passed(false) },
  };
  const lines = formatTable(result).split('\n');
  assert.match(lines.find((line) => line.startsWith('busy')), /client-bound \*$/);
  assert.doesNotMatch(lines.find((line) => line.startsWith('calm')), /client-bound/);
  assert.ok(lines.some((line) => line.startsWith('* client-bound: ') && line.includes('85% of one core')));
  assert.ok(lines.some((line) => line.includes('3.0 MiB on disk')));
  assert.ok(lines.some((line) => line.includes('server (bench server, pid 7) peak 512.0 MiB resident, CPU peak 150% mean 80%')));
  // A server measured with its backend names both processes.
  const backed = { ...result, resources: { ...result.resources, server: { ...result.resources.server, parts: [{ name: 'ferretdb', pid: 7 }, { name: 'postgresql (its backend)', pid: 8 }] } } };
  assert.ok(formatTable(backed).includes('server (bench server, ferretdb pid 7 and postgresql (its backend) pid 8) peak 512.0 MiB'));

  result.workloads.busy = passed(false);
  assert.ok(!formatTable(result).includes('client-bound'), 'no legend without a flagged workload');
});

test('the terminal table shows the dataset lines repaired or skipped while reading, only when there were some', () => {
  const result = {
    db: { name: 'Some DB', version: '1', kind: 'server', execution: 'parallel' },
    dataset: { name: 'pokec', scale: 'tiny', profiles: 1, relations: 1, seed: 1, readStats: null },
    config: { concurrency: 25, runs: 1 },
    complete: true,
    workloads: {},
  };
  const readLines = () => formatTable(result).split('\n').filter((line) => /repaired|skipped/.test(line));
  assert.deepEqual(readLines(), []);
  const stats = (repairedLines, skippedLines) => ({ rows: 5, repairedLines, skippedLines, skipped: [], comments: 0 });
  result.dataset.readStats = { profiles: stats(0, 0), relations: stats(0, 0), relationsDropped: { withoutProfile: 3, duplicates: 2 } };
  assert.deepEqual(readLines(), []);
  result.dataset.readStats.profiles = stats(12, 1);
  result.dataset.readStats.relations = stats(0, 3);
  assert.deepEqual(readLines(), ['dataset files read: profiles 12 lines repaired (invalid UTF-8), 1 line skipped '
    + '(malformed, --skip-bad); relations 3 lines skipped (malformed, --skip-bad)']);
});
