// `bench data fetch pokec`: the real Pokec files from SNAP into the cache, where `--dataset pokec` finds them.
import { fetchPokec } from '../datasets/fetch.js';
import { ExitCodes } from './exit-codes.js';
import { createProgress } from './progress.js';

export async function dataCommand(argv, { stdout = process.stdout } = {}) {
  const progress = createProgress({ quiet: argv.quiet });
  const { dir, files } = await fetchPokec({ cacheDir: argv['cache-dir'], progress });
  for (const { name, record, downloaded } of files) {
    stdout.write(`${name}: ${record.bytes} bytes, sha256 ${record.sha256}${downloaded ? '' : ' (already there, checked)'}\n`);
  }
  stdout.write(`the Pokec files are in ${dir}; run \`bench run --dataset pokec\` to use them\n`);
  return ExitCodes.OK;
}
