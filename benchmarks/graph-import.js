// The graph suite's import of one edge list into one or more databases, as edges per second and as a multiple
// of the floor measured in the same invocation: reading and parsing the same edges.tsv alone, with the same
// reader and batches. Issue targets on the full Pokec relations (30.5 M edges) on 2 cores: PostgreSQL at least
// 500,000 edges/s and SQLite at least 300,000 edges/s, indexes included.
//
//   node benchmarks/graph-import.js [--dataset synthetic|pokec|cit-patents|file:<path>] [--scale full]
//                                   [--db postgresql,sqlite,...] [--floors 3]
//
// Server databases are reached like `bench run` reaches them: the local server `bench server start` runs (or
// --host/--port), whose process tree's bytes written are reported. Every load is forced, its count checked, and
// the benchmark's namespace is dropped afterwards.
import { parseArgs } from 'node:util';
import { loadAdapter } from '../adapters/index.js';
import { adapterOptions, serverProcess } from '../cli/options.js';
import { environment } from '../core/environment.js';
import { defaultCacheDir } from '../core/paths.js';
import { parseFloor, prepareEdges } from '../datasets/edges.js';
import { measureServer } from '../resources/measure.js';
import { formatBytes } from '../results/format.js';
import { connectAdapter } from '../runner/run.js';
import { loadEdgeCollection } from '../workloads/graph/load.js';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'synthetic' },
    scale: { type: 'string', default: 'full' },
    seed: { type: 'string', default: '1' },
    db: { type: 'string', default: 'postgresql,sqlite' },
    host: { type: 'string' },
    port: { type: 'string' },
    floors: { type: 'string', default: '3' },
    namespace: { type: 'string', default: 'dbshootout_graphimport' },
  },
});
const cacheDir = defaultCacheDir();
const count = (n) => Math.round(n).toLocaleString('en-US');
const seconds = (ms) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
const log = (line) => console.log(line);

const data = await prepareEdges({
  dataset: values.dataset, scale: values.scale, seed: Number(values.seed), cacheDir,
  onProgress: ({ phase, done, total }) => { if (done === 0) process.stderr.write(`${phase}…\n`); void total; },
});
const env = environment();
log(`edge list ${data.id}: ${count(data.edges)} edges, ${count(data.vertices)} vertices, ${formatBytes(data.bytes)} (${data.file})`);
log(`machine: ${env.cpu}, ${env.cores} cores, ${Math.round(env.memoryBytes / 2 ** 30)} GiB, node ${env.node}`);

// The floor: the best of a few reads, the file in the page cache after the first.
const floors = [];
for (let i = 0; i < Number(values.floors); i += 1) floors.push((await parseFloor(data)).ms);
const floorMs = Math.min(...floors);
log(`floor (read + parse edges.tsv alone): ${seconds(floorMs)}, ${count((data.edges / floorMs) * 1000)} edges/s (best of ${floors.length}: ${floors.map(seconds).join(', ')})`);

for (const id of values.db.split(',')) {
  const description = await loadAdapter(id);
  const argv = {
    host: values.host, port: values.port === undefined ? undefined : Number(values.port),
    namespace: values.namespace, concurrency: 4, 'connect-timeout': 10, 'cache-dir': cacheDir,
  };
  const options = adapterOptions(description, argv);
  let adapter;
  try {
    adapter = await connectAdapter(description, options);
  } catch (error) {
    log(`${id}: skipped, ${error.message}`);
    continue;
  }
  const meter = await measureServer(serverProcess(description, argv));
  try {
    const loaded = await loadEdgeCollection({
      adapter, description, options, data, reimport: true, progress: { log: (line) => process.stderr.write(`${id}: ${line}\n`), bar: () => null },
    });
    const server = await meter.stop();
    const written = server?.io ? `, server wrote ${formatBytes(server.io.writeBytes)}` : '';
    const size = loaded.collectionBytes ? `, ${formatBytes(loaded.collectionBytes)} on disk` : '';
    log(`${id} (${await adapter.serverVersion()}): ${seconds(loaded.ms)} = edges ${seconds(loaded.edgesMs)} + indexes ${seconds(loaded.indexesMs)}; `
      + `${count(loaded.edgesPerSec)} edges/s; ${(loaded.ms / floorMs).toFixed(1)} x the floor${written}${size}`);
    await description.testSupport?.dropNamespace?.(options);
  } catch (error) {
    await meter.stop();
    log(`${id}: FAILED, ${error.message}`);
    process.exitCode = 1;
  } finally {
    await adapter.close();
  }
}
