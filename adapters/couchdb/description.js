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
  // The crud suite's writes under each durability term, `durable: false` as singleWrite and `durable: true` as
  // singleWriteSync: both send the same request, and the server decides (terms.js).
  durability: {
    singleWrite: 'the crud suite\'s writes under the relaxed term, the same request as under the durable one: '
      + 'PouchDB Server (what `bench server start pouchdb` runs) answers once LevelDB has written the change to its '
      + 'log without fsync, so a write survives a crash of the server process, not a power loss or an OS crash. '
      + 'Apache CouchDB 3 has no such mode (it fsyncs every write): terms() reports it, and the run is refused.',
    singleWriteSync: 'the crud suite\'s writes under the durable term: Apache CouchDB 3 answers a write once it is '
      + 'committed to disk with fsync (delayed_commits is gone since 3.0), so it survives a crash of the server and '
      + 'a power loss. PouchDB Server has no such mode (it never fsyncs): terms() reports it, and the run is refused.',
  },
  durablePerWrite: ['singleWrite', 'singleWriteSync'],
  // The durability terms (adapters/README.md, "Terms"): one server-wide behaviour, each term given by one of the
  // two servers this adapter serves; terms() names the server it reached and reports the term it cannot give.
  terms: {
    durability: {
      scope: 'server',
      relaxed: { how: 'PouchDB Server on LevelDB: a write is answered once LevelDB has written it to its log, without fsync (LevelDB\'s sync off, as PouchDB\'s LevelDB adapter leaves it); Apache CouchDB 3 fsyncs every write and has no relaxed term (terms() reports it)' },
      durable: { how: 'Apache CouchDB 3: every write is a full commit, fsynced before the answer (delayed_commits is gone since 3.0); PouchDB Server writes without fsync and has no durable term (terms() reports it)' },
    },
  },
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
