// DuckDB's memory term (adapters/duckdb/README.md, Durability: the memory term): --cache is the embedded instance's
// memory_limit, set at connect() only when given and read back from duckdb_settings(), whose text shows a tenth of
// its unit; a real `bench run --cache` of the graph suite records it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { duckdbCache, memoryLimitConfig, printedRange } from '../../adapters/duckdb/cache.js';
import duckdb from '../../adapters/duckdb/description.js';
import { parseSize } from '../../core/terms.js';
import { settleTerms } from '../../runner/terms.js';
import { spawnBench } from '../helpers/cli.js';

const KIB = 2 ** 10;
const MIB = 2 ** 20;
const GIB = 2 ** 30;

test('memory_limit as duckdb_settings() shows it: the byte counts DuckDB prints so', () => {
  assert.deepEqual(printedRange('64.0 MiB'), { low: 64 * MIB, high: 64 * MIB + 103 * KIB });
  // 100,000 KiB is 97 MiB and 672 KiB; 672 * 10 / 1024 is 6.56, printed 6.
  assert.deepEqual(printedRange('97.6 MiB'), { low: 97 * MIB + 615 * KIB, high: 97 * MIB + 717 * KIB });
  assert.deepEqual(printedRange('1.9 GiB'), { low: GIB + 922 * MIB, high: 2 * GIB });
  assert.deepEqual(printedRange('512 bytes'), { low: 512, high: 513 });
  for (const text of [null, '', '64 MiB', '64.0 MB', '-1', 'unlimited']) assert.equal(printedRange(text), null, String(text));
});

test('the size set is the one read back when DuckDB prints it as it shows; otherwise the lowest that prints so', () => {
  const set = 1200 * MIB;
  assert.equal(duckdbCache('1.1 GiB', set).bytes, set);
  assert.match(duckdbCache('1.1 GiB', set).settings.memory_limit.source, /set by the adapter at connect\(\) to 1258291200 bytes \(--cache\)/);
  // A limit that is not the one set (another process's SET, say) is read as shown.
  assert.equal(duckdbCache('1.5 GiB', set).bytes, GIB + 512 * MIB);
  assert.equal(duckdbCache('18.8 GiB', null).bytes, 18 * GIB + 820 * MIB);
  assert.equal(duckdbCache('18.8 GiB', null).settings.memory_limit.source,
    'embedded database (duckdb_settings()): DuckDB\'s default, 80% of the machine\'s memory');
  assert.equal(duckdbCache('unlimited', null).bytes, null);
  assert.deepEqual(memoryLimitConfig(null), {});
  assert.deepEqual(memoryLimitConfig(64 * MIB), { memory_limit: '67108864B' });
});

describe('duckdb cache on an embedded database', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'db-shootout-duckdb-cache-'));

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const opened = async (cacheBytes, work) => {
    const db = duckdb.create({ namespace: 'dbshootout', database: path.join(dir, 'cache.duckdb'), concurrency: 1, cacheBytes });
    await db.connect();
    try {
      return await work(db);
    } finally {
      await db.close();
    }
  };

  test('without --cache, DuckDB\'s own memory_limit is read back and recorded, and no setting names it set', async () => {
    await opened(null, async (db) => {
      const { cache } = await db.terms({ durability: 'durable', owned: false });
      assert.match(cache.settings.memory_limit.value, /^\d+\.\d (MiB|GiB|TiB)$/);
      assert.equal(cache.bytes, printedRange(cache.settings.memory_limit.value).low);
      assert.match(cache.settings.memory_limit.source, /DuckDB's default/);
      const record = await settleTerms({ description: duckdb, adapter: db, durability: 'durable', source: 'default', workloads: [], owned: false });
      assert.deepEqual(record.cache, { requested: null, bytes: cache.bytes, settings: cache.settings });
    });
  });

  test('with --cache, every size is set as memory_limit and read back exactly, and the term settles', async () => {
    for (const text of ['8MB', '64MB', '100000KB', '1200MB', '1.5GB', '3GB']) {
      const cacheBytes = parseSize(text);
      await opened(cacheBytes, async (db) => {
        const { cache } = await db.terms({ durability: 'durable', owned: false });
        assert.equal(cache.bytes, cacheBytes, `${text}: ${cache.settings.memory_limit.value}`);
        assert.equal((await db.settings()).memory_limit, cache.settings.memory_limit.value);
        const record = await settleTerms({ description: duckdb, adapter: db, durability: 'durable', source: '--durability', workloads: [], owned: false, cacheBytes });
        assert.equal(record.cache.bytes, cacheBytes);
      });
    }
  });

  test('bench run --suite graph --cache 64MB runs with a 64 MiB memory_limit and records it', { timeout: 600_000 }, async () => {
    const run = await spawnBench(['run', '--suite', 'graph', '--db', 'duckdb', '--scale', 'tiny', '--runs', '1', '--cache', '64MB',
      '--durability', 'durable', '--database', path.join(dir, 'run.duckdb'), '--out', dir, '--json', '--quiet'], { timeoutMs: 500_000 });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.equal(result.complete, true);
    assert.deepEqual(Object.values(result.workloads).filter((w) => w.status !== 'passed').map((w) => w.operation), []);
    assert.equal(result.config.cacheBytes, 64 * MIB);
    assert.equal(result.terms.cache.requested, 64 * MIB);
    assert.equal(result.terms.cache.bytes, 64 * MIB);
    assert.equal(result.terms.cache.settings.memory_limit.value, '64.0 MiB');
  });
});
