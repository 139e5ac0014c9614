// bench crash: the pieces that count lost writes (the acknowledgement log, the insert stream, the comparison
// with the collection, the verdict against the adapter's claim), which databases it refuses, and a real crash
// test of SQLite, killed in a child process.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { adapterIds, loadAdapter } from '../adapters/index.js';
import { ErrorCodes } from '../core/errors.js';
import { AckLog, readAckLog } from '../durability/ack-log.js';
import { missingKeys, summariseMode } from '../durability/crash.js';
import { insertFor, insertKey, streamInserts } from '../durability/load.js';
import { crashTarget, embeddedOnDisk } from '../durability/target.js';
import { stateFile } from '../server/state.js';
import { spawnBench } from './helpers/cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-crash-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test('every adapter declares which of its write modes are durable per write, each with its sentence', async () => {
  for (const id of adapterIds()) {
    const description = await loadAdapter(id);
    assert.ok(Array.isArray(description.durablePerWrite), `${id}: durablePerWrite`);
    for (const mode of description.durablePerWrite) {
      assert.ok(['singleWrite', 'singleWriteSync'].includes(mode), `${id}: ${mode} is a write mode`);
      assert.notEqual(insertFor(description, mode), null, `${id}: ${mode} can be loaded (its operation or insertDocument)`);
      assert.equal(typeof description.durability[mode], 'string', `${id}: ${mode} has its sentence`);
    }
  }
});

describe('the acknowledgement log', () => {
  test('holds every recorded key, drops a last line cut by a kill, and ignores keys after close', () => {
    const file = path.join(dir, 'acks.log');
    const log = new AckLog(file);
    log.record('a');
    log.record('b');
    log.close();
    log.record('c');
    assert.deepEqual(readAckLog(file), ['a', 'b']);
    writeFileSync(file, 'a\nb\nc', { flag: 'w' });
    assert.deepEqual(readAckLog(file), ['a', 'b'], 'c was cut in the middle of its write');
  });
});

describe('the insert stream', () => {
  // Inserts resolve after `delayMs`; the one with index `failAt` rejects.
  function fakeAdapter({ delayMs = 1, failAt = Infinity } = {}) {
    const stored = new Map();
    return {
      stored,
      async singleWrite(collection, doc) {
        await sleep(delayMs);
        if (Number(doc._key.split('x')[1]) === failAt) throw new Error('connection lost');
        stored.set(doc._key, doc);
      },
    };
  }
  const log = () => ({ keys: [], record(key) { this.keys.push(key); } });
  const singleWrite = insertFor({ supports: ['singleWrite'] }, 'singleWrite');

  test('logs only keys whose insert resolved, keeps `concurrency` in flight, and stops at the first failure', async () => {
    const adapter = fakeAdapter({ failAt: 40 });
    const acks = log();
    const load = streamInserts({ adapter, insert: singleWrite, collection: 'c', documents: [{ AGE: 1 }], concurrency: 4, log: acks, trial: 1 });
    const { acknowledged, error } = await load.done;
    assert.equal(error.message, 'connection lost');
    assert.equal(acknowledged, acks.keys.length);
    assert.ok(!acks.keys.includes(insertKey(1, 40)), 'the failed insert is not acknowledged');
    assert.deepEqual(acks.keys.filter((key) => !adapter.stored.has(key)), [], 'every logged key was stored');
    assert.equal(adapter.stored.get(insertKey(1, 0)).AGE, 1, 'the documents are the bodies given');
  });

  test('after stop() the inserts in flight still log their acknowledgements, and no new insert starts', async () => {
    const adapter = fakeAdapter({ delayMs: 30 });
    const acks = log();
    const load = streamInserts({ adapter, insert: singleWrite, collection: 'c', documents: [{}], concurrency: 3, log: acks, trial: 2 });
    await load.firstAck;
    load.stop();
    const inFlight = adapter.stored.size;
    const { acknowledged, error } = await load.done;
    assert.equal(error, null);
    assert.equal(acknowledged, adapter.stored.size);
    assert.ok(adapter.stored.size >= inFlight && adapter.stored.size <= inFlight + 3);
    assert.equal(acks.keys.length, adapter.stored.size);
  });
});

test('a write mode inserts through its own operation, or through insertDocument with the acknowledgement it stands for', async () => {
  const calls = [];
  const adapter = {
    singleWrite: async (...args) => { calls.push(['singleWrite', ...args]); },
    insertDocument: async (...args) => { calls.push(['insertDocument', ...args]); },
  };
  await insertFor({ supports: ['singleWrite', 'insertDocument'] }, 'singleWrite')(adapter, 'c', { _key: 'a' });
  await insertFor({ supports: ['insertDocument'] }, 'singleWrite')(adapter, 'c', { _key: 'b' });
  await insertFor({ supports: ['insertDocument'] }, 'singleWriteSync')(adapter, 'c', { _key: 'c' });
  assert.deepEqual(calls, [
    ['singleWrite', 'c', { _key: 'a' }],
    ['insertDocument', 'c', { _key: 'b' }, { durable: false }],
    ['insertDocument', 'c', { _key: 'c' }, { durable: true }],
  ]);
  assert.equal(insertFor({ supports: ['singleRead'] }, 'singleWrite'), null);
});

test('missingKeys names the acknowledged keys the collection no longer holds', async () => {
  const adapter = { readCollection: async () => [{ _key: 'a' }, { _key: 'c' }, { _key: 'z' }] };
  assert.deepEqual(await missingKeys(adapter, 'c', ['d', 'a', 'b', 'c']), ['b', 'd']);
});

describe('the verdict against the claim', () => {
  const description = { durability: { singleWrite: 'fast', singleWriteSync: 'durable' }, durablePerWrite: ['singleWriteSync'] };
  const crashes = (lost) => [{ acknowledged: 100, lost: 0 }, { acknowledged: 50, lost }];

  test('a mode declared durable per write is verified with no loss and fails with one', () => {
    const verified = summariseMode(description, 'singleWriteSync', crashes(0));
    assert.deepEqual({ ...verified, crashes: undefined }, {
      operation: 'singleWriteSync', trials: 2, acknowledged: 150, lost: 0, claim: 'durable', durablePerWrite: true, verdict: 'verified', crashes: undefined,
    });
    assert.equal(summariseMode(description, 'singleWriteSync', crashes(1)).verdict, 'failed');
  });

  test('a mode without the claim reports its losses without failing', () => {
    const summary = summariseMode(description, 'singleWrite', crashes(7));
    assert.equal(summary.lost, 7);
    assert.equal(summary.verdict, 'not claimed');
  });
});

describe('what a crash test may kill', () => {
  // A state file as `bench server start` writes it, naming a live process (this one).
  function localServer(family, port, program = 'node') {
    const cacheDir = mkdtempSync(path.join(dir, 'cache-'));
    mkdirSync(path.dirname(stateFile(cacheDir, family)), { recursive: true });
    writeFileSync(stateFile(cacheDir, family), JSON.stringify({ family, host: '127.0.0.1', port, pid: process.pid, program }));
    return cacheDir;
  }
  const writes = ['singleWrite', 'singleWriteSync'];
  const postgresql = { id: 'postgresql', name: 'PostgreSQL', kind: 'server', server: 'postgresql', supports: writes };
  const refused = (pattern) => (error) => error.code === ErrorCodes.USAGE && /cannot crash a server it did not start/.test(error.message) && pattern.test(error.message);

  test('the local server bench server started, found in the cache', () => {
    const cacheDir = localServer('postgresql', 55999);
    const target = crashTarget(postgresql, { cacheDir });
    assert.equal(target.kind, 'server');
    assert.equal(target.state.port, 55999);
    assert.equal(crashTarget(postgresql, { cacheDir, host: '127.0.0.1', port: 55999 }).kind, 'server');
  });

  test('refuses a remote host, another port, a server not started here, and databases without a local server', async () => {
    const cacheDir = localServer('postgresql', 55999);
    assert.throws(() => crashTarget(postgresql, { cacheDir, host: 'db.example.com' }), refused(/db\.example\.com:55999 is not the local PostgreSQL/));
    assert.throws(() => crashTarget(postgresql, { cacheDir, port: 5432 }), refused(/127\.0\.0\.1:5432 is not the local PostgreSQL/));
    assert.throws(() => crashTarget(postgresql, { cacheDir: mkdtempSync(path.join(dir, 'empty-')) }), refused(/no local PostgreSQL/));
    assert.throws(() => crashTarget(postgresql, { cacheDir: localServer('postgresql', 55999, 'postgres') }), refused(/pid \d+ recorded for PostgreSQL is no longer postgres/));
    assert.throws(() => crashTarget({ id: 'mongodb', name: 'MongoDB', kind: 'server', server: null, supports: writes }, { cacheDir }), refused(/MongoDB has no local server/));
    // A store with nothing outside the process is no server: nothing to crash, said as such.
    assert.throws(() => crashTarget({ id: 'memory', name: 'memory', kind: 'embedded', supports: writes }, { cacheDir }),
      (error) => error.code === ErrorCodes.USAGE && /^nothing to crash: memory keeps nothing outside/.test(error.message));
    assert.equal(crashTarget(await loadAdapter('sqlite'), { cacheDir }).kind, 'child');
    assert.throws(() => crashTarget({ ...postgresql, supports: ['singleRead'] }, { cacheDir }),
      (error) => error.code === ErrorCodes.USAGE && /offers no insert a crash test can load it with/.test(error.message));
  });

  for (const [args, pattern] of [
    [['--db', 'arangodb'], /cannot crash a server it did not start: ArangoDB/],
    [['--db', 'mongodb'], /cannot crash a server it did not start: MongoDB/],
    [['--db', 'memory'], /nothing to crash: In-process memory keeps nothing outside the harness's process/],
    [['--db', 'mysql'], /cannot crash a server it did not start: no local MariaDB/],
    [['--db', 'sqlite', '--trials', '0'], /--trials must be a positive integer/],
    [['--db', 'sqlite', '--trials', '1.5'], /--trials must be a positive integer/],
    [['--db', 'sqlite', '--concurrency', '0'], /--concurrency must be a positive integer/],
    [['--db', 'nosuch'], /unknown database/],
  ]) {
    test(`bench crash ${args.join(' ')} exits with 2`, async () => {
      const { code, stderr } = await spawnBench(['crash', ...args], { env: { BENCH_CACHE_DIR: mkdtempSync(path.join(dir, 'cli-')) } });
      assert.equal(code, 2, stderr);
      assert.match(stderr, pattern);
    });
  }
});

// Every embedded adapter that keeps files, a new one included: the registry decides, not a list here.
const embeddedAdapters = [];
for (const id of adapterIds()) {
  const description = await loadAdapter(id);
  if (embeddedOnDisk(description)) embeddedAdapters.push(description);
}

test('the crash test covers every embedded adapter that keeps files, and no other', () => {
  assert.deepEqual(embeddedAdapters.map(({ id }) => id), ['sqlite', 'duckdb', 'pglite']);
});

for (const embedded of embeddedAdapters) {
  test(`bench crash --db ${embedded.id} kills ${embedded.name} in a child process under load: no acknowledged write lost in either mode`, async () => {
    const cacheDir = mkdtempSync(path.join(dir, `${embedded.id}-`));
    const out = path.join(cacheDir, 'results');
    const { code, stdout, stderr } = await spawnBench(['crash', '--db', embedded.id, '--trials', '1', '--seed', '3', '--json', '--out', out],
      { env: { BENCH_CACHE_DIR: cacheDir } });
    assert.equal(code, 0, stderr);
    assert.match(stderr, /not a power-loss test/);
    assert.match(stderr, new RegExp(`${embedded.id} singleWriteSync crash 1/1: killed \\d\\.\\d\\d s into the load, \\d+ writes acknowledged, 0 lost`));
    const result = JSON.parse(stdout);
    assert.equal(result.schema, 'db-shootout/result@1');
    assert.equal(result.complete, true);
    assert.deepEqual(Object.keys(result.durability), ['singleWrite', 'singleWriteSync']);
    for (const [mode, figures] of Object.entries(result.durability)) {
      assert.equal(figures.trials, 1);
      assert.ok(figures.acknowledged > 0, `${mode}: writes were acknowledged before the kill`);
      assert.equal(figures.lost, 0, mode);
      assert.equal(figures.claim, embedded.durability[mode]);
      assert.equal(figures.verdict, 'verified');
      assert.ok(figures.crashes[0].killAfterMs >= 1000 && figures.crashes[0].killAfterMs <= 3000);
    }
    assert.deepEqual(readdirSync(out).filter((name) => new RegExp(`^${embedded.id}-crash-.*\\.json$`).test(name)).length, 1);
  });
}
