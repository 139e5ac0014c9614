import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';
import { CASE_NAMES } from '../../workloads/queries/cases.js';
import { MemoryAdapter } from './store.js';

export default {
  id: 'memory',
  name: 'In-process memory',
  kind: 'embedded',
  driver: null,
  supports: ['singleRead', 'singleWrite', 'singleWriteSync', 'aggregation',
    'neighbors', 'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath',
    'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', 'scanDocuments', ...CASE_NAMES, ...GRAPH_OPERATIONS],
  durability: {
    singleWrite: 'none: documents live in process memory only.',
    singleWriteSync: 'none: identical to singleWrite; there is nothing to make durable.',
  },
  durablePerWrite: [],
  // Nothing reaches a disk, so a write is acknowledged before any flush (relaxed), and never durable.
  terms: {
    durability: {
      scope: 'none',
      relaxed: { how: 'documents live in process memory only: acknowledged at once, never flushed to disk' },
      durable: { unavailable: 'documents live in process memory only; nothing is ever flushed to disk' },
    },
  },
  execution: 'serial',
  // Its data lives in this process's memory: client processes of bench run --clients would each see their own.
  multiProcess: false,
  connection: {
    defaults: { database: 'default' },
    passwordEnv: null,
  },
  create(options) {
    return new MemoryAdapter(options);
  },
  testSupport: {
    async plantForeign(options) {
      MemoryAdapter.plantForeign(options);
      return async () => MemoryAdapter.dropNamespace(options);
    },
    async dropNamespace(options) {
      MemoryAdapter.dropNamespace(options);
    },
  },
};
