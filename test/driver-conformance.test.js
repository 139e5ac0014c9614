// The shared conformance suite again for every adapter that offers several drivers, once with each driver after
// its default (test/conformance.test.js runs the default), against the local server as there; and that the
// driver selected is the one that carries the operations.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { adapterIds, loadAdapter } from '../adapters/index.js';
import { clientConfig } from '../adapters/postgresql/connection.js';
import { PIPELINED_CONNECTIONS, SESSION_NAME } from '../adapters/postgresql/postgres-driver.js';
import { selectDriver } from '../cli/options.js';
import { ErrorCodes } from '../core/errors.js';
import { conformanceCases } from './conformance/suite.js';
import { serverTarget } from './helpers/servers.js';

const NAMESPACE = 'dbshootout_drivers';
const SESSION_END_MS = 2000;

for (const id of adapterIds()) {
  const description = await loadAdapter(id);
  for (const driver of (description.drivers ?? []).slice(1)) {
    const { options, skip } = serverTarget(description, { namespace: NAMESPACE, driver });
    describe(`conformance: ${id} --driver ${driver}`, { skip }, () => {
      after(() => description.testSupport?.dropNamespace?.(options));
      for (const { name, run, skip: caseSkip } of conformanceCases(description)) {
        test(name, { skip: caseSkip }, () => run({ options }));
      }
    });
  }
}

const postgresql = await loadAdapter('postgresql');

describe('--driver', () => {
  const usage = (pattern) => (error) => error.code === ErrorCodes.USAGE && pattern.test(error.message);

  test('defaults to the first of the adapter\'s drivers, and takes any of them', () => {
    assert.deepEqual(postgresql.drivers, ['pg', 'postgres']);
    assert.equal(selectDriver(postgresql, undefined), 'pg');
    assert.equal(selectDriver(postgresql, 'postgres'), 'postgres');
  });

  test('an unknown driver is a usage error naming the valid ones', () => {
    assert.throws(() => selectDriver(postgresql, 'mysql2'), usage(/unknown driver "mysql2" for PostgreSQL; valid drivers: pg, postgres/));
  });

  test('is a usage error for a database with one driver, naming it', async () => {
    const sqlite = await loadAdapter('sqlite');
    assert.equal(selectDriver(sqlite, undefined), 'better-sqlite3');
    assert.throws(() => selectDriver(sqlite, 'better-sqlite3'), usage(/SQLite has one driver, better-sqlite3/));
  });
});
const target = serverTarget(postgresql, { namespace: NAMESPACE, concurrency: 6 });

// The server's sessions of the postgres driver, by the application name it logs in with.
async function postgresSessions(options) {
  const client = new pg.Client(clientConfig(options));
  await client.connect();
  try {
    const { rows } = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [SESSION_NAME]);
    return rows[0].n;
  } finally {
    await client.end();
  }
}

describe('postgresql --driver postgres', { skip: target.skip }, () => {
  test('opens its pipelined connections, two pools of up to PIPELINED_CONNECTIONS, and closes them', async () => {
    const before = await postgresSessions(target.options);
    const adapter = postgresql.create({ ...target.options, driver: 'postgres' });
    await adapter.connect();
    try {
      assert.equal(await postgresSessions(target.options) - before, 2 * Math.min(6, PIPELINED_CONNECTIONS));
    } finally {
      await adapter.close();
    }
    // A backend leaves pg_stat_activity shortly after its client's Terminate.
    const deadline = Date.now() + SESSION_END_MS;
    while (await postgresSessions(target.options) !== before && Date.now() < deadline) await delay(50);
    assert.equal(await postgresSessions(target.options), before);
  });

  test('pg, the default, opens none', async () => {
    const before = await postgresSessions(target.options);
    const adapter = postgresql.create(target.options);
    await adapter.connect();
    try {
      assert.equal(await postgresSessions(target.options), before);
    } finally {
      await adapter.close();
    }
  });
});
