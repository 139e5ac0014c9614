import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';
import { MongoAdapter } from './adapter.js';
import { PASSWORD_ENV } from './connection.js';
import { CASE_NAMES } from './queries.js';
import { dropNamespace, plantForeign } from './test-support.js';

export default {
  id: 'mongodb',
  name: 'MongoDB',
  kind: 'server',
  driver: 'mongodb',
  supports: ['singleRead', 'singleWrite', 'singleWriteSync', 'aggregation',
             'neighbors', 'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath',
             'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', 'scanDocuments', ...CASE_NAMES, ...GRAPH_OPERATIONS],
  durability: {
    singleWrite: 'insertOne with the write concern { w: 1, j: false }, named on the request (never the '
      + 'deployment\'s default, which is w: "majority" on a replica set since MongoDB 5.0): acknowledged once the node '
      + 'has applied it in memory; WiredTiger flushes its journal record to disk within '
      + 'storage.journal.commitIntervalMs (100 ms by default), and until then the record sits in mongod\'s journal '
      + 'buffer, so a crash of mongod, of the OS or a power loss can lose the last ~100 ms of acknowledged writes. '
      + 'The relaxed term; under --durability durable the harness runs singleWriteSync\'s write instead.',
    singleWriteSync: 'insertOne with the write concern { w: 1, j: true }, the durable term: acknowledged after its '
      + 'journal record is flushed to disk on the node that took it, so it survives a mongod or OS crash and a power '
      + 'loss of that node; on a replica set a failover can still roll back a write that no majority has.',
  },
  durablePerWrite: ['singleWriteSync'],
  // The durability terms (adapters/README.md, "Terms"): each timed write names its write concern (terms.js), so
  // both terms run side by side; terms() reads back the storage engine and the journal they depend on.
  terms: {
    durability: {
      scope: 'session',
      relaxed: { how: 'write concern { w: 1, j: false } on every timed write, never the deployment\'s default: acknowledged once the node has applied the write in memory, its journal record flushed to disk by WiredTiger within storage.journal.commitIntervalMs (100 ms by default; until then it is in mongod\'s memory, so a crash of mongod can lose it too)' },
      durable: { how: 'write concern { w: 1, j: true } on every timed write: acknowledged once its journal record is flushed to disk on the node that took it (WiredTiger with journaling on)' },
    },
  },
  execution: 'parallel',
  server: null,
  connection: {
    defaults: { host: '127.0.0.1', port: 27017, user: null, database: null },
    passwordEnv: PASSWORD_ENV,
  },
  create(options) {
    return new MongoAdapter(options);
  },
  testSupport: { plantForeign, dropNamespace },
};
