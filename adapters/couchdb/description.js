import { READ_OPERATIONS, WRITE_OPERATIONS } from '../../workloads/graph/operations.js';
import { CouchAdapter } from './adapter.js';
import { PASSWORD_ENV } from './connection.js';
import { CASE_NAMES, UNSUPPORTED } from './queries.js';
import { dropNamespace, plantForeign } from './test-support.js';

// Why the graph suite is not offered (README.md).
const GRAPH_WRITE = 'CouchDB updates or deletes a document only by naming its current revision (_rev), so an upsert '
  + 'or a removal by pair is a read and then a write, two requests racing other writers; and _bulk_docs commits '
  + 'each document on its own, no batch is a transaction (all_or_nothing is gone since CouchDB 2.0)';
const GRAPH_READ = 'the graph suite follows Unum\'s publication, which did not measure CouchDB; its map/reduce '
  + 'views could answer the reads, but not the writes (see upsertEdge), and the suite is not offered in part';
const GRAPH_UNSUPPORTED = Object.fromEntries([
  ...READ_OPERATIONS.map((operation) => [operation, GRAPH_READ]),
  ...WRITE_OPERATIONS.map((operation) => [operation, GRAPH_WRITE]),
]);

export default {
  id: 'couchdb',
  name: 'CouchDB',
  kind: 'server',
  driver: 'nano',
  // The crud suite's document operations and the query cases CouchDB can express: it has no graph queries.
  supports: ['insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', ...CASE_NAMES],
  unsupported: { ...UNSUPPORTED, ...GRAPH_UNSUPPORTED },
  // The crud suite's two acknowledgement modes, `durable: false` as singleWrite and `durable: true` as
  // singleWriteSync: both send the same request.
  durability: {
    singleWrite: 'the default acknowledgement, the same request as singleWriteSync. Apache CouchDB 3 answers a '
      + 'write once it is committed to disk with fsync (delayed_commits is gone since 3.0), so it survives a '
      + 'crash of the server and a power loss. PouchDB Server (what `bench server start pouchdb` runs) answers '
      + 'once LevelDB has written the change to its log without fsync: it survives a crash of the server '
      + 'process, not a power loss or an OS crash.',
    singleWriteSync: 'no stronger acknowledgement exists: the same request as singleWrite, with the same '
      + 'durability (Apache CouchDB: on disk with fsync; PouchDB Server: in the OS\'s page cache, not fsynced).',
  },
  durablePerWrite: ['singleWrite', 'singleWriteSync'],
  execution: 'parallel',
  server: 'pouchdb',
  connection: {
    defaults: { host: '127.0.0.1', port: 5984, user: 'admin', database: null },
    passwordEnv: PASSWORD_ENV,
  },
  create(options) {
    return new CouchAdapter(options);
  },
  testSupport: { plantForeign, dropNamespace },
};
