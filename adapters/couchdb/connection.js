// The nano client of one adapter instance: its own undici Agent (keep-alive sockets, as many as the run's
// concurrency), the check that a CouchDB API answers with the credentials given, and what the server says it is.
import nano from 'nano';
import { Agent } from 'undici';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { ADAPTER_ID } from './namespace.js';

export const PASSWORD_ENV = 'BENCH_COUCHDB_PASSWORD';

// Idle sockets stay open across the pauses between phases, so no timed request pays for a new connection.
const KEEP_ALIVE_MS = 60_000;

export function serverUrl(host, port) {
  const name = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

// nano sends every request through the global fetch with this Agent as its dispatcher, so the Agent alone sets
// how many requests run at once; closing it settles the requests in flight. Basic authentication only when a
// password is given: CouchDB 3 asks for an admin's, PouchDB Server (admin party) for none.
// No time limit of undici's own (300 s by default) on an answer: CouchDB answers the first read of a view only once
// the view is built, which takes longer than that for the queries suite's larger collections on PouchDB Server. A
// stalled operation is the harness's to detect (--stall-timeout), and close() settles every request.
export function createConnection(options) {
  const agent = new Agent({
    connections: options.concurrency, keepAliveTimeout: KEEP_ALIVE_MS, headersTimeout: 0, bodyTimeout: 0,
  });
  const headers = options.password === undefined ? {}
    : { Authorization: `Basic ${Buffer.from(`${options.user ?? ''}:${options.password}`).toString('base64')}` };
  const client = nano({ url: serverUrl(options.host, options.port), agentOptions: agent, headers });
  return {
    client,
    async close() {
      await agent.destroy();
    },
  };
}

// The version string of GET /'s answer. CouchDB answers { couchdb: 'Welcome', version, ... }; PouchDB Server
// { 'express-pouchdb': 'Welcome!', version, 'pouchdb-adapters': [...], vendor: { name, version } }: its figures must never pass for
// CouchDB's, so its string says what it is.
export function describeServer(welcome) {
  if (Object.hasOwn(welcome, 'couchdb')) return String(welcome.version);
  if (Object.hasOwn(welcome, 'express-pouchdb')) {
    const release = welcome.vendor?.version ?? welcome.version;
    return `PouchDB Server ${release} (the CouchDB HTTP API emulated by express-pouchdb ${welcome.version} on `
      + `${(welcome['pouchdb-adapters'] ?? ['LevelDB']).join(', ')}), not Apache CouchDB`;
  }
  const name = Object.keys(welcome).find((key) => /^Welcome/.test(welcome[key])) ?? 'an unknown server';
  return `${name} ${welcome.version} (a CouchDB HTTP API, not Apache CouchDB)`;
}

// A connection whose server answered GET / as a CouchDB API, whose credentials list the databases (CouchDB 3
// lets only admins), and whose `concurrency` sockets are open, all within connectTimeoutMs. Resolves
// { connection, version }; rejects with E_CONNECT naming host:port.
export async function openConnection(options) {
  const connection = createConnection(options);
  const signal = AbortSignal.timeout(options.connectTimeoutMs);
  const root = () => connection.client.relax({ path: '', signal });
  try {
    const welcome = await root();
    if (typeof welcome?.version !== 'string' || Array.isArray(welcome)) throw new Error(`GET / answered ${JSON.stringify(welcome)}: is this a CouchDB API?`);
    await connection.client.relax({ db: '_all_dbs', signal });
    await Promise.all(Array.from({ length: options.concurrency }, root));
    return { connection, version: describeServer(welcome) };
  } catch (error) {
    await connection.close();
    throw connectError(options, error, signal);
  }
}

function connectError(options, error, signal) {
  let reason = error.message;
  if (signal.aborted) reason = `no answer within ${options.connectTimeoutMs} ms`;
  else if (error.statusCode === 401 || error.statusCode === 403) {
    reason = options.password === undefined
      ? `the server wants an admin's credentials: set ${PASSWORD_ENV} (user "${options.user}")`
      : `the server refused user "${options.user}" with the password from ${PASSWORD_ENV}`;
  }
  return new BenchError(ErrorCodes.CONNECT,
    `${ADAPTER_ID}: cannot connect to ${options.host}:${options.port}: ${reason}`, { cause: error });
}
