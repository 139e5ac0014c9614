// How the adapter reaches the server: a probe of the binary port, an orientjs client whose socket pool is sized
// from --concurrency, a check of the credentials, and pools of database sessions. Every failure to connect is an
// E_CONNECT error naming host:port and the reason, within connectTimeoutMs.
import net from 'node:net';
import orientjs from 'orientjs';
import { BenchError, ErrorCodes } from '../../core/errors.js';

export const PASSWORD_ENV = 'BENCH_ORIENTDB_PASSWORD';
// The root password `bench server start orientdb` gives a local server when PASSWORD_ENV is unset. The local
// server listens on 127.0.0.1 only, so a well-known password there exposes nothing.
export const DEFAULT_PASSWORD = 'dbshootout';

// orientjs logs through console by default; an adapter prints nothing, and every error reaches its caller.
const SILENT = { debug() {}, log() {}, error() {} };
// An OrientDB server greets every new binary connection with its protocol version, a 2-byte short.
const GREETING_BYTES = 2;

export function endpoint(options) {
  return `${options.host}:${options.port}`;
}

export function credentials(options) {
  return { username: options.user, password: options.password ?? DEFAULT_PASSWORD };
}

class ConnectFailure extends Error {}

export function connectError(label, options, error) {
  const reason = error instanceof ConnectFailure ? error.message : describe(options, error);
  return new BenchError(ErrorCodes.CONNECT,
    `${label}: cannot connect to ${endpoint(options)} as user "${options.user}": ${reason}`, { cause: error });
}

function describe(options, error) {
  const message = String(error?.message ?? error).split('\n')[0];
  if (/wrong user\/password|user or password not valid/i.test(message) && options.password === undefined) {
    return `${message} (no password was given, so the local default was tried; set ${PASSWORD_ENV})`;
  }
  return message;
}

// Rejects with `what` when `promise` has not settled within the deadline (a performance.now() value).
async function before(deadline, promise, what) {
  let timer;
  const late = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new ConnectFailure(what)), Math.max(0, deadline - performance.now()));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

// orientjs waits forever for a server that accepts the connection and never answers, and keeps its sockets
// open afterwards, so the process could not exit. This probe, on a socket of its own that it always destroys,
// settles first: refused, silent, or not an OrientDB binary port.
function probe(options, deadline) {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection({ host: options.host, port: options.port });
    let received = 0;
    const settle = (error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error); else resolve();
    };
    const timer = setTimeout(() => settle(new ConnectFailure(
      `no answer within ${options.connectTimeoutMs} ms`)), Math.max(0, deadline - performance.now()));
    socket.on('data', (chunk) => {
      received += chunk.length;
      if (received >= GREETING_BYTES) settle();
    });
    socket.on('error', (error) => settle(new ConnectFailure(error.code === 'ECONNREFUSED'
      ? 'connection refused (is the server running and listening there?)'
      : error.message)));
    socket.on('close', () => settle(new ConnectFailure(
      'the server closed the connection without greeting (is this the OrientDB binary port?)')));
  });
}

// The server, reached and logged into: an orientjs client with `concurrency` sockets, the credentials the server
// accepted, and whether `database` exists. Rejects with E_CONNECT.
export async function openServer(label, options, database) {
  const deadline = performance.now() + options.connectTimeoutMs;
  const login = credentials(options);
  let client = null;
  try {
    await probe(options, deadline);
    // The socket pool is orientjs's, set explicitly: its default (max 5) would silently cap the concurrency.
    client = new orientjs.OrientDBClient({
      host: options.host,
      port: options.port,
      pool: { min: options.concurrency, max: options.concurrency },
      logger: SILENT,
    });
    const timeout = `no answer within ${options.connectTimeoutMs} ms`;
    await before(deadline, client.connect(), timeout);
    const server = { client, login, deadline };
    // A server-level request: proves the user and password, which database sessions would only do later.
    const exists = await before(deadline, databaseExists(server, database), timeout);
    return { ...server, exists };
  } catch (error) {
    await client?.close();
    throw connectError(label, options, error);
  }
}

// A pool of `concurrency` sessions on one database, every one of them opened before it resolves, so no timed
// operation waits for a login. `deadline` bounds the opening when it is part of connect().
export async function openSessions(label, options, server, name, deadline = null) {
  const { client, login } = server;
  const size = options.concurrency;
  const pool = await client.sessions({
    name,
    ...login,
    // Push notifications are for clusters of servers; without them a session costs no extra request.
    pushNotification: false,
    pool: { min: size, max: size },
  });
  const warm = async () => {
    const sessions = await Promise.all(Array.from({ length: size }, () => pool.acquire()));
    await Promise.all(sessions.map((session) => session.close()));
  };
  try {
    await (deadline === null ? warm() : before(deadline, warm(), `no answer within ${options.connectTimeoutMs} ms`));
  } catch (error) {
    await pool.close();
    throw deadline === null ? error : connectError(label, options, error);
  }
  return pool;
}

// Ends every session of the pool, waiting at most `ms` for sessions still lent out: orientjs can leave a request
// unanswered for good when the server stops in the middle of it, and the pool would wait for its session forever.
// The server ends abandoned sessions with their sockets.
export async function closeSessions(pool, ms) {
  let timer;
  const waited = new Promise((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([pool.close(), waited]);
  } finally {
    clearTimeout(timer);
  }
}

// Server-level requests, in order, on one socket of the client's pool, logged in as the server user; resolves to
// their answers. orientjs's existsDatabase, createDatabase and dropDatabase do the same in _runAsAdmin, which
// never settles when no socket can be had (the server has gone) and has bluebird print the rejection; this
// rejects. There is no logout: the server closes a socket after one, and a request sent on it before the client
// notices would never be answered. The server-level session ends with its socket.
async function asServerUser(server, requests) {
  const { connection } = await server.client.cluster.acquireFrom();
  try {
    const { sessionId, token } = await connection.send('connect', { ...server.login, useToken: true });
    const answers = [];
    for (const [operation, data] of requests) {
      answers.push(await connection.send(operation, { ...data, sessionId, token }));
    }
    return answers;
  } finally {
    await connection.close();
  }
}

export async function databaseExists(server, name) {
  const [{ exists }] = await asServerUser(server, [['db-exists', { name, storage: 'plocal' }]]);
  return exists;
}

export async function createDatabase(server, name) {
  await asServerUser(server, [['db-create', { name, type: 'graph', storage: 'plocal' }]]);
}

export async function dropDatabase(server, name) {
  await asServerUser(server, [['db-delete', { name, storage: 'plocal' }]]);
}

// Values of the server's global configuration, by key.
export async function serverConfig(server, keys) {
  const answers = await asServerUser(server, keys.map((key) => ['config-get', { key }]));
  return Object.fromEntries(keys.map((key, i) => [key, answers[i].value]));
}
