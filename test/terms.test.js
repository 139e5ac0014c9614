// The durability terms (core/terms.js, runner/terms.js): the flag, which workloads a database can run under a
// term, and a run refused before any work when the server's settings contradict it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEFAULT_DURABILITY, declaredTerm, durabilityOf, neededTerms, termObstacle, workloadDurability,
} from '../core/terms.js';
import { settleTerms } from '../runner/terms.js';
import memory from '../adapters/memory/description.js';
import mysql from '../adapters/mysql/description.js';
import postgresql from '../adapters/postgresql/description.js';
import { WORKLOADS as SOCIAL } from '../workloads/social/workloads.js';
import { WORKLOADS as GRAPH } from '../workloads/graph/workloads.js';
import { WORKLOADS as MIXED } from '../workloads/mixed/workloads.js';

const social = (name) => SOCIAL.find((workload) => workload.name === name);

test('--durability: relaxed by default, --sync means durable, anything else is a usage error', () => {
  assert.equal(DEFAULT_DURABILITY, 'relaxed');
  assert.equal(durabilityOf({}), 'relaxed');
  assert.equal(durabilityOf({ durability: 'durable' }), 'durable');
  assert.equal(durabilityOf({ sync: true }), 'durable');
  assert.equal(durabilityOf({ sync: true, durability: 'durable' }), 'durable');
  assert.throws(() => durabilityOf({ sync: true, durability: 'relaxed' }), { code: 'E_USAGE', message: /--sync means --durability durable/ });
  assert.throws(() => durabilityOf({ durability: 'fast' }), { code: 'E_USAGE', message: 'unknown durability "fast"; valid terms: relaxed, durable' });
  assert.throws(() => durabilityOf({ durability: ['relaxed', 'durable'] }), { code: 'E_USAGE', message: /given 2 times/ });
});

test('every timed write follows the run\'s term, singleWriteSync is always durable, reads have none', () => {
  assert.equal(workloadDurability(social('singleWrite'), 'relaxed'), 'relaxed');
  assert.equal(workloadDurability(social('singleWrite'), 'durable'), 'durable');
  assert.equal(workloadDurability(social('singleWriteSync'), 'relaxed'), 'durable');
  assert.equal(workloadDurability(social('singleRead'), 'relaxed'), null);
  const graphWrites = GRAPH.filter((workload) => workloadDurability(workload, 'relaxed')).map((workload) => workload.name);
  assert.deepEqual(graphWrites, ['upsertEdge', 'upsertEdges', 'removeEdge', 'removeEdges']);
  assert.deepEqual(MIXED.filter((workload) => !workloadDurability(workload, 'durable')).map((workload) => workload.name), ['read-only']);
  assert.deepEqual(neededTerms(SOCIAL, 'relaxed'), ['relaxed', 'durable']);
  assert.deepEqual(neededTerms([social('singleRead')], 'relaxed'), []);
});

test('a workload a database cannot run under the run\'s terms is unsupported, with the reason', () => {
  // The memory store has no durable term at all.
  assert.match(termObstacle(memory, social('singleWriteSync'), 'relaxed'),
    /^In-process memory cannot write under the durable durability term: documents live in process memory only/);
  assert.equal(termObstacle(memory, social('singleWrite'), 'relaxed'), null);
  // MariaDB's term is server-wide: singleWriteSync needs a durable run.
  assert.match(termObstacle(mysql, social('singleWriteSync'), 'relaxed'),
    /sets durability for the whole server, and this run's term is relaxed: the singleWriteSync workload needs durable \(run it with --durability durable\)/);
  assert.equal(termObstacle(mysql, social('singleWriteSync'), 'durable'), null);
  // PostgreSQL chooses per session: both at once.
  assert.equal(termObstacle(postgresql, social('singleWriteSync'), 'relaxed'), null);
  assert.equal(termObstacle(postgresql, social('singleRead'), 'relaxed'), null);
  // An adapter that declares no terms has none.
  const bare = { name: 'Bare', supports: ['singleWrite'] };
  assert.match(declaredTerm(bare, 'relaxed').unavailable, /declares no durability terms/);
  assert.match(termObstacle(bare, social('singleWrite'), 'relaxed'), /^Bare cannot write under the relaxed durability term/);
});

test('settings that contradict the term refuse a run that writes under it, and are only recorded for one that does not', async () => {
  const contradicting = {
    async terms({ durability, owned }) {
      assert.equal(owned, false);
      return {
        settings: { innodb_flush_log_at_trx_commit: { value: '1', source: 'server (compile-time)' } },
        applied: [],
        problems: [`innodb_flush_log_at_trx_commit is 1: ${durability} writes need 0 or 2`],
      };
    },
  };
  await assert.rejects(settleTerms({
    description: mysql, adapter: contradicting, durability: 'relaxed', source: 'default', workloads: [social('singleWrite')], owned: false,
  }), (error) => {
    assert.equal(error.code, 'E_TERMS');
    assert.match(error.message, /^MySQL\/MariaDB does not run under the relaxed durability term this run asks for:\n  innodb_flush_log_at_trx_commit is 1: relaxed writes need 0 or 2\n  \(or run it with --durability durable/);
    return true;
  });
  const record = await settleTerms({
    description: mysql, adapter: contradicting, durability: 'relaxed', source: 'default', workloads: [social('singleRead')], owned: false,
  });
  assert.equal(record.durability.term, 'relaxed');
  assert.equal(record.durability.verified, false);
  assert.deepEqual(record.durability.problems, ['innodb_flush_log_at_trx_commit is 1: relaxed writes need 0 or 2']);
  assert.deepEqual(record.durability.settings, { innodb_flush_log_at_trx_commit: { value: '1', source: 'server (compile-time)' } });
  // An adapter without terms() is recorded unverified.
  const unverified = await settleTerms({
    description: postgresql, adapter: {}, durability: 'durable', source: '--durability', workloads: [social('singleWrite')], owned: true,
  });
  assert.equal(unverified.durability.verified, false);
  assert.equal(unverified.durability.source, '--durability');
  assert.match(unverified.durability.how, /synchronous_commit=on/);
});

test('--cache: binary units as PostgreSQL and MariaDB read them, a range, and the rounding a database may apply', async () => {
  const { formatSize, parseSize, sameCache } = await import('../core/terms.js');
  assert.equal(parseSize('512MB'), 512 * 2 ** 20);
  assert.equal(parseSize('64m'), 64 * 2 ** 20);
  assert.equal(parseSize('1.5GB'), 1.5 * 2 ** 30);
  assert.equal(parseSize('65536KB'), 64 * 2 ** 20);
  for (const bad of ['abc', '1MB', '2TB', '-64MB', '']) {
    assert.throws(() => parseSize(bad), { code: 'E_USAGE', message: /^--cache must be a size from 8MB to 1024GB, such as 512MB or 2GB/ }, bad);
  }
  assert.throws(() => parseSize(['64MB', '1GB']), { code: 'E_USAGE', message: /given 2 times/ });
  assert.equal(formatSize(512 * 2 ** 20), '512MB');
  assert.equal(formatSize(1.5 * 2 ** 30), '1.5GB');
  assert.equal(formatSize(null), 'n/a');
  assert.ok(sameCache(64 * 2 ** 20, 64 * 2 ** 20 + 8192));
  assert.ok(!sameCache(64 * 2 ** 20, 2 ** 30));
  assert.ok(!sameCache(64 * 2 ** 20, null));
});

test('a cache the database reports otherwise, or cannot read back, refuses the run', async () => {
  const reporting = (bytes) => ({
    terms: async () => ({ settings: {}, applied: [], problems: [], cache: { bytes, settings: { shared_buffers: { value: `${bytes}`, source: 'server (configuration file)' } } } }),
  });
  await assert.rejects(settleTerms({
    description: postgresql, adapter: reporting(2 ** 30), durability: 'relaxed', source: 'default', workloads: [], owned: false, cacheBytes: 64 * 2 ** 20,
  }), { code: 'E_TERMS', message: /^--cache 64MB: PostgreSQL reports a cache of 1GB \(shared_buffers = 1073741824 \(server \(configuration file\)\)\)/ });
  await assert.rejects(settleTerms({
    description: postgresql, adapter: reporting(null), durability: 'relaxed', source: 'default', workloads: [], owned: false, cacheBytes: 64 * 2 ** 20,
  }), { code: 'E_TERMS', message: /cannot read its cache size back/ });
  const record = await settleTerms({
    description: postgresql, adapter: reporting(64 * 2 ** 20), durability: 'relaxed', source: 'default', workloads: [], owned: true, cacheBytes: 64 * 2 ** 20,
  });
  assert.deepEqual(record.cache, { requested: 64 * 2 ** 20, bytes: 64 * 2 ** 20, settings: { shared_buffers: { value: `${64 * 2 ** 20}`, source: 'server (configuration file)' } } });
});

test('--cold needs a server the harness can restart; --cache and --durability take only their values (bench run, exit 2)', { timeout: 60_000 }, async () => {
  const { spawnBench } = await import('./helpers/cli.js');
  const cold = await spawnBench(['run', '--db', 'postgresql', '--host', '127.0.0.1', '--port', '1', '--cold', '--quiet'], { timeoutMs: 30_000 });
  assert.equal(cold.code, 2, cold.stderr);
  assert.match(cold.stderr, /--cold restarts the server before every run: it needs a server `bench server` runs \(start one with `npx bench server start postgresql` and give no --host or --port\), or --restart-cmd/);
  const cache = await spawnBench(['run', '--cache', '4MB', '--quiet'], { timeoutMs: 30_000 });
  assert.equal(cache.code, 2);
  assert.match(cache.stderr, /--cache must be a size from 8MB to 1024GB/);
  const durability = await spawnBench(['run', '--durability', 'fast', '--quiet'], { timeoutMs: 30_000 });
  assert.equal(durability.code, 2);
  assert.match(durability.stderr, /^error: --durability fast is not a choice: relaxed or durable$/m);
  const both = await spawnBench(['run', '--suite', 'crud', '--sync', '--durability', 'relaxed', '--quiet'], { timeoutMs: 30_000 });
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--sync means --durability durable; it contradicts --durability relaxed/);
});
