import path from 'node:path';
import { loadAdapter } from '../adapters/index.js';
import { prepareDataset } from '../datasets/dataset.js';
import { failedWorkloads } from '../results/model.js';
import { formatTable } from '../results/table.js';
import { resultFileName, writeResult } from '../results/write.js';
import { runBenchmark } from '../runner/run.js';
import { adapterOptions, connectionRecord, selectWorkloads } from './options.js';
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

export async function runCommand(argv, { stdout = process.stdout } = {}) {
  const description = await loadAdapter(argv.db);
  const workloads = selectWorkloads(argv.workload);
  const progress = createProgress({ quiet: argv.quiet });
  const dataset = await prepareDataset({
    scale: argv.scale,
    seed: argv.seed,
    cacheDir: argv['cache-dir'],
    onProgress: progress.phases(`dataset ${argv.scale}`),
  });
  const options = adapterOptions(description, argv);
  const config = {
    concurrency: argv.concurrency,
    runs: argv.runs,
    workloads: workloads.map((workload) => workload.name),
    restartCmd: argv['restart-cmd'] ?? null,
    stallTimeoutMs: Math.round(argv['stall-timeout'] * 1000),
    connection: connectionRecord(options),
  };
  const { signal, release } = interruptible(progress);
  let file = null;
  const onUpdate = async (result) => {
    file ??= path.resolve(argv.out, resultFileName(result));
    await writeResult(file, result);
  };
  let result;
  try {
    result = await runBenchmark({
      description, adapterOptions: options, dataset, workloads, config, signal, progress, onUpdate,
      reimport: argv.reimport, command: `bench ${process.argv.slice(2).join(' ')}`,
    });
  } catch (error) {
    if (file) error.message += `\nthe runs completed so far are in ${file}`;
    throw error;
  } finally {
    release();
  }
  if (argv.json) {
    stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    stdout.write(`\n${formatTable(result)}\n\nresult: ${file}\n`);
  }
  if (result.interrupted) return ExitCodes.INTERRUPTED;
  return failedWorkloads(result).length > 0 ? ExitCodes.FAILED : ExitCodes.OK;
}
