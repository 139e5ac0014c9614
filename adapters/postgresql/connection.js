// The connection pool of one adapter instance, and what a failed connection attempt tells the user.
import pg from 'pg';
import { BenchError, ErrorCodes } from '../../core/errors.js';

export const PASSWORD_ENV = 'BENCH_PG_PASSWORD';

// Server settings that change results, reported with every run.
export const REPORTED_SETTINGS = Object.freeze(['shared_buffers', 'work_mem', 'effective_cache_size',
  'synchronous_commit', 'fsync', 'wal_level', 'max_connections', 'random_page_cost']);

// Set for the adapter's own sessions at login. The default random_page_cost (4.0) models a disk seek for every
// index lookup; with the dataset cached, as during a run, it makes the planner read every profile by a
// sequential scan to join a few hundred neighbours, ten times slower than their key lookups.
const SESSION_OPTIONS = '-c random_page_cost=1.1';

// The password comes from PASSWORD_ENV only. A function stops pg from falling back to PGPASSWORD or ~/.pgpass,
// and says what to do when the server asks for a password that was not given.
function password(options) {
  if (options.password !== undefined) return options.password;
  return async () => {
    throw new Error(`the server asks for a password; set ${PASSWORD_ENV}`);
  };
}

// One connection's settings; pg's connection timeout covers the TCP connect, the login and the first
// ReadyForQuery.
export function clientConfig(options) {
  return {
    host: options.host,
    port: options.port,
    user: options.user,
    database: options.database,
    password: password(options),
    connectionTimeoutMillis: options.connectTimeoutMs,
    application_name: 'db-shootout',
    options: SESSION_OPTIONS,
  };
}

function poolConfig(options) {
  return {
    ...clientConfig(options),
    // pg would default to 10: the run's concurrency decides, explicitly. The pool applies
    // connectionTimeoutMillis to waiting for a free connection as well, which never happens while the runner
    // keeps at most `concurrency` operations in flight.
    max: options.concurrency,
    // Never close idle connections: a reconnect must not land inside a timed operation.
    idleTimeoutMillis: 0,
  };
}

// A pool holding all its `concurrency` connections, so no timed operation ever waits for a login. Rejects with
// E_CONNECT naming host:port and the reason.
export async function openPool(label, options) {
  await probe(label, options);
  const pool = new pg.Pool(poolConfig(options));
  // An idle connection that dies (the server stopped) is dropped from the pool and emitted as an 'error'
  // event, which crashes the process when nobody listens. The next operation gets a new connection, or fails
  // with its own error, so nothing is lost by not acting here.
  pool.on('error', () => {});
  // A connection that dies while checked out (an import's COPY, a write's transaction) emits 'error' on its
  // client as well, after failing the query in flight with the same error: that query's caller reports it,
  // and the pool discards the client when it comes back.
  pool.on('connect', (client) => client.on('error', () => {}));
  const opened = await Promise.allSettled(Array.from({ length: options.concurrency }, () => pool.connect()));
  for (const outcome of opened) if (outcome.status === 'fulfilled') outcome.value.release();
  const failed = opened.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await pool.end();
    throw connectError(label, options, failed.reason);
  }
  return pool;
}

// One connection of its own first, settled within connectTimeoutMs: when a login fails on the client's side
// (a password the server asks for and was not given), pg keeps the socket open until the client is ended,
// and a pool drops such a client without ending it; the server would hold the socket, and the process would
// stay alive, until its authentication_timeout (60 s).
async function probe(label, options) {
  const client = new pg.Client(clientConfig(options));
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw connectError(label, options, error);
  } finally {
    await client.end();
  }
}

export function connectError(label, options, error) {
  const where = `${options.host}:${options.port}`;
  const who = `user "${options.user}", database "${options.database}"`;
  return new BenchError(ErrorCodes.CONNECT, `${label}: cannot connect to ${where} as ${who}: ${reason(options, error)}`,
    { cause: error });
}

function reason(options, error) {
  if (error.code === 'ECONNREFUSED') return 'connection refused (is the server running and listening there?)';
  if (/timeout/i.test(error.message)) return `no answer within ${options.connectTimeoutMs} ms`;
  return error.message;
}
