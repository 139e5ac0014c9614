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
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import mariadb from 'mariadb';
import mysql2 from 'mysql2/promise';
import mysql from '../adapters/mysql/description.js';
import { connectionConfig } from '../adapters/mysql/connection.js';
import { poolConfig } from '../adapters/mysql/mariadb-driver.js';
import { adapterOptions } from '../cli/options.js';
import { environment, packageVersion } from '../core/environment.js';
import { defaultCacheDir } from '../core/paths.js';
import { profileKey } from '../datasets/columns.js';
import { prepareDataset } from '../datasets/dataset.js';
import { importDataset } from '../import/import.js';
import { execute } from '../runner/execute.js';
import { WORKLOADS } from '../workloads/social/workloads.js';
import { formatPaired, pairedRatio } from './paired.js';

const { values: args } = parseArgs({
  options: {
    host: { type: 'string' },
    port: { type: 'string' },
    user: { type: 'string' },
    namespace: { type: 'string', default: 'mysqldrivers' },
    scale: { type: 'string', default: 'small' },
    concurrency: { type: 'string', default: '25' },
    rounds: { type: 'string', default: '5' },
    ops: { type: 'string', default: '50000' },
  },
});
const concurrency = Number(args.concurrency);
const rounds = Number(args.rounds);
const ops = Number(args.ops);
// Reached like `bench run` reaches it: the local server of `bench server start mariadb`, unless named.
const optionsOf = (driver) => adapterOptions(mysql, {
  host: args.host, port: args.port === undefined ? undefined : Number(args.port), user: args.user,
  namespace: args.namespace, concurrency, 'connect-timeout': 10, 'cache-dir': defaultCacheDir(), driver,
});
const options = optionsOf('mysql2');
const readSql = `SELECT doc FROM \`${args.namespace}\`.profiles WHERE _key = ?`;

const dataset = await prepareDataset({ scale: args.scale, cacheDir: defaultCacheDir() });
const adapters = Object.fromEntries(mysql.drivers.map((driver) => [driver, mysql.create(optionsOf(driver))]));
for (const adapter of Object.values(adapters)) await adapter.connect();
const imported = await importDataset({ adapter: adapters.mysql2, description: mysql, options, dataset });
const version = await adapters.mysql2.serverVersion();

const readKeys = dataset.params.readIds.map(profileKey);
const keys = Array.from({ length: ops }, (_, i) => readKeys[i % readKeys.length]);
const { call } = WORKLOADS.find((workload) => workload.name === 'singleRead');

// The raw loops' pools, configured as the adapter configures each driver's; every connection opened before the first round.
const config = connectionConfig(options);
const mysql2Pool = mysql2.createPool({ ...config, connectionLimit: concurrency, maxIdle: concurrency });
const mariadbPool = mariadb.createPool(poolConfig(options));
mariadbPool.on('error', () => {});
for (const pool of [mysql2Pool, mariadbPool]) {
  const connections = await Promise.all(Array.from({ length: concurrency }, () => pool.getConnection()));
  for (const connection of connections) connection.release();
}

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

const contenders = {
  'harness mysql2': harness(adapters.mysql2),
  'harness mariadb': harness(adapters.mariadb),
  'raw mysql2': rawLoop(async (key) => (await mysql2Pool.execute(readSql, [key]))[0]),
  'raw mariadb': rawLoop((key) => mariadbPool.execute(readSql, [key])),
};
const rates = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
const loads = [];
try {
  for (let round = 0; round < rounds; round += 1) {
    // Rotating the order spreads caching, GC and JIT effects evenly over the contenders.
    const names = Object.keys(contenders);
    for (let i = 0; i < names.length; i += 1) {
      const name = names[(i + round) % names.length];
      rates[name].push(await contenders[name]());
    }
    loads.push(os.loadavg()[0]);
  }
} finally {
  await Promise.all([mysql2Pool.end(), mariadbPool.end()]);
  for (const adapter of Object.values(adapters)) await adapter.close();
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const format = (rate) => Math.round(rate).toLocaleString('en-US');
const env = environment();
console.log(`Node.js drivers on MariaDB: singleRead, concurrency ${concurrency}, ${format(ops)} operations x ${rounds} rounds`);
console.log(`server: ${version} at ${options.host}:${options.port}, database \`${args.namespace}\`, `
  + `dataset ${dataset.id} (${imported.reused ? 'reused' : `imported in ${(imported.ms / 1000).toFixed(1)} s`})`);
console.log(`machine: ${env.cpu}, ${env.cores} cores, load average (1 min) after each round `
  + `${loads.map((load) => load.toFixed(1)).join(', ')}, node ${env.node}, mysql2 ${packageVersion('mysql2')}, `
  + `mariadb ${packageVersion('mariadb')}`);
for (const [name, list] of Object.entries(rates)) {
  const each = list.map(format).join(', ');
  console.log(`  ${name.padEnd(16)} median ${format(median(list)).padStart(8)} ops/s  (rounds: ${each})`);
}
for (const kind of ['harness', 'raw']) {
  console.log(`${`${kind} mariadb / ${kind} mysql2`.padEnd(33)} = `
    + `${formatPaired(pairedRatio(rates[`${kind} mariadb`], rates[`${kind} mysql2`]))}`);
}
for (const driver of mysql.drivers) {
  console.log(`${`harness ${driver} / raw ${driver}`.padEnd(33)} = `
    + `${formatPaired(pairedRatio(rates[`harness ${driver}`], rates[`raw ${driver}`]))}`);
}
