// The harness's own overhead: the runner's timed loop (runner/execute.js, with the singleRead workload's
// call) against the in-process memory adapter at concurrency 25, next to two hand-written loops over the
// same adapter, keys and concurrency:
//   bare loop   - 25 workers awaiting singleRead; measures nothing (the ceiling of any loop here);
//   timed loop  - the bare loop plus one clock read and one store per operation: the least a benchmark that
//                 reports per-operation latency must do. The target ratio is taken against this loop.
// Targets (issue: harness core): runner >= 500,000 ops/s, and >= 0.9 x the timed loop.
//
//   node benchmarks/overhead.js [--ops 1000000] [--rounds 9]
//
// Ratios are paired: taken within each round, reported as the median over the rounds with its spread
// (benchmarks/paired.js).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import memory from '../adapters/memory/description.js';
import { defaultCacheDir } from '../core/paths.js';
import { prepareDataset } from '../datasets/dataset.js';
import { profileKey } from '../datasets/columns.js';
import { importDataset } from '../import/import.js';
import { execute } from '../runner/execute.js';
import { WORKLOADS } from '../workloads/social/workloads.js';
import { environment } from '../core/environment.js';
import { formatPaired, pairedRatio, verdict } from './paired.js';

const CONCURRENCY = 25;
const TARGET_OPS_PER_SEC = 500_000;
const TARGET_RATIO = 0.9;

const { values } = parseArgs({ options: { ops: { type: 'string', default: '1000000' }, rounds: { type: 'string', default: '9' } } });
const ops = Number(values.ops);
const rounds = Number(values.rounds);

const dataset = await prepareDataset({ scale: 'small', cacheDir: defaultCacheDir() });
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-overhead-'));
const options = { database: 'overhead', namespace: 'dbshootout', concurrency: CONCURRENCY, connectTimeoutMs: 1000, dataDir: scratch };
const adapter = memory.create(options);
await adapter.connect();
await importDataset({ adapter, description: memory, options, dataset });

const readKeys = dataset.params.readIds.map(profileKey);
const keys = Array.from({ length: ops }, (_, i) => readKeys[i % readKeys.length]);
const { call } = WORKLOADS.find((workload) => workload.name === 'singleRead');

async function bareLoop() {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < ops) {
      const index = next;
      next += 1;
      await adapter.singleRead(keys[index]);
    }
  }));
}

async function timedLoop() {
  const latencies = new Float64Array(ops);
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    let start = performance.now();
    while (next < ops) {
      const index = next;
      next += 1;
      await adapter.singleRead(keys[index]);
      const end = performance.now();
      latencies[index] = end - start;
      start = end;
    }
  }));
}

async function runner() {
  const outcome = await execute({ inputs: keys, call, adapter, concurrency: CONCURRENCY });
  if (outcome.errors.length > 0 || outcome.answers.some((doc) => doc === null)) throw new Error('the runner lost answers');
}

const contenders = { 'bare loop': bareLoop, 'timed loop': timedLoop, runner };
const rates = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
for (let round = 0; round < rounds; round += 1) {
  // Rotating the order spreads GC and JIT effects evenly over the contenders.
  const names = Object.keys(contenders);
  for (let i = 0; i < names.length; i += 1) {
    const name = names[(i + round) % names.length];
    const begin = performance.now();
    await contenders[name]();
    rates[name].push(ops / ((performance.now() - begin) / 1000));
  }
}
await adapter.close();
rmSync(scratch, { recursive: true, force: true });

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const env = environment();
console.log(`harness overhead: memory adapter, singleRead, concurrency ${CONCURRENCY}, ${ops.toLocaleString('en-US')} operations x ${rounds} rounds`);
console.log(`machine: ${env.cpu}, ${env.cores} cores, node ${env.node}`);
for (const [name, list] of Object.entries(rates)) {
  console.log(`  ${name.padEnd(11)} median ${Math.round(median(list)).toLocaleString('en-US').padStart(11)} ops/s  (rounds: ${list.map((r) => Math.round(r / 1000)).join(', ')} k)`);
}
const runnerRate = median(rates.runner);
const ratio = pairedRatio(rates.runner, rates['timed loop']);
const bareRatio = pairedRatio(rates.runner, rates['bare loop']);
const passRate = runnerRate >= TARGET_OPS_PER_SEC;
const passRatio = ratio.median >= TARGET_RATIO;
console.log(`runner throughput ${Math.round(runnerRate).toLocaleString('en-US')} ops/s, target >= ${TARGET_OPS_PER_SEC.toLocaleString('en-US')}: ${passRate ? 'PASS' : 'FAIL'}`);
console.log(`runner / timed loop = ${formatPaired(ratio)}, target >= ${TARGET_RATIO}: ${verdict(ratio, TARGET_RATIO)}`);
console.log(`runner / bare loop  = ${formatPaired(bareRatio)} (information: the price of reading the clock for every operation)`);
process.exitCode = passRate && passRatio ? 0 : 1;
