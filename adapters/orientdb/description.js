import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';
import { OrientDBAdapter } from './adapter.js';
import { PASSWORD_ENV } from './connection.js';
import { CASE_NAMES, UNSUPPORTED } from './queries.js';
import { dropNamespace, plantForeign } from './test-support.js';

const ID = 'orientdb';

export default {
  id: ID,
  name: 'OrientDB',
  kind: 'server',
  driver: 'orientjs',
  supports: ['singleRead', 'singleWrite', 'singleWriteSync', 'aggregation',
             'neighbors', 'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath',
             'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', ...CASE_NAMES,
             ...GRAPH_OPERATIONS],
  unsupported: UNSUPPORTED,
  durability: {
    singleWrite: 'One INSERT, acknowledged once applied with its WAL record queued in the server\'s memory; the WAL '
      + 'is written and fsynced every storage.wal.commitTimeout (1000 ms by default), so a server crash, an OS '
      + 'crash or a power loss can lose about the last second of acknowledged writes, never corrupting the database.',
    singleWriteSync: 'Identical to singleWrite: OrientDB 3.2 has no per-write or per-transaction sync (the WAL '
      + 'flush interval is a global server setting the adapter does not change), so both modes measure the same '
      + 'insert, not durable per write; the durable term is unavailable (see terms), so the harness does not run it.',
  },
  durablePerWrite: [],
  // The durability terms (adapters/README.md, "Terms", and terms.js). Every commit is acknowledged before its WAL
  // record is written, which is the relaxed term, weaker in one respect: a crash of the server process loses the
  // records still queued (about the last storage.wal.commitTimeout), as InnoDB's innodb_flush_log_at_trx_commit=0
  // does, which the MariaDB adapter accepts as relaxed too. No request or setting makes a commit wait for the WAL,
  // so the durable term is unavailable. The WAL settings are JVM-wide ('server').
  terms: {
    durability: {
      scope: 'server',
      relaxed: { how: 'storage.useWAL=true, storage.callFsync=true (the defaults): a commit is acknowledged with its WAL records queued in the server\'s memory, which a background task writes and fsyncs every storage.wal.commitTimeout (1000 ms by default), so a crash of the server process, not only of the OS, can lose about that much' },
      durable: { unavailable: 'OrientDB 3.2 has no commit that waits for its WAL records to reach the disk: a background task writes and fsyncs the WAL every storage.wal.commitTimeout, whatever the request or the server\'s settings' },
    },
  },
  execution: 'parallel',
  server: 'orientdb',
  connection: {
    defaults: { host: '127.0.0.1', port: 2424, user: 'root', database: null },
    passwordEnv: PASSWORD_ENV,
  },
  create(options) {
    return new OrientDBAdapter(options, { label: ID });
  },
  testSupport: {
    plantForeign: (options) => plantForeign(ID, options),
    dropNamespace: (options) => dropNamespace(ID, options),
  },
};
