import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';
import { ArangoAdapter } from './adapter.js';
import { PASSWORD_ENV } from './connection.js';
import { ADAPTER_ID } from './model.js';
import { CASE_NAMES } from './queries.js';
import { dropNamespace, plantForeign } from './test-support.js';

export default {
  id: ADAPTER_ID,
  name: 'ArangoDB',
  kind: 'server',
  driver: 'arangojs',
  supports: ['singleRead', 'singleWrite', 'singleWriteSync', 'aggregation',
             'neighbors', 'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath',
             'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', ...CASE_NAMES, ...GRAPH_OPERATIONS],
  durability: {
    singleWrite: 'Document insert with waitForSync=false (RocksDB engine), the relaxed term: acknowledged once '
      + 'written to the write-ahead log, before the log is fsynced; it survives a crash of arangod, but an OS crash '
      + 'or a power loss can lose the writes of the last --rocksdb.sync-interval (100 ms by default), the period of '
      + 'the background WAL sync. Under --durability durable the harness runs singleWriteSync\'s write instead.',
    singleWriteSync: 'Document insert with waitForSync=true (RocksDB engine), the durable term: the write-ahead '
      + 'log is fsynced before the server answers, so an acknowledged write survives a process crash, an OS crash '
      + 'and a power loss (on storage that honours flushes).',
  },
  durablePerWrite: ['singleWrite', 'singleWriteSync'],
  // The durability terms (adapters/README.md, "Terms"): each timed write sends its waitForSync (terms.js), so both
  // terms run side by side; terms() reads back what they depend on.
  terms: {
    durability: {
      scope: 'session',
      relaxed: { how: 'waitForSync=false on every timed write (the document API\'s parameter, the AQL writes\' OPTIONS), into collections created with waitForSync false: acknowledged once the write is in RocksDB\'s write-ahead log, which a background thread fsyncs every --rocksdb.sync-interval (100 ms by default)' },
      durable: { how: 'waitForSync=true on every timed write: the write-ahead log is fsynced before the server answers' },
    },
  },
  execution: 'parallel',
  server: null,
  connection: {
    defaults: { host: '127.0.0.1', port: 8529, user: 'root', database: '_system' },
    passwordEnv: PASSWORD_ENV,
  },
  create(options) {
    return new ArangoAdapter(options);
  },
  testSupport: { plantForeign, dropNamespace },
};
