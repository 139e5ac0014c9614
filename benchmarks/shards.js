// Load from many machines, on one: the mixed suite's read-only workload against the local PostgreSQL run as 1, 2
// and 4 shards (`bench run --shard i/n`, one process each, as the pods of `bench k8s job` run it), each shard with
// --concurrency connections of its own, then `bench merge`; in alternating rounds. Per shard count: the merged
// throughput (every operation over the span from the first shard's start to the last one's end) and latency
// p50/p99 from the added histograms. Then the merge itself: 4 partial results of --ops operations each, merged
// in process (results/merge.js, median of 20) and by the `bench merge` command (reading and writing the files).
// On one machine the shards share its cores with each other and the server: the figures show the harness's
// sharding at work, not what separate machines would reach.
//
//   node benchmarks/shards.js [--host <h>] [--port <p>] [--user postgres] [--database postgres]
//     [--namespace shards_bench] [--shards 1,2,4] [--concurrency 25] [--records 10000] [--ops 100000] [--rounds 3]
// The password, if the server wants one, comes from BENCH_PG_PASSWORD. The namespace is dropped at the end.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import postgresql from '../adapters/postgresql/description.js';
import { adapterOptions } from '../cli/options.js';
import { environment } from '../core/environment.js';
import { mergeShards } from '../results/merge.js';
import { format, loadAverage, median, runRounds } from './rounds.js';
import { serverArgs, serverArgv } from './server-flags.js';

const BIN = fileURLToPath(new URL('../bin/bench.js', import.meta.url));
const MERGE_REPEATS = 20;
const run = promisify(execFile);

const args = serverArgs({
  namespace: 'shards_bench', shards: '1,2,4', concurrency: '25', records: '10000', ops: '100000', rounds: '3',
});
const counts = args.shards.split(',').map(Number);
const rounds = Number(args.rounds);
const options = adapterOptions(postgresql, serverArgv(args));
const connection = ['--host', options.host, '--port', String(options.port), '--user', options.user,
  ...(options.database ? ['--database', options.database] : [])];
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-shards-'));

// One sharded run: `count` processes given the same flags, then their partial results. Every shard must pass.
async function shardedRun(count, label) {
  const out = path.join(scratch, label);
  mkdirSync(out);
  const flags = ['run', '--db', 'postgresql', '--suite', 'mixed', '--workload', 'read-only', '--ops', args.ops,
    '--records', args.records, '--concurrency', args.concurrency, '--namespace', args.namespace, '--run-id', label,
    '--out', out, '--quiet', ...connection];
  await Promise.all(Array.from({ length: count }, (_, index) => run(process.execPath, [BIN, ...flags, '--shard', `${index}/${count}`])
    .catch((error) => { throw new Error(`shard ${index} of ${count} failed: ${error.stderr || error.message}`); })));
  return readdirSync(out).map((name) => ({ file: path.join(out, name), result: JSON.parse(readFileSync(path.join(out, name), 'utf8')) }));
}

function figures(documents) {
  const merged = mergeShards(documents);
  const [entry] = Object.values(merged.workloads);
  if (entry.status !== 'passed') throw new Error(`the merged run failed: ${entry.runs[0]?.reason}`);
  const [first] = entry.runs;
  return {
    rate: first.opsPerSec, p50: first.latencyMs.p50, p99: first.latencyMs.p99, lateMs: Math.max(...first.span.shards.map((shard) => shard.lateMs)),
  };
}

let mergeInput = null;
// A contender per shard count (in ascending order, as object keys of numbers go), resolving with its figures.
const contenders = Object.fromEntries(counts.map((count) => [count, async (round) => {
  const documents = await shardedRun(count, `shards-${count}-round-${round + 1}-${Date.now()}`);
  if (count === Math.max(...counts)) mergeInput = documents;
  return figures(documents);
}]));
try {
  const measured = await runRounds(contenders, rounds);
  const times = [];
  for (let i = 0; i < MERGE_REPEATS; i += 1) {
    const began = performance.now();
    mergeShards(mergeInput);
    times.push(performance.now() - began);
  }
  const began = performance.now();
  await run(process.execPath, [BIN, 'merge', path.dirname(mergeInput[0].file), '--out', path.join(scratch, 'merged.json'), '--quiet']);
  const commandMs = performance.now() - began;

  const env = environment();
  console.log(`sharded load on PostgreSQL: mixed read-only, ${format(Number(args.records))} documents, zipfian keys, `
    + `${format(Number(args.ops))} operations per run split by key, concurrency ${args.concurrency} per shard, ${rounds} rounds`);
  console.log(`machine: ${env.cpu}, ${env.cores} cores, load average ${loadAverage()}, node ${env.node}`);
  // Per shard count the median of the rounds, each round's in brackets; "latest start": how late the latest shard
  // began after the instant shard 0 announced.
  const rows = [['shards', 'merged ops/s', 'p50 ms', 'p99 ms', 'latest start ms']];
  for (const count of counts) {
    const list = measured[count];
    const column = (key, show) => `${show(median(list.map((figure) => figure[key])))} (${list.map((figure) => show(figure[key])).join(', ')})`;
    const fixed = (digits) => (value) => value.toFixed(digits);
    rows.push([String(count), column('rate', format), column('p50', fixed(2)), column('p99', fixed(2)), column('lateMs', fixed(1))]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd());
  const largest = Math.max(...counts);
  console.log(`merge of ${largest} shards of ${format(Number(args.ops) / largest)} operations each (${format(Number(args.ops))} in all): `
    + `in process median ${median(times).toFixed(2)} ms (${MERGE_REPEATS} repeats, ${Math.min(...times).toFixed(2)} to ${Math.max(...times).toFixed(2)}), `
    + `bench merge command ${format(commandMs)} ms (Node start, reading, writing)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
  await postgresql.testSupport.dropNamespace(options);
}
