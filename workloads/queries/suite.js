// The queries suite: the AQL shootout of 2015 (ArangoDB 2.5 against 2.6) for every database. Per size (`--size`,
// collections of 10k, 100k and 1M generated documents by default) and per query case, one round on a fresh
// connection: one unmeasured warm-up execution, then `--runs` (5) measured ones, one query at a time, each
// answer checked. A query that stalls (`--stall-timeout`) fails its case; the suite goes on with the next.
import { usageError } from '../../core/errors.js';
import {
  DEFAULT_SIZES, DOCUMENTS_PER_GROUP, GENERATION, SIZES, collectionName, groupsOf, parseSizes,
} from './data.js';
import { loadQueryCollections } from './load.js';
import { WORKLOADS, queriesContext } from './workloads.js';

export const stepKey = (name, size) => `${name} ${size}`;

function sizesOf({ size }) {
  if (Array.isArray(size)) throw usageError(`--size is given ${size.length} times; give it once, as a comma-separated list`);
  return parseSizes(size);
}

export default {
  id: 'queries',
  name: 'queries',
  description: 'the 33 read-only query cases of the AQL shootout on collections of 10k, 100k and 1M documents, one query at a time',
  workloads: WORKLOADS,
  alwaysRun: [],
  flags: ['size', 'reimport'],
  defaults: { runs: 5, concurrency: [1], size: DEFAULT_SIZES.join(',') },
  prepare: async (settings) => ({ sizes: sizesOf(settings) }),
  configure(settings) {
    if (settings.concurrency.some((level) => level !== 1)) {
      throw usageError('--concurrency does not apply to --suite queries: its queries run one at a time, as published');
    }
    if (settings.clients > 1) throw usageError('--clients does not apply to --suite queries: its queries run one at a time, from one client');
    return { sizes: sizesOf(settings), concurrency: [1] };
  },
  // The groups follow the size (n / 100 of 100 documents each), so the id names the group's size.
  describeData: (data) => ({
    id: `queries-groups-of-${DOCUMENTS_PER_GROUP}`,
    name: 'query shootout documents',
    groups: Object.fromEntries(data.sizes.map((size) => [size, groupsOf(SIZES[size])])),
    generation: GENERATION,
    sizes: Object.fromEntries(data.sizes.map((size) => [size, SIZES[size]])),
    label: `generated documents (${data.sizes.join(', ')}), groups of ${DOCUMENTS_PER_GROUP} documents`,
  }),
  load: ({ adapter, description, options, data, reimport, progress }) => loadQueryCollections({
    adapter, description, options, sizes: data.sizes, reimport, progress,
  }),
  context: () => queriesContext(),
  rounds({ config, workloads }) {
    const rounds = [];
    for (const size of config.sizes) {
      const params = { size, documents: SIZES[size], collection: collectionName(size) };
      for (const workload of workloads) {
        const key = stepKey(workload.name, size);
        rounds.push({
          run: 1,
          label: key,
          concurrency: 1,
          chained: false,
          // A stalled query fails its case alone: the next round gets a fresh connection.
          stallFailsRound: true,
          steps: Array.from({ length: config.runs }, (_, i) => ({
            key, workload, params, run: i + 1, warmups: i === 0 ? 1 : 0, label: `${key} run ${i + 1}/${config.runs}`,
          })),
        });
      }
    }
    return rounds;
  },
};
