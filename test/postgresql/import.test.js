// The bulk import streams each phase through COPYs that stay open across batches (copy.js CopyStream). These
// tests watch the server's own view of them (pg_stat_activity) and the failures a stream can meet. Runs against
// the local server of `bench server start postgresql`. Every statement of the observing session is bounded by
// the server too (statement_timeout, lock_timeout): why, in ../helpers/streamed-import.js.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import pg from 'pg';
import postgresql from '../../adapters/postgresql/description.js';
import { ErrorCodes } from '../../core/errors.js';
import { serverTarget } from '../helpers/servers.js';
import { OBSERVE_MS, TEST_MS, assertServerAnswers, profiles, streamedImportTests, within } from '../helpers/streamed-import.js';

const NAMESPACE = 'dbshootout_pgtest_import';
const { options, skip } = serverTarget(postgresql, { namespace: NAMESPACE });
// The observing session's own bound: below the helper's deadline, so the server's error comes first.
const STATEMENT_MS = 10_000;

// A session whose every statement the server ends after STATEMENT_MS.
async function openObserver() {
  const client = new pg.Client({
    host: options.host, port: options.port, user: options.user, database: options.database,
    statement_timeout: STATEMENT_MS, lock_timeout: STATEMENT_MS,
  });
  client.on('error', () => {});
  await client.connect();
  return client;
}

describe('postgresql streamed import', { skip, timeout: 10 * TEST_MS }, () => {
  let admin;
  let adapters = [];

  async function open(concurrency = 4) {
    const adapter = postgresql.create({ ...options, concurrency });
    adapters.push(adapter);
    await adapter.connect();
    return adapter;
  }

  // The backends of this test's namespace running a COPY, by pid.
  async function copyBackends() {
    const { rows } = await admin.query({
      text: "SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'COPY %' AND query LIKE $1 ORDER BY pid",
      values: [`%${NAMESPACE}%`],
      rowMode: 'array',
    });
    return rows.map(([pid]) => pid);
  }

  const watch = {
    loading: copyBackends,
    // Those that have stored a row and wait for the client.
    async waiting() {
      const { rows } = await admin.query({
        text: `SELECT a.pid FROM pg_stat_activity AS a JOIN pg_stat_progress_copy AS c ON c.pid = a.pid
               WHERE a.state = 'active' AND a.query LIKE 'COPY %' AND a.query LIKE $1
                 AND c.tuples_processed > 0 AND a.wait_event = 'ClientRead' ORDER BY a.pid`,
        values: [`%${NAMESPACE}%`],
        rowMode: 'array',
      });
      return rows.map(([pid]) => pid);
    },
    async profileCount() {
      return Number((await admin.query(`SELECT count(*) FROM "${NAMESPACE}".profiles`)).rows[0].count);
    },
    async sessions() {
      const client = await openObserver();
      try {
        const { rows } = await client.query(`SELECT pid, state, wait_event_type, wait_event, now() - query_start AS running,
          left(query, 120) AS query FROM pg_stat_activity WHERE backend_type = 'client backend' ORDER BY pid`);
        return rows.map((row) => JSON.stringify(row)).join('\n');
      } finally {
        await client.end().catch(() => {});
      }
    },
    async abandon() {
      admin.connection.stream.destroy();
      admin = await openObserver();
    },
  };

  before(async () => {
    admin = await openObserver();
  });

  afterEach(async () => {
    const closing = adapters;
    adapters = [];
    for (const adapter of closing) await within(OBSERVE_MS, 'closing an adapter', () => adapter.close());
    assertServerAnswers();
    await admin.query(`DROP SCHEMA IF EXISTS "${NAMESPACE}" CASCADE`);
  }, { timeout: 3 * OBSERVE_MS });

  after(async () => {
    await within(OBSERVE_MS, 'closing the observing session', () => admin.end()).catch(() => admin.connection.stream.destroy());
  }, { timeout: 2 * OBSERVE_MS });

  streamedImportTests({ open, watch });

  test('a row the server rejects fails the flush with the table and the reason, and the adapter goes on', { timeout: TEST_MS }, async () => {
    assertServerAnswers();
    const db = await open();
    await db.resetNamespace();
    // jsonb cannot hold U+0000, so the server refuses this document while the stream is open.
    await db.importProfiles([...profiles(1, 100), { _key: 'P100', nickname: 'a\u0000b' }]);
    await assert.rejects(db.flushProfiles(), (error) => {
      assert.equal(error.code, ErrorCodes.IMPORT);
      assert.match(error.message, /COPY into .*profiles.* failed: .*\\u0000/);
      return true;
    });
    assert.deepEqual(await copyBackends(), []);
    // The pool lost the failed connection and carries on.
    await db.resetNamespace();
    await db.importProfiles(profiles(1, 3));
    await db.flushProfiles();
    assert.deepEqual(await db.counts(), { profiles: 2, relations: 0 });
  });

  // VACUUM ran, so pages are all-visible as far as the server allows; how far is not asserted: any snapshot older
  // than the import's commit, held by any session of the database at that moment (an autovacuum ANALYZE of another
  // test's table), keeps VACUUM from setting the visibility map.
  test('createIndexes() leaves the key, both covering relation indexes without deduplication, and both tables vacuumed and analyzed', { timeout: TEST_MS }, async () => {
    assertServerAnswers();
    const db = await open();
    await db.resetNamespace();
    await db.importProfiles(profiles(1, 201));
    await db.importRelations(Array.from({ length: 1000 }, (_, i) => ({ _from: `P${1 + (i % 200)}`, _to: `P${1 + ((i * 7) % 200)}` })));
    await db.createIndexes();
    const { rows: indexes } = await admin.query({
      text: 'SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname',
      values: [NAMESPACE],
    });
    assert.deepEqual(indexes.map(({ indexname }) => indexname), ['marker_pkey', 'profiles_pkey', 'relations_from', 'relations_to']);
    const definition = Object.fromEntries(indexes.map(({ indexname, indexdef }) => [indexname, indexdef]));
    assert.match(definition.profiles_pkey, /UNIQUE INDEX profiles_pkey .* \(_key\)$/);
    assert.match(definition.relations_from, /\(_from, _to\) WITH \(deduplicate_items='?off'?\)$/);
    assert.match(definition.relations_to, /\(_to, _from\) WITH \(deduplicate_items='?off'?\)$/);
    const { rows: tables } = await admin.query({
      text: `SELECT c.relname, s.last_vacuum IS NOT NULL AS vacuumed, s.last_analyze IS NOT NULL AS analyzed
             FROM pg_class AS c JOIN pg_stat_user_tables AS s ON s.relid = c.oid
             WHERE s.schemaname = $1 AND c.relname IN ('profiles', 'relations') ORDER BY c.relname`,
      values: [NAMESPACE],
    });
    assert.deepEqual(tables, [
      { relname: 'profiles', vacuumed: true, analyzed: true },
      { relname: 'relations', vacuumed: true, analyzed: true },
    ]);
  });

  test('a row the model refuses fails the call before anything is sent', { timeout: TEST_MS }, async () => {
    assertServerAnswers();
    const db = await open();
    await db.resetNamespace();
    await assert.rejects(db.importProfiles([{ _key: 'P1', AGE: 1n }]), /BigInt/);
    assert.deepEqual(await copyBackends(), []);
  });

});
