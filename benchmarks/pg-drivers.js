// The client driver on a real server: PostgreSQL singleRead at concurrency 25 through each Node.js driver the
// `postgresql` adapter offers (`--driver pg`, `--driver postgres`), next to PostgreSQL's own C client, in
// alternating rounds of one script run:
//   harness <driver>  - runner/execute.js with the singleRead workload's call, through the adapter with that driver;
//   raw <driver>      - 25 workers sending the adapter's statement, prepared, rows as arrays, over the same keys:
//                       pg on a pg.Pool({ max: 25 }); postgres on as many connections as the adapter opens
//                       (PIPELINED_CONNECTIONS), the operations beyond them pipelined;
//   raw postgres, 25  - postgres on 25 connections, for information: pipelining needs fewer connections than
//                       operations in flight;
//   pgbench           - 25 clients on 2 threads, prepared protocol, for -T seconds, running
//                       `SELECT doc FROM <schema>.profiles WHERE _key = 'P' || :id` with `\set id random(1, profiles)`.
// Each Node.js contender's rate over pgbench's of the same round (benchmarks/paired.js) is printed; the target is
// the best driver's harness at >= 0.5 of pgbench. The dataset is imported into the namespace first, or reused
// when it already holds it.
//
//   node benchmarks/pg-drivers.js [--host <h>] [--port <p>] [--user postgres] [--database postgres]
//     [--namespace pgdrivers] [--scale small] [--concurrency 25] [--rounds 5] [--ops 50000] [--pgbench-seconds 10]
// The password, if the server wants one, comes from BENCH_PG_PASSWORD.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import postgres from 'postgres';
import postgresql from '../adapters/postgresql/description.js';
import { PIPELINED_CONNECTIONS } from '../adapters/postgresql/postgres-driver.js';
import { adapterOptions } from '../cli/options.js';
import { environment, packageVersion } from '../core/environment.js';
import { defaultCacheDir } from '../core/paths.js';
import { profileKey } from '../datasets/columns.js';
import { prepareDataset } from '../datasets/dataset.js';
import { importDataset } from '../import/import.js';
import { execute } from '../runner/execute.js';
import { WORKLOADS } from '../workloads/social/workloads.js';
import { formatPaired, pairedRatio, verdict } from './paired.js';

const TARGET_RATIO = 0.5;
const PG_BIN_ROOT = '/usr/lib/postgresql';

const { values: args } = parseArgs({
  options: {
    host: { type: 'string' },
    port: { type: 'string' },
    user: { type: 'string' },
    database: { type: 'string' },
    namespace: { type: 'string', default: 'pgdrivers' },
    scale: { type: 'string', default: 'small' },
    concurrency: { type: 'string', default: '25' },
    rounds: { type: 'string', default: '5' },
    ops: { type: 'string', default: '50000' },
    'pgbench-seconds': { type: 'string', default: '10' },
  },
});
const concurrency = Number(args.concurrency);
const rounds = Number(args.rounds);
const ops = Number(args.ops);
// Reached like `bench run` reaches it: the local server of `bench server start postgresql`, unless named.
const optionsOf = (driver) => adapterOptions(postgresql, {
  host: args.host, port: args.port === undefined ? undefined : Number(args.port), user: args.user,
  database: args.database, namespace: args.namespace, concurrency, 'connect-timeout': 10, 'cache-dir': defaultCacheDir(),
  driver,
});
const options = optionsOf('pg');
const { password } = options;
const schema = args.namespace;
const readSql = `SELECT doc FROM "${schema}".profiles WHERE _key = $1`;

// The newest installed PostgreSQL's pgbench, else the one on PATH.
function pgbenchPath() {
  if (!existsSync(PG_BIN_ROOT)) return 'pgbench';
  const versions = readdirSync(PG_BIN_ROOT).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(a) - Number(b));
  return versions.length > 0 ? path.join(PG_BIN_ROOT, versions.at(-1), 'bin', 'pgbench') : 'pgbench';
}

const dataset = await prepareDataset({ scale: args.scale, cacheDir: defaultCacheDir() });
const adapters = Object.fromEntries(postgresql.drivers.map((driver) => [driver, postgresql.create(optionsOf(driver))]));
for (const adapter of Object.values(adapters)) await adapter.connect();
const imported = await importDataset({ adapter: adapters.pg, description: postgresql, options, dataset });
const version = await adapters.pg.serverVersion();

const readKeys = dataset.params.readIds.map(profileKey);
const keys = Array.from({ length: ops }, (_, i) => readKeys[i % readKeys.length]);
const { call } = WORKLOADS.find((workload) => workload.name === 'singleRead');

const connection = { host: options.host, port: options.port, user: options.user, database: options.database };
const pool = new pg.Pool({ ...connection, password, max: concurrency });
const postgresPool = (max) => postgres({
  ...connection, pass: password ?? '', max, idle_timeout: null, max_lifetime: null, onnotice: () => {},
});
const pipelined = postgresPool(Math.min(concurrency, PIPELINED_CONNECTIONS));
const unpipelined = postgresPool(concurrency);
// Every connection opened before the first round, as the adapter's connect() does.
const clients = await Promise.all(Array.from({ length: concurrency }, () => pool.connect()));
for (const client of clients) client.release();
await Promise.all([pipelined, unpipelined].flatMap((sql) => Array.from({ length: sql.options.max }, () => sql`SELECT 1`)));

function checkAnswers(answers) {
  const missing = answers.filter((answer) => answer == null).length;
  if (missing > 0) throw new Error(`${missing} reads found no document: is the dataset imported completely?`);
}

function harness(adapter) {
  return async () => {
    const outcome = await execute({ inputs: keys, call, adapter, concurrency });
    if (outcome.errors.length > 0) throw outcome.errors[0].error;
    checkAnswers(outcome.answers);
    return ops / (outcome.wallMs / 1000);
  };
}

// `read(key)` resolves with the rows of one read.
function rawLoop(read) {
  return async () => {
    const answers = new Array(ops);
    let next = 0;
    const begin = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < ops) {
        const index = next;
        next += 1;
        answers[index] = (await read(keys[index]))[0];
      }
    }));
    const rate = ops / ((performance.now() - begin) / 1000);
    checkAnswers(answers);
    return rate;
  };
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-pg-drivers-'));
const script = path.join(scratch, 'select.sql');
writeFileSync(script, [
  `\\set id random(1, ${dataset.profiles})`,
  `SELECT doc FROM "${schema}".profiles WHERE _key = 'P' || :id;`,
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
  return Number(tps[1]);
}

const contenders = {
  'harness pg': harness(adapters.pg),
  'harness postgres': harness(adapters.postgres),
  'raw pg': rawLoop(async (key) => (await pool.query({ name: 'pg_drivers_read', text: readSql, values: [key], rowMode: 'array' })).rows),
  'raw postgres': rawLoop((key) => pipelined.unsafe(readSql, [key], { prepare: true }).values()),
  'raw postgres, 25': rawLoop((key) => unpipelined.unsafe(readSql, [key], { prepare: true }).values()),
  pgbench: runPgbench,
};
const rates = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
try {
  for (let round = 0; round < rounds; round += 1) {
    // Rotating the order spreads caching, GC and JIT effects evenly over the contenders.
    const names = Object.keys(contenders);
    for (let i = 0; i < names.length; i += 1) {
      const name = names[(i + round) % names.length];
      rates[name].push(await contenders[name]());
    }
  }
} finally {
  await Promise.all([pool.end(), pipelined.end(), unpipelined.end()]);
  for (const adapter of Object.values(adapters)) await adapter.close();
  rmSync(scratch, { recursive: true, force: true });
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const format = (rate) => Math.round(rate).toLocaleString('en-US');
const env = environment();
console.log(`Node.js drivers against pgbench on PostgreSQL: singleRead, concurrency ${concurrency}, `
  + `${format(ops)} operations x ${rounds} rounds; pgbench ${args['pgbench-seconds']} s x ${rounds} rounds`);
console.log(`server: PostgreSQL ${version} at ${options.host}:${options.port}, schema "${schema}", `
  + `dataset ${dataset.id} (${imported.reused ? 'reused' : `imported in ${(imported.ms / 1000).toFixed(1)} s`})`);
console.log(`machine: ${env.cpu}, ${env.cores} cores, load average ${os.loadavg().map((load) => load.toFixed(1)).join(' ')}, `
  + `node ${env.node}, pg ${packageVersion('pg')}, postgres ${packageVersion('postgres')} `
  + `(${Math.min(concurrency, PIPELINED_CONNECTIONS)} connections, pipelined)`);
for (const [name, list] of Object.entries(rates)) {
  const each = list.map(format).join(', ');
  console.log(`  ${name.padEnd(17)} median ${format(median(list)).padStart(8)} ops/s  (rounds: ${each})`);
}
for (const name of Object.keys(contenders).filter((contender) => contender !== 'pgbench')) {
  console.log(`${`${name} / pgbench`.padEnd(27)} = ${formatPaired(pairedRatio(rates[name], rates.pgbench))}`);
}
// The best driver is the one whose harness has the higher paired ratio to pgbench.
const [best] = postgresql.drivers
  .map((driver) => ({ driver, ratio: pairedRatio(rates[`harness ${driver}`], rates.pgbench) }))
  .sort((a, b) => b.ratio.median - a.ratio.median);
console.log(`best driver: ${best.driver}; harness ${best.driver} / pgbench = ${best.ratio.median.toFixed(3)}, `
  + `target >= ${TARGET_RATIO}: ${verdict(best.ratio, TARGET_RATIO)}`);
process.exitCode = best.ratio.median >= TARGET_RATIO ? 0 : 1;
