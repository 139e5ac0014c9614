// Reading speed of the dataset files: rows per second through the hand-written profile reader, the csv-parse
// reader it replaced (kept to cross-check it), and the relation reader, on one scale's cached files.
//
//   node benchmarks/read.js [--scale medium] [--rounds 3] [--no-csv]
//
// The dataset is generated into the cache first if it is not there. Each reader reads the whole file once
// per round, in the batches the importer uses; the best round is printed, as the machine is shared.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { environment } from '../core/environment.js';
import { defaultCacheDir } from '../core/paths.js';
import { prepareDataset } from '../datasets/dataset.js';
import { createReadStats, readProfiles, readRelations } from '../datasets/read.js';
import { readProfilesCsv } from '../datasets/read-csv.js';

const PROFILE_BATCH = 1000;
const RELATION_BATCH = 10000;

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'medium' },
    rounds: { type: 'string', default: '3' },
    'no-csv': { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const dataset = await prepareDataset({ scale: values.scale, cacheDir: defaultCacheDir() });
const env = environment();
console.log(`reading ${dataset.id}: ${dataset.profiles.toLocaleString('en-US')} profiles, ${dataset.relations.toLocaleString('en-US')} relations`);
console.log(`machine: ${env.cpu}, ${env.cores} cores, node ${env.node}; best of ${rounds} rounds`);

async function measure(label, read, expected) {
  let best = Infinity;
  for (let round = 0; round < rounds; round += 1) {
    const begin = performance.now();
    let rows = 0;
    for await (const batch of read()) rows += batch.length;
    const ms = performance.now() - begin;
    if (rows !== expected) throw new Error(`${label}: read ${rows} rows, the manifest says ${expected}`);
    best = Math.min(best, ms);
  }
  const perSecond = Math.round(expected / (best / 1000));
  console.log(`${label.padEnd(28)} ${(best / 1000).toFixed(2).padStart(7)} s  ${perSecond.toLocaleString('en-US').padStart(11)} rows/s`);
  return perSecond;
}

const stats = createReadStats();
const fast = await measure('profiles (read.js)', () => readProfiles(dataset.files.profiles, { batchSize: PROFILE_BATCH, stats }), dataset.profiles);
if (!values['no-csv']) {
  const csv = await measure('profiles (csv-parse)', () => readProfilesCsv(dataset.files.profiles, { batchSize: PROFILE_BATCH }), dataset.profiles);
  console.log(`read.js / csv-parse: ${(fast / csv).toFixed(1)} x`);
}
await measure('relations (read.js)', () => readRelations(dataset.files.relations, { batchSize: RELATION_BATCH }), dataset.relations);
