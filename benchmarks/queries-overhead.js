// The harness's own cost per query of the queries suite, against the in-process memory adapter (whose queries
// are plain loops over arrays, so anything the runner adds shows):
//   direct   - the adapter's query() awaited alone, timed around the call;
//   runner   - the same query through the runner's timed loop (runner/execute.js, the workload's call), the time
//              a result records;
//   overhead - runner minus direct: what issuing, timing and receiving through the harness adds per query;
//   check    - the answer's validation against the reference, which runs after the clock stopped.
// Each figure is the median of --repeat executions after one warm-up.
//
//   node benchmarks/queries-overhead.js [--size 10k,100k] [--repeat 15]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import memory from '../adapters/memory/description.js';
import { environment } from '../core/environment.js';
import { execute } from '../runner/execute.js';
import { SIZES, collectionName, parseSizes } from '../workloads/queries/data.js';
import { loadQueryCollections } from '../workloads/queries/load.js';
import { WORKLOADS, queriesContext } from '../workloads/queries/workloads.js';

const { values } = parseArgs({ options: { size: { type: 'string', default: '10k,100k' }, repeat: { type: 'string', default: '15' } } });
const sizes = parseSizes(values.size);
const repeat = Number(values.repeat);

const options = { database: 'queries-overhead', namespace: 'dbshootout', concurrency: 1, connectTimeoutMs: 1000 };
const adapter = memory.create(options);
await adapter.connect();
await loadQueryCollections({ adapter, description: memory, options, sizes });
const context = queriesContext();

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(times, work) {
  await work();
  const samples = [];
  for (let i = 0; i < times; i += 1) samples.push(await work());
  return median(samples);
}

const { cpu, cores } = environment();
console.log(`queries suite, harness overhead per query: memory adapter, ${repeat} executions each (median), ${cpu}, ${cores} cores, node ${process.version}`);
console.log(['case', 'size', 'direct ms', 'runner ms', 'overhead µs', 'check ms'].join('\t'));
const overheads = [];
let slowestCheck = { ms: 0 };
for (const size of sizes) {
  const params = { size, documents: SIZES[size], collection: collectionName(size) };
  for (const workload of WORKLOADS) {
    const inputs = workload.inputs(context, params);
    const call = (target, input) => workload.call(target, input, params);
    const direct = await measure(repeat, async () => {
      const start = performance.now();
      await call(adapter, inputs[0]);
      return performance.now() - start;
    });
    let answers;
    const runner = await measure(repeat, async () => {
      const outcome = await execute({ inputs, call, adapter, concurrency: 1 });
      answers = outcome.answers;
      return outcome.latencies[0];
    });
    const check = await measure(Math.min(repeat, 5), async () => {
      const start = performance.now();
      const failures = await workload.check(context, inputs, answers, adapter, params);
      if (failures.length > 0) throw new Error(`${workload.name} ${size}: ${failures[0].problem}`);
      return performance.now() - start;
    });
    overheads.push(runner - direct);
    if (check > slowestCheck.ms) slowestCheck = { ms: check, at: `${workload.name} ${size}` };
    console.log([workload.name, size, direct.toFixed(3), runner.toFixed(3), ((runner - direct) * 1000).toFixed(1), check.toFixed(1)].join('\t'));
  }
}
await adapter.close();
console.log(`overhead per query: median ${(median(overheads) * 1000).toFixed(1)} µs, largest ${(Math.max(...overheads) * 1000).toFixed(1)} µs; `
  + `slowest check (off the clock): ${slowestCheck.ms.toFixed(1)} ms (${slowestCheck.at})`);
