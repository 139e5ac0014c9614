// FerretDB: the MongoDB adapter's code (../mongodb/) on a server that speaks MongoDB's wire protocol over PostgreSQL
// or SQLite. What FerretDB cannot run is not listed here: the capability probe finds it on the server and the
// harness plans it unsupported with the server's reason (../server-supports.js).
import mongodb from '../mongodb/description.js';
import { FerretAdapter } from './adapter.js';

const COMMIT = 'FerretDB 1.x ignores the write concern: the insert is a transaction of its backend, acknowledged once '
  + 'that commits, on the local PostgreSQL `bench server` runs with synchronous_commit=on and fsync=on (on SQLite: WAL, '
  + 'synchronous=FULL), so it is flushed to disk first and survives a crash of FerretDB, of PostgreSQL, of the OS and '
  + 'a power loss.';

export default {
  ...mongodb,
  id: 'ferretdb',
  name: 'FerretDB',
  durability: {
    singleWrite: `insertOne with the write concern { w: 1, j: false }, as on MongoDB; ${COMMIT} Under the relaxed term it is therefore as durable as singleWriteSync.`,
    singleWriteSync: `insertOne with the write concern { w: 1, j: true }; ${COMMIT}`,
  },
  durablePerWrite: ['singleWrite', 'singleWriteSync'],
  terms: {
    durability: {
      scope: 'session',
      relaxed: { how: 'the write concern { w: 1, j: false } on every timed write, which FerretDB 1.x ignores: each write is acknowledged after its backend\'s commit is flushed to disk (PostgreSQL synchronous_commit=on, fsync=on; SQLite WAL, synchronous=FULL), more than the relaxed term asks' },
      durable: { how: 'the write concern { w: 1, j: true } on every timed write, which FerretDB 1.x ignores: each write is acknowledged after its backend\'s commit is flushed to disk (PostgreSQL synchronous_commit=on, fsync=on; SQLite WAL, synchronous=FULL)' },
    },
  },
  server: 'ferretdb',
  connection: { ...mongodb.connection, defaults: { ...mongodb.connection.defaults, port: 57017 } },
  create(options) {
    return new FerretAdapter(options);
  },
};
