// The durability terms on MariaDB, where they are server-wide (adapters/mysql/terms.js): set on a server
// `bench server` runs, read back from any, and a run refused before any work when the server contradicts the
// term it asks for, naming the setting and how to change it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from '../../adapters/mysql/description.js';
import { serverTarget } from '../helpers/servers.js';
import { spawnBench } from '../helpers/cli.js';

const NAMESPACE = 'dbshootout_test_terms';
const { options, skip } = serverTarget(mysql, { namespace: NAMESPACE });

describe('mysql durability terms', { skip, timeout: 300_000 }, () => {
  let adapter;
  let original;
  const out = mkdtempSync(path.join(os.tmpdir(), 'bench-mysql-terms-'));
  const flush = async () => (await adapter.terms({ durability: 'durable', owned: false })).settings.innodb_flush_log_at_trx_commit.value;
  const setFlush = async (value) => {
    const other = mysql.create({ ...options, concurrency: 1 });
    await other.connect();
    try {
      // What the server is set to now, through the adapter's own owned path.
      await other.terms({ durability: value === '1' ? 'durable' : 'relaxed', owned: true });
    } finally {
      await other.close();
    }
  };

  before(async () => {
    adapter = mysql.create({ ...options, concurrency: 1 });
    await adapter.connect();
    original = await flush();
  });

  after(async () => {
    // The server as it was found.
    await setFlush(original === '1' ? '1' : '2');
    await adapter?.close();
    await mysql.testSupport.dropNamespace({ ...options, namespace: NAMESPACE });
    rmSync(out, { recursive: true, force: true });
  });

  test('on a server the harness owns each term is set, listed as applied and read back with its source', async () => {
    // The local server starts under the default term, relaxed (--innodb-flush-log-at-trx-commit=2).
    const durable = await adapter.terms({ durability: 'durable', owned: true });
    assert.deepEqual(durable.problems, []);
    assert.equal(durable.settings.innodb_flush_log_at_trx_commit.value, '1');
    assert.equal(durable.settings.innodb_flush_log_at_trx_commit.source, 'server (sql)');
    const again = await adapter.terms({ durability: 'durable', owned: true });
    assert.deepEqual(again.applied, [], 'nothing to set when the server already has the term');
    const relaxed = await adapter.terms({ durability: 'relaxed', owned: true });
    assert.deepEqual(relaxed.applied, ['SET GLOBAL innodb_flush_log_at_trx_commit = 2']);
    assert.deepEqual(relaxed.problems, []);
    assert.equal(relaxed.settings.innodb_flush_log_at_trx_commit.value, '2');
    assert.ok(['0', '1'].includes(relaxed.settings.log_bin.value));
  });

  test('on a server it does not own nothing is changed: a contradiction is a problem naming the setting and the fix', async () => {
    await setFlush('1');
    const relaxed = await adapter.terms({ durability: 'relaxed', owned: false });
    assert.deepEqual(relaxed.applied, []);
    assert.equal(await flush(), '1', 'a server the harness does not own is never changed');
    assert.equal(relaxed.problems.length, 1);
    assert.match(relaxed.problems[0], new RegExp(`^innodb_flush_log_at_trx_commit is 1 on ${options.host}:${options.port} \\(server \\(sql\\)\\): relaxed writes need 0 or 2 \\(SET GLOBAL innodb_flush_log_at_trx_commit = 2`));
  });

  test('bench run against a server set otherwise is refused before any work, exit 1; against its own server the harness sets the term', async () => {
    await setFlush('1');
    // --host and --port name the server: the harness does not own it, even if it is the local one.
    const refused = await spawnBench(['run', '--db', 'mysql', '--host', options.host, '--port', String(options.port),
      '--suite', 'crud', '--runs', '1', '--ops', '20', '--concurrency', '1', '--namespace', NAMESPACE, '--out', out, '--quiet'], { timeoutMs: 120_000 });
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /MySQL\/MariaDB does not run under the relaxed durability term this run asks for:\n {2}innodb_flush_log_at_trx_commit is 1 on /);
    assert.match(refused.stderr, /or run it with --durability durable/);
    const files = readdirSync(out);
    const written = files.map((file) => JSON.parse(readFileSync(path.join(out, file), 'utf8')));
    assert.ok(written.every((result) => Object.values(result.workloads).every((entry) => entry.runs.length === 0)), 'no workload ran');
    assert.equal(await flush(), '1');

    // Its own server (no --host, no --port): the term is set and recorded with what was run.
    const owned = await spawnBench(['run', '--db', 'mysql', '--suite', 'crud', '--runs', '1', '--ops', '20', '--concurrency', '1',
      '--namespace', NAMESPACE, '--out', out, '--json', '--quiet'], { timeoutMs: 120_000 });
    assert.equal(owned.code, 0, owned.stderr);
    const result = JSON.parse(owned.stdout);
    assert.equal(result.terms.durability.term, 'relaxed');
    assert.equal(result.terms.durability.verified, true);
    assert.deepEqual(result.terms.durability.applied, ['SET GLOBAL innodb_flush_log_at_trx_commit = 2']);
    assert.equal(result.terms.durability.settings.innodb_flush_log_at_trx_commit.value, '2');
    assert.equal(result.workloads['insert n=20 c=1'].durability, 'relaxed');
    assert.equal(await flush(), '2');
  });

  test('under the relaxed term singleWriteSync is unsupported on MariaDB, with the reason; under durable both run', async () => {
    const relaxed = await spawnBench(['run', '--db', 'mysql', '--scale', 'tiny', '--runs', '1', '--workload', 'singleWrite,singleWriteSync',
      '--namespace', NAMESPACE, '--out', out, '--json', '--quiet'], { timeoutMs: 200_000 });
    assert.equal(relaxed.code, 0, relaxed.stderr);
    const first = JSON.parse(relaxed.stdout);
    assert.equal(first.workloads.singleWrite.status, 'passed');
    assert.equal(first.workloads.singleWriteSync.status, 'unsupported');
    assert.match(first.workloads.singleWriteSync.reason, /sets durability for the whole server, and this run's term is relaxed/);
    const durable = await spawnBench(['run', '--db', 'mysql', '--scale', 'tiny', '--runs', '1', '--workload', 'singleWrite,singleWriteSync',
      '--durability', 'durable', '--namespace', NAMESPACE, '--out', out, '--json', '--quiet'], { timeoutMs: 200_000 });
    assert.equal(durable.code, 0, durable.stderr);
    const second = JSON.parse(durable.stdout);
    assert.deepEqual([second.workloads.singleWrite.status, second.workloads.singleWriteSync.status], ['passed', 'passed']);
    assert.equal(second.terms.durability.settings.innodb_flush_log_at_trx_commit.value, '1');
  });
});
