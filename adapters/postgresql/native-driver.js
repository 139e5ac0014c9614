// The operations through libpq's synchronous calls (pg-native, node-postgres's binding of libpq), selected by
// `--driver pg-native`. Each call sends its statement and waits in libpq for the answer, blocking the process: no
// event-loop turn, no epoll registration, one send and one receive per operation, as a YCSB client thread does.
// A process therefore has one operation in flight, so the harness runs the timed operations of this driver in
// client processes, one per operation in flight (runner/clients.js), and keeps pg for everything untimed (the
// namespace, the COPY imports, the loads and the checks) in its own process, whose event loop stays free to end a
// client process that stops answering (README, "Drivers").
import { createRequire } from 'node:module';
import pgUtils from 'pg/lib/utils.js';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { PASSWORD_ENV, connectError } from './connection.js';

// The application name its sessions log in with, so that the server tells them from pg's ('db-shootout').
export const SESSION_NAME = 'db-shootout/pg-native';
const SESSION_OPTIONS = '-c random_page_cost=1.1';

const require = createRequire(import.meta.url);

// pg-native is an optional dependency: its binding is compiled at install, which needs libpq's headers
// (pg_config; Debian's libpq-dev).
function loadNative() {
  try {
    return require('pg-native');
  } catch (error) {
    throw new BenchError(ErrorCodes.USAGE, `--driver pg-native: the pg-native package is not installed or its libpq binding did not build (${error.message.split('\n')[0]}); `
      + 'install libpq\'s headers (Debian: apt-get install libpq-dev) and run npm install again, or use --driver pg');
  }
}

// libpq's conninfo value: quoted, with backslashes and quotes escaped.
const quote = (value) => `'${String(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

// The conninfo of one session; the password only from PASSWORD_ENV (options.password), as with pg.
export function connInfo(options, synchronousCommit) {
  const parts = {
    host: options.host,
    port: options.port,
    user: options.user,
    dbname: options.database,
    connect_timeout: Math.max(1, Math.ceil(options.connectTimeoutMs / 1000)),
    application_name: SESSION_NAME,
    options: `${SESSION_OPTIONS} -c synchronous_commit=${synchronousCommit}`,
    // Never ~/.pgpass or PGPASSWORD: the password is PASSWORD_ENV's or none (an empty one given keeps libpq from
    // reading its own variable).
    passfile: '/dev/null',
    password: options.password ?? '',
  };
  return Object.entries(parts).filter(([key, value]) => value !== undefined && value !== null && (value !== '' || key === 'password'))
    .map(([key, value]) => `${key}=${quote(value)}`).join(' ');
}

// libpq's error as pg gives it: the message, with the server's SQLSTATE as `code` (23505 for a duplicate key...).
function serverError(client, error) {
  const fields = client.pq.resultErrorFields?.() ?? {};
  const wrapped = new Error(String(error.message).trim());
  if (fields.sqlState) wrapped.code = fields.sqlState;
  if (fields.detail) wrapped.detail = fields.detail;
  return wrapped;
}

// One session and its prepared statements, parsed and planned once, then only bound and executed.
function session(Native, label, options, synchronousCommit) {
  const client = new Native({ arrayMode: true });
  try {
    client.connectSync(connInfo(options, synchronousCommit));
  } catch (error) {
    const text = String(error.message).trim().replace(/\s+/g, ' ');
    const message = /no password supplied|password authentication failed/i.test(text) && options.password === undefined
      ? `the server asks for a password; set ${PASSWORD_ENV}` : text;
    // As pg's errors read to connectError: a refusal by its code, libpq's "timeout expired" by its text.
    throw connectError(label, options, Object.assign(new Error(message), /Connection refused/i.test(text) ? { code: 'ECONNREFUSED' } : {}));
  }
  const names = new Map();
  const prepare = (text, count) => {
    let name = names.get(text);
    if (name === undefined) {
      name = `db_shootout_native_${names.size + 1}`;
      try {
        client.prepareSync(name, text, count);
      } catch (error) {
        throw serverError(client, error);
      }
      names.set(text, name);
    }
    return name;
  };
  return {
    execute(text, values = []) {
      const name = prepare(text, values.length);
      try {
        const rows = client.executeSync(name, values.map((value) => pgUtils.prepareValue(value)));
        return { rows, rowCount: Number.parseInt(client.pq.cmdTuples(), 10) || 0 };
      } catch (error) {
        throw serverError(client, error);
      }
    },
    // An unnamed statement, planned for its values each time, as pg runs the queries suite's cases.
    query(text, values, arrayMode) {
      client.arrayMode = arrayMode;
      try {
        const rows = values?.length ? client.querySync(text, values.map((value) => pgUtils.prepareValue(value))) : client.querySync(text);
        return { rows, rowCount: Number.parseInt(client.pq.cmdTuples(), 10) || 0 };
      } catch (error) {
        throw serverError(client, error);
      } finally {
        client.arrayMode = true;
      }
    },
    end() {
      client.end();
    },
  };
}

// { rows(text, values), write(durable, text, values), query({ text, values, rowMode }), end(), blocking: true },
// the shape of postgres-driver.js's: two sessions, one committing with synchronous_commit off and one with it on.
// Each call resolves only after the server has answered; none is ever in flight when end() is called.
export async function openNativeDriver(label, options) {
  const Native = loadNative();
  const relaxed = session(Native, label, options, 'off');
  let durable;
  try {
    durable = session(Native, label, options, 'on');
  } catch (error) {
    relaxed.end();
    throw error;
  }
  return {
    blocking: true,
    rows: async (text, values) => relaxed.execute(text, values).rows,
    write: async (isDurable, text, values) => ({ rowCount: (isDurable ? durable : relaxed).execute(text, values).rowCount }),
    query: async ({ text, values, rowMode }) => relaxed.query(text, values, rowMode === 'array'),
    async end() {
      relaxed.end();
      durable.end();
    },
  };
}
