// `bench crash --db <id>`: what each write mode of a database survives, measured by killing its process under
// load rather than taken from its description. Progress on stderr; the table, or with --json the result
// document, on stdout.
import path from 'node:path';
import { adapterIds, loadAdapter } from '../adapters/index.js';
import { prepareDataset } from '../datasets/dataset.js';
import { CRASH_KIND, KILL_WINDOW_MS, crashTest } from '../durability/crash.js';
import { NODE_LOSS_KIND } from '../durability/cluster.js';
import { nodeLossLine } from '../results/report/durability.js';
import { crashTarget, crashable } from '../durability/target.js';
import { formatCount } from '../results/format.js';
import { createResult, finishResult } from '../results/model.js';
import { claimResultFile, writeResult } from '../results/write.js';
import { connectAdapter, describeDb } from '../runner/run.js';
import { ExitCodes } from './exit-codes.js';
import { adapterOptions, connectionRecord } from './options.js';
import { createProgress } from './progress.js';

// The inserts' bodies are the first profiles of this dataset (generated once into the cache).
const DOCUMENTS_SCALE = 'tiny';

async function describeConnected(description, options) {
  const adapter = await connectAdapter(description, options);
  try {
    return await describeDb(description, adapter);
  } finally {
    await adapter.close();
  }
}

const CLAIM_WORDS = { true: 'durable per write', false: 'no per-write claim' };
const VERDICT_WORDS = {
  verified: (mode) => `verified: 0 of ${formatCount(mode.acknowledged)} acknowledged writes lost in ${mode.trials} crashes`,
  failed: (mode) => `FAILED: ${formatCount(mode.lost)} of ${formatCount(mode.acknowledged)} acknowledged writes lost in ${mode.trials} crashes`,
  'not claimed': (mode) => `${formatCount(mode.lost)} of ${formatCount(mode.acknowledged)} acknowledged writes lost in ${mode.trials} crashes`,
};

export function formatCrash(result) {
  const lines = [`${result.db.name} ${result.db.version}: ${result.config.crash}.`, ''];
  for (const mode of Object.values(result.durability)) {
    if (mode.kind === 'node-kill' || mode.kind === 'network-cut') {
      lines.push(`${mode.kind === 'network-cut' ? 'network cut' : 'node kill'} (${mode.operation} on the other nodes): ${nodeLossLine(mode)}`, `  claim: ${mode.claim}`);
      continue;
    }
    lines.push(`${mode.operation} (${CLAIM_WORDS[mode.durablePerWrite]}): ${VERDICT_WORDS[mode.verdict](mode)}`);
    lines.push(`  claim: ${mode.claim}`);
  }
  return lines.join('\n');
}

export function crashFailed(durability) {
  return Object.values(durability).some((mode) => mode.verdict === 'failed');
}

// The databases a crash test takes, in the registry's order.
export async function crashableIds() {
  const ids = [];
  for (const id of adapterIds()) if (crashable(await loadAdapter(id))) ids.push(id);
  return ids;
}

export async function crashCommand(argv, { stdout = process.stdout } = {}) {
  const description = await loadAdapter(argv.db);
  const cacheDir = argv['cache-dir'];
  let target;
  try {
    target = crashTarget(description, { cacheDir, host: argv.host, port: argv.port });
  } catch (error) {
    // Refused for what the database is, not for the state of its server: say which databases it takes.
    if (!crashable(description)) error.message += `; bench crash takes ${(await crashableIds()).join(', ')}`;
    throw error;
  }
  // The connection goes to the local server itself, never to what --host or --port name.
  const options = adapterOptions(description, { ...argv, host: undefined, port: undefined });
  const progress = createProgress({ quiet: argv.quiet });
  progress.log(`crash test of ${description.name}: ${CRASH_KIND}`);
  const dataset = await prepareDataset({ scale: DOCUMENTS_SCALE, cacheDir, onProgress: progress.phases(`dataset ${DOCUMENTS_SCALE}`) });
  const result = createResult({
    db: await describeConnected(description, options),
    dataset: null,
    config: {
      trials: argv.trials,
      concurrency: argv.concurrency,
      seed: argv.seed,
      killWindowMs: KILL_WINDOW_MS,
      crash: target.state?.cluster ? NODE_LOSS_KIND : CRASH_KIND,
      target: target.state?.cluster
        ? `local ${target.server.name} Galera cluster of ${target.state.cluster.nodes.length} nodes started by bench server (${target.state.cluster.nodes.map((node) => `${node.host}:${node.port}`).join(', ')})`
        : target.kind === 'server' ? `local ${target.server.name} started by bench server (${target.state.host}:${target.state.port})` : `${description.name} in a child process of the harness`,
      connection: connectionRecord(options),
    },
    command: `bench ${process.argv.slice(2).join(' ')}`,
  });
  result.durability = {};
  let file = null;
  const save = async () => {
    // Named as bench run's result files are, with "crash" where their dataset's scale stands.
    file ??= await claimResultFile(path.resolve(argv.out), { ...result, dataset: { scale: 'crash' } });
    await writeResult(file, result);
  };
  try {
    await crashTest({
      description, target, options, cacheDir, progress,
      trials: argv.trials,
      concurrency: argv.concurrency,
      seed: argv.seed,
      documentsFile: dataset.files.profiles,
      workDir: path.join(cacheDir, 'crash'),
      onUpdate: async (section) => {
        result.durability = section;
        await save();
      },
    });
  } catch (error) {
    finishResult(result, { complete: false, error });
    await save();
    error.message += `\nthe crashes completed so far are in ${file}`;
    throw error;
  }
  finishResult(result, { complete: true });
  await save();
  stdout.write(argv.json ? `${JSON.stringify(result, null, 2)}\n` : `\n${formatCrash(result)}\n\nresult: ${file}\n`);
  return crashFailed(result.durability) ? ExitCodes.FAILED : ExitCodes.OK;
}
