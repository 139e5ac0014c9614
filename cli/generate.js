import { writeDataset } from '../datasets/dataset.js';
import { checkOutputDirectory } from './output.js';
import { createProgress } from './progress.js';

export async function generateCommand(argv, { stdout = process.stdout } = {}) {
  const progress = createProgress({ quiet: argv.quiet });
  const dir = checkOutputDirectory(argv.out ?? `pokec-synthetic-${argv.scale}-s${argv.seed}`);
  const dataset = await writeDataset({
    dir, scale: argv.scale, seed: argv.seed, onProgress: progress.phases(`dataset ${argv.scale}`),
  });
  stdout.write(`${dataset.profiles} profiles and ${dataset.relations} relations written to ${dir}\n`);
  return 0;
}
