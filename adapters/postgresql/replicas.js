// A primary and its streaming replicas (`bench server start postgresql --replicas n`, or --host a:p,b:p,c:p): each
// endpoint's role as it reports it (pg_is_in_recovery), the replicas' pool for reads (../spread.js), the wait until
// every replica has replayed what the primary wrote, and each endpoint's counters for the result.
import pg from 'pg';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { SpreadPool, connectionShares } from '../spread.js';
import { clientConfig } from './connection.js';

// How long a step waits for the replicas to replay the primary's WAL before it fails.
export const CATCH_UP_TIMEOUT_MS = 60_000;
const POLL_MS = 20;

const where = ({ host, port }) => `${host}:${port}`;

async function oneQuery(options, endpoint, text) {
  const client = new pg.Client(clientConfig({ ...options, host: endpoint.host, port: endpoint.port }));
  try {
    await client.connect();
    return (await client.query(text)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

// The endpoints with their roles; exactly one must be a primary (not in recovery).
export async function endpointRoles(label, options) {
  const roles = [];
  for (const endpoint of options.endpoints) {
    let rows;
    try {
      rows = await oneQuery(options, endpoint, 'SELECT pg_is_in_recovery() AS replica');
    } catch (error) {
      throw new BenchError(ErrorCodes.CONNECT, `${label}: cannot connect to ${where(endpoint)}: ${error.message}`, { cause: error });
    }
    roles.push({ ...endpoint, role: rows[0].replica ? 'replica' : 'primary' });
  }
  const primaries = roles.filter((endpoint) => endpoint.role === 'primary');
  if (primaries.length !== 1) {
    throw new BenchError(ErrorCodes.CONNECT, `${label}: of the endpoints ${roles.map(where).join(', ')}, ${primaries.length === 0 ? 'none is a primary' : `${primaries.length} are primaries (${primaries.map(where).join(', ')})`}: `
      + 'give one primary and its replicas (every write goes to the primary)');
  }
  return roles;
}

// The replicas' pool: the run's connections spread over them as over a cluster's nodes.
export async function openReplicaPool(options, replicas, openPool) {
  const limits = connectionShares(options.concurrency, replicas.length, options.endpointOffset ?? 0);
  const pools = [];
  try {
    for (const [i, replica] of replicas.entries()) {
      pools.push(limits[i] === 0 ? null : await openPool({ ...options, host: replica.host, port: replica.port, concurrency: limits[i] }));
    }
  } catch (error) {
    await Promise.all(pools.map((pool) => pool?.end()));
    throw error;
  }
  return new SpreadPool(pools, replicas.map(where), limits);
}

// Resolves, with the milliseconds it waited, once every replica has replayed the primary's WAL up to where it was
// when called: every write acknowledged before then is visible on every replica.
export async function awaitReplicas(label, primaryPool, replicaPool, timeoutMs = CATCH_UP_TIMEOUT_MS) {
  const began = performance.now();
  const { rows: [{ lsn }] } = await primaryPool.query('SELECT pg_current_wal_lsn()::text AS lsn');
  const behind = await replicaPool.eachEndpoint(async (pool, endpoint) => ({ pool, endpoint }));
  for (const { pool, endpoint } of behind) {
    for (;;) {
      const { rows: [{ done }] } = await pool.query('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn]);
      if (done) break;
      if (performance.now() - began > timeoutMs) {
        throw new BenchError(ErrorCodes.TIMEOUT, `${label}: the replica at ${endpoint} had not replayed the primary's WAL up to ${lsn} within ${timeoutMs / 1000} s`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  return performance.now() - began;
}

// Per endpoint, its counters since the server started (pg_stat_database, every database): transactions, rows
// returned and fetched, rows written, blocks read and hit; its role; on the primary, the WAL it has written.
export async function replicatedFigures(options, endpoints) {
  const text = `SELECT pg_is_in_recovery() AS replica, sum(xact_commit + xact_rollback)::bigint AS transactions,
      sum(tup_returned)::bigint AS "rowsReturned", sum(tup_fetched)::bigint AS "rowsFetched",
      sum(tup_inserted + tup_updated + tup_deleted)::bigint AS "rowsWritten", sum(blks_read)::bigint AS "blocksRead",
      sum(blks_hit)::bigint AS "blocksHit",
      CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint END AS "walBytes"
    FROM pg_stat_database`;
  const out = [];
  for (const endpoint of endpoints) {
    const [row] = await oneQuery({ ...options, connectTimeoutMs: options.connectTimeoutMs }, endpoint, text);
    const figures = Object.fromEntries(Object.entries(row).filter(([name, value]) => name !== 'replica' && value !== null)
      .map(([name, value]) => [name, Number(value)]));
    out.push({ endpoint: where(endpoint), ...figures, postgres: { role: row.replica ? 'replica' : 'primary' } });
  }
  return out;
}
