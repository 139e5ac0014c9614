// Import time of one dataset into one or more databases, next to the floor that no import can beat: reading
// and parsing the same files alone, with the same reader and batches.
//
//   node benchmarks/import.js [--scale medium] [--db postgresql,mysql,sqlite]
//
// Server databases are reached like `bench run` reaches them: the local server `bench server start` runs
// (or --host/--port). Every import is forced (the namespace is reset) and its counts are checked.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadAdapter } from '../adapters/index.js';
import { adapterOptions } from '../cli/options.js';
import { environment } from '../core/environment.js';
import { defaultCacheDir } from '../core/paths.js';
import { prepareDataset } from '../datasets/dataset.js';
import { readProfiles, readRelations } from '../datasets/read.js';
import { PROFILE_BATCH, RELATION_BATCH, importDataset } from '../import/import.js';
import { connectAdapter } from '../runner/run.js';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'medium' },
    db: { type: 'string', default: 'postgresql,mysql,sqlite' },
    host: { type: 'string' },
    port: { type: 'string' },
    namespace: { type: 'string', default: 'dbshootout_importbench' },
  },
});
const cacheDir = defaultCacheDir();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

const dataset = await prepareDataset({ scale: values.scale, cacheDir });
const env = environment();
console.log(`import of ${dataset.id}: ${dataset.profiles.toLocaleString('en-US')} profiles, ${dataset.relations.toLocaleString('en-US')} relations`);
console.log(`machine: ${env.cpu}, ${env.cores} cores, ${Math.round(env.memoryBytes / 2 ** 30)} GiB, node ${env.node}`);

let begin = performance.now();
let rows = 0;
for await (const batch of readProfiles(dataset.files.profiles, { batchSize: PROFILE_BATCH })) rows += batch.length;
const profilesFloor = performance.now() - begin;
begin = performance.now();
for await (const batch of readRelations(dataset.files.relations, { batchSize: RELATION_BATCH })) rows += batch.length;
const relationsFloor = performance.now() - begin;
console.log(`floor (read + parse only): ${seconds(profilesFloor + relationsFloor)} (profiles ${seconds(profilesFloor)}, relations ${seconds(relationsFloor)}, ${rows.toLocaleString('en-US')} rows)`);

for (const id of values.db.split(',')) {
  const description = await loadAdapter(id);
  const options = adapterOptions(description, {
    host: values.host, port: values.port === undefined ? undefined : Number(values.port),
    namespace: values.namespace, concurrency: 25, 'connect-timeout': 10, 'cache-dir': cacheDir,
  });
  let adapter;
  try {
    adapter = await connectAdapter(description, options);
  } catch (error) {
    console.log(`${id}: skipped, ${error.message}`);
    continue;
  }
  try {
    const result = await importDataset({ adapter, description, options, dataset, force: true });
    console.log(`${id} (${await adapter.serverVersion()}): ${seconds(result.ms)} = profiles ${seconds(result.profilesMs)} + relations ${seconds(result.relationsMs)} + indexes ${seconds(result.indexesMs)}; ${(result.ms / (profilesFloor + relationsFloor)).toFixed(1)} x the floor`);
    await adapter.resetNamespace();
  } finally {
    await adapter.close();
  }
}
