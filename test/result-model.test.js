// The result document's bookkeeping (results/model.js): how runs become a workload's status, summary and
// throughput, and what an unfinished invocation leaves behind.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addWorkload, createResult, failedWorkloads, finishResult, recordRun } from '../results/model.js';
import { summarizeLatencies } from '../results/stats.js';

const workload = (name, compared = true) => ({ name, compared, operation: name, description: `${name} test` });

function document() {
  const result = createResult({ db: { id: 'memory' }, dataset: { id: 'synthetic-tiny-s1' }, config: { runs: 3 }, command: 'test' });
  addWorkload(result, workload('singleRead'), true);
  addWorkload(result, workload('aggregation'), true);
  addWorkload(result, workload('shortestPath'), false);
  return result;
}

const valid = (run, ms, ops = 1000) => ({ run, ops, ms, valid: true, ...summarizeLatencies([1, 2, 3]) });
const wrong = (run) => ({
  run, ops: 1000, ms: 5, valid: false, errors: 0, failed: 2, reason: '2 wrong answers',
  examples: [{ input: '"P1"', problem: 'expected 1, got 2' }, { input: '"P2"', problem: 'expected 3, got 4' }],
});

test('a new document holds its inputs and one pending entry per workload, unsupported ones marked so', () => {
  const result = document();
  assert.equal(result.schema, 'db-shootout/result@1');
  assert.deepEqual(
    { db: result.db, dataset: result.dataset, config: result.config, command: result.command },
    { db: { id: 'memory' }, dataset: { id: 'synthetic-tiny-s1' }, config: { runs: 3 }, command: 'test' },
  );
  assert.match(result.startedAt, /^\d{4}-\d\d-\d\dT/);
  assert.deepEqual(
    [result.finishedAt, result.import, result.complete, result.interrupted, result.error],
    [null, null, false, false, null],
  );
  assert.equal(typeof result.environment.node, 'string');
  assert.equal(result.resources.server, null);
  assert.deepEqual(result.workloads.singleRead, {
    supported: true, compared: true, operation: 'singleRead', description: 'singleRead test', status: 'pending', valid: null,
    ops: 0, runs: [], summary: null, resources: null, failures: [],
  });
  assert.deepEqual(result.workloads.shortestPath, {
    supported: false, compared: true, operation: 'shortestPath', description: 'shortestPath test', status: 'unsupported', valid: null,
    ops: 0, runs: [], summary: null, resources: null,
  });
  const withServer = createResult({ db: {}, dataset: {}, config: {}, command: 'x', server: { pid: 42, source: 'bench server' } });
  assert.deepEqual([withServer.resources.server.pid, withServer.resources.server.source], [42, 'bench server']);
});

test('each run\'s resources are kept and gathered into the workload\'s and the suite\'s', () => {
  const result = document();
  const resources = (rss, cpuPct) => ({
    server: { rssPeakBytes: rss, cpuPeakPct: 50 }, client: { cpuPct, eventLoopDelayP99Ms: 1 }, clientBound: false,
  });
  recordRun(result, 'singleRead', { ...valid(1, 10), resources: resources(100, 20) });
  recordRun(result, 'singleRead', { ...wrong(2), resources: resources(300, 10) });
  assert.deepEqual(result.workloads.singleRead.runs.map((r) => r.resources.server.rssPeakBytes), [100, 300]);
  assert.deepEqual(result.workloads.singleRead.resources.server, { rssPeakBytes: 300, cpuPeakPct: 50 });
  assert.equal(result.workloads.singleRead.resources.client.cpuPct, 20);
  assert.equal(result.resources.server, null, 'no server process was named');
  assert.equal(result.resources.client.cpuPeakPct, 20, 'the suite\'s figures follow every run');
  const sampled = createResult({ db: {}, dataset: {}, config: {}, command: 'x', server: { pid: 42, source: 'bench server' } });
  addWorkload(sampled, workload('singleRead'), true);
  recordRun(sampled, 'singleRead', { ...valid(1, 10), resources: resources(100, 20) });
  assert.deepEqual([sampled.resources.server.pid, sampled.resources.server.rssPeakBytes], [42, 100]);
  recordRun(result, 'aggregation', valid(1, 10));
  assert.equal(result.workloads.aggregation.runs[0].resources, null);
  assert.equal(result.workloads.aggregation.resources, null);
});

test('a workload passes only when every run was valid, whichever run answered wrongly', () => {
  const lastWrong = document();
  recordRun(lastWrong, 'singleRead', valid(1, 10));
  recordRun(lastWrong, 'singleRead', valid(2, 12));
  assert.equal(lastWrong.workloads.singleRead.status, 'passed');
  recordRun(lastWrong, 'singleRead', wrong(3));
  assert.deepEqual([lastWrong.workloads.singleRead.status, lastWrong.workloads.singleRead.valid], ['failed', false]);
  assert.equal(lastWrong.workloads.singleRead.summary, null, 'a failed workload has no time');

  const firstWrong = document();
  recordRun(firstWrong, 'aggregation', wrong(1));
  recordRun(firstWrong, 'aggregation', valid(2, 10));
  recordRun(firstWrong, 'aggregation', valid(3, 10));
  assert.deepEqual([firstWrong.workloads.aggregation.status, firstWrong.workloads.aggregation.valid], ['failed', false]);
  assert.equal(firstWrong.workloads.aggregation.summary, null);
  assert.deepEqual(failedWorkloads(firstWrong), ['aggregation']);
});

test('a wrong run keeps no time, only what went wrong; a valid run keeps its time, ops/s and latencies', () => {
  const result = document();
  recordRun(result, 'singleRead', valid(1, 250, 1000));
  recordRun(result, 'singleRead', wrong(2));
  const [good, bad] = result.workloads.singleRead.runs;
  // 1,000 operations in 250 ms: 4,000 per second.
  assert.deepEqual({ ms: good.ms, opsPerSec: good.opsPerSec, errors: good.errors, valid: good.valid }, { ms: 250, opsPerSec: 4000, errors: 0, valid: true });
  assert.deepEqual(good.latencyMs, summarizeLatencies([1, 2, 3]).latencyMs);
  assert.equal(typeof good.histogram, 'string');
  assert.deepEqual(bad, { run: 2, valid: false, errors: 0, failed: 2, reason: '2 wrong answers', resources: null });
  assert.deepEqual(result.workloads.singleRead.failures, [
    { run: 2, input: '"P1"', problem: 'expected 1, got 2' }, { run: 2, input: '"P2"', problem: 'expected 3, got 4' },
  ]);
});

test('run times are summarised over the valid runs, rounded to the microsecond, with their ops/s', () => {
  const result = document();
  // 1,000 operations in 333.3334 ms: 3,000 per second.
  for (const [run, ms] of [[1, 333.3334], [2, 300], [3, 400], [4, 350]]) recordRun(result, 'aggregation', valid(run, ms));
  const entry = result.workloads.aggregation;
  assert.equal(entry.status, 'passed');
  assert.equal(entry.runs[0].ms, 333.333);
  assert.equal(entry.runs[0].opsPerSec, 3000);
  assert.equal(entry.runs[2].opsPerSec, 2500);
  // Even count: the median is the mean of the two middle times, (333.333 + 350) / 2.
  assert.equal(entry.summary.medianMs, 341.667);
  assert.equal(entry.summary.minMs, 300);
  assert.equal(entry.summary.maxMs, 400);
});

test('at most five failure examples are kept over all runs', () => {
  const result = document();
  for (let run = 1; run <= 3; run += 1) recordRun(result, 'singleRead', wrong(run));
  assert.deepEqual(result.workloads.singleRead.failures.map((f) => f.run), [1, 1, 2, 2, 3]);
});

test('an unfinished invocation marks the workloads it did not reach as not run and keeps the error', () => {
  const result = document();
  recordRun(result, 'singleRead', valid(1, 10));
  finishResult(result, { complete: false, error: Object.assign(new Error('server gone'), { code: 'E_TIMEOUT' }) });
  assert.deepEqual(Object.values(result.workloads).map((w) => w.status), ['passed', 'not run', 'unsupported']);
  assert.deepEqual(result.error, { code: 'E_TIMEOUT', message: 'server gone' });
  assert.deepEqual([result.complete, result.interrupted], [false, false]);
  assert.ok(result.finishedAt >= result.startedAt);
  assert.deepEqual(failedWorkloads(result), []);
  const interrupted = finishResult(document(), { complete: false, interrupted: true });
  assert.deepEqual([interrupted.interrupted, interrupted.error], [true, null]);
  assert.deepEqual(finishResult(document(), { complete: false, error: new Error('no code') }).error, { code: null, message: 'no code' });
  assert.equal(finishResult(document(), { complete: true }).complete, true);
});
