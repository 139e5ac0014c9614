// Flags shared by the commands, and the checks that turn bad values into usage errors (exit code 2).
import { hideBin } from 'yargs/helpers';
import { usageError, BenchError, ErrorCodes } from '../core/errors.js';
import { defaultCacheDir } from '../core/paths.js';
import { isAlive, runningServer } from '../server/state.js';
import { SCALES, DEFAULT_SEED } from '../datasets/scales.js';
import { DATASET_NAMES } from '../datasets/dataset.js';
import { parseSize } from '../core/terms.js';

export const DEFAULT_RUNS = 5;
// The pool size of every database driver in the classic nosql-tests.
export const DEFAULT_CONCURRENCY = 25;
export const DEFAULT_SCALE = 'small';

export const datasetOptions = {
  scale: { type: 'string', choices: Object.keys(SCALES), default: DEFAULT_SCALE, describe: 'dataset size (profiles: tiny 1k, small 10k, medium 100k, full 1.63M)' },
  seed: { type: 'number', default: DEFAULT_SEED, describe: 'seed of the synthetic dataset and its query parameters' },
  'cache-dir': { type: 'string', default: defaultCacheDir(), defaultDescription: '$BENCH_CACHE_DIR or ~/.cache/db-shootout', describe: 'where generated datasets and embedded databases are kept' },
};

// Which dataset: the synthetic one (generated) or SNAP's real files (`bench data fetch pokec`).
export const datasetSourceOptions = {
  dataset: { type: 'string', default: DATASET_NAMES[0], describe: 'synthetic (generated), or pokec: the real files downloaded by `bench data fetch pokec`; --scale then sets only the query parameters. --suite graph also takes cit-patents (after `bench data fetch cit-patents`) and file:<path>, any 2- or 3-column edge file' },
  'skip-bad': { type: 'boolean', default: false, describe: 'skip and count malformed lines of a real dataset\'s files (pokec, cit-patents, file:<path>) instead of stopping at the first; refused for a generated dataset, which has none' },
  'import-path': { type: 'string', choices: ['auto', 'offline', 'online'], describe: 'how the social suite imports into a database with an offline importer (Neo4j, OrientDB): offline replaces the database of a server `bench server` runs when it holds nothing but the namespace; online goes through the driver; auto takes offline from 100,000 profiles up', defaultDescription: 'auto' },
};

export const connectionOptions = {
  host: { type: 'string', describe: 'server host (default: the adapter\'s)' },
  port: { type: 'number', describe: 'server port (default: the adapter\'s)' },
  user: { type: 'string', describe: 'user name; the password is read from the adapter\'s environment variable (see `bench list`)' },
  database: { type: 'string', describe: 'database name (embedded databases: the file)' },
  namespace: { type: 'string', default: 'dbshootout', describe: 'prefix of everything the harness creates; nothing outside it is touched' },
  'connect-timeout': { type: 'number', default: 10, describe: 'seconds to wait for a connection' },
  driver: { type: 'string', describe: 'the client driver, for a database with several: postgresql and postgresql_tabular take pg, postgres (pipelined) or pg-native (libpq, blocking: a client process per operation in flight); mysql takes mysql2 or mariadb (the MariaDB connector; README, "Drivers")', defaultDescription: 'the database\'s first (postgresql: pg, mysql: mysql2)' },
};

// Every numeric flag of every command and its range (`above`: an exclusive minimum); one check for all of
// them, so each says the same thing.
export const NUMERIC_FLAGS = {
  runs: { integer: true, min: 1, max: 1000 },
  concurrency: { integer: true, min: 1, max: 10_000 },
  seed: { integer: true, min: 0, max: Number.MAX_SAFE_INTEGER },
  port: { integer: true, min: 1, max: 65535 },
  'server-pid': { integer: true, min: 1, max: 2_147_483_647 },
  trials: { integer: true, min: 1, max: 1000 },
  'connect-timeout': { unit: 'seconds', above: 0, max: 3600 },
  'stall-timeout': { unit: 'seconds', above: 0, max: 86_400 },
  'fail-if-slower': { unit: 'percent', min: 0, max: Infinity },
  ops: { integer: true, min: 1, max: 10_000_000 },
  records: { integer: true, min: 1, max: 10_000_000 },
  'doc-bytes': { integer: true, min: 1, max: 16 * 2 ** 20 },
  duration: { unit: 'duration', above: 0, max: 86_400 },
  nodes: { integer: true, min: 1, max: 9 },
  'cluster-port': { integer: true, min: 1, max: 65535 },
  'clients-per-node': { unit: 'ratio', above: 0, max: 64 },
  'node-vcpus': { unit: 'ratio', above: 0, max: 4096 },
};
// Flags of `bench run` that take a comma-separated list (a sweep), each element in the flag's range.
const LIST_FLAGS = new Set(['concurrency', 'ops', 'nodes']);

const number = (value) => value.toLocaleString('en-US');

// "a positive integer up to 1,000", "a number of seconds above 0, at most 3,600", "a percentage of at least 0"
function rangeText({ integer, unit, min, above, max }) {
  if (unit === 'seconds') return `a number of seconds above ${above}, at most ${number(max)}`;
  if (unit === 'duration') return `a time above ${above} s, at most ${number(max)} s, such as 30s, 90, 5m or 1h (a bare number is seconds)`;
  if (unit === 'percent') return `a percentage of at least ${min}`;
  if (unit === 'ratio') return `a number above ${above}, at most ${number(max)}`;
  if (integer && min === 1) return `a positive integer up to ${number(max)}`;
  return `an integer from ${number(min)} to ${number(max)}`;
}

function inRange(value, { integer, min, above, max }) {
  return Number.isFinite(value) && value <= max && (above === undefined ? value >= min : value > above)
    && (!integer || Number.isInteger(value));
}

// A time as typed: "30s", "30", "1.5m", "5min", "1h", "500ms" (a bare number is seconds), in seconds; NaN for
// anything else, which the range check then refuses with what was typed.
const TIME_UNITS = { ms: 0.001, s: 1, sec: 1, m: 60, min: 60, h: 3600 };
export function parseSeconds(value) {
  if (typeof value === 'number' || Array.isArray(value)) return value;
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|sec|m|min|h)?\s*$/i.exec(String(value));
  return match ? Number(match[1]) * TIME_UNITS[(match[2] ?? 's').toLowerCase()] : Number.NaN;
}

// The text typed after --name (yargs has already turned "abc" into NaN); the parsed value when not found.
function typed(name, value, args) {
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === `--${name}` && i + 1 < args.length) return args[i + 1];
    if (args[i].startsWith(`--${name}=`)) return args[i].slice(name.length + 3);
  }
  return String(value);
}

// "--runs must be a positive integer up to 1,000, got abc"
export function checkNumber(name, value, args = hideBin(process.argv)) {
  if (Array.isArray(value)) throw usageError(`--${name} is given ${value.length} times; give it once`);
  const spec = NUMERIC_FLAGS[name];
  if (!inRange(value, spec)) throw usageError(`--${name} must be ${rangeText(spec)}, got ${typed(name, value, args)}`);
}

// "--concurrency 1,2,4" gives [1, 2, 4]; every element is checked as the flag's single value would be.
export function numberList(name, text) {
  if (typeof text === 'number') {
    checkNumber(name, text);
    return [text];
  }
  const items = String(text).split(',').map((item) => item.trim());
  const values = items.map((item) => (item === '' ? Number.NaN : Number(item)));
  values.forEach((value, i) => {
    if (!inRange(value, NUMERIC_FLAGS[name])) {
      throw usageError(`--${name} must be ${rangeText(NUMERIC_FLAGS[name])} or a comma-separated list of them, got ${items[i] === '' ? `"${text}"` : items[i]}`);
    }
  });
  if (new Set(values).size !== values.length) throw usageError(`--${name} names a value twice: ${text}`);
  return values;
}

// bench crash's own flag.
export function checkCrashFlags(argv) {
  if (!Number.isInteger(argv.trials) || argv.trials < 1) throw usageError(`--trials must be a positive integer, got ${argv.trials}`);
  return true;
}

export function checkNumbers(argv) {
  for (const name of Object.keys(NUMERIC_FLAGS)) {
    if (argv[name] === undefined) continue;
    if (LIST_FLAGS.has(name) && typeof argv[name] === 'string') numberList(name, argv[name]);
    else checkNumber(name, argv[name]);
  }
  return true;
}

export function checkCommon(argv) {
  checkNumbers(argv);
  if (argv.namespace !== undefined && !/^[A-Za-z][A-Za-z0-9_]{0,30}$/.test(argv.namespace)) {
    throw usageError(`--namespace must be a letter followed by up to 30 letters, digits or underscores, got "${argv.namespace}"`);
  }
  return true;
}

// The long flags typed on the command line, by name (`--runs 3`, `--runs=3`, `--no-json` give runs, json):
// what a default cannot tell apart from a value the user chose.
export function givenFlags(args) {
  const names = new Set();
  for (const arg of args) {
    if (arg === '--') break;
    const match = /^--(?:no-)?([^=]+)/.exec(arg);
    if (match) names.add(match[1]);
  }
  return names;
}

// "all" or a comma-separated list of the suite's workloads, in the suite's order; the workloads the others
// depend on (the social suite's warm-up, the crud suite's insert) always run.
export function selectWorkloads(suite, spec = 'all') {
  const names = String(spec).split(',').map((name) => name.trim()).filter(Boolean);
  if (names.length === 0 || names.includes('all')) return suite.workloads;
  const valid = suite.workloads.map((workload) => workload.name);
  const unknown = names.filter((name) => !valid.includes(name));
  if (unknown.length > 0) {
    throw new BenchError(ErrorCodes.UNKNOWN_WORKLOAD,
      `unknown workload ${unknown.map((name) => `"${name}"`).join(', ')} of the ${suite.id} suite; valid workloads: all, ${valid.join(', ')}`);
  }
  return suite.workloads.filter((workload) => suite.alwaysRun.includes(workload.name) || names.includes(workload.name));
}

// --host a:p,b:p,c:p (or a single host:port): the endpoints of a cluster, each with its own port or --port's;
// null for a plain host name. An IPv6 address with a port is written in brackets, [::1]:5432.
export function parseEndpoints(host, port) {
  if (host === undefined || (!String(host).includes(',') && !/^(\[[^\]]+\]|[^:]+):\d+$/.test(host))) return null;
  return String(host).split(',').map((item) => item.trim()).map((item) => {
    const match = /^(\[[^\]]+\]|[^:]*)(?::(\d+))?$/.exec(item);
    const name = match?.[1].replace(/^\[|\]$/g, '');
    const own = match?.[2] === undefined ? port : Number(match[2]);
    if (!name || !Number.isInteger(own) || own < 1 || own > 65535) {
      throw usageError(`--host ${host}: "${item}" is not host:port${port === undefined ? ' (give each endpoint its port, or --port for all)' : ''}`);
    }
    return { host: name, port: own };
  });
}

// Connection defaults come from a local server started by `bench server start` when one runs and no
// --host or --port names another, else from the adapter. `endpoints`: every server the connections go to, the
// nodes of a local cluster or --host's list; one for a single server. An adapter takes several only when its
// description says how it spreads its connections (connection.spread).
export function adapterOptions(description, argv) {
  const local = description.server && argv.host === undefined && argv.port === undefined
    ? runningServer(argv['cache-dir'], description.server) : null;
  const defaults = { ...description.connection?.defaults, ...(local && { host: local.host, port: local.port, user: local.user }) };
  const passwordEnv = description.connection?.passwordEnv;
  const listed = parseEndpoints(argv.host, argv.port ?? defaults.port ?? undefined);
  const endpoints = listed ?? local?.cluster?.nodes.map(({ host, port }) => ({ host, port }))
    ?? [{ host: argv.host ?? defaults.host ?? null, port: argv.port ?? defaults.port ?? null }];
  if (argv['read-from'] !== undefined && !(description.connection?.readFrom ?? ['primary']).includes(argv['read-from'])) {
    throw usageError(`--read-from ${argv['read-from']}: ${description.name} reads from ${(description.connection?.readFrom ?? ['primary']).join(' or ')}`);
  }
  if (argv['node-vcpus'] !== undefined && endpoints.length < 2 && !local?.cluster) {
    throw usageError('--node-vcpus applies to a run on several endpoints (--host a:p,b:p,...): the vCPUs each of its nodes may use');
  }
  if (endpoints.length > 1 && !description.connection?.spread) {
    throw usageError(`--host names ${endpoints.length} endpoints, but ${description.name} connects to one server`);
  }
  return {
    host: endpoints[0].host,
    port: endpoints[0].port,
    endpoints,
    // The connection goes to a cluster `bench server` runs, of any size (one Galera node is a cluster too).
    ...(!listed && local?.cluster && { cluster: true }),
    ...(argv['node-vcpus'] !== undefined && { nodeVcpus: argv['node-vcpus'] }),
    // --read-from replicas: the reads go to a primary's replicas (an adapter that declares connection.readFrom).
    ...(argv['read-from'] !== undefined && argv['read-from'] !== 'primary' && { readFrom: argv['read-from'] }),
    user: argv.user ?? defaults.user ?? null,
    database: argv.database ?? defaults.database ?? null,
    password: passwordEnv ? process.env[passwordEnv] : undefined,
    namespace: argv.namespace,
    concurrency: argv.concurrency,
    connectTimeoutMs: Math.round(argv['connect-timeout'] * 1000),
    dataDir: argv['cache-dir'],
    driver: selectDriver(description, argv.driver),
    // --cache, for an embedded database to size its own cache (a server is started with it).
    cacheBytes: argv.cache === undefined ? null : parseSize(argv.cache),
  };
}

// --driver: one of the adapter's `drivers`, the first by default; a usage error for any other, and for a database
// with one driver.
export function selectDriver(description, name) {
  const drivers = description.drivers ?? (description.driver ? [description.driver] : []);
  if (name === undefined) return drivers[0] ?? null;
  if (Array.isArray(name)) throw usageError(`--driver is given ${name.length} times; give it once`);
  if (drivers.length < 2) {
    throw usageError(`--driver ${name}: ${description.name} has ${drivers.length === 0 ? 'no driver to choose' : `one driver, ${drivers[0]}`}`);
  }
  if (!drivers.includes(name)) throw usageError(`unknown driver "${name}" for ${description.name}; valid drivers: ${drivers.join(', ')}`);
  return name;
}

// The local server process whose CPU and memory a run samples: the one --server-pid names, else the one
// `bench server` runs when the connection goes to it (as adapterOptions decides), else null.
export function serverProcess(description, argv) {
  const pid = argv['server-pid'];
  if (pid !== undefined) {
    if (description.kind === 'embedded') {
      throw usageError(`--server-pid names a server process, but ${description.name} runs inside the harness`);
    }
    if (!isAlive(pid)) throw usageError(`--server-pid ${pid}: no such process`);
    return { pid, source: '--server-pid', dataDir: null };
  }
  const local = description.server && argv.host === undefined && argv.port === undefined
    ? runningServer(argv['cache-dir'], description.server) : null;
  if (!local) return null;
  return {
    pid: local.pid, source: 'bench server', dataDir: local.dataDir ?? null, family: description.server, cacheDir: argv['cache-dir'],
    cacheBytes: local.cacheBytes ?? null,
  };
}

// What the result records of the connection: never the password.
export function connectionRecord(options) {
  const { host, port, user, database, namespace, endpoints, cluster, readFrom } = options;
  return { host, port, user, database, namespace, ...((endpoints?.length > 1 || cluster) && { endpoints }), ...(readFrom && { readFrom }) };
}

// --dataset: the social suite's datasets, or for the graph suite also an edge list (cit-patents, file:<path>).
export function checkDataset(dataset, suiteId) {
  if (Array.isArray(dataset)) throw usageError(`--dataset is given ${dataset.length} times; give it once`);
  if (DATASET_NAMES.includes(dataset)) return dataset;
  const edgeList = dataset === 'cit-patents' || dataset.startsWith('file:');
  if (edgeList && suiteId === 'graph') {
    if (dataset === 'file:') throw usageError('--dataset file: needs a path, as in --dataset file:edges.tsv');
    return dataset;
  }
  if (edgeList) throw usageError(`--dataset ${dataset} is an edge list: it serves --suite graph only`);
  throw usageError(`unknown dataset "${dataset}"; valid datasets: ${DATASET_NAMES.join(', ')}, and for --suite graph cit-patents or file:<path>`);
}
