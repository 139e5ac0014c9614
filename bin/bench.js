#!/usr/bin/env node
// The command line: parses flags and delegates to cli/*, which is callable from code as well.
import { readFileSync } from 'node:fs';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { DEFAULT_DB, adapterIds } from '../adapters/index.js';
import { ErrorCodes, usageError } from '../core/errors.js';
import { CHECK_SCALE, DEFAULT_TRIALS, K8S_DEFAULTS } from '../core/defaults.js';
import { DEFAULT_OUT_DIR } from '../core/paths.js';
import { formatError } from '../cli/errors.js';
import { ExitCodes } from '../cli/exit-codes.js';
import {
  DEFAULT_CONCURRENCY, checkCommon, checkCrashFlags, checkNumbers, connectionOptions, datasetOptions, datasetSourceOptions, givenFlags, parseSeconds,
} from '../cli/options.js';
import { emptyValue, usageMessage } from '../cli/usage.js';
import { SNAP_DATASET_NAMES } from '../datasets/fetch.js';
import { DEFAULT_SEED } from '../datasets/scales.js';
import { SERVER_FAMILIES } from '../server/index.js';
import { SHAPES } from '../workloads/crud/documents.js';
import { DISTRIBUTIONS } from '../workloads/mixed/keys.js';
import { SIZES as QUERY_SIZES } from '../workloads/queries/data.js';
import { DEFAULT_SUITE, SUITES, suiteIds } from '../workloads/index.js';
import { DEFAULT_DURABILITY, DURABILITY_TERMS } from '../core/terms.js';
import { checkPresetFlags, presetNames } from '../workloads/presets.js';

const HARNESS_VERSION = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

const USAGE_CODES = new Set([ErrorCodes.USAGE, ErrorCodes.UNKNOWN_DB, ErrorCodes.UNKNOWN_WORKLOAD]);
// If a driver leaves a socket or timer behind, the process still ends this long after the work is done.
const EXIT_GRACE_MS = 5000;

function finish(code) {
  process.exitCode = code;
  setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
}

// The handler `name` of cli/<file>.js, imported when its command runs: each command's code (and the drivers,
// reports and statistics it brings) costs the start of every other command nothing.
const load = (file, name) => async (argv) => (await import(`../cli/${file}.js`))[name](argv);

function command(handler) {
  return async (argv) => {
    try {
      finish(await handler(argv));
    } catch (error) {
      process.stderr.write(`${formatError(error, argv)}\n`);
      if (process.env.BENCH_DEBUG && error.stack) process.stderr.write(`${error.stack}\n`);
      finish(USAGE_CODES.has(error.code) ? ExitCodes.USAGE : ExitCodes.FAILED);
    }
  };
}

const dbOption = {
  db: { type: 'string', default: DEFAULT_DB, describe: `database adapter: ${adapterIds().join(', ')}` },
};
const concurrencyOption = {
  concurrency: { type: 'number', default: DEFAULT_CONCURRENCY, describe: 'operations in flight at once, the same for every database; pools are sized from it' },
};
// Where a command that writes a result document puts it.
const resultOptions = {
  json: { type: 'boolean', default: false, describe: 'print the result document on stdout (progress stays on stderr)' },
  out: { type: 'string', default: DEFAULT_OUT_DIR, describe: 'directory for result files; made if missing, and checked to be writable before any work' },
};
// What a command given too few arguments needs, instead of yargs's "Not enough non-option arguments".
const MISSING_ARGUMENTS = {
  compare: 'bench compare needs two result sets: <a> <b>, each a result file or a directory of them',
  report: 'bench report needs at least one result file or directory of result files',
  server: `bench server needs an action and a server: <install|start|stop|status> <${SERVER_FAMILIES.join('|')}>`,
  data: `bench data needs an action and a dataset: bench data fetch <${SNAP_DATASET_NAMES.join('|')}>`,
  merge: 'bench merge needs the partial results of one sharded run: their files, or a directory of them',
  k8s: 'bench k8s needs what to print: bench k8s job --db <id> --shards <n> --image <image> -- --host <server>',
};
const quietOption = { quiet: { type: 'boolean', default: false, describe: 'no progress on stderr' } };
const COMMANDS = ['run', 'import', 'list', 'generate', 'check', 'server', 'crash', 'data', 'report', 'compare', 'merge', 'k8s'];
// What a flag typed without its value needs, where the usage line alone would not say.
const VALUE_HINTS = {
  workload: 'all, or a comma-separated list of the suite\'s workloads (`bench list` names them)',
  suite: suiteIds().join(', '),
  db: adapterIds().join(', '),
  durability: DURABILITY_TERMS.join(', '),
  preset: presetNames().join(', '),
  cache: 'a size such as 512MB or 2GB',
};

const cli = yargs(hideBin(process.argv));
await cli
  .scriptName('bench')
  .usage('$0 <command> [options]\n\nReproducible, validated database benchmarks on the Pokec social network.')
  .command('run', 'run the benchmark suite against one database (default: embedded SQLite)', (y) => y
    .options({
      ...dbOption,
      suite: { type: 'string', choices: suiteIds(), default: DEFAULT_SUITE, describe: 'the benchmark family: social (the classic nosql-tests on Pokec), crud (individual inserts, gets, updates and deletes at rising concurrency), mixed (reads and writes of the same documents at once, closed or open loop), queries (the 32 query cases of the AQL shootout on 10k, 100k and 1M generated documents) or graph (edge lookups, friends and followers, upserts and removals one by one and in batches of 500 on a weighted edge list); see `bench list`' },
      workload: { type: 'string', default: 'all', describe: 'all, or a comma-separated list of the suite\'s workloads (see `bench list`)' },
      runs: { type: 'number', describe: 'runs, each from a fresh connection (queries: measured executions of each case and size, after one unmeasured warm-up, on one connection)', defaultDescription: `${SUITES.social.defaults.runs} (social, queries), ${SUITES.crud.defaults.runs} (crud, mixed)` },
      concurrency: { type: 'string', describe: 'operations in flight at once, the same for every database; pools are sized from it. crud, mixed: a comma-separated list of levels, each its own round', defaultDescription: `${SUITES.social.defaults.concurrency} (social), ${SUITES.crud.defaults.concurrency} (crud), ${SUITES.mixed.defaults.concurrency} (mixed)` },
      ops: { type: 'string', describe: 'crud: documents per phase; mixed: operations per workload; or a comma-separated list of counts', defaultDescription: `${SUITES.crud.defaults.ops} (crud), ${SUITES.mixed.defaults.ops} (mixed)` },
      size: { type: 'string', describe: `queries: the collection sizes, a comma-separated list of ${Object.keys(QUERY_SIZES).join(', ')}`, defaultDescription: SUITES.queries.defaults.size },
      shape: { type: 'string', choices: SHAPES, describe: 'crud, mixed: uniform documents (one shape for all), or varied (names, number and types of fields change per document)', defaultDescription: SUITES.crud.defaults.shape },
      durability: { type: 'string', choices: DURABILITY_TERMS, describe: 'the durability every timed write runs under, the same for every database: relaxed = acknowledged before the commit\'s log is flushed to disk, durable = after (fsync). Applied to a server `bench server` runs, read back from any server; a server set otherwise is refused (social\'s singleWriteSync is always durable)', defaultDescription: DEFAULT_DURABILITY },
      sync: { type: 'boolean', describe: 'crud, mixed: the same as --durability durable', defaultDescription: 'false' },
      cache: { type: 'string', describe: 'the memory every database may cache its data in, such as 512MB (1 MB = 1024 × 1024 bytes): PostgreSQL\'s shared_buffers, InnoDB\'s buffer pool, SQLite\'s cache_size (without a memory map). A server `bench server` runs is restarted with it; any other server must report it, or the run is refused', defaultDescription: 'each database\'s own, read back and recorded' },
      cold: { type: 'boolean', describe: 'start every run cold: the server restarted (one `bench server` runs, or through --restart-cmd) and the operating system\'s page cache dropped (Linux, as root; the result says when it could not be)', defaultDescription: 'false' },
      records: { type: 'number', describe: 'mixed: documents loaded (untimed, its time recorded) before the first run; each later run starts from the checked state the run before left, or from a reload after a run that failed its check or inserted and deleted (igiugid)', defaultDescription: String(SUITES.mixed.defaults.records) },
      reload: { type: 'boolean', describe: 'mixed: load the documents before every run, so each starts from the loaded state (always so with --shard)', defaultDescription: 'false: loaded once' },
      duration: { type: 'string', coerce: parseSeconds, describe: 'mixed: each run stops taking operations after this time, such as 30s, 5m or 1h (a bare number is seconds), or at --ops, whichever comes first (set --ops high enough: a run that takes all its operations first says so), and records its operations and latency second by second; closed loop, one client process' },
      'doc-bytes': { type: 'number', describe: 'mixed: each document\'s size, bytes of its JSON (the crud documents filled with words to it; ArangoDB\'s 2015 cluster test used 864, as --preset cluster-2015 sets)', defaultDescription: 'the crud documents as they are, about 200 bytes' },
      distribution: { type: 'string', choices: DISTRIBUTIONS, describe: 'mixed: how keys are chosen (YCSB\'s three; zipfian constant 0.99)', defaultDescription: SUITES.mixed.defaults.distribution },
      clients: { type: 'string', default: '1', describe: 'client processes (1 to 256, or auto: one per core the database\'s server does not need, the cores less one when it runs on this machine, 1 for an embedded database) that run the operations, each with its own connections and its share of --concurrency (and --rate), started together; their latency histograms are merged. A warning when more than the cores' },
      rate: { type: 'string', describe: 'mixed: open loop at this many operations per second (a comma-separated list sweeps rates); latency counts from each operation\'s scheduled time', defaultDescription: 'none: closed loop at --concurrency' },
      shard: { type: 'string', describe: 'mixed: run shard i of n (i/n, from 0; index/n takes i from JOB_COMPLETION_INDEX) of a run on several machines: the operations of each key go to one shard, each shard has --concurrency (and --rate) of its own, shard 0 alone loads; writes a partial result for bench merge (see README, "Load from many machines")' },
      'run-id': { type: 'string', describe: 'with --shard: the id every shard of the run is given', defaultDescription: 'derived from --start-at and the other flags' },
      'start-at': { type: 'string', describe: 'with --shard: the ISO time (at most an hour ahead) before which the first step does not start; every step starts at an instant shard 0 announces' },
      'shard-wait': { type: 'number', describe: 'with --shard: seconds a shard waits for shard 0\'s announcement, and shard 0 for the next shard to finish a step', defaultDescription: '600' },
      ...datasetOptions,
      ...datasetSourceOptions,
      ...resultOptions,
      ...connectionOptions,
      'restart-cmd': { type: 'string', describe: 'shell command that restarts the server between runs; the result keeps only its program name, as its arguments may hold a secret' },
      'read-from': { type: 'string', choices: ['primary', 'replicas'], describe: 'postgresql: where the mixed suite\'s reads go on a primary with replicas (`bench server start postgresql --replicas 2`, or --host primary:p,replica:p,...): replicas, round robin, for workloads that write nothing (read-only), each step waiting before its clock until every replica has replayed the primary\'s WAL; every other statement goes to the primary', defaultDescription: 'primary' },
      'node-vcpus': { type: 'number', describe: 'a run on several endpoints (a cluster the harness does not own): the vCPUs each node may use, recorded in the result\'s topology for the report\'s throughput per vCPU (a local cluster\'s nodes share this machine\'s cores, which are recorded instead)' },
      nodes: { type: 'string', describe: 'mysql: a size sweep on Galera clusters the harness starts: for each size in the list (1 to 9 nodes, such as 1,2,3), a cluster of that many nodes started from fresh data on 127.0.0.1, loaded, run, stopped, into a result file of its own; then the report of them, throughput against nodes. Needs `bench server install mariadb --nodes 3` and no MariaDB `bench server` running in --cache-dir' },
      'cluster-port': { type: 'number', describe: 'with --nodes: the first node\'s port (node k on it + 10 × (k − 1))', defaultDescription: '53306' },
      'clients-per-node': { type: 'number', describe: 'with --nodes: client processes per node, rounded, at least 1 (0.5: one per two nodes, as the 2015 scaling test had one load server per two database nodes); instead of --clients' },
      'server-pid': { type: 'number', describe: 'pid of the database server on this machine: its process tree\'s CPU and memory are sampled during the runs (automatic for a server `bench server` started)' },
      'stall-timeout': { type: 'number', default: 60, describe: 'seconds without any completed operation before a workload is declared stalled, and without any answer from the database while a run is checked or restored afterwards; either ends the run' },
      reimport: { type: 'boolean', default: false, describe: 'import the dataset again even when the database already holds it (queries: load the collections again)' },
      preset: { type: 'string', describe: `the parameters of a published run, which choose its suite as well: ${presetNames().join(', ')} (\`bench list\` shows each one's); a flag given as well overrides the preset's value, and the result records the override (see README, "Reproducing a published run")` },
      ...quietOption,
    })
    .check((argv) => {
      if (argv.preset) checkPresetFlags(argv.preset, givenFlags(hideBin(process.argv)), argv.suite);
      return checkCommon(argv);
    })
    .example('$0 run', 'the whole suite on embedded SQLite, small dataset, 5 runs')
    .example('$0 run --db sqlite --workload neighbors,shortestPath --runs 3', 'two workloads')
    .example('$0 run --scale tiny --runs 1 --json > result.json', 'a quick machine-readable run')
    .example('$0 run --dataset pokec --scale full', 'the real Pokec files (after `bench data fetch pokec`), the classic parameters')
    .example('$0 run --db postgresql --preset nosql-tests-2018', 'the published 2018 parameters on the full Pokec')
    .example('$0 run --db postgresql --preset crud-2012', 'ArangoDB vs CouchDB (2012): 10,000 and 100,000 inserts, gets, updates and deletes at concurrency 1 to 64 (the preset chooses --suite crud)')
    .example('$0 run --preset aql-shootout-2015 --size 10k', 'a preset with one value overridden: the result records the preset\'s 10k,100k,1M and the 10k run')
    .example('$0 run --suite crud --concurrency 1,8,64 --shape varied --durability durable', 'three levels, documents of varied shapes, every write fsynced before its acknowledgement')
    .example('$0 run --suite mixed --db postgresql --workload 95-5 --rate 1000,2000,4000', 'open loop at three rates: latency against achieved throughput')
    .example('$0 run --suite mixed --db postgresql --workload read-only --clients 4', 'the operations from four client processes: past what one Node.js process can send')
    .example('$0 run --suite queries --db postgresql --size 10k,100k', 'the AQL shootout\'s query cases, 5 runs each after a warm-up, every answer checked')
    .example('$0 run --suite graph --db postgresql --dataset file:edges.tsv', 'Unum\'s edge operations on any 2- or 3-column edge file, every answer and write checked'), command(load('run', 'runCommand')))
  .command('import', 'import the dataset alone (again, even when the database holds it) and record its duration, throughput and counts', (y) => y
    .options({
      ...dbOption,
      ...concurrencyOption,
      ...datasetOptions,
      ...datasetSourceOptions,
      ...resultOptions,
      ...connectionOptions,
      ...quietOption,
    })
    .check(checkCommon)
    .example('$0 import --db postgresql --scale full', 'time the full import into the local PostgreSQL server'), command(load('run', 'importCommand')))
  .command('list', 'list databases, workloads and which database supports which workload', (y) => y
    .options({ json: { type: 'boolean', default: false, describe: 'machine-readable listing' } }), command(load('list', 'listCommand')))
  .command('generate', 'write a synthetic Pokec dataset (SNAP file format) with its query parameters and reference answers', (y) => y
    .options({
      ...datasetOptions,
      out: { type: 'string', describe: 'target directory', defaultDescription: './pokec-synthetic-<scale>-s<seed>' },
      ...quietOption,
    })
    .check(checkCommon), command(load('generate', 'generateCommand')))
  .command('check', "a database adapter's self-test: the conformance suite and a validated run of every workload on the tiny dataset (or --scale's)", (y) => y
    .options({
      ...dbOption, ...concurrencyOption, ...datasetOptions, scale: { ...datasetOptions.scale, default: CHECK_SCALE }, ...connectionOptions, ...quietOption,
    })
    .check(checkCommon), command(load('check', 'checkCommand')))
  .command('server <action> <family>', 'install, start, stop or inspect a throwaway local database server (127.0.0.1)', (y) => y
    .positional('action', { choices: ['install', 'start', 'stop', 'status'], describe: 'what to do; status also lists the Neo4j or OrientDB releases installed' })
    .positional('family', { type: 'string', describe: `which server: ${SERVER_FAMILIES.join(', ')}, or a comma-separated list of them (each in turn)` })
    // Here --version names a server release, not the harness's own version.
    .version(false)
    .options({
      port: { type: 'number', describe: 'port to listen on (start)', defaultDescription: 'postgresql 55432, mariadb 53306, neo4j 57687, orientdb 52424, pouchdb 55984, ferretdb 57017 (its debug HTTP listener on the next port)' },
      version: { type: 'string', describe: 'neo4j, orientdb, ferretdb: the release to install or start, any on Maven Central (org.neo4j:neo4j, com.orientechnologies:orientdb-community) or, for FerretDB, a 1.x release the Go module proxy serves (built from source with Go); each release has a directory of its own under <cache-dir>/servers/<family>/. One server of a family runs at a time per --cache-dir: stop it before starting another release, or start that one with another --cache-dir and --port', defaultDescription: 'install: neo4j 5.26.30, orientdb 3.2.25, ferretdb 1.24.2; start: the release a server left unstopped last ran (a crash), else that default' },
      backend: { type: 'string', describe: 'ferretdb, start: where FerretDB keeps its data: postgresql (a database `ferretdb` on the local PostgreSQL `bench server` runs in the same --cache-dir, started first when it is not running) or sqlite (files under <cache-dir>/servers/ferretdb/<version>/sqlite/); recorded in the server\'s state', defaultDescription: 'the one it last ran on, else postgresql' },
      'java-home': { type: 'string', describe: 'neo4j, orientdb: the JDK to start the server with', defaultDescription: '$BENCH_JAVA_HOME, else the lowest Java under /usr/lib/jvm or on PATH that the release needs (Neo4j 5: 17, 2025.x: 21; OrientDB 3: 8)' },
      cache: { type: 'string', describe: 'start: the cache the server keeps its data in, such as 512MB (postgresql: shared_buffers, mariadb: the InnoDB buffer pool); `bench run --cache` restarts a server of another cache with its own', defaultDescription: 'postgresql 1GB, mariadb 1GB' },
      nodes: { type: 'number', describe: 'mariadb, install and start: a Galera cluster of this many nodes (1 to 9) on 127.0.0.1 instead of one server, synchronous multi-primary, every node taking reads and writes, always started from fresh data; node k listens on --port + 10 × (k − 1). install adds the packages galera-4 and mariadb-server (its state-transfer scripts). `bench run` spreads its connections over the nodes; status lists every node\'s Galera state' },
      netns: { type: 'boolean', describe: 'mariadb, start with --nodes (root): each node in a network namespace of its own, on a private 10.77.x.0/24 that the harness reaches through an address of its own there, so that `bench crash` can cut a node off the network' },
      replicas: { type: 'number', describe: 'postgresql, start: a primary with this many hot-standby replicas (1 to 8) streaming its WAL on 127.0.0.1, always from fresh data; node k (the primary is 1) on --port + 10 × (k − 1). `bench run --read-from replicas` sends reads to them' },
      activity: { type: 'boolean', describe: 'status: also what the server is doing now (MariaDB: the process list, InnoDB\'s transactions and semaphores; PostgreSQL: pg_stat_activity and the locks waited on; Neo4j: its transactions; PouchDB: its active tasks), each query bounded to 10 s' },
      'cache-dir': datasetOptions['cache-dir'],
      ...quietOption,
    })
    .check(checkCommon)
    .example('$0 server install mariadb', 'install MariaDB from the Debian packages (root)')
    .example('$0 server start postgresql', 'then `bench run --db postgresql` needs no connection flags')
    .example('$0 server start postgresql,mariadb,neo4j', 'three servers, each on its default port')
    .example('$0 server install neo4j --version 5.24.2', 'a second Neo4j release beside the default one')
    .example('$0 server start neo4j --version 5.24.2 --cache-dir /tmp/v --port 57700', 'that release, apart from a Neo4j running in the default cache')
    .example('$0 server status neo4j', 'the release running, with its Java, and the releases installed')
    .example('$0 server status mariadb --activity', 'what each of its sessions is running and waiting on')
    .example('$0 server start mariadb --nodes 3', 'a 3-node Galera cluster; then `bench run --db mysql --suite mixed` uses all three')
    .example('$0 server start postgresql --replicas 2', 'a primary and two streaming replicas; then `bench run --db postgresql --suite mixed --workload read-only --read-from replicas`'), command(load('server', 'serverCommand')))
  .command('crash', 'kill a local database under write load, start it again and count the acknowledged writes it lost, per write mode, against what its adapter claims (a process crash, not a power loss)', (y) => y
    .options({
      ...dbOption,
      trials: { type: 'number', default: DEFAULT_TRIALS, describe: 'crashes per write mode' },
      ...concurrencyOption,
      seed: { type: 'number', default: DEFAULT_SEED, describe: 'seed of the moments of the kills (1 to 3 s into each load)' },
      ...resultOptions,
      'cache-dir': datasetOptions['cache-dir'],
      namespace: connectionOptions.namespace,
      host: { type: 'string', describe: 'refused unless it is the local server\'s own: a crash test kills only a server `bench server start` started' },
      port: { type: 'number', describe: 'as --host' },
      'connect-timeout': connectionOptions['connect-timeout'],
      ...quietOption,
    })
    .check((argv) => checkCommon(argv) && checkCrashFlags(argv))
    .epilogue('Databases: a server `bench server start` runs under --cache-dir (postgresql, postgresql_tabular, mysql, neo4j, orientdb, and couchdb on PouchDB Server), or sqlite and duckdb, run in a child process. Exit code 1 when a write mode that its adapter declares durable per write (durablePerWrite in its description.js) lost an acknowledged write. On a Galera cluster `bench server start mariadb --nodes 3` runs, a node-loss test instead: one node killed per trial under inserts on the others, then rejoined, every node read (with --netns, as many network cuts too); exit code 1 when an acknowledged write is missing on any node or the nodes end with different rows.')
    .example('$0 server start postgresql && $0 crash --db postgresql --trials 5', 'five crashes per write mode of the local PostgreSQL')
    .example('$0 server start mariadb --nodes 3 --netns && $0 crash --db mysql --trials 5', 'five node kills and five network cuts of a local Galera cluster')
    .example('$0 crash --db sqlite --trials 3 --json > crash.json', 'SQLite in a child process; the result document on stdout'), command(load('crash', 'crashCommand')))
  .command('data <action> <dataset>', 'download a real dataset into the cache: `data fetch pokec` gets SNAP\'s two Pokec files (about 540 MB), `data fetch cit-patents` SNAP\'s cit-Patents edge list for the graph suite (about 80 MB); resumes an interrupted download and checks the files', (y) => y
    .positional('action', { choices: ['fetch'], describe: 'what to do' })
    .positional('dataset', { choices: SNAP_DATASET_NAMES, describe: 'which dataset' })
    .options({ 'cache-dir': datasetOptions['cache-dir'], ...quietOption })
    .epilogue('The files go to <cache-dir>/datasets/<dataset>/ with a manifest of their sizes and sha256. BENCH_SNAP_URL replaces the base URL https://snap.stanford.edu/data/ (a mirror) for every dataset, BENCH_POKEC_URL for pokec alone.')
    .example('$0 data fetch pokec && $0 run --dataset pokec --scale full', 'the real Pokec with the classic parameters')
    .example('$0 data fetch cit-patents && $0 run --suite graph --dataset cit-patents', 'the graph suite on SNAP\'s patent citations'), command(load('data', 'dataCommand')))
  .command('report <results..>', 'one report of several databases\' result files: medians with 95% intervals, ops/s, latency percentiles, each database relative to a baseline (ArangoDB = 100% when present), server memory, import time and size, and what it takes to reproduce them; crud results add, per phase and document count, each database\'s ops/s and p99 latency at every concurrency level (html: time against concurrency as a line chart); mixed results add, per workload, ops/s with latency p50/p95/p99 at every level and, for a rate sweep, the achieved rate and latency at every target rate (html: latency against achieved throughput as a line chart)', (y) => y
    .positional('results', { type: 'string', describe: 'result files, or directories meaning every *.json in them; several files of one database are pooled' })
    .options({
      format: { type: 'string', choices: ['table', 'markdown', 'csv', 'json', 'html'], default: 'table', describe: 'output format; html is one self-contained file with charts that works offline' },
      out: { type: 'string', describe: 'write the report to this file instead of stdout' },
      baseline: { type: 'string', describe: 'the database shown as 100%', defaultDescription: 'arangodb when present, else the one that passed the most compared workloads (ties: first by id)' },
      dataset: { type: 'string', describe: 'report the results of this dataset id when the files hold several', defaultDescription: 'the latest dataset in the files, the others named on stderr' },
      'allow-mixed': { type: 'boolean', default: false, describe: 'report the results of every dataset together, and different operation counts (refused otherwise), with a warning' },
      'allow-unequal-terms': { type: 'boolean', default: false, describe: 'show percentages and gains even when the databases ran under different terms (durability); the report\'s first line says so either way' },
      suite: { type: 'string', choices: suiteIds(), describe: 'report only the results of this suite (files of other suites are left out); queries: the published table per database, each database\'s load times, the normalised comparison per case and size; graph: requests per second per workload, database and edge list with the publication\'s gains, the import against the parse floor, bytes read and written per request, size on disk' },
    })
    .example('$0 report bench-results/', 'every result file in the directory, as a table')
    .example('$0 report bench-results/ --dataset synthetic-tiny-s1-g1', 'only the results of the tiny dataset')
    .example('$0 report bench-results/ --format html --out report.html', 'a self-contained page with the charts')
    .example('$0 report pg.json sqlite.json --baseline postgresql --format markdown', 'PostgreSQL = 100%')
    .example('$0 report bench-results/ --suite queries', 'the query shootout: per case and collection size, min, max, avg and median seconds')
    .example('$0 report bench-results/ --suite graph --format html --out graph.html', 'the graph operations with amplification and disk-size charts'), command(load('report', 'reportCommand')))
  .command('compare <a> <b>', 'two result sets of one database (two versions or configurations): per-workload speedup median(a)/median(b) with a 95% interval (above 1: b is faster), and their geometric mean', (y) => y
    .positional('a', { type: 'string', describe: 'the reference: a result file or a directory of them' })
    .positional('b', { type: 'string', describe: 'the candidate: a result file or a directory of them' })
    .options({
      format: { type: 'string', choices: ['table', 'markdown', 'json', 'html'], default: 'table', describe: 'output format; html: one self-contained page charting the speedup of every workload (per case and size for the queries suite) with its interval' },
      out: { type: 'string', describe: 'write the comparison to this file instead of stdout' },
      'fail-if-slower': { type: 'number', describe: 'exit with 1 when a workload of b is slower than a by more than this percentage and the slowdown is significant, or fails validation where a passed' },
    })
    .check(checkNumbers)
    .example('$0 compare old/ new/', 'old against new, per workload')
    .example('$0 compare main.json branch.json --fail-if-slower 10', 'exit code 1 when the branch is significantly slower by more than 10% anywhere')
    .example('$0 compare neo4j-5.20/ neo4j-5.26/ --format html --out speedup.html', 'one version against another, the speedup per query case charted'), command(load('compare', 'compareCommand')))
  .command('merge <results..>', 'the partial results of one sharded run (bench run --shard, one file per shard) as one result document: histograms added exactly, throughput over the span from the earliest shard start to the latest end, failed when any shard failed, every shard\'s machine listed', (y) => y
    .positional('results', { type: 'string', describe: 'partial result files, or directories meaning every *.json in them (the --out file is left out)' })
    .options({
      out: { type: 'string', demandOption: 'name the merged result file: --out <file>', describe: 'the merged result file' },
      json: { type: 'boolean', default: false, describe: 'print the merged document on stdout' },
      ...quietOption,
    })
    .epilogue('Exit codes: 0 merged; 1 merged, and a workload failed in some shard; 2 the files given are not the shards of one run (not partial results, of different runs, a shard missing, given twice or unfinished: each named), nothing written.')
    .example('$0 merge results/run-1/ --out merged.json', 'every shard of one run, then bench report merged.json'), command(load('merge', 'mergeCommand')))
  .command('k8s <action>', 'print Kubernetes manifests (YAML) for load from many machines: `k8s job` gives an Indexed Job of --shards pods running bench run --shard, and a suspended Job that merges their results', (y) => y
    .positional('action', { choices: ['job'], describe: 'what to print' })
    .parserConfiguration({ 'populate--': true })
    .options({
      db: { type: 'string', demandOption: 'name the database: --db <id>', describe: `database adapter: ${adapterIds().join(', ')}` },
      suite: { type: 'string', choices: suiteIds(), default: 'mixed', describe: 'the suite the shards run (mixed)' },
      shards: { type: 'number', demandOption: 'name the number of shards: --shards <n>', describe: 'pods, one shard each (completions = parallelism)' },
      image: { type: 'string', demandOption: 'name the harness image, built from the Dockerfile: --image <image>', describe: 'the harness image' },
      'run-id': { type: 'string', describe: 'the Job\'s name and the shards\' --run-id', defaultDescription: '<suite>-<db>-<UTC time>' },
      'k8s-namespace': { type: 'string', describe: 'the Kubernetes namespace of the Jobs', defaultDescription: 'kubectl\'s current one' },
      secret: { type: 'string', default: K8S_DEFAULTS.secret, describe: 'the Secret holding the database password under the key "password" (never inline)' },
      claim: { type: 'string', default: K8S_DEFAULTS.claim, describe: 'a ReadWriteMany PersistentVolumeClaim for the partial and merged results' },
      cpu: { type: 'string', default: K8S_DEFAULTS.cpu, describe: 'CPU of each shard, requested and limit' },
      memory: { type: 'string', default: K8S_DEFAULTS.memory, describe: 'memory of each shard, requested and limit' },
      'shard-wait': { type: 'number', default: K8S_DEFAULTS.shardWait, describe: 'the shards\' --shard-wait' },
      ...quietOption,
    })
    .epilogue('Flags after "--" go to every shard\'s bench run (--host is required: the database server\'s Service). The commands that apply the Job, wait for it, start the merge and fetch the merged result are printed on stderr.')
    .example('$0 k8s job --db postgresql --suite mixed --shards 4 --image registry.example/db-shootout:1 -- --host postgres.bench.svc --workload read-only --ops 1000000 > job.yaml', 'four load pods against the PostgreSQL Service'), command(load('k8s', 'k8sCommand')))
  // A flag typed with nothing after it is a mistake, never its default (for every command; the flags after "--"
  // are another command's).
  .check(() => {
    const { string, choices } = cli.getOptions();
    const hints = { ...Object.fromEntries(Object.entries(choices).map(([name, values]) => [name, values.join(', ')])), ...VALUE_HINTS };
    const empty = emptyValue(hideBin(process.argv), string, hints);
    if (empty) throw usageError(empty);
    return true;
  })
  .demandCommand(1, `name a command: ${COMMANDS.slice(0, -1).join(', ')} or ${COMMANDS.at(-1)}`)
  .recommendCommands()
  .strict()
  .help()
  .alias('help', 'h')
  // Named, not guessed: yargs looks for package.json above the folder of its own node_modules, and takes a folder
  // whose name has a dot (a clone in `my.project`, or in mktemp's `tmp.XXXXXX`) for a file, looking from its
  // parent instead, where it finds none (--version then printed "unknown").
  .version(HARNESS_VERSION)
  .wrap(Math.min(120, process.stdout.columns || 120))
  .fail((message, error) => {
    if (error && !USAGE_CODES.has(error.code)) {
      process.stderr.write(`${formatError(error)}\n`);
      process.exit(ExitCodes.FAILED);
    }
    const args = hideBin(process.argv);
    const missing = /^Not enough non-option arguments/.test(message ?? '') && MISSING_ARGUMENTS[args[0]];
    const flags = Object.keys(cli.getOptions().key ?? {}).filter((name) => name.length > 1);
    const rewritten = !missing && message ? usageMessage(message, args, COMMANDS, flags) : null;
    const words = rewritten ? rewritten.split('\n').join('\nerror: ') : missing || (message ?? error.message);
    process.stderr.write(`error: ${words}\nrun "bench --help" or "bench <command> --help" for usage\n`);
    process.exit(ExitCodes.USAGE);
  })
  .parseAsync();
