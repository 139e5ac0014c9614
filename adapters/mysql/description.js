import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';
import { MysqlAdapter } from './adapter.js';
import { CASE_NAMES } from './queries.js';
import { dropNamespace, plantForeign } from './test-support.js';

export default {
  id: 'mysql',
  name: 'MySQL/MariaDB',
  kind: 'server',
  driver: 'mysql2',
  // `--driver`: mysql2, the default, or mariadb (the MariaDB connector) for the social and crud suites' operations
  // (mariadb-driver.js).
  drivers: ['mysql2', 'mariadb'],
  supports: ['singleRead', 'singleWrite', 'singleWriteSync', 'aggregation',
             'neighbors', 'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath',
             'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', 'scanDocuments', ...CASE_NAMES, ...GRAPH_OPERATIONS],
  durability: {
    singleWrite: 'One autocommit InnoDB INSERT under the run\'s durability term, which is server-wide on MariaDB '
      + '(see terms): relaxed, innodb_flush_log_at_trx_commit=2, acknowledged once the redo log is written to the '
      + 'operating system, fsynced about once a second, so it survives a crash of the server, not of the operating '
      + 'system; durable, innodb_flush_log_at_trx_commit=1, fsynced at every commit.',
    singleWriteSync: 'One autocommit InnoDB INSERT with innodb_flush_log_at_trx_commit=1 (and sync_binlog=1 with the '
      + 'binary log on): the redo log is fsynced at every commit, so an acknowledged write survives a power loss. '
      + 'The setting is global, so it runs under --durability durable only.',
  },
  durablePerWrite: ['singleWrite', 'singleWriteSync'],
  // The durability terms (adapters/README.md, "Terms"): global settings, which terms() sets on a server
  // `bench server` runs and reads back from any.
  terms: {
    durability: {
      scope: 'server',
      relaxed: { how: 'innodb_flush_log_at_trx_commit=2 (0 also qualifies), and sync_binlog=0 when the binary log is on: the redo log is written at commit and fsynced about once a second' },
      durable: { how: 'innodb_flush_log_at_trx_commit=1, and sync_binlog=1 when the binary log is on: the redo log is fsynced at every commit' },
    },
  },
  execution: 'parallel',
  server: 'mariadb',
  connection: {
    defaults: { host: '127.0.0.1', port: 3306, user: 'root', database: null },
    passwordEnv: 'BENCH_MYSQL_PASSWORD',
    // Several endpoints (a Galera cluster's nodes): connection j of the run to endpoint j mod n, an operation on an
    // idle connection of the endpoint with the most idle ones (../spread.js). Every node takes reads and writes.
    spread: 'connection j to endpoint j mod n; an operation takes an idle connection of the endpoint with the most idle ones; every endpoint takes reads and writes',
  },
  create(options) {
    return new MysqlAdapter(options);
  },
  testSupport: { plantForeign, dropNamespace },
};
