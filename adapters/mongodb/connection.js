// How the adapter and its test support reach the server: one MongoClient configuration with the pool sized from
// the run's concurrency, and connection failures turned into E_CONNECT errors that name host:port.
import { MongoClient } from 'mongodb';
import { BenchError, ErrorCodes, withTimeout } from '../../core/errors.js';
import { LABEL } from './namespace.js';

export const PASSWORD_ENV = 'BENCH_MONGODB_PASSWORD';
// Where users are defined unless --database names another database.
const DEFAULT_AUTH_SOURCE = 'admin';

// The server's address as the driver writes it in its events: host in lower case, IPv6 in brackets.
export function serverAddress(options) {
  const host = String(options.host).toLowerCase();
  return host.includes(':') ? `[${host}]:${options.port}` : `${host}:${options.port}`;
}

export function connectionUrl(options) {
  return `mongodb://${serverAddress(options)}/`;
}

export function clientOptions(options) {
  const { concurrency, connectTimeoutMs } = options;
  return {
    // The driver's default pool of 100 must not decide the concurrency: the run's does, explicitly. The pool is
    // kept full (minPoolSize) and idle connections are never closed (maxIdleTimeMS 0), so no timed operation
    // waits for a handshake; maxConnecting lets connect() open all of them at once (the default is 2).
    maxPoolSize: concurrency,
    minPoolSize: concurrency,
    maxConnecting: concurrency,
    maxIdleTimeMS: 0,
    // Bounds the TCP connect and handshake of each connection, and the wait for a usable server.
    connectTimeoutMS: connectTimeoutMs,
    serverSelectionTimeoutMS: connectTimeoutMs,
    appName: 'db-shootout',
    // BSON int32 and double come back as JavaScript numbers, never as wrapper objects.
    promoteValues: true,
    // A field set to undefined is left out, as JSON would, instead of being stored as null.
    ignoreUndefined: true,
    ...(options.user ? {
      auth: { username: options.user, password: options.password },
      authSource: options.database ?? DEFAULT_AUTH_SOURCE,
    } : {}),
  };
}

// A connected client whose pool holds its `concurrency` connections. Rejects with E_CONNECT naming host:port
// and the reason within connectTimeoutMs, and at once when the first contact with the server fails (a refused
// connection, an unknown host).
export async function openClient(options) {
  if (options.user && options.password === undefined) {
    throw connectError(options, new Error(`no password was given for user "${options.user}"; set ${PASSWORD_ENV}`));
  }
  let client;
  try {
    client = new MongoClient(connectionUrl(options), clientOptions(options));
  } catch (error) {
    throw connectError(options, error);
  }
  // The driver retries a server it cannot reach until serverSelectionTimeoutMS; its monitor's first failed
  // check is reason enough to stop.
  const seed = serverAddress(options);
  let onFailure;
  const unreachable = new Promise((_, reject) => {
    onFailure = (event) => {
      if (event.connectionId === seed) reject(event.failure);
    };
  });
  client.on('serverHeartbeatFailed', onFailure);
  try {
    await withTimeout(Promise.race([fillPool(client, options.concurrency), unreachable]), options.connectTimeoutMs,
      `no answer within ${options.connectTimeoutMs} ms`);
    return client;
  } catch (error) {
    await client.close();
    throw connectError(options, error);
  } finally {
    client.off('serverHeartbeatFailed', onFailure);
  }
}

// One ping proves the server answers and accepts the login; then `connections` pings at once each check out a
// connection of their own, which makes the pool open all of them now rather than one every 100 ms in the
// background (the driver's pace for minPoolSize).
async function fillPool(client, connections) {
  await client.connect();
  const admin = client.db('admin');
  await admin.command({ ping: 1 });
  await Promise.all(Array.from({ length: connections }, () => admin.command({ ping: 1 })));
}

export function connectError(options, error) {
  const user = options.user ? ` as user "${options.user}" (authentication database "${options.database ?? DEFAULT_AUTH_SOURCE}")` : '';
  return new BenchError(ErrorCodes.CONNECT,
    `${LABEL}: cannot connect to ${options.host}:${options.port}${user}: ${reason(options, error)}`, { cause: error });
}

// The first system error code in the cause chain (ECONNREFUSED, ENOTFOUND, ...).
function systemCode(error) {
  for (let e = error; e; e = e.cause) if (typeof e.code === 'string' && e.code.startsWith('E')) return e.code;
  return null;
}

function reason(options, error) {
  if (error.code === ErrorCodes.TIMEOUT) return error.message;
  const code = systemCode(error);
  if (code === 'ECONNREFUSED') return 'connection refused (is the server running and listening there?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host not found (${error.message})`;
  if (error.name === 'MongoServerSelectionError' || error.name === 'MongoNetworkTimeoutError') {
    return `no answer within ${options.connectTimeoutMs} ms (${error.message})`;
  }
  return error.message;
}
