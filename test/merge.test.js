// bench merge (results/merge.js, cli/merge.js): partial results of a sharded run, built here as the runner builds
// them, merged into one result document: histograms added exactly, throughput over the span of every shard, a
// failed shard fails the run, every machine listed; the refusals (other runs, a missing, duplicate or unfinished
// shard, a document that is no partial result) with exit code 2; bench report and compare read the merged document.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { mergeShards, orderShards } from '../results/merge.js';
import { addWorkload, createResult, finishResult, recordRun } from '../results/model.js';
import { decodeHistogram, summarizeLatencies } from '../results/stats.js';
import { spawnBench } from './helpers/cli.js';
import { latenciesByKind } from '../runner/run.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-merge-'));
after(() => rmSync(work, { recursive: true, force: true }));

const KEY = 'read-only n=3000 c=4';
const T0 = Date.parse('2026-01-01T12:00:00Z');
const latenciesOf = (index, count) => Array.from({ length: count }, (_, i) => 0.2 + ((i * 7919 + index * 104_729) % 5000) / 97);

// A partial result as runner/run.js writes it: one mixed workload, one run of `latencies` from `startMs` to `endMs`.
function partial({
  index, count = 3, runId = 'r1', latencies = latenciesOf(index, 1000), startMs = T0 + index * 3, endMs = T0 + 500 + index * 40,
  valid = true, complete = true, hostname = `node-${index}`, openLoop = null, byKind = null,
}) {
  const result = createResult({
    suite: 'mixed',
    db: { id: 'postgresql', name: 'PostgreSQL', version: '15' },
    dataset: { id: 'mixed-uniform-r300-s1', name: 'mixed documents' },
    config: { concurrency: [4], runs: 1 },
    command: `bench run --suite mixed --shard ${index}/${count} --run-id ${runId}`,
    shard: { index, count, runId, startAt: null, clock: { offsetMs: 0.1 * index, roundTripMs: 0.5, against: 'test' } },
  });
  result.environment.hostname = hostname;
  addWorkload(result, { name: KEY, compared: true, operation: 'getDocument', description: 'gets only', params: { ops: 3000 } }, true);
  const span = { startAt: new Date(T0).toISOString(), startMs, endMs, lateMs: startMs - T0 };
  const resources = { server: null, client: { cpuPct: 10 + index, eventLoopDelayP99Ms: 1 + index }, clientBound: false };
  recordRun(result, KEY, valid
    ? { run: 1, valid: true, ops: latencies.length, ms: endMs - startMs, resources, span, openLoop, ...summarizeLatencies(latencies), ...(byKind ? { byKind } : {}) }
    : {
      run: 1, valid: false, ops: latencies.length, errors: 0, failed: 2, reason: '2 wrong answers', resources, span,
      examples: [{ input: 'operation 7 (get C12)', problem: 'returned a value never written' }],
    });
  return finishResult(result, { complete });
}

const documents = (results) => results.map((result, i) => ({ file: `shard-${i}.json`, result }));

describe('merging the shards of one run', () => {
  test('adds their histograms exactly and spans their runs', () => {
    const shards = [0, 1, 2].map((index) => partial({ index }));
    const merged = mergeShards(documents([shards[2], shards[0], shards[1]]));
    const entry = merged.workloads[KEY];
    const [run] = entry.runs;
    const every = [0, 1, 2].flatMap((index) => latenciesOf(index, 1000));
    const alone = summarizeLatencies(every);
    assert.equal(entry.status, 'passed');
    assert.equal(entry.ops, 3000);
    assert.equal(decodeHistogram(run.histogram).totalCount, 3000);
    for (const p of ['p50', 'p90', 'p95', 'p99', 'max']) assert.equal(run.latencyMs[p], alone.latencyMs[p], p);
    assert.ok(Math.abs(run.latencyMs.mean - alone.latencyMs.mean) < 0.002);
    // From the earliest start (shard 0's) to the latest end (shard 2's).
    assert.equal(run.ms, 580);
    assert.equal(run.opsPerSec, Math.round(3000 / 0.58));
    assert.equal(run.span.shards.length, 3);
    assert.deepEqual(run.resources.client.processes.map((process) => process.cpuPct), [10, 11, 12]);
    assert.deepEqual(merged.shards.machines.map((machine) => machine.hostname), ['node-0', 'node-1', 'node-2']);
    assert.deepEqual(merged.shards.machines.map((machine) => machine.clock.offsetMs), [0, 0.1, 0.2]);
    assert.equal(merged.shards.runId, 'r1');
    assert.equal(merged.config.shards, 3);
    assert.equal(merged.shard, undefined);
    assert.equal(merged.command, 'bench run --suite mixed --run-id r1');
    assert.equal(merged.complete, true);
  });

  test('a mix\'s latency per kind adds up over the shards, exactly as one histogram of every shard\'s operations', () => {
    const kinds = (index) => latenciesByKind(latenciesOf(index, 1000).map((_, i) => ({ kind: i % 4 === 0 ? 'update' : 'get' })),
      latenciesOf(index, 1000), (op) => op.kind);
    const merged = mergeShards(documents([0, 1, 2].map((index) => partial({ index, byKind: kinds(index) }))));
    const entry = merged.workloads[KEY];
    const every = [0, 1, 2].flatMap((index) => latenciesOf(index, 1000));
    const updates = summarizeLatencies(every.filter((_, i) => (i % 1000) % 4 === 0));
    assert.equal(entry.runs[0].byKind.update.operations, 750);
    assert.equal(entry.runs[0].byKind.get.operations, 2250);
    for (const p of ['p50', 'p99', 'max']) assert.equal(entry.runs[0].byKind.update.latencyMs[p], updates.latencyMs[p], p);
    assert.equal(entry.latencyByKind.update.operations, 750);
    const without = mergeShards(documents([partial({ index: 0, count: 2, byKind: kinds(0) }), partial({ index: 1, count: 2 })]));
    assert.equal(without.workloads[KEY].runs[0].byKind, undefined, 'a shard without kinds: none merged');
  });

  test('the span runs from the earliest start to the latest end of any shard, whatever the order of shards and files', () => {
    const openLoop = { targetRate: 1000, achievedRate: 1000, sendLagMs: { mean: 1, max: 1 }, note: null };
    // Shard 2 starts first, shard 1 ends last: neither the first nor the last shard holds both ends.
    const shards = [
      partial({ index: 0, startMs: T0 + 20, endMs: T0 + 700, openLoop }),
      partial({ index: 1, startMs: T0 + 30, endMs: T0 + 1010, openLoop }),
      partial({ index: 2, startMs: T0 + 10, endMs: T0 + 600, openLoop }),
    ];
    for (const order of [[0, 1, 2], [2, 1, 0], [1, 2, 0], [0, 2, 1]]) {
      const [run] = mergeShards(documents(order.map((index) => shards[index]))).workloads[KEY].runs;
      assert.deepEqual([run.span.startMs, run.span.endMs, run.ms], [T0 + 10, T0 + 1010, 1000], `files in shard order ${order}`);
      // 3000 operations over 1 s: the rates of the whole span, not of a shorter one.
      assert.deepEqual([run.opsPerSec, run.openLoop.achievedRate], [3000, 3000], `files in shard order ${order}`);
    }
  });

  test('open loop: the shards\' target rates add up, the achieved rate is every answer over the span', () => {
    const openLoop = (lag) => ({ targetRate: 2000, achievedRate: 1990, sendLagMs: { mean: lag, max: lag * 10 }, note: null });
    const shards = [0, 1].map((index) => partial({ index, count: 2, openLoop: openLoop(index + 1) }));
    const [run] = mergeShards(documents(shards)).workloads[KEY].runs;
    // 2000 answers from T0 to T0 + 540 ms: 3,704 ops/s, 7% below the 4,000 targeted.
    assert.deepEqual(run.openLoop, {
      targetRate: 4000,
      achievedRate: 3704,
      sendLagMs: { mean: 1.5, max: 20 },
      note: 'achieved 3704 ops/s, 7% below the target of 4000 ops/s (the shards\' targets added): the answers could not keep up with the schedule',
    });
    assert.equal(run.opsPerSec, 3704);
  });

  test('a shard whose check failed fails the run, naming it', () => {
    const merged = mergeShards(documents([partial({ index: 0 }), partial({ index: 1, valid: false }), partial({ index: 2 })]));
    const entry = merged.workloads[KEY];
    assert.equal(entry.status, 'failed');
    assert.equal(entry.runs[0].valid, false);
    assert.equal(entry.runs[0].reason, 'shard 1: 2 wrong answers');
    assert.match(entry.failures[0].problem, /^shard 1: returned a value never written/);
  });

  test('refuses other runs, missing, duplicate and unfinished shards, and documents of no shard', () => {
    const usage = (message) => ({ code: 'E_USAGE', message });
    assert.throws(() => orderShards(documents([partial({ index: 0 }), partial({ index: 1, runId: 'r2' }), partial({ index: 2 })])),
      usage(/of 2 different runs; merge one run at a time\nrun r1: shard-0.json, shard-2.json\nrun r2: shard-1.json/));
    assert.throws(() => orderShards(documents([partial({ index: 0, count: 4 }), partial({ index: 2, count: 4 })])),
      usage(/run r1 is missing shards 1, 3 of 4/));
    assert.throws(() => orderShards(documents([partial({ index: 0 }), partial({ index: 1 }), partial({ index: 1 }), partial({ index: 2 })])),
      usage(/shard 1 in shard-1.json and shard-2.json/));
    assert.throws(() => orderShards(documents([partial({ index: 0 }), partial({ index: 1, complete: false }), partial({ index: 2 })])),
      usage(/unfinished shards .*shard-1.json \(shard 1 of 3\)/));
    const plain = partial({ index: 0 });
    delete plain.shard;
    assert.throws(() => orderShards(documents([plain])), usage(/not a partial result of a sharded run/));
    assert.throws(() => orderShards(documents([partial({ index: 0 }), partial({ index: 1, count: 2 })])), usage(/disagree on their number/));
  });
});

describe('bench merge', () => {
  const write = (name, result) => {
    const file = path.join(work, name);
    writeFileSync(file, JSON.stringify(result));
    return file;
  };

  test('writes the merged document, which bench report and bench compare read like any other', async () => {
    const files = [0, 1, 2].map((index) => write(`p${index}.json`, partial({ index })));
    const out = path.join(work, 'merged.json');
    const merged = await spawnBench(['merge', ...files, '--out', out]);
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(merged.stderr, /merged 3 shards of run r1 in \d+ ms \(machines: node-0, node-1, node-2\)/);
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).workloads[KEY].ops, 3000);
    const report = await spawnBench(['report', out, '--format', 'json']);
    assert.equal(report.code, 0, report.stderr);
    assert.equal(JSON.parse(report.stdout).workloads[0].results.postgresql.opsPerSec, Math.round(3000 / 0.58));
    const compare = await spawnBench(['compare', out, out, '--format', 'json']);
    assert.equal(compare.code, 0, compare.stderr);
  });

  test('exit code 2, nothing written, for a missing shard; 1 for a failed one', async () => {
    const out = path.join(work, 'missing.json');
    const files = [0, 2].map((index) => write(`m${index}.json`, partial({ index, runId: 'rm' })));
    const missing = await spawnBench(['merge', ...files, '--out', out]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^error: run rm is missing shard 1 of 3/);
    assert.throws(() => readFileSync(out), { code: 'ENOENT' });
    const failed = await spawnBench(['merge', ...[0, 1, 2].map((index) => write(`f${index}.json`, partial({ index, runId: 'rf', valid: index !== 1 }))),
      '--out', path.join(work, 'failed.json')]);
    assert.equal(failed.code, 1, failed.stderr);
  });

  test('with no files says what it needs', async () => {
    const { code, stderr } = await spawnBench(['merge', '--out', path.join(work, 'none.json')]);
    assert.equal(code, 2);
    assert.match(stderr, /^error: bench merge needs the partial results of one sharded run/);
  });

  test('--help says what exit code 2 means', async () => {
    const help = await spawnBench(['merge', '--help']);
    assert.match(help.stdout.replace(/\s+/g, ' '), /2 the files given are not the shards of one run/);
  });
});

describe('merging the shards of one run, field by field', () => {
  test('the busiest shard\'s client figures, the worst event-loop delay, client-bound when any shard was', () => {
    const shards = [0, 1, 2].map((index) => partial({ index }));
    // Shard 1 the busiest, shard 0 with the worst event-loop delay.
    shards[1].workloads[KEY].runs[0].resources = { server: null, client: { cpuPct: 90, eventLoopDelayP99Ms: 2 }, clientBound: true };
    shards[0].workloads[KEY].runs[0].resources = { server: null, client: { cpuPct: 5, eventLoopDelayP99Ms: 9 }, clientBound: false };
    const [run] = mergeShards(documents(shards)).workloads[KEY].runs;
    assert.deepEqual(run.resources, {
      server: null,
      client: { cpuPct: 90, eventLoopDelayP99Ms: 9, processes: [{ cpuPct: 5, eventLoopDelayP99Ms: 9 }, { cpuPct: 90, eventLoopDelayP99Ms: 2 }, { cpuPct: 12, eventLoopDelayP99Ms: 3 }] },
      clientBound: true,
    });
    shards[1].workloads[KEY].runs[0].resources.clientBound = false;
    assert.equal(mergeShards(documents(shards)).workloads[KEY].runs[0].resources.clientBound, false);
    // A shard that measured nothing of its client: no resources for the run.
    shards[2].workloads[KEY].runs[0].resources = null;
    assert.equal(mergeShards(documents(shards)).workloads[KEY].runs[0].resources, null);
  });

  test('open loop: the send lag\'s mean weighted by each shard\'s answers, no note at the target, none when a shard ran closed', () => {
    const openLoop = (targetRate, lag) => ({ targetRate, achievedRate: targetRate, sendLagMs: { mean: lag, max: lag * 2 }, note: null });
    // 1000 and 3000 answers over 1000 ms: 4,000 ops/s, the targets' sum.
    const shards = [
      partial({ index: 0, count: 2, latencies: latenciesOf(0, 1000), startMs: T0, endMs: T0 + 900, openLoop: openLoop(1000, 4) }),
      partial({ index: 1, count: 2, latencies: latenciesOf(1, 3000), startMs: T0 + 100, endMs: T0 + 1000, openLoop: openLoop(3000, 8) }),
    ];
    shards[1].workloads[KEY].ops = 3000;
    const [run] = mergeShards(documents(shards)).workloads[KEY].runs;
    assert.deepEqual(run.openLoop, { targetRate: 4000, achievedRate: 4000, sendLagMs: { mean: 7, max: 16 }, note: null });
    const closed = [shards[0], partial({ index: 1, count: 2 })];
    assert.equal('openLoop' in mergeShards(documents(closed)).workloads[KEY].runs[0], false);
  });

  test('a failed run: errors and failed answers added, each failed shard named, its own run\'s examples only, five at most', () => {
    const shards = [0, 1, 2].map((index) => partial({ index, valid: index > 0 }));
    const example = (input) => ({ run: 1, input, problem: `problem ${input}` });
    for (const index of [1, 2]) {
      const entry = shards[index].workloads[KEY];
      entry.runs = [{ run: 1, valid: false, errors: index, failed: 10 * index, reason: `reason ${index}`, resources: null }];
      entry.failures = [example(`${index}a`), example(`${index}b`), example(`${index}c`), { run: 2, input: 'other run', problem: 'x' }];
    }
    shards[0].workloads[KEY].runs = [{ ...shards[0].workloads[KEY].runs[0], valid: false, errors: undefined, failed: undefined, reason: 'reason 0' }];
    shards[0].workloads[KEY].failures = [];
    const entry = mergeShards(documents(shards)).workloads[KEY];
    assert.deepEqual({ ...entry.runs[0], resources: undefined }, {
      run: 1, valid: false, errors: 3, failed: 30, reason: 'shard 0: reason 0; shard 1: reason 1; shard 2: reason 2', resources: undefined,
    });
    assert.deepEqual(entry.failures.map((failure) => [failure.run, failure.input, failure.problem]), [
      [1, '1a', 'shard 1: problem 1a'], [1, '1b', 'shard 1: problem 1b'], [1, '1c', 'shard 1: problem 1c'], [1, '2a', 'shard 2: problem 2a'], [1, '2b', 'shard 2: problem 2b'],
    ]);
  });

  test('the document: earliest start, latest end, the first shard\'s error named by shard, unsupported workloads kept as they are', () => {
    const shards = [0, 1].map((index) => partial({ index, count: 2 }));
    shards[0].startedAt = '2026-01-01T12:00:02.000Z';
    shards[1].startedAt = '2026-01-01T12:00:01.000Z';
    shards[0].finishedAt = '2026-01-01T12:10:00.000Z';
    shards[1].finishedAt = '2026-01-01T12:09:00.000Z';
    shards[1].error = { code: 'E_X', message: 'connection reset' };
    for (const shard of shards) addWorkload(shard, { name: 'graph', compared: true, operation: 'x', description: 'y', unsupported: 'no graphs' }, false);
    const merged = mergeShards(documents(shards));
    assert.equal(merged.startedAt, '2026-01-01T12:00:01.000Z');
    assert.equal(merged.finishedAt, '2026-01-01T12:10:00.000Z');
    assert.deepEqual(merged.error, { code: 'E_X', message: 'shard 1: connection reset' });
    assert.deepEqual([merged.complete, merged.interrupted], [true, false]);
    assert.deepEqual(merged.workloads.graph, {
      supported: false, compared: true, operation: 'x', description: 'y', status: 'unsupported', valid: null, ops: 0, runs: [], summary: null, resources: null, reason: 'no graphs',
    });
    assert.equal(merged.shards.count, 2);
    assert.deepEqual(merged.shards.machines.map((machine) => [machine.shard, machine.file]), [[0, 'shard-0.json'], [1, 'shard-1.json']]);
    assert.equal(mergeShards(documents([partial({ index: 0, count: 2 }), partial({ index: 1, count: 2 })])).error, null);
  });

  test('shards of other workloads or without a run the others have are refused; every refusal\'s words', () => {
    const usage = (message) => ({ code: 'E_USAGE', message });
    const other = partial({ index: 1, count: 2 });
    addWorkload(other, { name: 'extra', compared: true, operation: 'x', description: 'y' }, true);
    assert.throws(() => mergeShards(documents([partial({ index: 0, count: 2 }), other])),
      usage('shard 1 ran other workloads than shard 0: were they given the same flags?'));
    const second = partial({ index: 0, count: 2 });
    second.workloads[KEY].runs.push({ ...second.workloads[KEY].runs[0], run: 2 });
    assert.throws(() => mergeShards(documents([second, partial({ index: 1, count: 2 })])), usage(`shard 1 has no run 2 of ${KEY} (the others have)`));
    assert.throws(() => orderShards([]), usage('no partial results to merge'));
    assert.throws(() => orderShards(documents([partial({ index: 0 }), partial({ index: 2 })])),
      usage('run r1 is missing shard 1 of 3: only 2 of its 3 partial results were given'));
    const stopped = partial({ index: 1, count: 2, complete: false });
    stopped.error = { code: null, message: 'killed' };
    assert.throws(() => orderShards(documents([partial({ index: 0, count: 2 }), stopped])),
      usage('run r1 has unfinished shards (stopped before their end, complete: false): shard-1.json (shard 1 of 2): killed'));
    assert.throws(() => orderShards(documents([partial({ index: 0, count: 2 }), partial({ index: 1, count: 3 })])),
      usage('the shards of run r1 disagree on their number: 2, 3'));
    assert.throws(() => orderShards(documents([partial({ index: 0 }), partial({ index: 0 }), partial({ index: 1 }), partial({ index: 1 }), partial({ index: 2 })])),
      usage('a shard is given more than once: shard 0 in shard-0.json and shard-1.json; shard 1 in shard-2.json and shard-3.json'));
    const plain = partial({ index: 0 });
    delete plain.shard;
    assert.throws(() => orderShards([{ file: 'a.json', result: plain }, { file: 'b.json', result: null }, { file: 'c.json', result: partial({ index: 0 }) }]),
      usage('not a partial result of a sharded run (bench run --shard): a.json, b.json'));
  });

  test('the finer points: a zero span, exactly at the target\'s edge, the runs in order, each shard\'s span, the latest end of three', () => {
    const openLoop = { targetRate: 2000, achievedRate: 2000, sendLagMs: { mean: 1, max: 1 }, note: null };
    // Every answer at one instant: no rate, rather than an infinite one.
    const instant = [0, 1].map((index) => partial({ index, count: 2, startMs: T0, endMs: T0, openLoop }));
    assert.equal(mergeShards(documents(instant)).workloads[KEY].runs[0].openLoop.achievedRate, 0);
    // 2 × 1000 answers in 2000 / 3.8 ms against 2 × 2000 a second: 3,800 achieved is exactly 95% of 4,000, not behind it.
    const edge = [0, 1].map((index) => partial({ index, count: 2, startMs: T0, endMs: T0 + 2000 / 3.8, openLoop }));
    const [edgeRun] = mergeShards(documents(edge)).workloads[KEY].runs;
    assert.deepEqual([edgeRun.openLoop.achievedRate, edgeRun.openLoop.targetRate, edgeRun.openLoop.note], [3800, 4000, null]);
    assert.deepEqual(edgeRun.span.shards, edge.map((shard) => shard.workloads[KEY].runs[0].span));

    // Runs listed out of order in a shard are merged in order of their number.
    const shards = [0, 1, 2].map((index) => partial({ index }));
    for (const shard of shards) {
      const [first] = shard.workloads[KEY].runs;
      shard.workloads[KEY].runs = [3, 1, 2].map((run) => ({ ...first, run }));
    }
    shards[0].finishedAt = '2026-01-01T12:00:03.000Z';
    shards[1].finishedAt = '2026-01-01T12:00:01.000Z';
    shards[2].finishedAt = '2026-01-01T12:00:02.000Z';
    const merged = mergeShards(documents(shards));
    assert.deepEqual(merged.workloads[KEY].runs.map((run) => run.run), [1, 2, 3]);
    assert.equal(merged.finishedAt, '2026-01-01T12:00:03.000Z');
    // Shard 0 without a run the others have.
    shards[0].workloads[KEY].runs = shards[0].workloads[KEY].runs.filter((run) => run.run !== 2);
    assert.throws(() => mergeShards(documents(shards)), { code: 'E_USAGE', message: `shard 0 has no run 2 of ${KEY} (the others have)` });
  });

  test('a workload no shard ran is not run; a shard interrupted after its runs makes the document interrupted; the flag cut however written', () => {
    const shards = [0, 1].map((index) => partial({ index, count: 2 }));
    for (const shard of shards) addWorkload(shard, { name: 'later', compared: true, operation: 'x', description: 'y' }, true);
    shards[1].interrupted = true;
    shards[0].command = 'bench run --suite mixed --shard  0/2 --run-id r1';
    const merged = mergeShards(documents(shards));
    assert.equal(merged.workloads.later.status, 'not run');
    assert.equal(merged.interrupted, true);
    assert.equal(merged.command, 'bench run --suite mixed --run-id r1');
    assert.equal(mergeShards(documents([0, 1].map((index) => partial({ index, count: 2 })))).interrupted, false);
  });

  test('unfinished shards: each named, with its error where it has one', () => {
    const stopped = [0, 1, 2].map((index) => partial({ index, complete: index === 0 }));
    stopped[1].error = { code: null, message: 'killed' };
    assert.throws(() => orderShards(documents(stopped)), {
      code: 'E_USAGE',
      message: 'run r1 has unfinished shards (stopped before their end, complete: false): shard-1.json (shard 1 of 3): killed; shard-2.json (shard 2 of 3)',
    });
  });
});
