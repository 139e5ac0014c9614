// `bench merge <files or dirs...> --out <file>`: the partial results of one sharded run as one result document,
// which `bench report` and `bench compare` read like any other. Problems with the files given (not results, of
// different runs, a shard missing, twice or unfinished) are usage errors: exit code 2, nothing written.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeResult } from '../results/write.js';
import { failedWorkloads } from '../results/model.js';
import { mergeShards } from '../results/merge.js';
import { loadResults } from '../results/report/load.js';
import { formatTable } from '../results/table.js';
import { reportErrorsAsUsage } from './report.js';
import { ExitCodes } from './exit-codes.js';
import { checkOutputFile } from './output.js';

export async function mergeCommand(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const out = checkOutputFile(argv.out);
  const read = await reportErrorsAsUsage(() => loadResults(argv.results));
  if (typeof read === 'number') return read;
  // A merged file written into the shards' directory before is not one of them.
  const documents = read.filter(({ file }) => path.resolve(file) !== out);
  const began = performance.now();
  const merged = mergeShards(documents);
  const ms = performance.now() - began;
  writeResult(argv.out, merged);
  if (argv.json) stdout.write(`${JSON.stringify(merged, null, 2)}\n`);
  else stdout.write(`\n${formatTable(merged)}\n\nresult: ${argv.out}\n`);
  if (!argv.quiet) {
    stderr.write(`merged ${merged.shards.count} shards of run ${merged.shards.runId} in ${Math.round(ms)} ms `
      + `(machines: ${[...new Set(merged.shards.machines.map((machine) => machine.hostname))].join(', ')})\n`);
  }
  return failedWorkloads(merged).length > 0 ? ExitCodes.FAILED : ExitCodes.OK;
}
