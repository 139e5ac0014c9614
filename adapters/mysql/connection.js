// How the adapter and its test support reach the server: one mysql2 configuration, and connection failures
// turned into E_CONNECT errors that name host:port.
import mysql from 'mysql2/promise';
import { BenchError, ErrorCodes } from '../../core/errors.js';

const ACCESS_DENIED = 'ER_ACCESS_DENIED_ERROR';

export function endpoint(options) {
  return `${options.host}:${options.port}`;
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

export function createPool(options) {
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
