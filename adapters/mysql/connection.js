// How the adapter and its test support reach the server: one mysql2 configuration, and connection failures
// turned into E_CONNECT errors that name host:port.
import mysql from 'mysql2/promise';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { SpreadPool, connectionShares } from '../spread.js';

const ACCESS_DENIED = 'ER_ACCESS_DENIED_ERROR';

export function endpoint(options) {
  return options.endpoints?.length > 1
    ? options.endpoints.map(({ host, port }) => `${host}:${port}`).join(',') : `${options.host}:${options.port}`;
}

export function connectionConfig(options) {
  return {
    host: options.host,
    port: options.port,
    user: options.user ?? undefined,
    password: options.password,
    connectTimeout: options.connectTimeoutMs,
    charset: 'utf8mb4',
    multipleStatements: false,
    // Counts come back as BIGINT: numbers while they are exact, which every count here is.
    supportBigNumbers: true,
    bigNumberStrings: false,
    // Oracle MySQL's JSON type would otherwise be parsed by the driver; documents are parsed by the adapter.
    jsonStrings: true,
    // No stack trace is captured per query: errors keep their server message, and reads get cheaper.
    trace: false,
  };
}

// With several endpoints (options.endpoints), one pool per endpoint behind a SpreadPool (../spread.js).
export function createPool(options) {
  if (options.endpoints?.length > 1) {
    const limits = connectionShares(options.concurrency, options.endpoints.length, options.endpointOffset ?? 0);
    const pools = options.endpoints.map(({ host, port }, i) => (limits[i] === 0 ? null
      : onePool({ ...options, host, port, endpoints: undefined, concurrency: limits[i] })));
    return new SpreadPool(pools, options.endpoints.map(({ host, port }) => `${host}:${port}`), limits);
  }
  return onePool(options);
}

function onePool(options) {
  return mysql.createPool({
    ...connectionConfig(options),
    // Set explicitly: mysql2's default of 10 would silently cap the run's concurrency.
    connectionLimit: options.concurrency,
    maxIdle: options.concurrency,
  });
}

// One connection of its own, for work that must not borrow the adapter's pool.
export async function openConnection(options) {
  try {
    return await mysql.createConnection(connectionConfig(options));
  } catch (error) {
    throw connectError(options, error);
  }
}

export function connectError(options, error) {
  const user = options.user ? ` as ${options.user}` : '';
  let reason = error.message || error.code || String(error);
  if (error.code === 'ETIMEDOUT') reason = `no answer within ${options.connectTimeoutMs} ms (${reason})`;
  if (error.code === ACCESS_DENIED && options.password === undefined) {
    reason += '; no password was given (set BENCH_MYSQL_PASSWORD)';
  }
  return new BenchError(ErrorCodes.CONNECT, `mysql: cannot connect to ${endpoint(options)}${user}: ${reason}`, {
    cause: error,
  });
}

// The server's "Deadlock found when trying to get lock; try restarting transaction": InnoDB chose the statement as
// a deadlock's victim or, on a Galera cluster, it lost a certification conflict to another node's write (every
// node takes writes; two that touch one row at once cannot both commit). Either way it was rolled back whole and
// the message asks for it again. Prepared statements are not retried by the server (wsrep_retry_autocommit
// applies to text statements only), so the adapter sends a single-statement write again, after a short random
// pause that grows with each attempt, up to CONFLICT_ATTEMPTS times; the last error is the operation's.
export const ER_LOCK_DEADLOCK = 1213;
export const CONFLICT_ATTEMPTS = 20;
const CONFLICT_PAUSE_CAP_MS = 50;

export async function retryConflicts(statement, attempts = CONFLICT_ATTEMPTS) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await statement();
    } catch (error) {
      if (error.errno !== ER_LOCK_DEADLOCK || attempt >= attempts) throw error;
      const pauseMs = Math.random() * Math.min(CONFLICT_PAUSE_CAP_MS, 2 ** attempt);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}
