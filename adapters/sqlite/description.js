import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';
import { SqliteAdapter } from './adapter.js';
import { CASE_NAMES } from './queries.js';
import { dropNamespace, plantForeign } from './test-support.js';

export default {
  id: 'sqlite',
  name: 'SQLite',
  kind: 'embedded',
  driver: 'better-sqlite3',
  supports: ['singleRead', 'singleWrite', 'singleWriteSync', 'aggregation',
             'neighbors', 'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath',
             'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', 'scanDocuments', ...CASE_NAMES, ...GRAPH_OPERATIONS],
  durability: {
    singleWrite: 'WAL journal, synchronous=NORMAL: survives a process crash, not a power loss.',
    singleWriteSync: 'WAL journal, synchronous=FULL: fsync on every commit.',
  },
  // The durability terms (adapters/README.md, "Terms"): the connection's synchronous pragma, set per write.
  terms: {
    durability: {
      scope: 'session',
      relaxed: { how: 'WAL journal, synchronous=NORMAL: a commit is written to the WAL file without fsync (the WAL is fsynced at checkpoints)' },
      durable: { how: 'WAL journal, synchronous=FULL: the WAL is fsynced at every commit' },
    },
  },
  durablePerWrite: ['singleWrite', 'singleWriteSync'],
  execution: 'serial',
  connection: {
    defaults: { database: null },
    passwordEnv: null,
  },
  create(options) {
    return new SqliteAdapter(options);
  },
  testSupport: { plantForeign, dropNamespace },
};
