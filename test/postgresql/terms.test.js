// PostgreSQL's terms: the durability chosen per session and read back with the server's fsync, the cache
// (shared_buffers) read back, a server the harness owns restarted with --cache and before every run with --cold,
// and a server it does not own refused when it reports another cache.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import postgresql from '../../adapters/postgresql/description.js';
import { defaultCacheDir } from '../../core/paths.js';
import { restartOwnServer } from '../../runner/memory.js';
import { runningServer } from '../../server/state.js';
import { spawnBench } from '../helpers/cli.js';
import { serverTarget, urlEnv } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_pgtest_terms';
const { options, skip } = serverTarget(postgresql, { namespace: NAMESPACE });
// The restarts need the local server `bench server` runs, not one named by a URL.
const local = !skip && !process.env[urlEnv(postgresql)];
const MB64 = 64 * 2 ** 20;

describe('postgresql terms', { skip, timeout: 600_000 }, () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'bench-pg-terms-'));
  let adapter;

  before(async () => {
    adapter = postgresql.create({ ...options, concurrency: 1 });
    await adapter.connect();
  });

  after(async () => {
    await adapter?.close();
    // The local server as the other tests expect it: the instance's own cache.
    const state = local ? runningServer(defaultCacheDir(), 'postgresql') : null;
    if (state?.cacheBytes) {
      await restartOwnServer({ family: 'postgresql', cacheDir: defaultCacheDir() }, { cacheBytes: null });
    }
    await postgresql.testSupport.dropNamespace({ ...options, namespace: NAMESPACE });
    rmSync(out, { recursive: true, force: true });
  });

  test('both durability terms per session, read back with the server\'s fsync and where each setting came from; the cache is shared_buffers', async () => {
    for (const [durability, mode] of [['relaxed', 'off'], ['durable', 'on']]) {
      const answer = await adapter.terms({ durability, owned: false });
      assert.deepEqual(answer.problems, []);
      assert.deepEqual(answer.applied, []);
      assert.equal(answer.settings.fsync.value, 'on');
      assert.match(answer.settings.fsync.source, /^server \(/);
      assert.deepEqual(answer.settings['synchronous_commit (writes)'], { value: mode, source: 'set by the adapter on each connection that writes' });
      assert.equal(typeof answer.cache.bytes, 'number');
      assert.match(answer.cache.settings.shared_buffers.value, /^\d+ x 8192 B$/);
    }
  });

  test('--cache: its own server restarted with it and read back; a server it does not own refused, naming shared_buffers; --cold restarts before every run', { skip: local ? false : 'needs the local server `bench server` runs' }, async () => {
    const before = runningServer(defaultCacheDir(), 'postgresql');
    // --host and --port: not the harness's server, so nothing is restarted and its other cache is refused.
    const refused = await spawnBench(['run', '--db', 'postgresql', '--host', options.host, '--port', String(options.port),
      '--suite', 'crud', '--runs', '1', '--ops', '20', '--concurrency', '1', '--namespace', NAMESPACE, '--cache', '64MB', '--out', out, '--quiet'], { timeoutMs: 120_000 });
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /--cache 64MB: PostgreSQL reports a cache of \d+(\.\d+)?[MG]B \(shared_buffers = \d+ x 8192 B \(server \(command line\)\)\)/);
    assert.equal(runningServer(defaultCacheDir(), 'postgresql').pid, before.pid, 'a server named by --host and --port is never restarted');
    const cold = await spawnBench(['run', '--db', 'postgresql', '--suite', 'crud', '--runs', '1', '--ops', '20', '--concurrency', '1,2',
      '--namespace', NAMESPACE, '--cache', '64MB', '--cold', '--out', out, '--json', '--quiet'], { timeoutMs: 300_000 });
    assert.equal(cold.code, 0, cold.stderr);
    const result = JSON.parse(cold.stdout);
    assert.equal(result.terms.cache.requested, MB64);
    assert.equal(result.terms.cache.bytes, MB64);
    assert.deepEqual(result.terms.cache.settings.shared_buffers, { value: '8192 x 8192 B', source: 'server (command line)' });
    // Two rounds (one per level), each after a restart; the page cache dropped before each where the harness may.
    assert.equal(result.terms.cache.cold.rounds, 2);
    assert.equal(result.terms.cache.cold.restarted, 2);
    const dropped = result.terms.cache.cold.pageCacheDropped;
    assert.ok(dropped === 2 || result.terms.cache.cold.notes.some((note) => /page cache could not be dropped/.test(note)));
    const after = runningServer(defaultCacheDir(), 'postgresql');
    assert.equal(after.cacheBytes, MB64);
    assert.notEqual(after.pid, before.pid);
    assert.equal(result.resources.server?.pid ?? after.pid, after.pid);
  });
});
