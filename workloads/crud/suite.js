// The crud suite: ArangoDB vs CouchDB (2012) made reproducible. For every document count (`--ops`) and every
// concurrency level (`--concurrency 1,2,4,...`), a round starts from an empty temporary collection and times four
// phases one after the other, each one request per document: insert, get, update (replace), delete. Each level
// gets a connection pool of its own size. A phase that fails leaves the later phases of its round unmeasured.
import { durabilityOf } from '../../core/terms.js';
import { claimNamespace } from '../../import/import.js';
import { COLLECTION, WORKLOADS } from './workloads.js';
import { crudDocuments } from './documents.js';

export const DEFAULT_OPS = [10_000];
export const DEFAULT_LEVELS = [1, 2, 4, 8, 16, 32, 64];

export const stepKey = (name, { ops, concurrency }) => `${name} n=${ops} c=${concurrency}`;

export default {
  id: 'crud',
  name: 'crud',
  description: 'individual inserts, gets, updates and deletes of small documents at rising concurrency',
  workloads: WORKLOADS,
  // Every later phase works on what the insert phase stored.
  alwaysRun: ['insert'],
  // ... so none runs when the insert cannot (under the run's durability term).
  chainedOn: 'insert',
  // The flags of `bench run` that only this suite takes, and its defaults of the shared ones.
  flags: ['ops', 'shape', 'sync'],
  defaults: { runs: 3, concurrency: DEFAULT_LEVELS, ops: DEFAULT_OPS, shape: 'uniform', sync: false },
  // The documents of the largest count; a smaller count takes their prefix, which is the same documents.
  prepare: async ({ ops, shape, seed }) => ({ shape, seed, ...crudDocuments({ count: Math.max(...ops), shape, seed }) }),
  configure: (settings) => ({
    concurrency: settings.concurrency, ops: settings.ops, shape: settings.shape, durable: durabilityOf(settings) === 'durable', seed: settings.seed,
  }),
  describeData: (data) => ({
    id: `crud-${data.shape}-s${data.seed}`,
    name: 'crud documents',
    shape: data.shape,
    seed: data.seed,
    documents: data.docs.length,
    label: `${data.shape} documents, seed ${data.seed}`,
  }),
  // Nothing to import: the rounds write their documents themselves, in a temporary collection of a namespace
  // the harness owns.
  load: async ({ adapter, description, options }) => { await claimNamespace({ adapter, description, options }); return null; },
  context: (data) => data,
  rounds({ config, workloads }) {
    const rounds = [];
    for (const ops of config.ops) {
      for (const concurrency of config.concurrency) {
        const params = { ops, concurrency, durable: config.durable };
        const steps = workloads.map((workload) => ({ key: stepKey(workload.name, params), workload, params }));
        for (let run = 1; run <= config.runs; run += 1) {
          rounds.push({
            run,
            label: `n=${ops} c=${concurrency} run ${run}/${config.runs}`,
            concurrency,
            chained: true,
            setup: (adapter) => adapter.createTempCollection(COLLECTION),
            teardown: (adapter) => adapter.dropTempCollection(COLLECTION),
            steps,
          });
        }
      }
    }
    return rounds;
  },
};
