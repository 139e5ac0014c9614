import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';
import { PgliteAdapter } from './adapter.js';
import { CASE_NAMES } from './queries.js';
import { dropNamespace, plantForeign } from './test-support.js';

export default {
  id: 'pglite',
  name: 'PGlite',
  kind: 'embedded',
  driver: '@electric-sql/pglite',
  supports: ['singleRead', 'singleWrite', 'singleWriteSync', 'aggregation',
             'neighbors', 'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath',
             'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', 'scanDocuments', ...CASE_NAMES, ...GRAPH_OPERATIONS],
  durability: {
    singleWrite: 'synchronous_commit=on (PGlite\'s default): each commit writes its WAL record to the file before it '
      + 'returns, and nothing is ever fsynced (PGlite\'s Node file system has no fsync): survives a crash of the '
      + 'process, not an operating-system crash or a power loss.',
    singleWriteSync: 'The same as singleWrite: PGlite on Node cannot fsync, so no write of it is durable per write; '
      + 'the durable term is unavailable (see terms).',
  },
  // Each acknowledged commit is in the file (the operating system's page cache) before it returns.
  durablePerWrite: ['singleWrite', 'singleWriteSync'],
  // The durability terms (adapters/README.md, "Terms"): one way to commit, which is the relaxed term; adapter.js,
  // terms(), reads back what it depends on.
  terms: {
    durability: {
      scope: 'session',
      relaxed: { how: 'synchronous_commit=on (PGlite\'s default): each commit writes its WAL record to the file before it returns; nothing is fsynced, as PGlite\'s Node file system (Emscripten NODEFS) has no fsync' },
      durable: { unavailable: 'PGlite 0.5 on Node writes through Emscripten\'s NODEFS, whose fsync does nothing (with fsync=on no fsync call reaches the kernel), so no commit can wait for its log to reach the disk' },
    },
  },
  // One WebAssembly engine, one session, on the JavaScript thread: each statement runs to its end while the
  // others queue (README.md).
  execution: 'serial',
  // PGlite takes no lock on its directory, and two processes that open it corrupt it: the adapter locks it
  // (database.js), so a second process is refused, not served.
  multiProcess: false,
  // The first open of a new data directory runs initdb inside the engine: seconds, more on a loaded machine.
  connection: {
    defaults: { database: null },
    passwordEnv: null,
    openTimeoutMs: 120_000,
  },
  create(options) {
    return new PgliteAdapter(options);
  },
  testSupport: { plantForeign, dropNamespace },
};
