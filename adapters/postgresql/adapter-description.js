// The description shared by the PostgreSQL adapters; they differ in id, name and data model only (`model` for the
// profiles, `queries` for the queries suite's collections).
import { PostgresAdapter } from './adapter.js';
import { PASSWORD_ENV } from './connection.js';
import { CASE_NAMES } from './queries.js';
import { dropNamespace, plantForeign } from './test-support.js';

export function adapterDescription({ id, name, model, queries }) {
  return {
    id,
    name,
    kind: 'server',
    driver: 'pg',
    // `--driver`: pg, the default, postgres (porsager's, pipelined; postgres-driver.js) or pg-native (libpq's
    // synchronous calls; native-driver.js) for the timed operations.
    drivers: ['pg', 'postgres', 'pg-native'],
    // Drivers whose calls block the process until the server answers: one operation in flight per process, so the
    // harness runs the timed operations in client processes, one per operation in flight, and its own work with
    // the first driver (adapters/README.md, "Concurrency").
    blockingDrivers: ['pg-native'],
    supports: ['singleRead', 'singleWrite', 'singleWriteSync', 'aggregation',
               'neighbors', 'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath',
               'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', 'scanDocuments', ...CASE_NAMES],
    durability: {
      singleWrite: 'synchronous_commit=off: acknowledged before its WAL is flushed; a server or OS crash or a '
        + 'power loss can lose the last ~3 x wal_writer_delay (600 ms by default) of acknowledged writes, '
        + 'never corrupting the database.',
      singleWriteSync: 'synchronous_commit=on: acknowledged after its WAL is flushed to disk (fsync), so it '
        + 'survives a server crash and a power loss (with the server\'s fsync=on).',
    },
    durablePerWrite: ['singleWriteSync'],
    // The durability terms (adapters/README.md, "Terms"): synchronous_commit is a session setting, so both run
    // side by side; terms() reads fsync back, which durable writes need.
    terms: {
      durability: {
        scope: 'session',
        relaxed: { how: 'synchronous_commit=off on every connection that writes: the commit returns before its WAL is flushed' },
        durable: { how: 'synchronous_commit=on on every connection that writes, on a server with fsync=on: the commit returns once its WAL is flushed' },
      },
    },
    execution: 'parallel',
    server: 'postgresql',
    connection: {
      defaults: { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' },
      passwordEnv: PASSWORD_ENV,
      // A primary and its replicas (--host a:p,b:p or `bench server start postgresql --replicas n`).
      spread: 'every statement to the primary; with --read-from replicas, the document reads to the replicas, connection j to replica j mod n, an operation on an idle connection of the replica with the most idle ones',
      readFrom: ['primary', 'replicas'],
    },
    create(options) {
      return new PostgresAdapter(options, { label: id, model, queries });
    },
    testSupport: {
      plantForeign: (options) => plantForeign(id, model, options),
      dropNamespace: (options) => dropNamespace(id, model, options),
    },
  };
}
