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
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import postgresql from '../adapters/postgresql/description.js';
import { adapterOptions } from '../cli/options.js';
import { environment, packageVersion } from '../core/environment.js';
import { defaultCacheDir } from '../core/paths.js';
import { profileKey } from '../datasets/columns.js';
import { prepareDataset } from '../datasets/dataset.js';
import { importDataset } from '../import/import.js';
import { execute } from '../runner/execute.js';
import { WORKLOADS } from '../workloads/social/workloads.js';
import { formatPaired, pairedRatio, verdict } from './paired.js';

const TARGET_RATIO = 0.9;
const PG_BIN_ROOT = '/usr/lib/postgresql';

const { values: args } = parseArgs({
  options: {
    host: { type: 'string' },
    port: { type: 'string' },
    user: { type: 'string' },
    database: { type: 'string' },
    namespace: { type: 'string', default: 'dbshootout' },
    scale: { type: 'string', default: 'small' },
    concurrency: { type: 'string', default: '25' },
    rounds: { type: 'string', default: '9' },
    ops: { type: 'string', default: '100000' },
    'pgbench-seconds': { type: 'string', default: '10' },
  },
});
const concurrency = Number(args.concurrency);
const rounds = Number(args.rounds);
const ops = Number(args.ops);
// Reached like `bench run` reaches it: the local server of `bench server start postgresql`, unless named.
const options = adapterOptions(postgresql, {
  host: args.host, port: args.port === undefined ? undefined : Number(args.port), user: args.user,
  database: args.database, namespace: args.namespace, concurrency, 'connect-timeout': 10, 'cache-dir': defaultCacheDir(),
});
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
const adapter = postgresql.create(options);
await adapter.connect();
const imported = await importDataset({ adapter, description: postgresql, options, dataset });
const version = await adapter.serverVersion();

const readKeys = dataset.params.readIds.map(profileKey);
const keys = Array.from({ length: ops }, (_, i) => readKeys[i % readKeys.length]);
const { call } = WORKLOADS.find((workload) => workload.name === 'singleRead');

const pool = new pg.Pool({
  host: options.host, port: options.port, user: options.user, database: options.database, password, max: concurrency,
});
// Every connection opened before the first round, as the adapter's connect() does.
const clients = await Promise.all(Array.from({ length: concurrency }, () => pool.connect()));
for (const client of clients) client.release();

function checkAnswers(answers) {
  const missing = answers.filter((answer) => answer == null).length;
  if (missing > 0) throw new Error(`${missing} reads found no document: is the dataset imported completely?`);
}

async function harness() {
  const outcome = await execute({ inputs: keys, call, adapter, concurrency });
  if (outcome.errors.length > 0) throw outcome.errors[0].error;
  checkAnswers(outcome.answers);
  return ops / (outcome.wallMs / 1000);
}

function rawLoop(query) {
  return async () => {
    const answers = new Array(ops);
    let next = 0;
    const begin = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < ops) {
        const index = next;
        next += 1;
        answers[index] = (await pool.query(query(keys[index]))).rows[0];
      }
    }));
    const rate = ops / ((performance.now() - begin) / 1000);
    checkAnswers(answers);
    return rate;
  };
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-pg-overhead-'));
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
  harness,
  'raw loop': rawLoop((key) => ({ name: 'pg_overhead_read', text: readSql, values: [key], rowMode: 'array' })),
  'raw, plain': rawLoop((key) => ({ text: readSql, values: [key] })),
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
  await pool.end();
  await adapter.close();
  rmSync(scratch, { recursive: true, force: true });
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const format = (rate) => Math.round(rate).toLocaleString('en-US');
const env = environment();
console.log(`harness overhead on PostgreSQL: singleRead, concurrency ${concurrency}, `
  + `${format(ops)} operations x ${rounds} rounds; pgbench ${args['pgbench-seconds']} s x ${rounds} rounds`);
console.log(`server: PostgreSQL ${version} at ${options.host}:${options.port}, schema "${schema}", `
  + `dataset ${dataset.id} (${imported.reused ? 'reused' : `imported in ${(imported.ms / 1000).toFixed(1)} s`})`);
console.log(`machine: ${env.cpu}, ${env.cores} cores, node ${env.node}, pg ${packageVersion('pg')}`);
for (const [name, list] of Object.entries(rates)) {
  const each = list.map(format).join(', ');
  console.log(`  ${name.padEnd(10)} median ${format(median(list)).padStart(8)} ops/s  (rounds: ${each})`);
}
const ratio = pairedRatio(rates.harness, rates['raw loop']);
const ceiling = pairedRatio(rates.harness, rates.pgbench);
console.log(`harness / raw loop = ${formatPaired(ratio)}, target >= ${TARGET_RATIO}: ${verdict(ratio, TARGET_RATIO)}`);
console.log(`harness / pgbench  = ${formatPaired(ceiling)} (information: the C client's ceiling)`);
process.exitCode = ratio.median >= TARGET_RATIO ? 0 : 1;
