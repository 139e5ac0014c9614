// `bench data fetch <dataset>`: SNAP's files into the cache, where `--dataset <dataset>` finds them: the real
// Pokec for every suite, cit-Patents for the graph suite.
import { fetchSnap } from '../datasets/fetch.js';
import { ExitCodes } from './exit-codes.js';
import { createProgress } from './progress.js';

// What to run once a dataset's files are there.
const NEXT_STEP = {
  pokec: (dir) => `the Pokec files are in ${dir}; run \`bench run --dataset pokec\` to use them`,
  'cit-patents': (dir) => `cit-Patents is in ${dir}; run \`bench run --suite graph --dataset cit-patents\` to use it`,
};

export async function dataCommand(argv, { stdout = process.stdout } = {}) {
  const progress = createProgress({ quiet: argv.quiet });
  const { dir, files } = await fetchSnap({ dataset: argv.dataset, cacheDir: argv['cache-dir'], progress });
  for (const { name, record, downloaded } of files) {
    stdout.write(`${name}: ${record.bytes} bytes, sha256 ${record.sha256}${downloaded ? '' : ' (already there, checked)'}\n`);
  }
  stdout.write(`${NEXT_STEP[argv.dataset](dir)}\n`);
  return ExitCodes.OK;
}
