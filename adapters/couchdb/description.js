import { CouchAdapter } from './adapter.js';
import { PASSWORD_ENV } from './connection.js';
import { CASE_NAMES, UNSUPPORTED } from './queries.js';
import { dropNamespace, plantForeign } from './test-support.js';

export default {
  id: 'couchdb',
  name: 'CouchDB',
  kind: 'server',
  driver: 'nano',
  // The crud suite's document operations and the query cases CouchDB can express: it has no graph queries.
  supports: ['insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', ...CASE_NAMES],
  unsupported: UNSUPPORTED,
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
