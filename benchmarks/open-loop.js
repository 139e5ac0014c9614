// The open-loop executor's own ceiling: runner/open-loop.js sending the mixed suite's read-only stream (its call,
// getDocument) to the in-process memory adapter at rising target rates. A rate is held when the achieved rate
// (operations answered / span from the first due time to the last answer) is within 1% of the target; the
// ceiling is the highest rate held in the median of the rounds. Target (issue: the mixed suite): at least
// 200,000 scheduled operations per second held.
//
//   node benchmarks/open-loop.js [--seconds 2] [--rounds 3] [--rates 100000,150000,...]
import { parseArgs } from 'node:util';
import memory from '../adapters/memory/description.js';
import { environment } from '../core/environment.js';
import { executeOpenLoop } from '../runner/open-loop.js';
import mixed from '../workloads/mixed/suite.js';
import { COLLECTION, WORKLOADS } from '../workloads/mixed/workloads.js';

const TARGET_RATE = 200_000;
const HELD_WITHIN = 0.01;
const RECORDS = 10_000;
const DEFAULT_RATES = '50000,100000,150000,200000,250000,300000,400000,500000';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    rates: { type: 'string', default: DEFAULT_RATES },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const rates = values.rates.split(',').map(Number);

const workload = WORKLOADS.find((candidate) => candidate.name === 'read-only');
const maxOps = Math.ceil(Math.max(...rates) * seconds);
const config = { records: RECORDS, ops: maxOps, shape: 'uniform', seed: 1, concurrency: 25, distribution: 'zipfian' };
const data = await mixed.prepare(config);
const options = { database: 'open-loop', namespace: 'dbshootout', concurrency: 25, connectTimeoutMs: 1000, dataDir: null };
const adapter = memory.create(options);
await adapter.connect();
await adapter.resetNamespace();
await adapter.createTempCollection(COLLECTION);
for (const doc of data.docs.slice(0, RECORDS)) await adapter.insertDocument(COLLECTION, doc);
const stream = workload.inputs(data, { ops: maxOps, records: RECORDS, distribution: 'zipfian' });
const params = { durable: false };
const call = (target, op) => workload.call(target, op, params);

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const env = environment();
console.log(`open-loop ceiling: memory adapter, mixed read-only stream (zipfian over ${RECORDS.toLocaleString('en-US')} documents), ${seconds} s per rate x ${rounds} rounds`);
console.log(`machine: ${env.cpu}, ${env.cores} cores, node ${env.node}`);
let ceiling = 0;
for (const rate of rates) {
  const inputs = stream.slice(0, Math.ceil(rate * seconds));
  const achieved = [];
  const p99s = [];
  for (let round = 0; round < rounds; round += 1) {
    let outcome;
    try {
      outcome = await executeOpenLoop({ inputs, call, adapter, rate });
    } catch (error) {
      // The in-flight cap: this rate is out of reach.
      console.log(`  target ${rate.toLocaleString('en-US')} ops/s: ${error.message}`);
      achieved.push(0);
      p99s.push(Infinity);
      continue;
    }
    if (outcome.errors.length > 0 || outcome.completed !== inputs.length) throw new Error('the executor lost operations');
    achieved.push((outcome.completed / outcome.wallMs) * 1000);
    // A typed array sorts numerically.
    p99s.push(outcome.latencies.slice().sort()[Math.floor(inputs.length * 0.99)]);
  }
  const rateAchieved = median(achieved);
  const held = rateAchieved >= rate * (1 - HELD_WITHIN);
  if (held && rate > ceiling) ceiling = rate;
  console.log(`  target ${rate.toLocaleString('en-US').padStart(9)} ops/s  achieved median ${Math.round(rateAchieved).toLocaleString('en-US').padStart(9)} `
    + `(${((rateAchieved / rate - 1) * 100).toFixed(2)}%)  latency p99 median ${median(p99s).toFixed(3)} ms  ${held ? 'held' : 'NOT held'}`);
}
await adapter.close();
const pass = ceiling >= TARGET_RATE;
console.log(`open-loop ceiling ${ceiling.toLocaleString('en-US')} ops/s held within ${HELD_WITHIN * 100}%, target >= ${TARGET_RATE.toLocaleString('en-US')}: ${pass ? 'PASS' : 'FAIL'}`);
process.exitCode = pass ? 0 : 1;
