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
             'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', 'scanDocuments', ...CASE_NAMES, ...GRAPH_OPERATIONS],
  durability: {
    singleWrite: 'Write-ahead log fsynced on every commit (DuckDB has no weaker commit mode): survives a process crash '
      + 'and a power loss. So it runs under --durability durable only: the relaxed term is unavailable (see terms).',
    singleWriteSync: 'The same as singleWrite: every commit fsyncs the write-ahead log.',
  },
  durablePerWrite: ['singleWrite', 'singleWriteSync'],
  // The durability terms (adapters/README.md, "Terms"). DuckDB 1.5.6 fsyncs the WAL at every commit and has no
  // setting to skip it, so durable is how every commit is, and relaxed is unavailable. No setting chooses the
  // term: a durable write runs beside any other work of any run, as with a per-session term ('session'), so
  // singleWriteSync runs in a relaxed run too. terms() reads back what the term depends on (adapter.js).
  terms: {
    durability: {
      scope: 'session',
      relaxed: { unavailable: 'DuckDB 1.5.6 fsyncs its write-ahead log before every commit returns and has no setting to acknowledge a commit before that flush' },
      durable: { how: 'every commit appends to the write-ahead log (<file>.wal) and fsyncs it before it returns; checkpoints move the log into the database file' },
    },
  },
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
