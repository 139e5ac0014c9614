// The operations through `postgres` (porsager's driver), selected by `--driver postgres`. pg waits for each
// query's answer before a connection takes the next; postgres writes the next query on a busy connection while
// the server still answers the last one (pipelining), so a few connections keep many operations in flight and
// the server runs fewer backends on the same cores. Everything else of the adapter (the namespace, the COPY
// imports, index builds, the queries suite's loads) stays on pg's pool (connection.js).
import postgres from 'postgres';
import { PASSWORD_ENV, connectError } from './connection.js';

// Connections per pool: the run's concurrency, up to this many; the operations beyond it are pipelined. Fewer
// backends than operations in flight was measured faster on this project's 2-core machine (README, "Drivers").
export const PIPELINED_CONNECTIONS = 4;

// The application name its sessions log in with, so that the server tells them from pg's ('db-shootout').
export const SESSION_NAME = 'db-shootout/postgres';
// Settings sent at login: the random_page_cost pg's sessions get too (connection.js's SESSION_OPTIONS).
const SESSION = { application_name: SESSION_NAME, random_page_cost: '1.1' };

// pg hands a string parameter over as it is and JSON-encodes an object; postgres would JSON-encode the JSON
// text the models pass for a jsonb column, storing a JSON string instead of the document.
const jsonText = {
  to: 3802,
  from: [114, 3802],
  serialize: (value) => (typeof value === 'string' ? value : JSON.stringify(value)),
  parse: (text) => JSON.parse(text),
};

function password(options) {
  if (options.password !== undefined) return options.password;
  return () => {
    throw new Error(`the server asks for a password; set ${PASSWORD_ENV}`);
  };
}

// One pool whose sessions commit with `synchronousCommit`; every connection opened now, so that no timed
// operation waits for a login.
async function openSessions(label, options, synchronousCommit) {
  const max = Math.min(options.concurrency, PIPELINED_CONNECTIONS);
  const sql = postgres({
    host: options.host,
    port: options.port,
    user: options.user,
    database: options.database,
    pass: password(options),
    max,
    // Never close a connection on its own: a reconnect must not land inside a timed operation.
    idle_timeout: null,
    max_lifetime: null,
    connect_timeout: options.connectTimeoutMs / 1000,
    prepare: true,
    types: { jsonText },
    connection: { ...SESSION, synchronous_commit: synchronousCommit },
    onnotice: () => {},
  });
  try {
    // Idle connections are taken first and closed ones opened before a busy one is shared, so `max` queries at
    // once open every connection.
    await Promise.all(Array.from({ length: max }, () => sql.unsafe('SELECT 1')));
  } catch (error) {
    await sql.end({ timeout: 0 });
    throw connectError(label, options, error);
  }
  return sql;
}

// { rows(text, values), write(durable, text, values), query({ text, values, rowMode }), end() }: rows and write
// prepare each statement on each connection on first use, as the pg path does.
export async function openPostgresDriver(label, options) {
  const relaxed = await openSessions(label, options, 'off');
  let durable;
  try {
    durable = await openSessions(label, options, 'on');
  } catch (error) {
    await relaxed.end({ timeout: 0 });
    throw error;
  }
  const prepared = (sql, text, values) => sql.unsafe(text, values ?? [], { prepare: true });
  // postgres's end() settles queries already written to a connection, but leaves those still waiting in its
  // queue pending for good: end() waits for every operation first.
  const inFlight = new Set();
  const tracked = (operation) => (...args) => {
    const promise = operation(...args);
    inFlight.add(promise);
    promise.then(() => inFlight.delete(promise), () => inFlight.delete(promise));
    return promise;
  };
  return {
    rows: tracked(async (text, values) => prepared(relaxed, text, values).values()),
    write: tracked(async (isDurable, text, values) => {
      const result = await prepared(isDurable ? durable : relaxed, text, values);
      return { rowCount: result.count };
    }),
    // The queries suite's cases: unnamed statements, planned for their values each time, as pg runs them.
    query: tracked(async ({ text, values, rowMode }) => {
      const query = relaxed.unsafe(text, values ?? [], { prepare: false });
      const result = rowMode === 'array' ? await query.values() : await query;
      return { rows: result, rowCount: result.count };
    }),
    async end() {
      await Promise.allSettled([...inFlight]);
      await Promise.all([relaxed.end(), durable.end()]);
    },
  };
}
