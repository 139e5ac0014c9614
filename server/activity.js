// What a local server is doing right now, in its own words: the statements running and what each waits on
// (MariaDB's process list, InnoDB's transactions and semaphores; PostgreSQL's pg_stat_activity and the locks not
// granted; Neo4j's transactions; PouchDB Server's active tasks). For `bench server status --activity` and for the
// test watchdog, which prints it when a test stops making progress. Every query is bounded: a server that does
// not answer within ACTIVITY_TIMEOUT_MS is said to have not answered, so that looking never hangs.
// The drivers are imported when a server is asked: every `bench` command loads this file, and the three drivers
// would cost each of them a quarter of a second to start.
import { withTimeout } from '../core/errors.js';

export const ACTIVITY_TIMEOUT_MS = 10_000;
// Of SHOW ENGINE INNODB STATUS, the sections that say who waits on whom.
const INNODB_SECTIONS = ['SEMAPHORES', 'TRANSACTIONS'];

function table(rows, columns) {
  if (rows.length === 0) return ['  (none)'];
  return rows.map((row) => `  ${columns.map((column) => `${column}=${oneLine(row[column])}`).join(' ')}`);
}

function oneLine(value) {
  if (value === null || value === undefined) return '-';
  const text = value instanceof Date ? value.toISOString() : String(value);
  return JSON.stringify(text.replace(/\s+/g, ' ').slice(0, 300));
}

// The sections of an InnoDB status text named in `names`, each from its heading to the next one.
export function innodbSections(text, names = INNODB_SECTIONS) {
  const lines = String(text).split('\n');
  const out = [];
  let keep = false;
  for (let i = 0; i < lines.length; i += 1) {
    // A heading is a line of capitals between two lines of dashes.
    if (/^-{3,}$/.test(lines[i - 1] ?? '') && /^-{3,}$/.test(lines[i + 1] ?? '') && /^[A-Z][A-Z /]*$/.test(lines[i])) {
      keep = names.includes(lines[i].trim());
      if (keep) out.push(`  ${lines[i]}`);
      i += 1;
    } else if (keep && lines[i].trim() !== '' && !/^-{3,}$/.test(lines[i])) {
      out.push(`    ${lines[i]}`);
    }
  }
  return out;
}

async function mariadbActivity(state) {
  const { default: mysql } = await import('mysql2/promise');
  const connection = await mysql.createConnection({
    host: state.host, port: state.port, user: state.user, connectTimeout: ACTIVITY_TIMEOUT_MS,
  });
  try {
    const [processes] = await connection.query(
      "SELECT ID, USER, DB, COMMAND, TIME, STATE, INFO FROM information_schema.PROCESSLIST WHERE COMMAND <> 'Daemon' AND ID <> CONNECTION_ID() ORDER BY ID",
    );
    const [transactions] = await connection.query(
      'SELECT trx_id, trx_state, trx_started, trx_mysql_thread_id, trx_operation_state, trx_tables_locked, trx_rows_locked, trx_lock_structs, trx_query FROM information_schema.INNODB_TRX',
    );
    const [[status]] = await connection.query('SHOW ENGINE INNODB STATUS');
    return [
      'process list:', ...table(processes, ['ID', 'USER', 'DB', 'COMMAND', 'TIME', 'STATE', 'INFO']),
      'InnoDB transactions:', ...table(transactions, ['trx_id', 'trx_state', 'trx_started', 'trx_mysql_thread_id',
        'trx_operation_state', 'trx_tables_locked', 'trx_rows_locked', 'trx_lock_structs', 'trx_query']),
      'InnoDB status:', ...innodbSections(status.Status),
    ];
  } finally {
    connection.destroy();
  }
}

async function postgresqlActivity(state) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({
    host: state.host, port: state.port, user: state.user, database: state.database,
    connectionTimeoutMillis: ACTIVITY_TIMEOUT_MS, statement_timeout: ACTIVITY_TIMEOUT_MS, application_name: 'db-shootout activity',
  });
  await client.connect();
  try {
    const { rows: sessions } = await client.query(`SELECT pid, usename, datname, application_name, state, backend_type,
        wait_event_type, wait_event, now() - query_start AS running, backend_xid, query
      FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend' ORDER BY pid`);
    const { rows: waits } = await client.query(`SELECT pid, locktype, mode, relation::regclass::text AS relation,
        transactionid, pg_blocking_pids(pid) AS blocked_by
      FROM pg_locks WHERE NOT granted ORDER BY pid`);
    return [
      'sessions (pg_stat_activity):', ...table(sessions.map((row) => ({ ...row, running: row.running && JSON.stringify(row.running) })),
        ['pid', 'usename', 'datname', 'application_name', 'state', 'wait_event_type', 'wait_event', 'running', 'backend_xid', 'query']),
      'locks not granted (pg_locks):', ...table(waits, ['pid', 'locktype', 'mode', 'relation', 'transactionid', 'blocked_by']),
    ];
  } finally {
    await client.end().catch(() => {});
  }
}

async function neo4jActivity(state) {
  const { default: neo4j } = await import('neo4j-driver');
  const driver = neo4j.driver(`bolt://${state.host}:${state.port}`, neo4j.auth.none(), {
    connectionTimeout: ACTIVITY_TIMEOUT_MS, maxConnectionPoolSize: 1, disableLosslessIntegers: true,
  });
  try {
    const { records } = await driver.executeQuery(
      'SHOW TRANSACTIONS YIELD transactionId, currentQuery, status, elapsedTime, statusDetails, database RETURN *',
    );
    return ['transactions:', ...table(records.map((record) => record.toObject()),
      ['transactionId', 'database', 'status', 'statusDetails', 'elapsedTime', 'currentQuery'])];
  } finally {
    await driver.close().catch(() => {});
  }
}

async function pouchdbActivity(state) {
  const response = await fetch(`http://${state.host}:${state.port}/_active_tasks`, { signal: AbortSignal.timeout(ACTIVITY_TIMEOUT_MS) });
  return ['active tasks:', `  ${(await response.text()).trim()}`];
}

const ACTIVITY = { mariadb: mariadbActivity, postgresql: postgresqlActivity, neo4j: neo4jActivity, pouchdb: pouchdbActivity };

// Lines describing what the server of `family` (its recorded state `state`) is doing; never throws.
export async function serverActivity(family, state) {
  const look = ACTIVITY[family];
  if (!look) return [`(${family} has no activity view; its process tree is listed instead)`];
  try {
    return await withTimeout(look(state), ACTIVITY_TIMEOUT_MS,
      `${family} on ${state.host}:${state.port} did not answer within ${ACTIVITY_TIMEOUT_MS / 1000} s`);
  } catch (error) {
    return [`could not read its activity: ${error.message}`];
  }
}
