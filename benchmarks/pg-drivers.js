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
import pg from 'pg';
import postgres from 'postgres';
import postgresql from '../adapters/postgresql/description.js';
import { PIPELINED_CONNECTIONS } from '../adapters/postgresql/postgres-driver.js';
import { adapterOptions } from '../cli/options.js';
import { environment, packageVersion } from '../core/environment.js';
import { formatPaired, pairedRatio, verdict } from './paired.js';
import { pgbench } from './pgbench.js';
import { format, loadAverage, rateLine, runRounds } from './rounds.js';
import { serverArgs, serverArgv } from './server-flags.js';
import { datasetNote, harness, openConnections, prepareSingleRead, rawLoop } from './single-read.js';

const TARGET_RATIO = 0.5;

const args = serverArgs({
  namespace: 'pgdrivers', scale: 'small', concurrency: '25', rounds: '5', ops: '50000', 'pgbench-seconds': '10',
});
const concurrency = Number(args.concurrency);
const rounds = Number(args.rounds);
const optionsOf = (driver) => adapterOptions(postgresql, serverArgv(args, { driver }));
const options = optionsOf('pg');
const { password } = options;
const schema = args.namespace;
const readSql = `SELECT doc FROM "${schema}".profiles WHERE _key = $1`;

const { dataset, adapters, imported, version, keys } = await prepareSingleRead({
  description: postgresql, drivers: postgresql.drivers, optionsOf, scale: args.scale, ops: Number(args.ops),
});

const connection = { host: options.host, port: options.port, user: options.user, database: options.database };
const pool = new pg.Pool({ ...connection, password, max: concurrency });
const postgresPool = (max) => postgres({
  ...connection, pass: password ?? '', max, idle_timeout: null, max_lifetime: null, onnotice: () => {},
});
const pipelined = postgresPool(Math.min(concurrency, PIPELINED_CONNECTIONS));
const unpipelined = postgresPool(concurrency);
// Every connection opened before the first round, as the adapter's connect() does.
await openConnections(concurrency, () => pool.connect());
await Promise.all([pipelined, unpipelined].flatMap((sql) => Array.from({ length: sql.options.max }, () => sql`SELECT 1`)));
const cClient = pgbench({
  options, concurrency, seconds: args['pgbench-seconds'], table: `"${schema}".profiles`, keyPrefix: 'P', keys: dataset.profiles,
});

const loop = (read) => rawLoop({ keys, concurrency, read });
const contenders = {
  'harness pg': harness({ adapter: adapters.pg, keys, concurrency }),
  'harness postgres': harness({ adapter: adapters.postgres, keys, concurrency }),
  'raw pg': loop(async (key) => (await pool.query({ name: 'pg_drivers_read', text: readSql, values: [key], rowMode: 'array' })).rows),
  'raw postgres': loop((key) => pipelined.unsafe(readSql, [key], { prepare: true }).values()),
  'raw postgres, 25': loop((key) => unpipelined.unsafe(readSql, [key], { prepare: true }).values()),
  pgbench: cClient.run,
};
let rates;
try {
  rates = await runRounds(contenders, rounds);
} finally {
  await Promise.all([pool.end(), pipelined.end(), unpipelined.end()]);
  for (const adapter of Object.values(adapters)) await adapter.close();
  cClient.remove();
}

const env = environment();
console.log(`Node.js drivers against pgbench on PostgreSQL: singleRead, concurrency ${concurrency}, `
  + `${format(keys.length)} operations x ${rounds} rounds; pgbench ${args['pgbench-seconds']} s x ${rounds} rounds`);
console.log(`server: PostgreSQL ${version} at ${options.host}:${options.port}, schema "${schema}", ${datasetNote(dataset, imported)}`);
console.log(`machine: ${env.cpu}, ${env.cores} cores, load average ${loadAverage()}, `
  + `node ${env.node}, pg ${packageVersion('pg')}, postgres ${packageVersion('postgres')} `
  + `(${Math.min(concurrency, PIPELINED_CONNECTIONS)} connections, pipelined)`);
for (const [name, list] of Object.entries(rates)) console.log(rateLine(name, list, 17));
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
