// DuckDB's durability terms (adapters/duckdb/README.md, Durability): durable is how every commit is, relaxed is
// unavailable; terms() reads back, from the embedded database, what the durable term depends on, and the harness
// marks the writes that would need the relaxed term unsupported instead of asking DuckDB for it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import duckdb from '../../adapters/duckdb/description.js';
import { termObstacle } from '../../core/terms.js';
import { settleTerms } from '../../runner/terms.js';
import { WORKLOADS as CRUD } from '../../workloads/crud/workloads.js';
import { WORKLOADS as GRAPH } from '../../workloads/graph/workloads.js';
import { WORKLOADS as SOCIAL } from '../../workloads/social/workloads.js';

const social = (name) => SOCIAL.find((workload) => workload.name === name);
const GRAPH_WRITES = ['upsertEdge', 'upsertEdges', 'removeEdge', 'removeEdges'];

test('DuckDB declares the durable term and, with the reason, no relaxed one', () => {
  const { scope, relaxed, durable } = duckdb.terms.durability;
  assert.equal(scope, 'session');
  assert.match(durable.how, /fsyncs it before it returns/);
  assert.equal(durable.unavailable, undefined);
  assert.match(relaxed.unavailable, /^DuckDB 1\.5\.6 fsyncs its write-ahead log before every commit returns/);
  assert.equal(relaxed.how, undefined);
});

test('under the relaxed term every write that follows the run\'s term is unsupported; singleWriteSync and reads run', () => {
  const reason = /^DuckDB cannot write under the relaxed durability term: DuckDB 1\.5\.6 fsyncs its write-ahead log/;
  assert.match(termObstacle(duckdb, social('singleWrite'), 'relaxed'), reason);
  for (const workload of [...CRUD, ...GRAPH].filter((w) => w.durability === 'run')) {
    assert.match(termObstacle(duckdb, workload, 'relaxed'), reason, workload.name);
  }
  assert.deepEqual(GRAPH.filter((w) => termObstacle(duckdb, w, 'relaxed')).map((w) => w.name), GRAPH_WRITES);
  assert.equal(termObstacle(duckdb, social('singleWriteSync'), 'relaxed'), null);
  assert.equal(termObstacle(duckdb, social('singleRead'), 'relaxed'), null);
  // Under the durable term everything runs.
  for (const workload of [...SOCIAL, ...CRUD, ...GRAPH]) assert.equal(termObstacle(duckdb, workload, 'durable'), null, workload.name);
});

describe('duckdb terms() on a database file', { timeout: 60_000 }, () => {
  let dir;
  let file;
  let db;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'db-shootout-duckdb-terms-'));
    file = join(dir, 'terms.duckdb');
    db = duckdb.create({ namespace: 'dbshootout', database: file, concurrency: 2 });
    await db.connect();
  });

  after(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('reads back the version, the file, the checkpoint threshold and that no setting skips the WAL\'s fsync', async () => {
    const { settings, applied, problems } = await db.terms({ durability: 'durable', owned: false });
    assert.deepEqual(Object.keys(settings), ['version', 'database file', 'checkpoint_threshold', 'WAL fsync']);
    assert.equal(settings.version.value, 'v1.5.6');
    assert.deepEqual(settings['database file'], {
      value: file, source: 'set by the adapter (--database, else <dataDir>/duckdb/bench.duckdb)',
    });
    assert.equal(settings.checkpoint_threshold.value, '16.0 MiB');
    assert.match(settings.checkpoint_threshold.source, /DuckDB's default/);
    assert.deepEqual(settings['WAL fsync'], {
      value: 'at every commit', source: 'DuckDB v1.5.6: no setting skips it (duckdb_settings() has none named *fsync*)',
    });
    assert.deepEqual(applied, []);
    assert.deepEqual(problems, []);
  });

  test('the relaxed term, which DuckDB cannot offer, finds nothing to contradict and changes nothing', async () => {
    const durable = await db.terms({ durability: 'durable', owned: true });
    const relaxed = await db.terms({ durability: 'relaxed', owned: true });
    assert.deepEqual(relaxed, durable);
    assert.deepEqual(relaxed.problems, []);
    assert.deepEqual(relaxed.applied, []);
  });

  test('a relaxed run settles: its writes are left out, the record says why and what was read back', async () => {
    const workloads = SOCIAL.filter((workload) => !termObstacle(duckdb, workload, 'relaxed'));
    assert.ok(workloads.some((workload) => workload.name === 'singleWriteSync'));
    const record = await settleTerms({ description: duckdb, adapter: db, durability: 'relaxed', source: 'default', workloads, owned: false });
    assert.equal(record.durability.term, 'relaxed');
    assert.equal(record.durability.how, null);
    assert.match(record.durability.unavailable, /no setting to acknowledge a commit before that flush/);
    assert.equal(record.durability.verified, true);
    assert.equal(record.durability.settings['WAL fsync'].value, 'at every commit');
  });

  test('graph writes take the run\'s term as a third argument and commit the same either way', async () => {
    await db.resetNamespace();
    await db.graph.create('terms');
    await db.graph.index('terms');
    await db.graph.upsertEdge('terms', { source: 1, target: 2, weight: 3 }, { durable: true });
    await db.graph.upsertEdges('terms', [{ source: 2, target: 3, weight: 4 }, { source: 3, target: 1, weight: 5 }], { durable: false });
    assert.equal(await db.graph.count('terms'), 3);
    await db.graph.removeEdge('terms', { source: 1, target: 2 }, { durable: false });
    await db.graph.removeEdges('terms', [{ source: 2, target: 3 }], { durable: true });
    assert.equal(await db.graph.count('terms'), 1);
  });
});
