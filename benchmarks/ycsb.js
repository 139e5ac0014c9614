// db-shootout's mixed suite against YCSB on one PostgreSQL, in paired rounds (benchmarks/paired.js): per
// configuration (mix, key distribution, connections) each round runs both tools back to back, in alternating
// order, on the same server, and the headline is the median of the rounds' throughput ratios, db-shootout / YCSB.
//
//   node benchmarks/ycsb.js [--cache-dir <dir>] [--host h --port p --user u --database d]
//     [--records 100000] [--ops 100000] [--connections 1,8,32] [--mixes read-only,95-5,50-50] (or read-modify-write, scan-insert)
//     [--distributions zipfian,uniform] [--rounds 3] [--doc-bytes 250] [--ycsb-field-length 13] [--driver pg|postgres|pg-native, or per connection count: 1:pg-native,8:pg]
//     [--keep-awake]
//
// --keep-awake: a spinner at the lowest priority (nice 19) on every core for the whole comparison, both tools alike.
// On a virtual machine whose idle cores halt at once (Linux's haltpoll with guest_halt_poll_ns 0, as this project's
// machine), every round trip at one connection waits for a halted core to be woken, which costs more than the query:
// pg alone measured 87 to 93 us per query with the cores idle and 23 to 55 us with the spinners, pgbench 73 us idle.
// A client that keeps a core busy of its own (YCSB's JVM) then looks faster for that reason alone; the spinners take
// the idle states out of both tools' figures, and yield the cores to any other process.
//
// The server: the local PostgreSQL `bench server start postgresql` runs (under --cache-dir or the default cache),
// or the one --host/--port name. Both tools write with synchronous_commit off (db-shootout's --durability relaxed;
// YCSB's connections set it at login).
//
// YCSB: its core, 0.17.0, and the PostgreSQL JDBC driver come from Maven Central (with the machine's Maven, into
// <cache>/ycsb/); its PostgreSQL binding is benchmarks/ycsb/JsonbClient.java, compiled here, since YCSB's own
// postgrenosql binding is not published there. It stores each record as one jsonb document in
// dbshootout_ycsb.usertable, as the PostgreSQL adapter stores the mixed suite's documents, with one connection per
// YCSB thread (postgrenosql shares one connection across threads). YCSB loads its table once per record count
// (untimed); each db-shootout run here is a `bench run` of its own, which loads its collection (untimed). YCSB checks no answer; db-shootout
// checks every read against the writes it overlapped and the collection's final state.
//
// Printed per configuration: both throughputs per round, the paired ratio (median, interquartile range, range),
// the paired ratio of the reads' p50 latency, and db-shootout's client CPU per operation (its median over the rounds).
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { median } from 'simple-statistics';
import { defaultCacheDir } from '../core/paths.js';
import { copyDependencies } from '../server/maven.js';
import { chooseJava } from '../server/java.js';
import { runningServer } from '../server/state.js';
import { READ, SCAN } from '../workloads/mixed/consistency.js';
import { formatPaired, pairedRatio } from './paired.js';

const run = promisify(execFile);
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const YCSB_VERSION = '0.17.0';
const JDBC = { groupId: 'org.postgresql', artifactId: 'postgresql', version: '42.7.14' };
const SCHEMA = 'dbshootout_ycsb';
const TABLE = `${SCHEMA}.usertable`;
const FIELD_COUNT = 10;
// The mixed suite's workloads and YCSB's proportions for them.
const MIXES = {
  'read-only': { readproportion: 1, updateproportion: 0 },
  '95-5': { readproportion: 0.95, updateproportion: 0.05 },
  '50-50': { readproportion: 0.5, updateproportion: 0.5 },
  // YCSB's workload F.
  'read-modify-write': { readproportion: 0.5, updateproportion: 0, readmodifywriteproportion: 0.5 },
  // YCSB's workload E: short scans (1 to 100 records, uniform) and inserts of new keys.
  'scan-insert': {
    readproportion: 0, updateproportion: 0, scanproportion: 0.95, insertproportion: 0.05, maxscanlength: 100, scanlengthdistribution: 'uniform',
  },
};
// A mix that inserts leaves YCSB's table with more records than loaded: it is loaded again before each of its runs.
const inserts = (mix) => (MIXES[mix].insertproportion ?? 0) > 0;
const MAX_BUFFER = 256 * 2 ** 20;

const { values: args } = parseArgs({
  options: {
    'cache-dir': { type: 'string' },
    host: { type: 'string' },
    port: { type: 'string' },
    user: { type: 'string', default: 'postgres' },
    database: { type: 'string', default: 'postgres' },
    records: { type: 'string', default: '100000' },
    ops: { type: 'string', default: '100000' },
    connections: { type: 'string', default: '1,8,32' },
    mixes: { type: 'string', default: 'read-only,95-5,50-50' },
    distributions: { type: 'string', default: 'zipfian,uniform' },
    rounds: { type: 'string', default: '3' },
    'doc-bytes': { type: 'string', default: '250' },
    // 10 fields of 13 characters: about 250 bytes of JSON, as --doc-bytes 250 gives the mixed suite's documents.
    'ycsb-field-length': { type: 'string', default: '13' },
    // db-shootout's PostgreSQL driver (bench run --driver); the adapter's default when not given.
    driver: { type: 'string' },
    'keep-awake': { type: 'boolean', default: false },
  },
});

function fail(message) {
  process.stderr.write(`ycsb.js: ${message}\n`);
  process.exit(1);
}

const cacheDir = path.resolve(args['cache-dir'] ?? defaultCacheDir());
const server = args.port ? null : runningServer(cacheDir, 'postgresql');
if (!args.port && !server) fail(`no local PostgreSQL is running under ${cacheDir}: start one with \`npx bench server start postgresql\`, or name one with --host and --port`);
const target = {
  host: args.host ?? server?.host ?? '127.0.0.1',
  port: Number(args.port ?? server.port),
  user: server?.user ?? args.user,
  database: server?.database ?? args.database,
};
const mixes = args.mixes.split(',');
for (const mix of mixes) if (!MIXES[mix]) fail(`unknown mix "${mix}"; known: ${Object.keys(MIXES).join(', ')}`);
const rounds = Number(args.rounds);

// YCSB's core and the JDBC driver with their runtime dependencies, and the binding compiled: the classpath.
async function ycsbClasspath() {
  const home = path.join(cacheDir, 'ycsb', YCSB_VERSION);
  const lib = path.join(home, 'lib');
  if (!existsSync(path.join(lib, `core-${YCSB_VERSION}.jar`))) {
    process.stderr.write(`fetching YCSB ${YCSB_VERSION}'s core and the PostgreSQL JDBC driver ${JDBC.version} from Maven Central into ${lib}\n`);
    await copyDependencies({ groupId: 'site.ycsb', artifactId: 'core', version: YCSB_VERSION }, lib);
    await copyDependencies(JDBC, lib);
  }
  const jars = readdirSync(lib).filter((name) => name.endsWith('.jar')).map((name) => path.join(lib, name));
  const classes = path.join(home, 'classes');
  mkdirSync(classes, { recursive: true });
  const java = chooseJava({ needs: 8, who: 'YCSB', override: process.env.BENCH_JAVA_HOME });
  await run(path.join(java.home, 'bin', 'javac'), ['-nowarn', '-d', classes, '-cp', jars.join(':'),
    path.join(root, 'benchmarks', 'ycsb', 'JsonbClient.java')]);
  return { java: path.join(java.home, 'bin', 'java'), classpath: [classes, ...jars].join(':') };
}

function ycsbProps({ records, ops, mix, distribution }) {
  return {
    workload: 'site.ycsb.workloads.CoreWorkload',
    table: TABLE,
    'db.url': `jdbc:postgresql://${target.host}:${target.port}/${target.database}?options=-c%20synchronous_commit%3Doff`,
    'db.user': target.user,
    recordcount: records,
    operationcount: ops,
    fieldcount: FIELD_COUNT,
    fieldlength: args['ycsb-field-length'],
    readallfields: true,
    writeallfields: true,
    requestdistribution: distribution,
    insertproportion: 0,
    scanproportion: 0,
    readmodifywriteproportion: 0,
    measurementtype: 'hdrhistogram',
    'hdrhistogram.percentiles': '50,95,99',
    ...(mix ? MIXES[mix] : {}),
  };
}

// One YCSB phase (-load or -t): resolves with its overall throughput and read p50 (µs), from its report.
async function ycsb(tool, phase, props, threads) {
  const flags = Object.entries(props).filter(([, value]) => value !== undefined).flatMap(([key, value]) => ['-p', `${key}=${value}`]);
  const { stdout, stderr } = await run(tool.java, ['-cp', tool.classpath, 'site.ycsb.Client', phase, '-db', 'dbshootout.ycsb.JsonbClient',
    '-threads', String(threads), ...flags], { maxBuffer: MAX_BUFFER });
  if (!/^\[OVERALL\], Throughput/m.test(stdout)) throw new Error(`YCSB ${phase} reported nothing:\n${stdout}\n${stderr}`);
  const field = (section, name) => Number(new RegExp(`^\\[${section}\\], ${name}, ([\\d.]+)$`, 'm').exec(stdout)?.[1]);
  // A read-modify-write counts in YCSB's READ and UPDATE sections as well as its own.
  const ops = ['READ', 'UPDATE', 'INSERT', 'SCAN'].reduce((sum, section) => sum + (field(section, 'Return=OK') || 0), 0)
    - (field('READ-MODIFY-WRITE', 'Operations') || 0);
  const failed = /^\[(READ|UPDATE|INSERT|SCAN)-FAILED\], Operations, (\d+)$/m.exec(stdout);
  if (failed) throw new Error(`YCSB: ${failed[2]} ${failed[1]} operations failed\n${stdout}`);
  return { opsPerSec: field('OVERALL', 'Throughput\\(ops/sec\\)'), p50Us: field('READ', '50thPercentileLatency\\(us\\)') || field('SCAN', '50thPercentileLatency\\(us\\)'), ops };
}

// YCSB's table, made anew and loaded with `records` records.
async function loadYcsb(tool, records) {
  const client = new pg.Client(target);
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
    await client.query(`DROP TABLE IF EXISTS ${TABLE}`);
    await client.query(`CREATE TABLE ${TABLE} (ycsb_key text PRIMARY KEY, doc jsonb NOT NULL)`);
  } finally {
    await client.end();
  }
  const { ops } = await ycsb(tool, '-load', { ...ycsbProps({ records }), operationcount: records }, 8);
  if (ops !== records) throw new Error(`YCSB loaded ${ops} of ${records} records`);
}

async function averageBytes(sql) {
  const client = new pg.Client(target);
  await client.connect();
  try {
    return Math.round(Number((await client.query(sql)).rows[0].bytes));
  } finally {
    await client.end();
  }
}

// db-shootout's driver at a connection count: --driver's, one for all ("pg-native") or per count ("1:pg-native,8:pg",
// the adapter's default for a count not named); null for the adapter's default.
function driverAt(spec, connections) {
  if (!spec) return null;
  if (!spec.includes(':')) return spec;
  const entry = spec.split(',').map((item) => item.trim().split(':')).find(([count]) => Number(count) === connections);
  return entry ? entry[1] : null;
}

// One `bench run` of a mixed workload: throughput, p50 (µs) and the harness's CPU per operation.
async function shootout({ records, ops, mix, distribution, connections }, out) {
  const driver = driverAt(args.driver, connections);
  const flags = ['run', '--suite', 'mixed', '--db', 'postgresql', '--workload', mix, '--records', String(records), '--ops', String(ops),
    '--distribution', distribution, '--concurrency', String(connections), '--doc-bytes', args['doc-bytes'], '--durability', 'relaxed',
    '--runs', '1', '--json', '--quiet', '--out', out, '--cache-dir', cacheDir, ...(driver ? ['--driver', driver] : []),
    ...(args.port ? ['--host', target.host, '--port', String(target.port), '--user', target.user, '--database', target.database] : [])];
  const { stdout } = await run(process.execPath, [path.join(root, 'bin', 'bench.js'), ...flags], { maxBuffer: MAX_BUFFER });
  const result = JSON.parse(stdout);
  const [workload] = Object.values(result.workloads);
  if (workload.status !== 'passed') throw new Error(`bench run ${flags.join(' ')}: ${workload.status} ${JSON.stringify(workload.failures)}`);
  const [timed] = workload.runs;
  // The reads' p50 (the scans' in scan-insert), as YCSB's: a mix times each kind apart.
  const reads = (timed.byKind?.[READ] ?? timed.byKind?.[SCAN])?.latencyMs ?? timed.latencyMs;
  return { opsPerSec: timed.opsPerSec, p50Us: reads.p50 * 1000, cpuPerOpUs: timed.resources.client.cpuPerOpUs };
}

// One spinner per core at nice 19, ended with this process however it ends.
function keepAwake() {
  const spinners = Array.from({ length: os.availableParallelism() }, () => {
    const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    os.setPriority(child.pid, 19);
    return child;
  });
  const stop = () => { for (const child of spinners) child.kill('SIGKILL'); };
  process.on('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => { stop(); process.exit(130); });
  return stop;
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-ycsb-'));
const stopSpinners = args['keep-awake'] ? keepAwake() : null;
try {
  const records = Number(args.records);
  const ops = Number(args.ops);
  const tool = await ycsbClasspath();
  process.stderr.write(`loading ${records} YCSB records into ${TABLE}\n`);
  await loadYcsb(tool, records);
  const ycsbBytes = await averageBytes(`SELECT avg(octet_length(doc::text)) AS bytes FROM ${TABLE}`);
  console.log(`PostgreSQL at ${target.host}:${target.port}; ${records} records, ${ops} operations per run, ${rounds} paired rounds per configuration`);
  if (stopSpinners) console.log(`--keep-awake: a spinner at nice 19 on each of the ${os.availableParallelism()} cores, for both tools`);
  console.log(`documents: YCSB ${FIELD_COUNT} fields of ${args['ycsb-field-length']} characters, ${ycsbBytes} bytes of JSON on average; db-shootout --doc-bytes ${args['doc-bytes']}`);
  const summary = [];
  for (const mix of mixes) {
    for (const distribution of args.distributions.split(',')) {
      for (const connections of args.connections.split(',').map(Number)) {
        const config = { records, ops, mix, distribution, connections };
        const ours = [];
        const theirs = [];
        for (let round = 0; round < rounds; round += 1) {
          const runOurs = () => shootout(config, path.join(scratch, `out-${summary.length}-${round}`));
          const runTheirs = async () => {
            if (inserts(mix)) await loadYcsb(tool, records);
            const outcome = await ycsb(tool, '-t', ycsbProps(config), connections);
            if (outcome.ops !== ops) throw new Error(`YCSB completed ${outcome.ops} of ${ops} operations`);
            return outcome;
          };
          if (round % 2 === 0) {
            ours.push(await runOurs());
            theirs.push(await runTheirs());
          } else {
            theirs.push(await runTheirs());
            ours.push(await runOurs());
          }
        }
        const throughput = pairedRatio(ours.map((r) => r.opsPerSec), theirs.map((r) => r.opsPerSec));
        const p50 = pairedRatio(ours.map((r) => r.p50Us), theirs.map((r) => r.p50Us));
        const cpu = median(ours.map((r) => r.cpuPerOpUs));
        const name = `${mix} ${distribution} ${connections} connection${connections === 1 ? '' : 's'}${driverAt(args.driver, connections) ? ` (${driverAt(args.driver, connections)})` : ''}`;
        console.log(`${name}: db-shootout ${ours.map((r) => Math.round(r.opsPerSec)).join(', ')} ops/s; YCSB ${theirs.map((r) => Math.round(r.opsPerSec)).join(', ')} ops/s`);
        console.log(`  throughput db-shootout / YCSB ${formatPaired(throughput)}`);
        console.log(`  p50 latency db-shootout / YCSB ${formatPaired(p50)}; db-shootout's CPU per operation ${cpu.toFixed(1)} us (median)`);
        summary.push({ name, throughput: throughput.median, cpu });
      }
    }
  }
  console.log('');
  console.log('configuration | throughput ratio (median) | db-shootout CPU per operation (us)');
  for (const { name, throughput, cpu } of summary) console.log(`${name} | ${throughput.toFixed(2)} | ${cpu.toFixed(1)}`);
} finally {
  stopSpinners?.();
  rmSync(scratch, { recursive: true, force: true });
}
