import { existsSync } from 'node:fs';
import path from 'node:path';
import { hideBin } from 'yargs/helpers';
import { adapterIds, loadAdapter } from '../adapters/index.js';
import { ErrorCodes, usageError } from '../core/errors.js';
import { parseSize } from '../core/terms.js';
import { serverFamily, startServer, stopServer } from '../server/index.js';
import { SNAP_DATASETS, snapDir } from '../datasets/fetch.js';
import { failedWorkloads, finishResult } from '../results/model.js';
import { formatImport } from '../results/import-summary.js';
import { formatTable } from '../results/table.js';
import { claimResultFile, writeResult } from '../results/write.js';
import { REPORT_FORMATS, buildReport } from '../results/report/index.js';
import { checkClients, clientsOf, clientsWarning } from '../runner/clients.js';
import { blockingDriver, runBenchmark } from '../runner/run.js';
import { checkShardedSuite, shardSettings } from '../runner/shards.js';
import { SUITES, getSuite, isSupported } from '../workloads/index.js';
import { applyPreset, presetLine } from '../workloads/presets.js';
import { durabilityOf } from '../core/terms.js';
import { dropPageCache, restartOwnServer } from '../runner/memory.js';
import { restartServer } from '../runner/restart.js';
import { runningServer } from '../server/state.js';
import {
  adapterOptions, checkDataset, connectionRecord, givenFlags, numberList, selectWorkloads, serverProcess,
} from './options.js';
import { checkOutputDirectory } from './output.js';
import { createProgress } from './progress.js';
import { storedResult } from './redact.js';
import { errorMessage, formatError } from './errors.js';
import { ExitCodes } from './exit-codes.js';

// The result document as it grows, on disk after the import and every run (results/write.js writes
// synchronously). `stored` is what the file keeps of a document (the --restart-cmd redacted).
function resultRecorder(dir, stored) {
  let file = null;
  let current = null;
  const write = (result) => {
    file ??= claimResultFile(dir, result);
    writeResult(file, stored(result));
  };
  return {
    get file() { return file; },
    // Then one turn of the event loop: signals arrive through it, and an embedded database's runs may
    // otherwise never yield to it, so that Ctrl-C would not be seen until the last run.
    async update(result) {
      current = result;
      write(result);
      await new Promise((resolve) => { setImmediate(resolve); });
    },
    // The document as it stands, marked interrupted (the runner's own object is left as it is); false while
    // there is none yet, as the dataset is being imported.
    interrupted() {
      if (!current) return false;
      write(finishResult(structuredClone(current), { complete: false, interrupted: true }));
      return true;
    },
  };
}

// The first Ctrl-C records at once that the run was interrupted, then lets the operations in flight finish
// and keeps every completed run; the second writes the completed runs and quits.
function interruptible(progress, recorder) {
  const controller = new AbortController();
  const onSignal = () => {
    let recorded = null;
    try {
      recorded = recorder.interrupted();
    } catch (error) {
      progress.log(`\ncould not write the result file: ${errorMessage(error)}`);
    }
    if (controller.signal.aborted) {
      // Said whatever --quiet: after this, nothing else tells the user where the runs went.
      process.stderr.write(recorded
        ? `\nquit: the runs completed so far are in ${recorder.file}\n`
        : '\nquit: nothing was recorded (the import had not ended)\n');
      process.exit(ExitCodes.INTERRUPTED);
    }
    progress.log(recorded === false
      ? '\ninterrupted: stopping when the import in progress ends (Ctrl-C again to quit at once)'
      : '\ninterrupted: stopping after the operations in flight and writing the completed runs (Ctrl-C again to quit at once)');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { signal: controller.signal, release: () => { process.off('SIGINT', onSignal); process.off('SIGTERM', onSignal); } };
}

// Whether `bench data fetch <dataset>` has put every file of that dataset (gzip'd or unpacked) in the cache.
function locateFetched(cacheDir, dataset) {
  const dir = snapDir(cacheDir, dataset);
  const present = SNAP_DATASETS[dataset].every((name) => existsSync(path.join(dir, name)) || existsSync(path.join(dir, name.replace(/\.gz$/, ''))));
  return { present, dir };
}

// A preset's parameters replace the flags' defaults and choose the suite; a flag typed as well overrides the
// preset's value (workloads/presets.js). A dataset the preset takes from `bench data fetch` is looked for in the cache.
export function withPreset(argv, given) {
  if (!argv.preset) return { argv, preset: null };
  return applyPreset(argv, given, { locate: (dataset) => locateFetched(argv['cache-dir'], dataset) });
}

// The run's flags as its suite takes them: a flag of another suite is refused, the suite's defaults fill what was
// not given, --concurrency and --ops become lists.
function suiteSettings(suite, argv, given) {
  const foreign = Object.values(SUITES).filter((other) => other !== suite)
    .flatMap((other) => (other.flags ?? []).filter((flag) => given.has(flag) && !(suite.flags ?? []).includes(flag)).map((flag) => [flag, other]));
  if (foreign.length > 0) {
    const [flag, other] = foreign[0];
    throw usageError(`--${flag} is a flag of --suite ${other.id}, not of --suite ${suite.id}`);
  }
  const settings = { ...argv };
  for (const [name, value] of Object.entries(suite.defaults ?? {})) if (settings[name] === undefined) settings[name] = value;
  for (const name of ['concurrency', 'ops']) {
    if (argv[name] !== undefined) settings[name] = numberList(name, argv[name]);
  }
  return settings;
}

// A database that supports none of a suite's operations (CouchDB has no graph queries) is refused, naming the
// suites it does support, instead of failing on the first call it lacks.
function checkSuiteSupported(description, suite) {
  if (suite.workloads.some((workload) => isSupported(description, workload))) return;
  const others = Object.values(SUITES).filter((other) => other.workloads.some((workload) => isSupported(description, workload)));
  throw usageError(`${description.name} supports no workload of the ${suite.id} suite; `
    + `it runs ${others.map((other) => `--suite ${other.id}`).join(' or ') || 'no suite'}`);
}

// `--driver pg-native` (a driver whose calls block the process): each operation in flight gets a client process of
// its own, so --clients is the concurrency; a run bounded by --duration and an open loop need the harness's own
// event loop, which such a call holds.
function checkBlockingDriver(argv, given, settings) {
  const level = Math.max(...settings.concurrency);
  if (given.has('clients') && String(argv.clients).trim() !== String(level)) {
    throw usageError(`--driver ${argv.driver} blocks its process for each operation, so each operation in flight runs in a client process of its own: `
      + `--clients is the concurrency (${level}); leave --clients out`);
  }
  if (argv.duration !== undefined) {
    throw usageError(`--duration runs in the harness's own process, and --driver ${argv.driver} runs every operation in a client process: bound the run by --ops, or use another driver`);
  }
  if (argv.rate !== undefined) {
    throw usageError(`--rate: an open loop sends on its schedule, which --driver ${argv.driver}'s blocking calls would hold up; use another driver`);
  }
}

// `bench run`: load what the suite needs (the social suite imports its dataset when needed), then the runs.
// `bench import` (importOnly): the social suite's import alone, always made again, recorded in a result document
// of its own with no workloads.
async function execute(rawArgv, { stdout, importOnly, onDone = null }) {
  const given = givenFlags(hideBin(process.argv));
  const { argv, preset } = withPreset(rawArgv, given);
  const suite = getSuite(argv.suite ?? 'social');
  const settings = suiteSettings(suite, argv, given);
  const description = await loadAdapter(argv.db);
  const workloads = importOnly ? [] : selectWorkloads(suite, argv.workload);
  checkSuiteSupported(description, importOnly ? SUITES.social : suite);
  // Flag mistakes are reported before the dataset is prepared, which can take minutes the first time.
  const suiteConfig = suite.configure(settings);
  const durability = durabilityOf(argv);
  // A suite that cannot be sharded is said first: the flags a shard also needs are beside the point then.
  if (argv.shard !== undefined) checkShardedSuite(suite.id);
  const shard = shardSettings(argv, hideBin(process.argv));
  const blocking = blockingDriver(description, argv.driver);
  if (blocking) checkBlockingDriver(argv, given, settings);
  // A blocking driver runs one client process per operation in flight (runner/run.js).
  const clients = blocking ? Math.max(...settings.concurrency)
    : clientsOf(argv.clients, description, { serverIsLocal: Boolean(serverProcess(description, argv)) });
  checkClients(description, clients);
  if (argv.duration !== undefined && clients > 1) {
    throw usageError('--duration runs in one client process for now: give --clients 1 (the default), or bound the run by --ops');
  }
  if (String(argv.clients).trim() === 'auto') process.stderr.write(`--clients auto: ${clients} client process${clients === 1 ? '' : 'es'}\n`);
  const warning = clientsWarning(clients);
  if (warning) process.stderr.write(`warning: ${warning}\n`);
  const options = adapterOptions(description, { ...argv, concurrency: Math.max(...settings.concurrency) });
  if (options.readFrom === 'replicas') checkReplicaReads(suite, workloads);
  const server = serverProcess(description, argv);
  const cold = coldStarter(description, argv, server);
  checkDataset(argv.dataset, suite.id);
  if (argv['skip-bad'] && argv.dataset === 'synthetic') {
    throw usageError('--skip-bad applies to a real dataset\'s files (--dataset pokec, cit-patents, file:<path>); a generated dataset has no malformed lines');
  }
  const outDir = checkOutputDirectory(argv.out);
  const progress = createProgress({ quiet: argv.quiet });
  // A server the harness owns runs with the cache asked for: restarted with it when it runs with another.
  if (options.cacheBytes && server?.source === 'bench server' && server.cacheBytes !== options.cacheBytes) {
    await restartOwnServer(server, { cacheBytes: options.cacheBytes, log: (line) => progress.log(line) });
  }
  if (preset) progress.log(presetLine(preset));
  const dataset = await suite.prepare(settings, { progress, preset });
  const config = {
    ...suiteConfig,
    runs: importOnly ? 0 : settings.runs,
    clients,
    workloads: workloads.map((workload) => workload.name),
    restartCmd: argv['restart-cmd'] ?? null,
    stallTimeoutMs: Math.round((argv['stall-timeout'] ?? 60) * 1000),
    connection: connectionRecord(options),
    preset,
    durability,
    cacheBytes: options.cacheBytes,
    cold: Boolean(argv.cold),
    durabilitySource: given.has('durability') ? '--durability' : given.has('sync') ? '--sync'
      : preset?.parameters?.durability ? `preset ${preset.name}` : 'default',
  };
  const stored = storedResult(argv['restart-cmd']);
  const recorder = resultRecorder(outDir, stored);
  const { signal, release } = interruptible(progress, recorder);
  let result;
  try {
    result = await runBenchmark({
      suite, description, adapterOptions: options, dataset, workloads, config, signal, progress,
      onUpdate: (update) => recorder.update(update),
      reimport: importOnly || argv.reimport, command: `bench ${process.argv.slice(2).join(' ')}`,
      server, shard, coldStart: cold && (() => cold(progress)),
    });
  } catch (error) {
    if (recorder.file) error.message += `\nthe ${importOnly ? 'import' : 'runs'} completed so far ${importOnly ? 'is' : 'are'} in ${recorder.file}`;
    throw error;
  } finally {
    release();
  }
  const shown = stored(result);
  onDone?.({ file: recorder.file, result: shown });
  if (argv.json) {
    stdout?.write(`${JSON.stringify(shown, null, 2)}\n`);
    // The table would name them; with the document on stdout, stderr does.
    for (const line of failureLines(shown)) process.stderr.write(`${line}\n`);
  } else {
    stdout?.write(`\n${importOnly ? formatImport(shown) : formatTable(shown)}\n\nresult: ${recorder.file}\n`);
    if (shard) stdout?.write(`a partial result: shard ${shard.index} of ${shard.count} of run ${shard.runId}; bench merge combines the shards\n`);
  }
  if (result.interrupted) return ExitCodes.INTERRUPTED;
  return failedWorkloads(result).length > 0 ? ExitCodes.FAILED : ExitCodes.OK;
}

// "failed: singleRead (run 2: 3 wrong answers)" per failed workload, and where the interrupted runs are.
export function failureLines(result) {
  const lines = failedWorkloads(result).map((name) => {
    const run = result.workloads[name].runs?.find((r) => !r.valid);
    return `failed: ${name}${run ? ` (run ${run.run}: ${run.reason})` : ''}`;
  });
  if (result.interrupted) lines.push('interrupted: the runs completed so far are in the document');
  return lines;
}

// --cold: before every run, the server restarted (a server `bench server` runs, else --restart-cmd; an embedded
// database is opened afresh by every run anyway) and the operating system's page cache dropped where the harness
// may. A server it can neither restart nor own is refused: the run would not be cold.
function coldStarter(description, argv, server) {
  if (!argv.cold) return null;
  const owned = server?.source === 'bench server';
  if (description.kind === 'server' && !owned && !argv['restart-cmd']) {
    throw usageError(`--cold restarts the server before every run: it needs a server \`bench server\` runs (start one with \`npx bench server start ${description.server ?? '<family>'}\` and give no --host or --port), or --restart-cmd`);
  }
  if (owned && runningServer(server.cacheDir, server.family)?.cluster) {
    throw usageError('--cold restarts the server before every run, but a cluster `bench server` runs starts from fresh data each time (its nodes would lose what the run loaded): run a cluster without --cold');
  }
  return async (progress) => {
    const notes = [];
    let restarted = false;
    if (owned) {
      await restartOwnServer(server, { cacheBytes: server.cacheBytes, log: (line) => progress.log(line) });
      restarted = true;
    } else if (argv['restart-cmd']) {
      progress.log(`restarting the server: ${argv['restart-cmd']}`);
      await restartServer(argv['restart-cmd']);
      restarted = true;
    }
    const { dropped, reason } = dropPageCache();
    if (reason) notes.push(reason);
    if (!dropped) progress.log(reason);
    return { restarted, dropped, notes };
  };
}

// Flags that name one database's server or process; with several databases each would need its own.
const ONE_DATABASE_FLAGS = ['host', 'port', 'user', 'database', 'server-pid', 'restart-cmd'];

// `bench run --db a,b,c`: each database in turn, into a result file of its own; one that fails (an unreachable
// server, a wrong answer) does not stop the others. Then one report of the files written. Every database name
// and flag is checked before any work. --json prints the result documents as one array.
async function runEach(ids, argv, stdout) {
  if (new Set(ids).size !== ids.length) throw usageError(`--db names a database twice: ${argv.db}`);
  for (const id of ids) {
    const each = await loadAdapter(id);
    checkClients(each, clientsOf(argv.clients, each, { serverIsLocal: Boolean(serverProcess(each, argv)) }));
  }
  const given = givenFlags(hideBin(process.argv));
  const perDatabase = ONE_DATABASE_FLAGS.filter((flag) => given.has(flag));
  if (perDatabase.length > 0) {
    throw usageError(`--${perDatabase[0]} applies to one database, but --db names ${ids.length}; run them one at a time`);
  }
  checkOutputDirectory(argv.out);
  const done = [];
  let code = ExitCodes.OK;
  for (const [index, id] of ids.entries()) {
    if (!argv.quiet) process.stderr.write(`\n== ${id} (${index + 1} of ${ids.length})\n`);
    try {
      code = Math.max(code, await execute({ ...argv, db: id }, {
        stdout: argv.json ? null : stdout, importOnly: false, onDone: (document) => done.push(document),
      }));
    } catch (error) {
      process.stderr.write(`${formatError(error, argv)}\n`);
      code = Math.max(code, ExitCodes.FAILED);
    }
    if (code === ExitCodes.INTERRUPTED) break;
  }
  if (argv.json) {
    stdout.write(`${JSON.stringify(done.map(({ result }) => result), null, 2)}\n`);
  } else if (done.length > 1) {
    const report = buildReport(done, {});
    stdout.write(`\n${REPORT_FORMATS.table(report)}\n`);
  }
  const failed = ids.filter((id) => !done.some(({ result }) => result.db.id === id && failedWorkloads(result).length === 0));
  if (!argv.quiet && failed.length > 0) process.stderr.write(`\nnot every database passed: ${failed.join(', ')}\n`);
  return code;
}

// Reads on replicas are checked against the state every replica has replayed before the step began: only where
// no write runs beside them (a replica lags its primary by an unbounded time).
function checkReplicaReads(suite, workloads) {
  const writing = workloads.filter((workload) => workload.durability !== null || suite.id !== 'mixed');
  if (suite.id !== 'mixed' || writing.length > 0) {
    throw usageError(`--read-from replicas: only the mixed suite's workloads that write nothing read from replicas (--suite mixed --workload read-only), not ${suite.id === 'mixed' ? writing.map((workload) => workload.name).join(', ') : `the ${suite.id} suite`}: a replica lags its primary, and a read beside writes could not be checked`);
  }
}

// Flags a size sweep refuses: it connects to the clusters it starts, and their data lives as long as each one.
const SWEEP_REFUSED = ['host', 'port', 'server-pid', 'restart-cmd', 'cold', 'clients', 'shard'];

// `bench run --nodes 1,2,3`: for each size, a cluster of that many nodes started from fresh data (server/galera.js),
// the run against it into a result file of its own, the cluster stopped; then the report of them, which treats the
// sizes as a series (results/report/clusters.js). A size whose run fails does not stop the others.
async function runSweep(argv, stdout) {
  const description = await loadAdapter(argv.db);
  const family = description.server ? serverFamily(description.server) : null;
  if (!family?.startCluster || family.clusterFlag) {
    throw usageError(`--nodes: the harness starts no cluster of ${description.name} (--nodes: ${(await clusterAdapters()).join(', ')})`);
  }
  const given = givenFlags(hideBin(process.argv));
  const refused = SWEEP_REFUSED.filter((flag) => given.has(flag));
  if (refused.length > 0) {
    const why = refused[0] === 'clients' ? ': with --nodes, --clients-per-node scales the client processes with the cluster' : '';
    throw usageError(`--${refused[0]} does not go with --nodes, which runs against the clusters it starts${why}`);
  }
  for (const flag of ['cluster-port', 'clients-per-node']) {
    if (argv[flag] !== undefined && argv.nodes === undefined) throw usageError(`--${flag} applies with --nodes`);
  }
  const sizes = numberList('nodes', argv.nodes);
  const cacheDir = argv['cache-dir'];
  const running = runningServer(cacheDir, family.family);
  if (running) {
    throw usageError(`a ${family.name} \`bench server\` started runs in ${cacheDir} (pid ${running.pid}, port ${running.port}); --nodes starts and stops clusters of its own: stop it first with \`npx bench server stop ${family.family}\``);
  }
  checkOutputDirectory(argv.out);
  const port = argv['cluster-port'] ?? family.defaultPort;
  const cacheBytes = argv.cache === undefined ? null : parseSize(argv.cache);
  const done = [];
  let code = ExitCodes.OK;
  for (const [index, nodes] of sizes.entries()) {
    const log = (line) => { if (!argv.quiet) process.stderr.write(`${line}\n`); };
    log(`\n== ${description.id} on ${nodes} node${nodes === 1 ? '' : 's'} (${index + 1} of ${sizes.length})`);
    const clients = argv['clients-per-node'] === undefined ? argv.clients : String(Math.max(1, Math.round(argv['clients-per-node'] * nodes)));
    try {
      await startServer(family, { cacheDir, port, nodes, cacheBytes, log });
      code = Math.max(code, await execute({ ...argv, clients }, {
        stdout: argv.json ? null : stdout, importOnly: false, onDone: (document) => done.push(document),
      }));
    } catch (error) {
      process.stderr.write(`${formatError(error, argv)}\n`);
      code = Math.max(code, error.code === ErrorCodes.USAGE ? ExitCodes.USAGE : ExitCodes.FAILED);
    } finally {
      await stopServer(family, { cacheDir }).catch((error) => process.stderr.write(`${formatError(error, argv)}\n`));
    }
    if (code === ExitCodes.INTERRUPTED) break;
  }
  if (argv.json) {
    stdout.write(`${JSON.stringify(done.map(({ result }) => result), null, 2)}\n`);
  } else if (done.length > 0) {
    stdout.write(`\n${REPORT_FORMATS.table(buildReport(done, {}))}\n`);
  }
  return code;
}

async function clusterAdapters() {
  const ids = [];
  for (const id of adapterIds()) {
    const each = await loadAdapter(id);
    const family = each.server && serverFamily(each.server);
    if (family?.startCluster && !family.clusterFlag) ids.push(id);
  }
  return ids;
}

export function runCommand(argv, { stdout = process.stdout } = {}) {
  const ids = String(argv.db).split(',').map((id) => id.trim());
  if (argv.nodes !== undefined) {
    if (ids.length > 1) throw usageError(`--nodes sweeps the cluster sizes of one database, but --db names ${ids.length}`);
    return runSweep(argv, stdout);
  }
  for (const flag of ['cluster-port', 'clients-per-node']) {
    if (argv[flag] !== undefined) throw usageError(`--${flag} applies with --nodes`);
  }
  if (ids.length > 1) return runEach(ids, argv, stdout);
  return execute(argv, { stdout, importOnly: false });
}

export function importCommand(argv, { stdout = process.stdout } = {}) {
  return execute(argv, { stdout, importOnly: true });
}
