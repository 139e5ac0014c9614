// The driver of one adapter instance, and what a failed connection attempt tells the user.
import net from 'node:net';
import neo4j from 'neo4j-driver';
import { BenchError, ErrorCodes } from '../../core/errors.js';

export const PASSWORD_ENV = 'BENCH_NEO4J_PASSWORD';

const UNAUTHORIZED = 'Neo.ClientError.Security.Unauthorized';
// The Bolt handshake: the magic preamble and four version proposals (5.0 to 5.4, 4.4, and two empty ones).
// The server answers with four bytes, the version it chose (zero bytes first) or zero for none.
const BOLT_HANDSHAKE = Buffer.from([0x60, 0x60, 0xb0, 0x17, 0, 4, 4, 5, 0, 0, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0]);

export function endpoint(options) {
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return `${host}:${options.port}`;
}

// Basic authentication only with a password from PASSWORD_ENV; without one the driver logs in with "none",
// which a server running with dbms.security.auth_enabled=false (the local server) accepts.
function auth(options) {
  return options.password === undefined ? neo4j.auth.none() : neo4j.auth.basic(options.user, options.password);
}

function driverConfig(options) {
  return {
    // Set explicitly: the driver's default of 100 would decide the concurrency otherwise.
    maxConnectionPoolSize: options.concurrency,
    // The TCP connect only; connect() bounds the handshake and the login itself.
    connectionTimeout: options.connectTimeoutMs,
    // Waiting for a pooled connection never happens while at most `concurrency` operations are in flight;
    // it is as long as the connection timeout, which it would otherwise cut short when it opens a connection.
    connectionAcquisitionTimeout: options.connectTimeoutMs,
    // Never retire a connection for its age, so no reconnect lands inside a timed operation.
    maxConnectionLifetime: -1,
    // Integers come back as JavaScript numbers (exact below 2^53) instead of neo4j Integer objects.
    disableLosslessIntegers: true,
    // Every record of a result in one PULL: a large neighbourhood costs no extra round trips.
    fetchSize: -1,
    // The server neither computes nor sends notifications (deprecations, performance hints).
    notificationFilter: { minimumSeverityLevel: 'OFF' },
    telemetryDisabled: true,
    // Names the harness's connections in the server's dbms.listConnections() and query log.
    userAgent: 'db-shootout',
  };
}

export function createDriver(options) {
  return neo4j.driver(`bolt://${endpoint(options)}`, auth(options), driverConfig(options));
}

export function sessionConfig(options, mode) {
  return { database: options.database, defaultAccessMode: mode === 'write' ? neo4j.session.WRITE : neo4j.session.READ };
}

// The driver has no timeout for its handshake: against a server that accepts the TCP connection and never
// answers, its sockets would wait, and keep the process alive, for as long as the server holds them. So one
// socket of the adapter's own makes the handshake first, bounded by connectTimeoutMs, and is closed after it.
function probeBolt(options) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: options.host, port: options.port });
    let answer = Buffer.alloc(0);
    const settle = (error) => {
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    socket.setTimeout(options.connectTimeoutMs,
      () => settle(new Error(`no answer within ${options.connectTimeoutMs} ms`)));
    socket.on('error', settle);
    socket.on('close', () => settle(new Error('the server closed the connection during the Bolt handshake')));
    socket.on('connect', () => socket.write(BOLT_HANDSHAKE));
    socket.on('data', (chunk) => {
      answer = Buffer.concat([answer, chunk]);
      if (answer.length < 4) return;
      settle(answer[0] === 0 && answer[1] === 0 ? null
        : new Error('the server answered, but not with the Bolt protocol (is this the Bolt port?)'));
    });
  });
}

// A driver holding all its `concurrency` connections, so no timed operation waits for a connection. One session
// runs `RETURN 1` first, which proves that the database exists and the login works; only then is the rest of
// the pool opened, all at once: a wrong password tried on every connection would count as that many
// failed logins, and the server locks the user out after a few (dbms.security.auth_max_failed_attempts).
// Rejects with E_CONNECT naming host:port and the reason, within connectTimeoutMs.
export async function openDriver(options) {
  const begin = performance.now();
  try {
    await probeBolt(options);
  } catch (error) {
    throw connectError(options, error);
  }
  const remainingMs = Math.max(1, options.connectTimeoutMs - (performance.now() - begin));
  const driver = createDriver(options);
  const ping = async () => {
    const session = driver.session(sessionConfig(options, 'read'));
    try {
      await session.run('RETURN 1');
    } finally {
      await session.close();
    }
  };
  // The first connection is idle in the pool again when the others start: `concurrency` pings at once reuse it
  // and open the rest.
  const fill = async () => {
    await ping();
    await Promise.all(Array.from({ length: options.concurrency }, ping));
  };
  let timer;
  const timeout = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${options.connectTimeoutMs} ms`)), remainingMs);
  });
  try {
    await Promise.race([fill(), timeout]);
  } catch (error) {
    // Not awaited: a connection that stalls after the handshake would hold close() too.
    driver.close().catch(() => {});
    throw connectError(options, error);
  } finally {
    clearTimeout(timer);
  }
  return driver;
}

export function connectError(options, error) {
  const who = options.password === undefined ? 'without authentication' : `as user "${options.user}"`;
  return new BenchError(ErrorCodes.CONNECT,
    `neo4j: cannot connect to ${endpoint(options)} ${who}, database "${options.database}": ${reason(options, error)}`,
    { cause: error });
}

function reason(options, error) {
  const message = error.message ?? String(error);
  if (/ECONNREFUSED/.test(message)) return 'connection refused (is the server running and listening there?)';
  if (/Failed to establish connection in/.test(message)) return `no answer within ${options.connectTimeoutMs} ms`;
  if (error.code === UNAUTHORIZED && options.password === undefined) {
    return `${message}; no password was given (set ${PASSWORD_ENV})`;
  }
  // The driver's text around a socket error ("Failed to connect to server. Please ensure ...") says less
  // than its cause.
  return message.match(/ Caused by: (.*)$/s)?.[1] ?? message;
}
