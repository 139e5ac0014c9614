// The timed operations through `mariadb` (the MariaDB connector), selected by `--driver mariadb`: the social
// suite's operations and the crud suite's document operations. Everything else of the adapter (the namespace,
// the LOAD DATA imports, index builds, the queries and graph suites) stays on mysql2's pool (connection.js).
// What it lends has mysql2's shape, so the statements and the code that reads their answers are the same for both
// drivers: execute() resolves with [rows] (or [result] of a write), getConnection() with a connection that
// executes and queries the same way and is released.
import mariadb from 'mariadb';
import { connectError, connectionConfig } from './connection.js';

// How long after its deadline connect() stops waiting for a pool that neither opened nor gave up.
const LATE_MS = 200;

// What the adapter's settings record as `import_driver` when this driver carries the operations.
export const IMPORT_DRIVER = 'mysql2 (LOAD DATA), and the queries and graph suites; the social and crud operations '
  + 'through mariadb';

// mysql2's connection settings (connection.js), in the options the connector spells the same way, so that both
// drivers log in to the same session: utf8mb4 (collation utf8mb4_general_ci, sent in the handshake by both),
// BIGINTs as exact numbers, JSON text left for the adapter to parse, no stack trace per query.
export function poolConfig(options, acquireTimeout = options.connectTimeoutMs) {
  const { host, port, user, password, connectTimeout, charset, multipleStatements, supportBigNumbers,
    bigNumberStrings, jsonStrings, trace } = connectionConfig(options);
  return {
    host, port, user, password, connectTimeout, charset, multipleStatements, supportBigNumbers, bigNumberStrings,
    jsonStrings, trace,
    connectionLimit: options.concurrency,
    minimumIdle: options.concurrency,
    // A request waits for a connection as long as a login may take; with a pool of the run's concurrency no
    // operation waits for one at all.
    acquireTimeout,
    // Never close an idle connection, nor ping one before lending it (by default, one idle for 500 ms): neither
    // a login nor an extra round trip may land inside a timed operation, and mysql2's pool does neither. After a
    // connection fails, the pool still checks the others before lending them.
    idleTimeout: 0,
    minDelayValidation: Number.MAX_SAFE_INTEGER,
  };
}

// A connection of the pool with mysql2's answers; `connection` is the same object for as long as the server
// session lives (shortest-path.js creates its temporary tables once per session).
function lent(connection, sessions) {
  if (!sessions.has(connection.threadId)) sessions.set(connection.threadId, { threadId: connection.threadId });
  return {
    connection: sessions.get(connection.threadId),
    execute: async (sql, values) => [await connection.execute(sql, values)],
    query: async (sql, values) => [await connection.query(sql, values)],
    release: () => connection.release(),
  };
}

// { execute(sql, values), getConnection(), end() }, every connection opened before it resolves, and before
// `deadline` (what is left of the adapter's connect timeout) or not at all.
export async function openMariadbDriver(options, deadline = performance.now() + options.connectTimeoutMs) {
  // The requests of connect() wait for their connections until the deadline, then fail with the last login's error.
  const pool = mariadb.createPool(poolConfig(options, Math.max(1, deadline - performance.now())));
  // The pool reports a failed login or a lost connection as an 'error' event too; the operation concerned gets
  // it through its promise, and an event without a listener would be an uncaught exception.
  pool.on('error', () => {});
  // Each connection is held until all are open, then released; on a failure too, or end() would wait 10 s for them.
  const held = [];
  const timedOut = new Error('the mariadb pool did not open in time');
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(timedOut), Math.max(0, deadline - performance.now()) + LATE_MS);
  });
  try {
    await Promise.race([late, Promise.all(Array.from({ length: options.concurrency }, async () => {
      held.push(await pool.getConnection());
    }))]);
  } catch (error) {
    const opened = held.length;
    // end() first rejects the requests still waiting, so no connection released here is lent to one of them.
    const ending = pool.end().catch(() => {});
    await Promise.all(held.map((connection) => connection.release()));
    await ending;
    throw connectError(options, openingError(options, error === timedOut ? null : error, opened));
  } finally {
    clearTimeout(timer);
  }
  await Promise.all(held.map((connection) => connection.release()));
  // Server session ids of the connections lent, by thread id; a connection the pool replaces has a new id.
  const sessions = new Map();
  return {
    execute: async (sql, values) => [await pool.execute(sql, values)],
    getConnection: async () => lent(await pool.getConnection(), sessions),
    // Requests still waiting for a connection are rejected; the operations running finish first.
    end: () => pool.end(),
  };
}

// Why the pool did not open (`error` null: not before the deadline): the server's answer when the pool kept it
// (its own error says only that no connection came), on one line, a timeout worded as mysql2's. A pool that the
// server let some connections in retries the others until it gives up, and keeps no reason.
function openingError(options, error, opened) {
  const cause = error?.cause ?? (opened === 0 ? error : null);
  if (cause) {
    // The connector appends the pool's state on a line of its own.
    const code = cause.code === 'ER_CONNECTION_TIMEOUT' ? 'ETIMEDOUT' : cause.code;
    return Object.assign(new Error(cause.message.split('\n')[0], { cause }), { code });
  }
  if (opened === 0) {
    return Object.assign(new Error('the mariadb pool opened none of its connections'), { code: 'ETIMEDOUT' });
  }
  return new Error(`the mariadb pool opened ${opened} of its ${options.concurrency} connections within `
    + `${options.connectTimeoutMs} ms; with --driver mariadb the server must accept twice --concurrency logins `
    + '(mysql2\'s pool stays open beside it; see its max_connections)');
}
