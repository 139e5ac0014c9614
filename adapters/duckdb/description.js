import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';
import { DuckdbAdapter } from './adapter.js';
import { CASE_NAMES } from './queries.js';
import { dropNamespace, plantForeign } from './test-support.js';

export default {
  id: 'duckdb',
  name: 'DuckDB',
  kind: 'embedded',
  driver: '@duckdb/node-api',
  supports: ['singleRead', 'singleWrite', 'singleWriteSync', 'aggregation',
             'neighbors', 'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath',
             'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', ...CASE_NAMES, ...GRAPH_OPERATIONS],
  durability: {
    singleWrite: 'Write-ahead log fsynced on every commit (DuckDB has no weaker commit mode): survives a process crash and a power loss.',
    singleWriteSync: 'The same as singleWrite: every commit fsyncs the write-ahead log.',
  },
  durablePerWrite: ['singleWrite', 'singleWriteSync'],
  // One connection per pool slot, each query on a libuv worker thread: operations of one process overlap, up to
  // the pool's size and UV_THREADPOOL_SIZE (README.md).
  execution: 'parallel',
  // DuckDB lets one process open a database file for writing.
  multiProcess: false,
  connection: {
    defaults: { database: null },
    passwordEnv: null,
  },
  create(options) {
    return new DuckdbAdapter(options);
  },
  testSupport: { plantForeign, dropNamespace },
};
