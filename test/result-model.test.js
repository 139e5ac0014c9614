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
});
