// OrientDB's durability terms (adapters/orientdb/README.md, Durability): relaxed is how every commit is, durable is
// unavailable; terms() reads back from the server what the relaxed term depends on, changes nothing on it, and
// refuses settings that contradict it; the harness marks the writes that would need the durable term unsupported
// instead of asking OrientDB for it. The server part runs against the local server of `bench server start
// orientdb` (or BENCH_ORIENTDB_URL).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import orientdb from '../../adapters/orientdb/description.js';
import { TERM_SETTINGS, orientdbTerms } from '../../adapters/orientdb/terms.js';
import { termObstacle } from '../../core/terms.js';
import { settleTerms } from '../../runner/terms.js';
import { WORKLOADS as CRUD } from '../../workloads/crud/workloads.js';
import { WORKLOADS as GRAPH } from '../../workloads/graph/workloads.js';
import { WORKLOADS as SOCIAL } from '../../workloads/social/workloads.js';
import { serverTarget } from '../helpers/servers.js';

const social = (name) => SOCIAL.find((workload) => workload.name === name);
const { options, skip } = serverTarget(orientdb, { namespace: 'dbshootout_orienttest_terms', concurrency: 2 });

test('OrientDB declares the relaxed term, saying what a process crash loses, and no durable one', () => {
  const { scope, relaxed, durable } = orientdb.terms.durability;
  assert.equal(scope, 'server');
  assert.match(relaxed.how, /a background task writes and fsyncs every storage\.wal\.commitTimeout/);
  assert.match(relaxed.how, /a crash of the server process, not only of the OS, can lose about that much$/);
  assert.match(durable.unavailable, /^OrientDB 3\.2 has no commit that waits for its WAL records to reach the disk/);
  assert.equal(durable.how, undefined);
});

test('singleWriteSync, and under the durable term every write, is unsupported; the relaxed writes and reads run', () => {
  const reason = /^OrientDB cannot write under the durable durability term: OrientDB 3\.2 has no commit that waits/;
  assert.match(termObstacle(orientdb, social('singleWriteSync'), 'relaxed'), reason);
  for (const workload of [social('singleWrite'), ...CRUD, ...GRAPH].filter((w) => w.durability)) {
    assert.equal(termObstacle(orientdb, workload, 'relaxed'), null, workload.name);
    assert.match(termObstacle(orientdb, workload, 'durable'), reason, workload.name);
  }
  assert.equal(termObstacle(orientdb, social('singleRead'), 'durable'), null);
});

// terms.js alone, on a configuration that contradicts the relaxed term (the local server runs on the defaults).
describe('orientdbTerms', () => {
  const answer = (values) => ({
    read: async (keys) => Object.fromEntries(keys.map((key) => [key, values[key] ?? TERM_SETTINGS[key]])),
    release: '3.2.25',
    where: '127.0.0.1:2424',
  });

  test('the defaults give the relaxed term: every value recorded as the default, nothing applied, no problem', async () => {
    const { settings, applied, problems } = await orientdbTerms(answer({}), { durability: 'relaxed', owned: true });
    assert.deepEqual(settings['storage.useWAL'], { value: 'true', source: 'server (config-get: OrientDB\'s default)' });
    assert.deepEqual(settings['storage.wal.commitTimeout'], { value: '1000', source: 'server (config-get: OrientDB\'s default)' });
    assert.deepEqual(settings['storage.callFsync'], { value: 'true', source: 'server (config-get: OrientDB\'s default)' });
    assert.equal(settings.orientdb.value, '3.2.25');
    assert.match(settings['commit acknowledgement'].source, /^OrientDB 3\.2\.25: no request or setting makes a commit wait for the WAL$/);
    assert.deepEqual(applied, []);
    assert.deepEqual(problems, []);
  });

  test('no WAL, or a WAL never forced, contradicts the relaxed term, named with where it came from and how to change it', async () => {
    const { settings, problems } = await orientdbTerms(answer({
      'storage.useWAL': 'false', 'storage.callFsync': 'false', 'storage.wal.commitTimeout': '5000',
    }), { durability: 'relaxed', owned: false });
    assert.equal(settings['storage.wal.commitTimeout'].source,
      'server (config-get: set by -Dstorage.wal.commitTimeout or the server configuration; OrientDB\'s default is 1000)');
    assert.equal(problems.length, 2);
    assert.match(problems[0], /^storage\.useWAL is false on 127\.0\.0\.1:2424 \(server \(config-get: set by -Dstorage\.useWAL or the server configuration; OrientDB's default is true\)\): relaxed writes need the write-ahead log/);
    assert.match(problems[0], /start the server with -Dstorage\.useWAL=true \(ORIENTDB_SETTINGS\)/);
    assert.match(problems[1], /^storage\.callFsync is false on 127\.0\.0\.1:2424 .*-Dstorage\.callFsync=true/);
    // The durable term is unavailable whatever the settings: nothing of it to contradict.
    assert.deepEqual((await orientdbTerms(answer({ 'storage.useWAL': 'false' }), { durability: 'durable', owned: false })).problems, []);
  });
});

describe('orientdb terms() on the server', { skip, timeout: 120_000 }, () => {
  let db;

  before(async () => {
    db = orientdb.create(options);
    await db.connect();
  });

  after(async () => {
    await db?.close();
  });

  test('reads back the release and the WAL settings, sets nothing, and finds nothing contradicting', { timeout: 60_000 }, async () => {
    const { settings, applied, problems } = await db.terms({ durability: 'relaxed', owned: false });
    assert.deepEqual(Object.keys(settings), ['orientdb', 'storage.useWAL', 'storage.wal.commitTimeout', 'storage.callFsync',
      'commit acknowledgement']);
    assert.match(settings.orientdb.value, /^3\.\d+\.\d+/);
    assert.equal(settings['storage.useWAL'].value, 'true');
    assert.equal(settings['storage.callFsync'].value, 'true');
    assert.match(settings['storage.wal.commitTimeout'].value, /^\d+$/);
    for (const name of Object.keys(TERM_SETTINGS)) assert.match(settings[name].source, /^server \(config-get: /, name);
    assert.deepEqual(applied, []);
    assert.deepEqual(problems, []);
    // The settings are those settings() reports with every run.
    const reported = await db.settings();
    for (const name of Object.keys(TERM_SETTINGS)) assert.equal(settings[name].value, reported[name], name);
  });

  test('the durable term, which OrientDB cannot offer, finds nothing to contradict and sets nothing, owned or not', { timeout: 60_000 }, async () => {
    for (const owned of [false, true]) {
      const { applied, problems } = await db.terms({ durability: 'durable', owned });
      assert.deepEqual(applied, []);
      assert.deepEqual(problems, []);
    }
  });

  test('a durable run settles with every write left out; a relaxed one with all but singleWriteSync', { timeout: 60_000 }, async () => {
    const supported = (term) => SOCIAL.filter((workload) => !termObstacle(orientdb, workload, term));
    assert.deepEqual(SOCIAL.filter((w) => !supported('relaxed').includes(w)).map((w) => w.name), ['singleWriteSync']);
    const durable = await settleTerms({ description: orientdb, adapter: db, durability: 'durable', source: '--durability', workloads: supported('durable'), owned: false });
    assert.equal(durable.durability.how, null);
    assert.match(durable.durability.unavailable, /no commit that waits/);
    assert.equal(durable.durability.verified, true);
    const relaxed = await settleTerms({ description: orientdb, adapter: db, durability: 'relaxed', source: 'default', workloads: supported('relaxed'), owned: false });
    assert.match(relaxed.durability.how, /^storage\.useWAL=true, storage\.callFsync=true/);
    assert.equal(relaxed.durability.verified, true);
    assert.equal(relaxed.durability.settings['storage.useWAL'].value, 'true');
  });
});
