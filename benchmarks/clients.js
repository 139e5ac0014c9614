// Client-side scaling on a real server: the mixed suite's read-only workload against the `postgresql` adapter
// from one client process and from several (`bench run --clients`), next to pgbench, in alternating rounds of one
// script run:
//   clients 1    - runBenchmark, mixed read-only, closed loop at --concurrency: bench run's default, the
//                  operations in the harness's own process;
//   clients <n>  - the same with --clients <n>: the operations from n client processes, the concurrency split;
//   pgbench      - PostgreSQL's C client on a table of the same documents (the adapter's own temporary table of
//                  the same rows): its select-only transaction, one prepared SELECT by a uniformly random key,
//                  --concurrency clients on 2 threads for -T seconds.
// Keys are uniform in every contender (--distribution uniform). Each run's reads are checked as bench run checks
// them. On a machine with more cores than this one, raise --clients to see how far the client side scales.
//
//   node benchmarks/clients.js [--host <h>] [--port <p>] [--user postgres] [--database postgres]
//     [--namespace clients_bench] [--clients 2] [--concurrency 25] [--records 10000] [--ops 100000] [--rounds 3]
//     [--pgbench-seconds 10]
// The password, if the server wants one, comes from BENCH_PG_PASSWORD. The namespace is dropped at the end.
import postgresql from '../adapters/postgresql/description.js';
import { adapterOptions, serverProcess } from '../cli/options.js';
import { environment, packageVersion } from '../core/environment.js';
import { connectAdapter, runBenchmark } from '../runner/run.js';
import { getSuite } from '../workloads/index.js';
import { pgbench } from './pgbench.js';
import { format, loadAverage, median, rateLine, runRounds } from './rounds.js';
import { serverArgs, serverArgv } from './server-flags.js';

const PGBENCH_TABLE = 'pgbench';

const args = serverArgs({
  namespace: 'clients_bench', clients: '2', concurrency: '25', records: '10000', ops: '100000', rounds: '3',
  'pgbench-seconds': '10',
});
const clients = Number(args.clients);
const concurrency = Number(args.concurrency);
const records = Number(args.records);
const ops = Number(args.ops);
const rounds = Number(args.rounds);
const argv = serverArgv(args);
const options = adapterOptions(postgresql, argv);
const server = serverProcess(postgresql, argv);

const mixed = getSuite('mixed');
const readOnly = mixed.workloads.filter((workload) => workload.name === 'read-only');
const settings = {
  records, ops: [ops], concurrency: [concurrency], distribution: 'uniform', shape: 'uniform', seed: 1, runs: 1,
};
const dataset = await mixed.prepare(settings);
const suiteConfig = mixed.configure({ ...settings, sync: false });

// One bench run of the read-only workload; its ops/s and what the client processes and the server used.
function benchRun(count) {
  return async () => {
    const result = await runBenchmark({
      suite: mixed,
      description: postgresql,
      adapterOptions: options,
      dataset,
      workloads: readOnly,
      config: { ...suiteConfig, runs: 1, stallTimeoutMs: 60_000, clients: count },
      command: 'benchmarks/clients.js',
      server,
    });
    const [entry] = Object.values(result.workloads);
    if (entry.status !== 'passed') throw new Error(`the read-only run failed: ${entry.runs[0]?.reason}`);
    const [run] = entry.runs;
    return {
      rate: run.opsPerSec,
      clientCpu: run.resources.client.processes?.map((process) => process.cpuPct) ?? [run.resources.client.cpuPct],
      clientBound: run.resources.clientBound,
      serverCpu: run.resources.server?.cpuMeanPct ?? null,
    };
  };
}

// The same documents in a table of their own (the adapter's temporary table, so the same columns and index).
const loader = await connectAdapter(postgresql, { ...options, concurrency: 1 });
let version;
try {
  version = await loader.serverVersion();
  const { state } = await loader.inspectNamespace();
  if (state === 'foreign') throw new Error(`the namespace ${args.namespace} holds data the harness did not create; name another`);
  if (state === 'absent') await loader.resetNamespace();
  await loader.createTempCollection(PGBENCH_TABLE);
  for (const doc of dataset.docs.slice(0, records)) await loader.insertDocument(PGBENCH_TABLE, doc, { durable: false });
} finally {
  await loader.close();
}
const cClient = pgbench({
  options, concurrency, seconds: args['pgbench-seconds'], table: `"${args.namespace}".tmp_${PGBENCH_TABLE}`, keyPrefix: 'C', keys: records,
});

// pgbench's figures: its rate alone.
async function runPgbench() {
  return { rate: await cClient.run(), clientCpu: null, clientBound: null, serverCpu: null };
}

const contenders = {
  'clients 1': benchRun(1),
  [`clients ${clients}`]: benchRun(clients),
  pgbench: runPgbench,
};
let figures;
try {
  figures = await runRounds(contenders, rounds);
} finally {
  cClient.remove();
  await postgresql.testSupport.dropNamespace(options);
}

const env = environment();
console.log(`client-side scaling on PostgreSQL: mixed read-only, ${format(records)} documents, uniform keys, `
  + `concurrency ${concurrency}, ${format(ops)} operations x ${rounds} rounds; pgbench ${args['pgbench-seconds']} s x ${rounds} rounds`);
console.log(`server: PostgreSQL ${version} at ${options.host}:${options.port}, schema "${args.namespace}" (dropped after)`);
console.log(`machine: ${env.cpu}, ${env.cores} cores, load average ${loadAverage()}, `
  + `node ${env.node}, pg ${packageVersion('pg')}`);
const medians = {};
for (const [name, list] of Object.entries(figures)) {
  medians[name] = median(list.map((figure) => figure.rate));
  const cpu = list[0].clientCpu
    ? `; client CPU % per process (harness first) ${list.map((figure) => figure.clientCpu.join('/')).join(', ')}`
      + `; server CPU mean % ${list.map((figure) => figure.serverCpu ?? '?').join(', ')}`
      + `${list.some((figure) => figure.clientBound) ? '; client-bound' : ''}`
    : '';
  console.log(rateLine(name, list.map((figure) => figure.rate), 10, cpu));
}
const many = `clients ${clients}`;
console.log(`${many} / clients 1 = ${(medians[many] / medians['clients 1']).toFixed(3)}`);
console.log(`${many} / pgbench   = ${(medians[many] / medians.pgbench).toFixed(3)}`);
console.log(`clients 1 / pgbench   = ${(medians['clients 1'] / medians.pgbench).toFixed(3)}`);
