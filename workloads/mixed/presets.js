// The mixed suite's presets: the parameters of its publications, each value with the sentence it comes from, or
// why the publication gives none.
import { DEFAULT_LEVELS, DEFAULT_OPS, DEFAULT_RECORDS } from './suite.js';

// 0.95 GB a second over 1.1 million documents a second: 864 bytes of JSON each.
const CLUSTER_2015_BYTES = Math.round(0.95e9 / 1.1e6);

export const PRESETS = Object.freeze({
  'cluster-2015': Object.freeze({
    description: 'ArangoDB\'s cluster test on Mesosphere DCOS (2015): write-only, read-only and 50-50 single-document '
      + 'reads and writes of uniformly chosen documents of about 0.86 KB, latency p50 and p95 per workload',
    parameters: Object.freeze({
      // "We test read-only, write-only and 50-50 read-write in a pseudo-random pattern." (in the suite's order)
      workload: Object.freeze(['read-only', 'write-only', '50-50']),
      // "in a pseudo-random pattern": every key as likely as any other, not a skewed choice.
      distribution: 'uniform',
      // "For the pure write load, this means a peak total network transfer of 0.95GB per second from the load servers
      // to the distributed database" at "The top is 1.1 million writes with 80 nodes and 640 virtual CPUs.":
      // 0.95 GB / 1.1 million = 864 bytes a document.
      docBytes: CLUSTER_2015_BYTES,
      // The publication describes no document's fields: one shape for all, the suite's default.
      shape: 'uniform',
      // The publication gives no number of documents, of operations or of connections ("We start multiple instances
      // of this client on several machines to produce a large amount of traffic."): the suite's defaults, fixed here
      // so that a rerun does the same work whatever the defaults become.
      records: DEFAULT_RECORDS,
      ops: Object.freeze([DEFAULT_OPS]),
      concurrency: Object.freeze([...DEFAULT_LEVELS]),
      runs: 1,
      // The publication names no sync setting: the harness's default term, fixed here as well.
      durability: 'relaxed',
    }),
  }),
});
