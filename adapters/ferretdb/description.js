// FerretDB: the MongoDB adapter's code (../mongodb/) on a server that speaks MongoDB's wire protocol over PostgreSQL
// or SQLite. What FerretDB cannot run is not listed here: the capability probe finds it on the server and the
// harness plans it unsupported with the server's reason (../server-supports.js); the one defect no probe can find
// safely is declared by FerretDB's version in adapter.js (versionDefects).
import mongodb from '../mongodb/description.js';
import { FerretAdapter } from './adapter.js';

const COMMIT = 'FerretDB 1.x ignores the write concern: the insert is a transaction of its backend, acknowledged once '
  + 'that commits; on PostgreSQL with synchronous_commit=on and fsync=on (the defaults, which terms() reads back from the '
  + 'local PostgreSQL `bench server` runs) the commit waits for its WAL flush, so it survives a crash of FerretDB, of '
  + 'PostgreSQL, of the OS and a power loss.';

export default {
  ...mongodb,
  id: 'ferretdb',
  name: 'FerretDB',
  durability: {
    singleWrite: `insertOne with the write concern { w: 1, j: false }, as on MongoDB; ${COMMIT} It is therefore as durable as singleWriteSync, and runs under --durability durable only (see terms).`,
    singleWriteSync: `insertOne with the write concern { w: 1, j: true }; ${COMMIT}`,
  },
  durablePerWrite: ['singleWrite', 'singleWriteSync'],
  // The durability terms (adapters/README.md, "Terms"): FerretDB 1.x has one way to acknowledge a write, its
  // backend's commit, so the relaxed term is unavailable (as for DuckDB and Neo4j) and every write runs durable;
  // adapter.js, terms(), reads the backend's settings back.
  terms: {
    durability: {
      scope: 'session',
      relaxed: { unavailable: 'FerretDB 1.x ignores the write concern: every write is acknowledged once its backend commits it, which on PostgreSQL with synchronous_commit=on waits for the WAL flush; no setting of FerretDB acknowledges a write before that' },
      durable: { how: 'every write is a transaction of the backend, acknowledged once it commits: on PostgreSQL with synchronous_commit=on and fsync=on, after its WAL is flushed; on SQLite (journal_mode=wal, synchronous=FULL), after its WAL is synced (the write concern { w: 1, j: true } is sent, and ignored)' },
    },
  },
  server: 'ferretdb',
  connection: { ...mongodb.connection, defaults: { ...mongodb.connection.defaults, port: 57017 } },
  create(options) {
    return new FerretAdapter(options);
  },
};
