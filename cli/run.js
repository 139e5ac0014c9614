import { existsSync } from 'node:fs';
import path from 'node:path';
import { hideBin } from 'yargs/helpers';
import { loadAdapter } from '../adapters/index.js';
import { prepareDataset } from '../datasets/dataset.js';
import { POKEC_FILES, pokecDir } from '../datasets/fetch.js';
import { failedWorkloads } from '../results/model.js';
import { formatImport } from '../results/import-summary.js';
import { formatTable } from '../results/table.js';
import { claimResultFile, writeResult } from '../results/write.js';
import { runBenchmark } from '../runner/run.js';
import { getPreset, limitDataset } from '../workloads/presets.js';
import { adapterOptions, connectionRecord, givenFlags, selectWorkloads, serverProcess } from './options.js';
import { createProgress } from './progress.js';
import { ExitCodes } from './exit-codes.js';

// The first Ctrl-C lets the current operations finish and keeps every completed run; the second quits.
function interruptible(progress) {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(ExitCodes.INTERRUPTED);
    progress.log('\ninterrupted: stopping after the operations in flight and writing the completed runs (Ctrl-C again to quit at once)');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { signal: controller.signal, release: () => { process.off('SIGINT', onSignal); process.off('SIGTERM', onSignal); } };
}

// Whether `bench data fetch pokec` has put both real files (gzip'd or unpacked) in the cache.
function pokecPresent(cacheDir) {
  const dir = pokecDir(cacheDir);
  return POKEC_FILES.every((name) => existsSync(path.join(dir, name)) || existsSync(path.join(dir, name.replace(/\.gz$/, ''))));
}

// A preset's settings replace the flags' defaults; bin/bench.js has refused flags that contradict it. Its
// dataset is the real Pokec when its files are in the cache, else the synthetic one of the same size, unless
// --dataset was given.
export function withPreset(argv, given) {
  if (!argv.preset) return { argv, preset: null };
  const preset = getPreset(argv.preset);
  const dataset = preset.dataset === 'pokec-if-present' && !given.has('dataset') && pokecPresent(argv['cache-dir'])
    ? 'pokec' : argv.dataset;
  return {
    argv: { ...argv, scale: preset.scale, runs: preset.runs, concurrency: preset.concurrency, dataset },
    preset: { name: argv.preset, description: preset.description, limits: preset.limits },
  };
}

// `bench run`: import when needed, then the runs. `bench import` (importOnly): the import alone, always made
// again, recorded in a result document of its own with no workloads.
async function execute(rawArgv, { stdout, importOnly }) {
  const { argv, preset } = withPreset(rawArgv, givenFlags(hideBin(process.argv)));
  const description = await loadAdapter(argv.db);
  const workloads = importOnly ? [] : selectWorkloads(argv.workload);
  // Flag mistakes are reported before the dataset is prepared, which can take minutes the first time.
  const options = adapterOptions(description, argv);
  const server = serverProcess(description, argv);
  const progress = createProgress({ quiet: argv.quiet });
  if (preset) progress.log(`preset ${preset.name}: ${preset.description} (dataset: ${argv.dataset} ${argv.scale})`);
  const prepared = await prepareDataset({
    scale: argv.scale,
    seed: argv.seed,
    cacheDir: argv['cache-dir'],
    dataset: argv.dataset,
    skipBad: argv['skip-bad'],
    onProgress: progress.phases(`dataset ${argv.scale}`),
  });
  const dataset = limitDataset(prepared, preset?.limits);
  const config = {
    concurrency: argv.concurrency,
    runs: importOnly ? 0 : argv.runs,
    workloads: workloads.map((workload) => workload.name),
    restartCmd: argv['restart-cmd'] ?? null,
    stallTimeoutMs: Math.round((argv['stall-timeout'] ?? 60) * 1000),
    connection: connectionRecord(options),
    preset,
  };
  const { signal, release } = interruptible(progress);
  let file = null;
  const onUpdate = async (result) => {
    file ??= await claimResultFile(path.resolve(argv.out), result);
    await writeResult(file, result);
  };
  let result;
  try {
    result = await runBenchmark({
      description, adapterOptions: options, dataset, workloads, config, signal, progress, onUpdate,
      reimport: importOnly || argv.reimport, command: `bench ${process.argv.slice(2).join(' ')}`,
      server,
    });
  } catch (error) {
    if (file) error.message += `\nthe ${importOnly ? 'import' : 'runs'} completed so far ${importOnly ? 'is' : 'are'} in ${file}`;
    throw error;
  } finally {
    release();
  }
  if (argv.json) {
    stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    stdout.write(`\n${importOnly ? formatImport(result) : formatTable(result)}\n\nresult: ${file}\n`);
  }
  if (result.interrupted) return ExitCodes.INTERRUPTED;
  return failedWorkloads(result).length > 0 ? ExitCodes.FAILED : ExitCodes.OK;
}

export function runCommand(argv, { stdout = process.stdout } = {}) {
  return execute(argv, { stdout, importOnly: false });
}

export function importCommand(argv, { stdout = process.stdout } = {}) {
  return execute(argv, { stdout, importOnly: true });
}
