// `bench server status --activity` and the test watchdog read what a local server is doing (server/activity.js):
// a session that waits is listed with what it waits on. Against the servers `bench server start` runs.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { defaultCacheDir } from '../core/paths.js';
import { serverActivity } from '../server/activity.js';
import { runningServer } from '../server/state.js';
import mysqlDescription from '../adapters/mysql/description.js';
import postgresqlDescription from '../adapters/postgresql/description.js';
import { serverTarget } from './helpers/servers.js';

const TIMEOUT_MS = 60_000;

// The server's activity as text, read again every 100 ms for up to 5 s until a line holds `needle` (a statement
// the client has sent may not be listed yet).
async function activityShowing(family, state, needle) {
  let lines = [];
  for (let i = 0; i < 50 && !lines.some((line) => line.includes(needle)); i += 1) {
    await new Promise((resolve) => { setTimeout(resolve, 100); });
    lines = await serverActivity(family, state);
  }
  return lines.join('\n');
}

describe('PostgreSQL activity', { skip: serverTarget(postgresqlDescription).skip, timeout: TIMEOUT_MS }, () => {
  const state = runningServer(defaultCacheDir(), 'postgresql');
  const clients = [];
  after(async () => { for (const client of clients) await client.end().catch(() => {}); });

  test('a session waiting on another\'s lock is listed, with the lock it waits for and who holds it', async () => {
    const open = async () => {
      const client = new pg.Client({ host: state.host, port: state.port, user: state.user, database: state.database });
      clients.push(client);
      await client.connect();
      return client;
    };
    const holder = await open();
    const waiter = await open();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(424242)');
    const holderPid = (await holder.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const waiterPid = (await waiter.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const waiting = waiter.query('SELECT pg_advisory_lock(424242), 1 AS marker_activity_test');
    const text = await activityShowing('postgresql', state, 'locktype="advisory"');
    assert.match(text, new RegExp(`pid="${waiterPid}" .*wait_event_type="Lock" wait_event="advisory" .*marker_activity_test`));
    assert.match(text, new RegExp(`pid="${waiterPid}" locktype="advisory" mode="ExclusiveLock" .*blocked_by="${holderPid}"`));
    await holder.query('COMMIT');
    await waiting;
    await waiter.query('SELECT pg_advisory_unlock(424242)');
  });
});

describe('MariaDB activity', { skip: serverTarget(mysqlDescription).skip, timeout: TIMEOUT_MS }, () => {
  const state = runningServer(defaultCacheDir(), 'mariadb');

  test('a running statement is listed with its state and time, and the InnoDB sections that say who waits', async () => {
    const connection = await mysql.createConnection({ host: state.host, port: state.port, user: state.user });
    try {
      const [[{ id }]] = await connection.query('SELECT CONNECTION_ID() AS id');
      const sleeping = connection.query('SELECT SLEEP(3) AS marker_activity_test');
      const text = await activityShowing('mariadb', state, 'marker_activity_test');
      assert.match(text, new RegExp(`ID="${id}" USER="${state.user}" DB=- COMMAND="Query" TIME="\\d+" STATE="User sleep" INFO="SELECT SLEEP\\(3\\) AS marker_activity_test"`));
      assert.match(text, /InnoDB transactions:/);
      assert.match(text, /^ {2}TRANSACTIONS$/m);
      assert.doesNotMatch(text, /information_schema\.PROCESSLIST/, 'its own query is left out');
      await sleeping;
    } finally {
      connection.destroy();
    }
  });
});

test('a server that does not answer is said so, in bounded time', { timeout: TIMEOUT_MS }, async () => {
  const net = await import('node:net');
  // Accepts the connection and never says a word: the MariaDB handshake never comes.
  const silent = net.createServer(() => {}).listen(0, '127.0.0.1');
  await new Promise((resolve) => { silent.once('listening', resolve); });
  try {
    const started = performance.now();
    const lines = await serverActivity('mariadb', { host: '127.0.0.1', port: silent.address().port, user: 'root' });
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^could not read its activity: /);
    assert.ok(performance.now() - started < 15_000);
  } finally {
    silent.close();
  }
});
