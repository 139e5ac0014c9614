import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';
import { Neo4jAdapter } from './adapter.js';
import { PASSWORD_ENV } from './connection.js';
import { CASE_NAMES } from './queries.js';
import { dropNamespace, plantForeign } from './test-support.js';

const COMMIT = 'One auto-commit transaction, acknowledged after its commit record is flushed to the transaction '
  + 'log on disk (commits that arrive together share one flush), so it survives a server crash and a power loss.';

export default {
  id: 'neo4j',
  name: 'Neo4j',
  kind: 'server',
  driver: 'neo4j-driver',
  supports: ['singleRead', 'singleWrite', 'singleWriteSync', 'aggregation',
             'neighbors', 'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath',
             'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', ...CASE_NAMES,
             ...GRAPH_OPERATIONS],
  durability: {
    singleWrite: `${COMMIT} Neo4j has no weaker acknowledgement, so this is the same durable commit as `
      + 'singleWriteSync, and it runs under --durability durable only: the relaxed term is unavailable (see terms).',
    singleWriteSync: COMMIT,
  },
  durablePerWrite: ['singleWrite', 'singleWriteSync'],
  // The durability terms (adapters/README.md, "Terms"). Neo4j forces its transaction log to disk before every
  // commit returns and has no setting that skips it, so durable is how every commit is, and relaxed is
  // unavailable. No setting chooses the term: a durable write runs beside any other work of any run, as with a
  // per-session term ('session'), so singleWriteSync runs in a relaxed run too. terms() reads back what the term
  // depends on (adapter.js).
  terms: {
    durability: {
      scope: 'session',
      relaxed: { unavailable: 'Neo4j forces (fdatasync) its transaction log before every commit returns and has no setting to acknowledge a commit before that flush' },
      durable: { how: 'every commit appends its transaction to the transaction log and forces it to disk (fdatasync) before it returns; commits that arrive together share one force' },
    },
  },
  execution: 'parallel',
  server: 'neo4j',
  connection: {
    defaults: { host: '127.0.0.1', port: 7687, user: 'neo4j', database: 'neo4j' },
    passwordEnv: PASSWORD_ENV,
  },
  create(options) {
    return new Neo4jAdapter(options);
  },
  testSupport: { plantForeign, dropNamespace },
};
