// The client driver on a real server: MariaDB singleRead at concurrency 25 through each Node.js driver the `mysql`
// adapter offers (`--driver mysql2`, `--driver mariadb`), in alternating rounds of one script run:
//   harness <driver>  - runner/execute.js with the singleRead workload's call, through the adapter with that driver;
//   raw <driver>      - 25 workers sending the adapter's statement, prepared (execute), over the same keys, on a
//                       pool of 25 connections of that driver, opened first.
// The headline is mariadb's rate over mysql2's, harness against harness and raw against raw, each taken within a
// round (benchmarks/paired.js) with its spread; each harness over its own raw loop is printed too. The dataset is
// imported into the namespace first, or reused when it already holds it.
//
//   node benchmarks/mysql-drivers.js [--host <h>] [--port <p>] [--user root] [--namespace mysqldrivers]
//     [--scale small] [--concurrency 25] [--rounds 5] [--ops 50000]
// The password, if the server wants one, comes from BENCH_MYSQL_PASSWORD.
import os from 'node:os';
import mariadb from 'mariadb';
import mysql2 from 'mysql2/promise';
import mysql from '../adapters/mysql/description.js';
import { connectionConfig } from '../adapters/mysql/connection.js';
import { poolConfig } from '../adapters/mysql/mariadb-driver.js';
import { adapterOptions } from '../cli/options.js';
import { environment, packageVersion } from '../core/environment.js';
import { formatPaired, pairedRatio } from './paired.js';
import { format, rateLine, runRounds } from './rounds.js';
import { serverArgs, serverArgv } from './server-flags.js';
import { datasetNote, harness, openConnections, prepareSingleRead, rawLoop } from './single-read.js';

const args = serverArgs({
  namespace: 'mysqldrivers', scale: 'small', concurrency: '25', rounds: '5', ops: '50000',
}, { database: false });
const concurrency = Number(args.concurrency);
const rounds = Number(args.rounds);
const optionsOf = (driver) => adapterOptions(mysql, serverArgv(args, { driver }));
const options = optionsOf('mysql2');
const readSql = `SELECT doc FROM \`${args.namespace}\`.profiles WHERE _key = ?`;

const { dataset, adapters, imported, version, keys } = await prepareSingleRead({
  description: mysql, drivers: mysql.drivers, optionsOf, scale: args.scale, ops: Number(args.ops),
});

// The raw loops' pools, configured as the adapter configures each driver's; every connection opened before the first round.
const config = connectionConfig(options);
const mysql2Pool = mysql2.createPool({ ...config, connectionLimit: concurrency, maxIdle: concurrency });
const mariadbPool = mariadb.createPool(poolConfig(options));
mariadbPool.on('error', () => {});
for (const pool of [mysql2Pool, mariadbPool]) await openConnections(concurrency, () => pool.getConnection());

const loop = (read) => rawLoop({ keys, concurrency, read });
const contenders = {
  'harness mysql2': harness({ adapter: adapters.mysql2, keys, concurrency }),
  'harness mariadb': harness({ adapter: adapters.mariadb, keys, concurrency }),
  'raw mysql2': loop(async (key) => (await mysql2Pool.execute(readSql, [key]))[0]),
  'raw mariadb': loop((key) => mariadbPool.execute(readSql, [key])),
};
let rates;
const loads = [];
try {
  rates = await runRounds(contenders, rounds, () => loads.push(os.loadavg()[0]));
} finally {
  await Promise.all([mysql2Pool.end(), mariadbPool.end()]);
  for (const adapter of Object.values(adapters)) await adapter.close();
}

const env = environment();
console.log(`Node.js drivers on MariaDB: singleRead, concurrency ${concurrency}, ${format(keys.length)} operations x ${rounds} rounds`);
console.log(`server: ${version} at ${options.host}:${options.port}, database \`${args.namespace}\`, ${datasetNote(dataset, imported)}`);
console.log(`machine: ${env.cpu}, ${env.cores} cores, load average (1 min) after each round `
  + `${loads.map((load) => load.toFixed(1)).join(', ')}, node ${env.node}, mysql2 ${packageVersion('mysql2')}, `
  + `mariadb ${packageVersion('mariadb')}`);
for (const [name, list] of Object.entries(rates)) console.log(rateLine(name, list, 16));
for (const kind of ['harness', 'raw']) {
  console.log(`${`${kind} mariadb / ${kind} mysql2`.padEnd(33)} = `
    + `${formatPaired(pairedRatio(rates[`${kind} mariadb`], rates[`${kind} mysql2`]))}`);
}
for (const driver of mysql.drivers) {
  console.log(`${`harness ${driver} / raw ${driver}`.padEnd(33)} = `
    + `${formatPaired(pairedRatio(rates[`harness ${driver}`], rates[`raw ${driver}`]))}`);
}
