// Import time of one dataset into one or more databases, next to the floor that no import can beat: reading
// and parsing the same files alone, with the same reader and batches.
//
//   node benchmarks/import.js [--scale medium] [--db postgresql,mysql,sqlite] [--paths auto,online] [--keep]
//
// Server databases are reached like `bench run` reaches them: the local server `bench server start` runs
// (or --host/--port). Every import is forced (the namespace is reset) and its counts are checked. --paths
// imports each database once per path: `auto` takes the offline importer where the database has one and allows
// it (Neo4j, for the server `bench server` runs), `online` never does. --keep leaves the last import's data in
// the namespace instead of deleting it (deleting a full Neo4j import takes longer than importing it offline).
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadAdapter } from '../adapters/index.js';
import { adapterOptions, serverProcess } from '../cli/options.js';
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
    paths: { type: 'string', default: 'auto' },
    keep: { type: 'boolean', default: false },
  },
});
const cacheDir = defaultCacheDir();
const paths = values.paths.split(',');
for (const path of paths) {
  if (!['auto', 'online'].includes(path)) throw new Error(`--paths: "${path}" is neither auto nor online`);
}
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
  const server = serverProcess(description, { host: values.host, port: values.port, 'cache-dir': cacheDir });
  try {
    for (const path of paths) {
      const result = await importDataset({ adapter, description, options, dataset, force: true, server, offline: path !== 'online' });
      const load = result.path === 'offline'
        ? ` + importer ${seconds(result.loadSteps.importerMs)} + server stopped, database swapped, server started ${seconds(result.loadSteps.replaceMs)}` : '';
      const why = result.onlineBecause ? ` (${result.onlineBecause})` : '';
      // Files loaded together overlap: the profiles began once the relations were sent.
      const files = result.filesTogether
        ? `files together ${seconds(result.ms - result.indexesMs)} (relations ${seconds(result.relationsMs)}; profiles ${seconds(result.profilesMs)}, begun once the relations were sent)`
        : `profiles ${seconds(result.profilesMs)} + relations ${seconds(result.relationsMs)}`;
      console.log(`${id} (${await adapter.serverVersion()}), ${result.path}${why}: ${seconds(result.ms)} = ${files}${load} + indexes ${seconds(result.indexesMs)}; ${(result.ms / (profilesFloor + relationsFloor)).toFixed(1)} x the floor`);
    }
    if (!values.keep) await adapter.resetNamespace();
  } finally {
    await adapter.close();
  }
}
