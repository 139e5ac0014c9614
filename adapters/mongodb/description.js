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
             'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', ...CASE_NAMES, ...GRAPH_OPERATIONS],
  durability: {
    singleWrite: 'insertOne with the deployment\'s default write concern. On a standalone that is w:1 without j: '
      + 'acknowledged once applied in memory, its journal record flushed to disk within '
      + 'storage.journal.commitIntervalMs (100 ms by default), so a mongod or OS crash or a power loss can lose '
      + 'the last ~100 ms of acknowledged writes. On a replica set the implicit default (MongoDB 5.0+) is '
      + 'w:"majority", journaled on a majority when writeConcernMajorityJournalDefault is true; settings() '
      + 'reports the effective default.',
    singleWriteSync: 'insertOne with writeConcern { w: 1, j: true }: acknowledged after its journal record is '
      + 'flushed to disk on the node that took it, so it survives a mongod or OS crash and a power loss of that '
      + 'node; on a replica set a failover can still roll back a write that no majority has.',
  },
  durablePerWrite: ['singleWriteSync'],
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
