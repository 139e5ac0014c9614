// The arangojs connection of one adapter instance: its explicit request pool and sockets, the login check, and what
// a failed connection attempt tells the user.
import { Database } from 'arangojs';
import { HttpError, ResponseTimeoutError, isArangoError } from 'arangojs/errors';
import { Pool } from 'undici';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { ADAPTER_ID } from './model.js';

export const PASSWORD_ENV = 'BENCH_ARANGODB_PASSWORD';

// ArangoDB's error numbers (lib/Basics/errors.dat) that the adapter tells apart.
export const ARANGO_ERRORS = Object.freeze({
  forbidden: 11,
  collectionNotFound: 1203,
  databaseNotFound: 1228,
  useSystemDatabase: 1230,
});

// Startup options that change results, reported by settings() when the server lets the user read them.
export const REPORTED_OPTIONS = Object.freeze(['rocksdb.sync-interval', 'database.wait-for-sync',
  'rocksdb.block-cache-size', 'rocksdb.total-write-buffer-size', 'cache.size', 'query.cache-mode',
  'server.maximal-threads']);

// Idle sockets stay open across the pauses between workloads, so no timed request pays for a new connection.
const KEEP_ALIVE_MS = 60_000;

export function serverUrl(host, port) {
  const name = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

// arangojs 10 sends every request through its own queue, which runs at most `poolSize` requests at a time (3 by
// default) on the global fetch. The run's concurrency sets both that queue and the sockets: `agentOptions` makes
// arangojs build an undici Agent with exactly `connections` sockets per server, kept alive between requests.
// arangojs keeps that Agent to itself and its close() only aborts the requests in flight, so the Agent's factory
// creates each server's socket pool here and adds it to `pools`, for the adapter to close.
// No automatic retries: a failure is the operation's answer.
export function databaseConfig(options, pools = new Set()) {
  return {
    url: serverUrl(options.host, options.port),
    databaseName: options.database,
    auth: { username: options.user, password: options.password ?? '' },
    poolSize: options.concurrency,
    agentOptions: {
      connections: options.concurrency,
      keepAliveTimeout: KEEP_ALIVE_MS,
      factory(origin, poolOptions) {
        const pool = new Pool(origin, poolOptions);
        pools.add(pool);
        return pool;
      },
    },
    maxRetries: false,
  };
}

// A Database and the sockets under it. close() aborts the requests in flight (arangojs) and closes every socket.
export function createConnection(options) {
  const pools = new Set();
  const database = new Database(databaseConfig(options, pools));
  return {
    database,
    async close() {
      database.close();
      await Promise.all([...pools].map((pool) => pool.destroy()));
    },
  };
}

export function isArangoErrorNumber(error, errorNum) {
  return isArangoError(error) && error.errorNum === errorNum;
}

// The database `options.database` on a new connection (createConnection), verified with GET /_api/version. Then
// `concurrency` more of them at once open every socket, as the other adapters open their pools, so no timed
// request pays for a TCP handshake. All within connectTimeoutMs: each request is aborted at what is left of it.
// Rejects with E_CONNECT naming host:port and the reason.
export async function openConnection(options) {
  const connection = createConnection(options);
  const deadline = performance.now() + options.connectTimeoutMs;
  const version = () => connection.database.request({
    pathname: '/_api/version', timeout: Math.max(1, deadline - performance.now()),
  });
  try {
    await version();
    await Promise.all(Array.from({ length: options.concurrency }, version));
  } catch (error) {
    await connection.close();
    throw connectError(options, error);
  }
  return connection;
}

export function connectError(options, error) {
  return new BenchError(ErrorCodes.CONNECT, `${ADAPTER_ID}: cannot connect to ${options.host}:${options.port} as `
    + `user "${options.user}", database "${options.database}": ${connectErrorReason(options, error)}`,
  { cause: error });
}

export function connectErrorReason(options, error) {
  if (error instanceof ResponseTimeoutError) return `no answer within ${options.connectTimeoutMs} ms`;
  if (systemErrorCode(error) === 'ECONNREFUSED') {
    return 'connection refused (is the server running and listening there?)';
  }
  if (error.code === 401) {
    return options.password === undefined
      ? `the server refused user "${options.user}" without a password; set ${PASSWORD_ENV}`
      : `the server refused user "${options.user}" with the password from ${PASSWORD_ENV}`;
  }
  if (isArangoErrorNumber(error, ARANGO_ERRORS.databaseNotFound)) {
    return `database "${options.database}" does not exist`;
  }
  if (error instanceof HttpError) {
    return `GET /_api/version answered HTTP ${error.code} (${error.message}): is this an ArangoDB server?`;
  }
  return error.message;
}

// Why the server refused to create the namespace database, when it is one of the refusals a user can act on;
// null otherwise.
export function createDatabaseRefusal(options, error) {
  if (isArangoErrorNumber(error, ARANGO_ERRORS.useSystemDatabase)) {
    return `ArangoDB creates databases only from _system, and the adapter is connected to "${options.database}" `
      + '(use --database _system)';
  }
  if (isArangoErrorNumber(error, ARANGO_ERRORS.forbidden) || error.code === 401 || error.code === 403) {
    return `user "${options.user}" may not create databases (that takes the Administrate access level on _system)`;
  }
  return null;
}

// The code of the operating system's error (ECONNREFUSED, ...) somewhere in an error's chain of causes; the
// depth bound guards against a cyclic chain.
function systemErrorCode(error) {
  let cause = error;
  for (let depth = 0; cause && depth < 16; depth += 1, cause = cause.cause) {
    if (typeof cause.code === 'string' && typeof cause.syscall === 'string') return cause.code;
  }
  return null;
}
