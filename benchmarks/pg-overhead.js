// The harness's cost on a real server: singleRead against the `postgresql` adapter at concurrency 25, next to
// what a client does without the harness, in alternating rounds of one script run:
//   harness     - runner/execute.js with the singleRead workload's call, through the adapter;
//   raw loop    - 25 workers on a hand-made pg.Pool({ max: 25 }) sending the adapter's statement, prepared
//                 under a name as the adapter does, with rows as arrays, over the same keys. The target ratio
//                 (harness / raw loop >= 0.9) is taken against this loop;
//   raw, plain  - the same loop with pg's defaults (unnamed statement, rows as objects), for information;
//   pgbench     - PostgreSQL's C client, 25 clients on 2 threads, prepared protocol, for -T seconds, running
//                 `SELECT doc FROM <schema>.profiles WHERE _key = 'P' || :id` with `\set id random(1, profiles)`:
//                 uniformly random keys of the same table rather than the read keys; the C client's ceiling.
// The dataset is imported into the namespace first, or reused when it already holds it.
//
//   node benchmarks/pg-overhead.js [--host <h>] [--port <p>] [--user postgres] [--database postgres]
//     [--namespace dbshootout] [--scale small] [--concurrency 25] [--rounds 9] [--ops 100000] [--pgbench-seconds 10]
// The password, if the server wants one, comes from BENCH_PG_PASSWORD.
import pg from 'pg';
import postgresql from '../adapters/postgresql/description.js';
import { adapterOptions } from '../cli/options.js';
import { environment, packageVersion } from '../core/environment.js';
import { formatPaired, pairedRatio, verdict } from './paired.js';
import { pgbench } from './pgbench.js';
import { format, rateLine, runRounds } from './rounds.js';
import { serverArgs, serverArgv } from './server-flags.js';
import { datasetNote, harness, openConnections, prepareSingleRead, rawLoop } from './single-read.js';

const TARGET_RATIO = 0.9;

const args = serverArgs({
  namespace: 'dbshootout', scale: 'small', concurrency: '25', rounds: '9', ops: '100000', 'pgbench-seconds': '10',
});
const concurrency = Number(args.concurrency);
const rounds = Number(args.rounds);
const options = adapterOptions(postgresql, serverArgv(args));
const schema = args.namespace;
const readSql = `SELECT doc FROM "${schema}".profiles WHERE _key = $1`;

const { dataset, adapters: { pg: adapter }, imported, version, keys } = await prepareSingleRead({
  description: postgresql, drivers: ['pg'], optionsOf: () => options, scale: args.scale, ops: Number(args.ops),
});

const pool = new pg.Pool({
  host: options.host, port: options.port, user: options.user, database: options.database, password: options.password,
  max: concurrency,
});
// Every connection opened before the first round, as the adapter's connect() does.
await openConnections(concurrency, () => pool.connect());
const cClient = pgbench({
  options, concurrency, seconds: args['pgbench-seconds'], table: `"${schema}".profiles`, keyPrefix: 'P', keys: dataset.profiles,
});

const loop = (query) => rawLoop({ keys, concurrency, read: async (key) => (await pool.query(query(key))).rows });
const contenders = {
  harness: harness({ adapter, keys, concurrency }),
  'raw loop': loop((key) => ({ name: 'pg_overhead_read', text: readSql, values: [key], rowMode: 'array' })),
  'raw, plain': loop((key) => ({ text: readSql, values: [key] })),
  pgbench: cClient.run,
};
let rates;
try {
  rates = await runRounds(contenders, rounds);
} finally {
  await pool.end();
  await adapter.close();
  cClient.remove();
}

const env = environment();
console.log(`harness overhead on PostgreSQL: singleRead, concurrency ${concurrency}, `
  + `${format(keys.length)} operations x ${rounds} rounds; pgbench ${args['pgbench-seconds']} s x ${rounds} rounds`);
console.log(`server: PostgreSQL ${version} at ${options.host}:${options.port}, schema "${schema}", ${datasetNote(dataset, imported)}`);
console.log(`machine: ${env.cpu}, ${env.cores} cores, node ${env.node}, pg ${packageVersion('pg')}`);
for (const [name, list] of Object.entries(rates)) console.log(rateLine(name, list, 10));
const ratio = pairedRatio(rates.harness, rates['raw loop']);
const ceiling = pairedRatio(rates.harness, rates.pgbench);
console.log(`harness / raw loop = ${formatPaired(ratio)}, target >= ${TARGET_RATIO}: ${verdict(ratio, TARGET_RATIO)}`);
console.log(`harness / pgbench  = ${formatPaired(ceiling)} (information: the C client's ceiling)`);
process.exitCode = ratio.median >= TARGET_RATIO ? 0 : 1;
