// --driver pg-native: libpq's synchronous calls (adapters/postgresql/native-driver.js). Its sessions, answers and
// errors as pg's; a refused or silent server in bounded time; and through the CLI, the timed operations in client
// processes, one per operation in flight, with every answer checked, and the flags such a driver cannot take
// refused. Runs against the local server of `bench server start postgresql`.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import postgresql from '../../adapters/postgresql/description.js';
import { clientConfig } from '../../adapters/postgresql/connection.js';
import { SESSION_NAME, connInfo, openNativeDriver } from '../../adapters/postgresql/native-driver.js';
import { ErrorCodes } from '../../core/errors.js';
import { PASSWORD_PROBE_ROLE } from '../../server/postgresql.js';
import { formatTable } from '../../results/table.js';
import { spawnBench } from '../helpers/cli.js';
import { freePort, silentServer } from '../helpers/net.js';
import { sessionsNamed } from '../helpers/pg-sessions.js';
import { connectionFlags, serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_pgnative';
const { options, skip: serverSkip } = serverTarget(postgresql, { namespace: NAMESPACE, concurrency: 2 });
let installed = true;
try {
  createRequire(import.meta.url)('pg-native');
} catch {
  installed = false;
}
// pg-native is an optional dependency: without libpq's headers its binding does not build. Where PostgreSQL is
// required (CI, which installs the headers), a missing pg-native fails these tests instead of skipping them.
const required = (process.env.BENCH_REQUIRE ?? '').split(',').includes('postgresql');
const skip = serverSkip || (!installed && !required && 'pg-native is not installed (its libpq binding needs libpq-dev)');
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pgnative-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const sessions = () => sessionsNamed(options, SESSION_NAME);

test('connInfo: libpq\'s quoting, the commit mode per session, never ~/.pgpass or PGPASSWORD, the password only when given', () => {
  const info = connInfo({ host: '127.0.0.1', port: 5432, user: "o'neil", database: 'a\\b', connectTimeoutMs: 1500 }, 'off');
  assert.equal(info, "host='127.0.0.1' port='5432' user='o\\'neil' dbname='a\\\\b' connect_timeout='2' application_name='db-shootout/pg-native' "
    + "options='-c random_page_cost=1.1 -c synchronous_commit=off' passfile='/dev/null' password=''");
  assert.match(connInfo({ host: 'h', port: 1, user: 'u', database: 'd', connectTimeoutMs: 10_000, password: 'p w' }, 'on'),
    / connect_timeout='10' .*synchronous_commit=on' passfile='\/dev\/null' password='p w'$/);
});

describe('postgresql --driver pg-native', { skip }, () => {
  test('opens two sessions, one per commit mode, and closes them', { timeout: 30_000 }, async () => {
    const before = await sessions();
    const driver = await openNativeDriver('postgresql', options);
    try {
      assert.equal(await sessions() - before, 2);
      assert.deepEqual(await driver.rows('SHOW synchronous_commit'), [['off']]);
      assert.equal(driver.blocking, true);
    } finally {
      await driver.end();
    }
    const deadline = performance.now() + 2000;
    while (await sessions() !== before && performance.now() < deadline) await delay(50);
    assert.equal(await sessions(), before);
  });

  test('answers with pg\'s types, and errors with the server\'s SQLSTATE as pg\'s do', { timeout: 30_000 }, async () => {
    const driver = await openNativeDriver('postgresql', options);
    const client = new pg.Client(clientConfig(options));
    await client.connect();
    try {
      const text = 'SELECT count(*), $1::text, NULL, jsonb_build_object(\'a\', 1, \'b\', $2::int), 1.5::float8, ARRAY[1, 2] FROM (SELECT 1) AS t';
      const values = ['é😀', 7];
      const expected = (await client.query({ text, values, rowMode: 'array' })).rows;
      assert.deepEqual(await driver.rows(text, values), expected);
      assert.deepEqual(expected, [['1', 'é😀', null, { a: 1, b: 7 }, 1.5, [1, 2]]]);
      assert.deepEqual(await driver.query({ text: 'SELECT 1 AS one', rowMode: 'object' }), { rows: [{ one: 1 }], rowCount: 1 });
      await assert.rejects(driver.rows('SELECT 1 / $1::int', [0]), (error) => error.code === '22012' && /division by zero/.test(error.message));
      assert.deepEqual(await driver.write(true, 'SELECT $1::int', [3]), { rowCount: 1 });
      assert.deepEqual(await driver.rows('SELECT $1::int', [4]), [[4]], 'the same statement on the other session');
    } finally {
      await client.end();
      await driver.end();
    }
  });

  test('a password only from BENCH_PG_PASSWORD: libpq\'s PGPASSWORD is not read, a missing one is named', { timeout: 30_000 }, async (t) => {
    const admin = new pg.Client(clientConfig(options));
    await admin.connect();
    const saved = process.env.PGPASSWORD;
    try {
      await admin.query(`DROP ROLE IF EXISTS ${PASSWORD_PROBE_ROLE}`);
      await admin.query(`CREATE ROLE ${PASSWORD_PROBE_ROLE} LOGIN PASSWORD 'right-password'`);
      const probe = { ...options, user: PASSWORD_PROBE_ROLE, connectTimeoutMs: 5000 };
      const wrong = await openNativeDriver('postgresql', { ...probe, password: 'wrong-password' }).then((driver) => driver.end(), (error) => error);
      if (!(wrong instanceof Error)) {
        t.skip(`the server's pg_hba.conf trusts ${PASSWORD_PROBE_ROLE} without a password`);
        return;
      }
      assert.match(wrong.message, /password authentication failed/);
      process.env.PGPASSWORD = 'right-password';
      await assert.rejects(openNativeDriver('postgresql', probe), (error) => error.code === ErrorCodes.CONNECT
        && error.message.endsWith(': the server asks for a password; set BENCH_PG_PASSWORD'));
      const driver = await openNativeDriver('postgresql', { ...probe, password: 'right-password' });
      await driver.end();
    } finally {
      if (saved === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = saved;
      await admin.query(`DROP ROLE IF EXISTS ${PASSWORD_PROBE_ROLE}`);
      await admin.end();
    }
  });

  test('a refused port is E_CONNECT naming host:port, as pg\'s', { timeout: 30_000 }, async () => {
    const port = await freePort();
    await assert.rejects(openNativeDriver('postgresql', { ...options, host: '127.0.0.1', port, connectTimeoutMs: 2000 }),
      (error) => error.code === ErrorCodes.CONNECT
        && error.message.startsWith(`postgresql: cannot connect to 127.0.0.1:${port} as user "${options.user}", database "${options.database}": connection refused`));
  });

  test('a server that accepts but never answers fails within libpq\'s connect timeout (2 s at the least), saying so', { timeout: 30_000 }, async () => {
    const silent = await silentServer();
    const begin = performance.now();
    try {
      await assert.rejects(openNativeDriver('postgresql', { ...options, host: '127.0.0.1', port: silent.port, connectTimeoutMs: 1000 }),
        (error) => error.code === ErrorCodes.CONNECT && new RegExp(`127\\.0\\.0\\.1:${silent.port} .*: no answer within 1000 ms$`).test(error.message));
      assert.ok(performance.now() - begin < 6000, `gave up after ${performance.now() - begin} ms`);
    } finally {
      await silent.close();
    }
  });

  test('bench run: each operation in flight in a client process of its own, every answer checked, pg-native recorded', { timeout: 240_000 }, async () => {
    const out = path.join(dir, 'run');
    const { flags, env } = connectionFlags(postgresql, options);
    const { code, stdout, stderr } = await spawnBench(['run', '--suite', 'mixed', '--db', 'postgresql', ...flags,
      '--namespace', NAMESPACE, '--driver', 'pg-native', '--concurrency', '1,3', '--records', '300', '--ops', '600', '--runs', '1',
      '--workload', '50-50,read-modify-write', '--json', '--quiet', '--out', out], { timeoutMs: 200_000, env });
    assert.equal(code, 0, stderr);
    const result = JSON.parse(stdout);
    assert.deepEqual({ ...result.db.driver, version: null }, { name: 'pg-native', version: null, blocking: true, untimed: 'pg' });
    assert.match(result.db.driver.version, /^\d+\.\d+\.\d+/);
    for (const [key, processes] of [['50-50 n=600 c=1', 1], ['50-50 n=600 c=3', 3], ['read-modify-write n=600 c=3', 3]]) {
      const entry = result.workloads[key];
      assert.equal(entry.status, 'passed', `${key}: ${JSON.stringify(entry.failures ?? entry.reason)}`);
      const [run] = entry.runs;
      // The harness's own process first, then the client processes.
      const [, ...workers] = run.resources.client.processes;
      assert.equal(workers.length, processes, key);
      // A blocking call holds the loop: no utilisation or delay figure is kept for the client processes.
      assert.ok(workers.every((one) => one.eventLoopUtilization === null && one.eventLoopDelayP99Ms === null), key);
    }
    assert.equal(readdirSync(out).length, 1);
    assert.match(formatTable(result).split('\n')[0], /^suite mixed · PostgreSQL [^·]+ · driver pg-native \(blocking: one client process per operation in flight\) · /);
    assert.ok(readFileSync(path.join(out, readdirSync(out)[0]), 'utf8').includes('"pg-native"'));
  });
});

test('bench run --driver pg-native refuses another --clients, --duration and --rate, saying why', { timeout: 60_000 }, async () => {
  for (const [args, message] of [
    [['--concurrency', '4', '--clients', '2'], /^error: --driver pg-native blocks its process for each operation, so each operation in flight runs in a client process of its own: --clients is the concurrency \(4\); leave --clients out$/m],
    [['--concurrency', '1', '--duration', '5s'], /^error: --duration runs in the harness's own process, and --driver pg-native runs every operation in a client process/m],
    [['--rate', '100'], /^error: --rate: an open loop sends on its schedule, which --driver pg-native's blocking calls would hold up; use another driver$/m],
  ]) {
    const { code, stderr } = await spawnBench(['run', '--suite', 'mixed', '--db', 'postgresql', '--driver', 'pg-native', ...args], { timeoutMs: 30_000 });
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
    assert.match(stderr, message);
  }
});
