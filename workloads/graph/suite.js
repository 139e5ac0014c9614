// The graph suite: Unum's graph benchmark (2021) made a validated suite. A weighted directed edge list (the
// Pokec relations with derived weights by default, SNAP's cit-Patents, or any edge file) is loaded once and
// reused while its marker matches. Per concurrency level and run, a round on a fresh connection puts back what
// earlier writes changed, then runs the six reads and the four writes, each closed loop at the level, each
// answer checked; every write workload is checked edge by edge and undone.
import { usageError } from '../../core/errors.js';
import { prepareEdges } from '../../datasets/edges.js';
import { COLLECTION, loadEdgeCollection } from './load.js';
import { BATCH_SIZE } from './operations.js';
import { drawGraphParams, graphSizes, HOT_SHARE, HOT_VERTICES, NEW_SHARE, REVERSED_SHARE } from './params.js';
import { EdgeReference } from './reference.js';
import { WORKLOADS, prepareRound } from './workloads.js';

// The reference and the parameters of an edge list, made once per prepared edge list: the load checks a
// reused collection against them, the rounds use them.
const contexts = new WeakMap();
function contextOf({ edges: data, sizes }) {
  if (!contexts.has(data)) {
    contexts.set(data, (async () => {
      const reference = new EdgeReference(await data.loadEdges());
      return { reference, edges: reference.length, params: drawGraphParams(reference, sizes, data.seed) };
    })());
  }
  return contexts.get(data);
}

export const stepKey = (name, concurrency, levels) => (levels > 1 ? `${name} c=${concurrency}` : name);

export default {
  id: 'graph',
  name: 'graph',
  description: 'edge lookups, friends and followers, upserts and removals one by one and in batches of 500 on a weighted edge list',
  workloads: WORKLOADS,
  alwaysRun: [],
  flags: ['scale', 'dataset', 'skip-bad', 'reimport'],
  defaults: { runs: 3, concurrency: [1] },
  prepare: async (settings, { progress }) => ({
    edges: await prepareEdges({
      dataset: settings.dataset,
      scale: settings.scale,
      seed: settings.seed,
      cacheDir: settings['cache-dir'],
      skipBad: settings['skip-bad'],
      onProgress: progress?.phases(`edge list ${settings.dataset}`),
    }),
    sizes: graphSizes(settings.scale),
  }),
  configure(settings) {
    if (settings.clients > 1) throw usageError('--clients does not apply to --suite graph yet: its write checks read back from one process');
    graphSizes(settings.scale);
    return { concurrency: settings.concurrency, seed: settings.seed };
  },
  describeData: ({ edges: data, sizes }) => ({
    id: data.id,
    name: data.name,
    scale: data.scale,
    seed: data.seed,
    edges: data.edges,
    vertices: data.vertices,
    weights: data.weights,
    source: data.source,
    sha256: { edges: data.sha256 },
    readStats: data.readStats ?? null,
    sizes: { ...sizes, batchSize: BATCH_SIZE },
    sampling: { hotVertices: HOT_VERTICES, hotShare: HOT_SHARE, reversedPairs: REVERSED_SHARE, newUpserts: NEW_SHARE },
    label: `${data.name} edge list, ${data.edges.toLocaleString('en-US')} edges (${data.weights} weights), seed ${data.seed}`,
  }),
  load: ({ adapter, description, options, data, reimport, progress }) => loadEdgeCollection({
    adapter, description, options, data: data.edges, reimport, progress, expected: () => contextOf(data),
  }),
  context: contextOf,
  rounds({ config, workloads }) {
    const rounds = [];
    const levels = config.concurrency.length;
    for (const concurrency of config.concurrency) {
      const params = { collection: COLLECTION, concurrency, durable: config.durability === 'durable' };
      const steps = workloads.map((workload) => ({ key: stepKey(workload.name, concurrency, levels), workload, params }));
      for (let run = 1; run <= config.runs; run += 1) {
        rounds.push({
          run,
          label: `${levels > 1 ? `c=${concurrency} ` : ''}run ${run}/${config.runs}`,
          concurrency,
          chained: false,
          // The whole collection checked before the reads; whatever an earlier round's writes left (a run
          // interrupted before its undo) put back.
          setup: (adapter, ctx) => prepareRound(adapter, COLLECTION, ctx),
          steps,
        });
      }
    }
    return rounds;
  },
};
