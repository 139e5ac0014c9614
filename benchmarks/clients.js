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
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import postgresql from '../adapters/postgresql/description.js';
import { adapterOptions, serverProcess } from '../cli/options.js';
import { environment, packageVersion } from '../core/environment.js';
import { defaultCacheDir } from '../core/paths.js';
import { connectAdapter, runBenchmark } from '../runner/run.js';
import { getSuite } from '../workloads/index.js';

const PG_BIN_ROOT = '/usr/lib/postgresql';
const PGBENCH_TABLE = 'pgbench';

const { values: args } = parseArgs({
  options: {
    host: { type: 'string' },
    port: { type: 'string' },
    user: { type: 'string' },
    database: { type: 'string' },
    namespace: { type: 'string', default: 'clients_bench' },
    clients: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '25' },
    records: { type: 'string', default: '10000' },
    ops: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    'pgbench-seconds': { type: 'string', default: '10' },
  },
});
const clients = Number(args.clients);
const concurrency = Number(args.concurrency);
const records = Number(args.records);
const ops = Number(args.ops);
const rounds = Number(args.rounds);
const argv = {
  host: args.host, port: args.port === undefined ? undefined : Number(args.port), user: args.user,
  database: args.database, namespace: args.namespace, concurrency, 'connect-timeout': 10, 'cache-dir': defaultCacheDir(),
};
// Reached like `bench run` reaches it: the local server of `bench server start postgresql`, unless named.
const options = adapterOptions(postgresql, argv);
const server = serverProcess(postgresql, argv);
const { password } = options;

const mixed = getSuite('mixed');
const readOnly = mixed.workloads.filter((workload) => workload.name === 'read-only');
const settings = {
  records, ops: [ops], concurrency: [concurrency], distribution: 'uniform', shape: 'uniform', seed: 1, runs: 1,
};
const dataset = await mixed.prepare(settings);
const suiteConfig = mixed.configure({ ...settings, sync: false });

// The newest installed PostgreSQL's pgbench, else the one on PATH.
function pgbenchPath() {
  if (!existsSync(PG_BIN_ROOT)) return 'pgbench';
  const versions = readdirSync(PG_BIN_ROOT).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(a) - Number(b));
  return versions.length > 0 ? path.join(PG_BIN_ROOT, versions.at(-1), 'bin', 'pgbench') : 'pgbench';
}

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
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-clients-'));
const script = path.join(scratch, 'select.sql');
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
writeFileSync(script, [
  `\\set id random(1, ${records})`,
  `SELECT doc FROM "${args.namespace}".tmp_${PGBENCH_TABLE} WHERE _key = 'C' || :id;`,
  '',
].join('\n'));
const pgbench = pgbenchPath();

async function runPgbench() {
  const { stdout } = await promisify(execFile)(pgbench, [
    '-h', options.host, '-p', String(options.port), '-U', options.user, '-n', '-M', 'prepared',
    '-c', String(concurrency), '-j', '2', '-T', args['pgbench-seconds'], '-f', script, options.database,
  ], { env: { ...process.env, ...(password === undefined ? {} : { PGPASSWORD: password }) } });
  const tps = stdout.match(/tps = ([\d.]+) \(without initial connection time\)/);
  if (!tps) throw new Error(`no tps in pgbench's output:\n${stdout}`);
  return { rate: Number(tps[1]), clientCpu: null, clientBound: null, serverCpu: null };
}

const contenders = {
  'clients 1': benchRun(1),
  [`clients ${clients}`]: benchRun(clients),
  pgbench: runPgbench,
};
const figures = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
try {
  for (let round = 0; round < rounds; round += 1) {
    // Rotating the order spreads caching and the machine's other load evenly over the contenders.
    const names = Object.keys(contenders);
    for (let i = 0; i < names.length; i += 1) {
      const name = names[(i + round) % names.length];
      figures[name].push(await contenders[name]());
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
  await postgresql.testSupport.dropNamespace(options);
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const format = (rate) => Math.round(rate).toLocaleString('en-US');
const env = environment();
console.log(`client-side scaling on PostgreSQL: mixed read-only, ${format(records)} documents, uniform keys, `
  + `concurrency ${concurrency}, ${format(ops)} operations x ${rounds} rounds; pgbench ${args['pgbench-seconds']} s x ${rounds} rounds`);
console.log(`server: PostgreSQL ${version} at ${options.host}:${options.port}, schema "${args.namespace}" (dropped after)`);
console.log(`machine: ${env.cpu}, ${env.cores} cores, load average ${os.loadavg().map((load) => load.toFixed(1)).join(' ')}, `
  + `node ${env.node}, pg ${packageVersion('pg')}`);
const medians = {};
for (const [name, list] of Object.entries(figures)) {
  medians[name] = median(list.map((figure) => figure.rate));
  const each = list.map((figure) => format(figure.rate)).join(', ');
  const cpu = list[0].clientCpu
    ? `; client CPU % per process (harness first) ${list.map((figure) => figure.clientCpu.join('/')).join(', ')}`
      + `; server CPU mean % ${list.map((figure) => figure.serverCpu ?? '?').join(', ')}`
      + `${list.some((figure) => figure.clientBound) ? '; client-bound' : ''}`
    : '';
  console.log(`  ${name.padEnd(10)} median ${format(medians[name]).padStart(8)} ops/s  (rounds: ${each}${cpu})`);
}
const many = `clients ${clients}`;
console.log(`${many} / clients 1 = ${(medians[many] / medians['clients 1']).toFixed(3)}`);
console.log(`${many} / pgbench   = ${(medians[many] / medians.pgbench).toFixed(3)}`);
console.log(`clients 1 / pgbench   = ${(medians['clients 1'] / medians.pgbench).toFixed(3)}`);
