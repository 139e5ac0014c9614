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
             'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', ...CASE_NAMES, ...GRAPH_OPERATIONS],
  durability: {
    singleWrite: 'One autocommit InnoDB INSERT, acknowledged at commit as the server\'s global ' +
      'innodb_flush_log_at_trx_commit decides (see settings): at 1, the default and the local server\'s ' +
      'setting, the redo log is fsynced at every commit, so an acknowledged write survives a power loss.',
    singleWriteSync: 'Identical to singleWrite: innodb_flush_log_at_trx_commit is global and the adapter does ' +
      'not change server settings, so both modes measure the same commit, durable per write at the setting 1.',
  },
  durablePerWrite: ['singleWrite', 'singleWriteSync'],
  execution: 'parallel',
  server: 'mariadb',
  connection: {
    defaults: { host: '127.0.0.1', port: 3306, user: 'root', database: null },
    passwordEnv: 'BENCH_MYSQL_PASSWORD',
  },
  create(options) {
    return new MysqlAdapter(options);
  },
  testSupport: { plantForeign, dropNamespace },
};
