// bench run --suite mixed --duration: each run stops taking operations when its time is up, its check and its
// counts cover the operations it took (a prefix of its stream), and it records them second by second, which the
// report's page draws; the bound's refusals.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { parseSeconds } from '../cli/options.js';
import { perSecond } from '../runner/run.js';
import { browserTest, drawPage } from './helpers/browser.js';
import { spawnBench } from './helpers/cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-duration-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the series: operations that ended in each second and their p50 and p99; the last answers count in the last second', () => {
  // Ten operations, one every 250 ms from 100 ms, each 50 ms long: two seconds and a tail.
  const starts = Float64Array.from({ length: 10 }, (_, i) => 100 + i * 250);
  const ends = starts.map((start) => start + 50);
  const latencies = Float64Array.from({ length: 10 }, (_, i) => i + 1);
  const series = perSecond({ times: { starts, ends }, latencies }, 2);
  assert.deepEqual(series.ops, [4, 6], 'the answers after 2 s (the time was up) land in the second second');
  assert.deepEqual(series.p50, [2, 7]);
  assert.deepEqual(series.p99, [4, 10]);
  assert.equal(series.intervalMs, 1000);
  assert.equal(perSecond({ times: null, latencies }, 2), null, 'nothing timed apart: no series');
});

test('a run bounded by --duration takes a checked prefix of its stream, recorded second by second, drawn on the page', { ...browserTest, timeout: 180_000 }, async () => {
  const out = path.join(dir, 'results');
  const { code, stdout, stderr } = await spawnBench(['run', '--suite', 'mixed', '--db', 'memory', '--duration', '2s', '--ops', '3000000',
    '--records', '300', '--concurrency', '4', '--runs', '1', '--workload', 'igiugid', '--json', '--quiet', '--out', out], { timeoutMs: 150_000 });
  assert.equal(code, 0, stderr);
  const result = JSON.parse(stdout);
  const [[key, entry]] = Object.entries(result.workloads);
  assert.equal(key, 'igiugid n=3000000 c=4 d=2s');
  assert.equal(entry.status, 'passed', JSON.stringify(entry.failures));
  assert.ok(entry.ops > 0 && entry.ops < 3_000_000, `a prefix: ${entry.ops}`);
  const [run] = entry.runs;
  assert.ok(run.ms >= 2000 && run.ms < 4000, `stopped at its time: ${run.ms} ms`);
  assert.equal(run.series.ops.length, 2);
  assert.equal(run.series.ops.reduce((a, b) => a + b, 0), entry.ops, 'every operation taken, in one second or the other');
  assert.deepEqual(entry.params, { ops: 3_000_000, records: 300, distribution: 'zipfian', concurrency: 4, durable: false, durationS: 2 });
  const page = path.join(dir, 'report.html');
  const report = await spawnBench(['report', out, '--format', 'html', '--out', page], { timeoutMs: 60_000 });
  assert.equal(report.code, 0, report.stderr);
  const { problems, drawn } = await drawPage(readFileSync(page, 'utf8'), () => Array.from(document.querySelectorAll('#chart-mixed canvas'))
    .map((canvas) => window.Chart.getChart(canvas)).filter((chart) => /second by second/.test(chart.options.plugins.title.text))
    .map((chart) => ({ type: chart.config.type, labels: chart.data.labels, lines: chart.data.datasets.map((line) => line.label) })));
  assert.deepEqual(problems, []);
  assert.deepEqual(drawn, [{ type: 'line', labels: [1, 2], lines: ['memory ops/s', 'memory p99 ms'] }]);
  assert.equal(readdirSync(out).filter((name) => name.endsWith('.json')).length, 1);
  assert.equal(run.endedAtOps, undefined, 'stopped by its time, not by --ops');
});

test('--duration as typed: a bare number is seconds; ms, s, m, min and h', () => {
  for (const [text, seconds] of [['30', 30], ['30s', 30], ['1.5m', 90], ['5min', 300], ['1h', 3600], ['500ms', 0.5], [' 2 S ', 2], [7, 7]]) {
    assert.equal(parseSeconds(text), seconds, text);
  }
  for (const text of ['', 'abc', '30x', '-5s', '1h30m', 's']) assert.ok(Number.isNaN(parseSeconds(text)), text);
});

test('a run that takes all its --ops before --duration is up records it, and the terminal says so', { timeout: 60_000 }, async () => {
  const { code, stdout, stderr } = await spawnBench(['run', '--suite', 'mixed', '--db', 'memory', '--duration', '1m', '--ops', '200',
    '--records', '50', '--concurrency', '2', '--runs', '2', '--workload', 'read-only', '--out', path.join(dir, 'early')], { timeoutMs: 50_000 });
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^read-only n=200 c=2 d=60s: runs 1, 2 took all 200 operations in \d+ ms, \d+ ms, before 60 s were up: give --ops higher for a run bounded by time$/m);
  const [file] = readdirSync(path.join(dir, 'early'));
  const { workloads } = JSON.parse(readFileSync(path.join(dir, 'early', file), 'utf8'));
  assert.deepEqual(workloads['read-only n=200 c=2 d=60s'].runs.map((run) => run.endedAtOps), [true, true]);
});

test('--duration is refused with an open loop, with several client processes, with another suite, and out of range', { timeout: 60_000 }, async () => {
  for (const [args, message] of [
    [['--suite', 'mixed', '--duration', '5', '--rate', '100'], /^error: --duration bounds a closed loop; an open loop \(--rate\) runs its --ops on its schedule: give one of them$/m],
    [['--suite', 'mixed', '--db', 'sqlite', '--duration', '5', '--clients', '2'], /^error: --duration runs in one client process for now/m],
    [['--duration', '5'], /^error: --duration is a flag of --suite mixed, not of --suite social$/m],
    [['--suite', 'mixed', '--duration', '0'], /^error: --duration must be a time above 0 s, at most 86,400 s, such as 30s, 90, 5m or 1h \(a bare number is seconds\), got 0$/m],
    [['--suite', 'mixed', '--duration', '30x'], /^error: --duration must be a time above 0 s, .*, got 30x$/m],
    [['--suite', 'mixed', '--duration', '25h'], /^error: --duration must be a time above 0 s, at most 86,400 s, .*, got 25h$/m],
  ]) {
    const { code, stderr } = await spawnBench(['run', ...(args.includes('--db') ? [] : ['--db', 'memory']), ...args], { timeoutMs: 30_000 });
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
    assert.match(stderr, message);
  }
});
