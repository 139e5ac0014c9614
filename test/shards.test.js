// Load from many machines (runner/shards.js, bench run --shard): the flags, the split by key, each shard's check of
// its own keys, and runs that stand in for a Kubernetes Indexed Job: n processes on this machine, each given
// JOB_COMPLETION_INDEX and the flags the generated manifest holds, against the local PostgreSQL, then bench merge;
// the merged result against a single-process run of the same work, and a run whose shard was killed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import memory from '../adapters/memory/description.js';
import postgresql from '../adapters/postgresql/description.js';
import { jobManifests } from '../cli/k8s.js';
import { decodeHistogram } from '../results/stats.js';
import { connectAdapter, runBenchmark } from '../runner/run.js';
import mysql from '../adapters/mysql/description.js';
import {
  createCoordinator, fnv1a32, keyShard, measureClockOffset, parseShard, parseStartAt, runIdOf, shardSettings, shareOf, sleepUntil, wallNow,
} from '../runner/shards.js';
import mixed from '../workloads/mixed/suite.js';
import { COLLECTION, WORKLOADS } from '../workloads/mixed/workloads.js';
import { BIN, spawnBench } from './helpers/cli.js';
import { serverTarget } from './helpers/servers.js';
import { sleepAtLeast } from './helpers/time.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-shards-'));
after(() => rmSync(work, { recursive: true, force: true }));
const byName = Object.fromEntries(WORKLOADS.map((workload) => [workload.name, workload]));

// The exact behaviour of each piece, without a database: every flag's edges and words, the split of inputs
// without a key, the wait for an instant, the clock offset's arithmetic on a clock of known readings, and the
// meeting's protocol over a store that records what it is asked.
describe('shards, exactly', () => {
  const USAGE = '--shard must be <i>/<n> (shard i of n, counted from 0) or index/<n>, got';
  const ISO = '--start-at must be an ISO time such as 2026-01-31T12:00:00Z, got';

  test('--shard: the whole text, any number of digits, from 1 to 1,024 shards, and the index variable\'s words', () => {
    assert.deepEqual(parseShard(' 1/2 ', {}), { index: 1, count: 2 });
    assert.deepEqual(parseShard('12/20', {}), { index: 12, count: 20 });
    assert.deepEqual(parseShard('0/1', {}), { index: 0, count: 1 });
    assert.deepEqual(parseShard('1023/1024', {}), { index: 1023, count: 1024 });
    assert.throws(() => parseShard('0/1025', {}), { code: 'E_USAGE', message: '--shard 0/1025: the number of shards must be from 1 to 1024' });
    assert.throws(() => parseShard('0/99999999999999999999', {}), { code: 'E_USAGE', message: /must be from 1 to 1024$/ });
    for (const text of ['1/2x', 'x1/2', '1/2/3', '-1/2', '1.5/2', '/2', '']) {
      assert.throws(() => parseShard(text, {}), { code: 'E_USAGE', message: `${USAGE} "${text}"` });
    }
    assert.deepEqual(parseShard('index/20', { JOB_COMPLETION_INDEX: '12' }), { index: 12, count: 20 });
    assert.throws(() => parseShard('index/4', {}), {
      code: 'E_USAGE',
      message: '--shard index/4 takes the shard\'s index from JOB_COMPLETION_INDEX, which is not set; outside a Kubernetes Indexed Job give it: --shard <i>/4',
    });
    for (const value of ['x', '1x', 'x1', '', '-1', '1.0']) {
      assert.throws(() => parseShard('index/4', { JOB_COMPLETION_INDEX: value }), {
        code: 'E_USAGE',
        message: `--shard index/4 takes the shard's index from JOB_COMPLETION_INDEX, which is "${value}"; outside a Kubernetes Indexed Job give it: --shard <i>/4`,
      });
    }
  });

  test('--start-at: an ISO date and time only, five seconds past and an hour ahead at the most, to the millisecond', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    assert.equal(parseStartAt('2026-01-01T11:59:55Z', now), now - 5000);
    assert.equal(parseStartAt('2026-01-01T13:00:00Z', now), now + 3_600_000);
    assert.throws(() => parseStartAt('2026-01-01T11:59:54.999Z', now), {
      code: 'E_USAGE', message: '--start-at 2026-01-01T11:59:54.999Z is 5 s in the past: the shards could not start together',
    });
    assert.throws(() => parseStartAt('2026-01-01T13:00:00.001Z', now), { code: 'E_USAGE', message: '--start-at 2026-01-01T13:00:00.001Z is more than an hour ahead' });
    // A date without its time, an expanded year and an HTTP date all parse, and none is the ISO form asked for.
    for (const text of ['2026-01-01', '+002026-01-01T12:00:30Z', 'Thu, 01 Jan 2026 12:00:30 GMT', '2026-01-01T99:00:00Z']) {
      assert.throws(() => parseStartAt(text, now), { code: 'E_USAGE', message: `${ISO} "${text}"` });
    }
  });

  test('the run id: twelve hex digits of the start and the flags, with only --shard and --run-id (and their values) left out', () => {
    const start = '2026-01-01T12:00:30Z';
    const base = ['run', '--suite', 'mixed', '--start-at', start];
    assert.equal(runIdOf({ startAt: start, args: [...base, '--shard', '0/2'] }), 'run-7df020122dd6');
    assert.equal(runIdOf({ startAt: start, args: [...base, '--run-id', 'x', '--shard=1/2'] }), 'run-7df020122dd6');
    const id = (...extra) => runIdOf({ startAt: start, args: [...base, ...extra] });
    // Flags that only begin like --shard, or hold it inside, are the run's own: their values count.
    assert.notEqual(id('--shard-wait', '5'), id('--shard-wait', '6'));
    assert.notEqual(id('--note', 'a--shard=1'), id('--note', 'a--shard=2'));
    assert.notEqual(id('--note', 'a--shard', 'A'), id('--note', 'a--shard', 'B'));
    assert.equal(id('--shard', '3/4', '--ops', '5'), id('--ops', '5'));
    assert.throws(() => runIdOf({ runId: 'a b', args: [] }), {
      code: 'E_USAGE', message: '--run-id must be 1 to 63 letters, digits, \'.\', \'_\' or \'-\', got "a b"',
    });
  });

  test('inputs without a string key go by position; only objects are copied, and only their own index and after moved', () => {
    // Not an object, so its key is not one: by its position it is shard 1's, by the key it would be shard 0's.
    const fn = Object.assign(() => {}, { key: 'a' });
    // Positions 0, 2, 4 and 6 are shard 0's, 1, 3, 5 and 7 shard 1's; key "a" is shard 0's, "b" shard 1's.
    const inputs = [null, 7, 'text', { n: 1 }, { key: 5 }, fn, { key: 'b', index: 6 }, { key: 'a' }, { key: 'b', after: 6 }];
    const [zero, one] = [0, 1].map((index) => shareOf(inputs, { index, count: 2 }));
    assert.deepEqual(zero.inputs, [null, 'text', { key: 5 }, { key: 'a' }]);
    assert.deepEqual(one.inputs, [7, { n: 1 }, fn, { key: 'b', index: 3 }, { key: 'b', after: 3 }]);
    assert.equal(zero.inputs[0], null);
    assert.ok(zero.owns('a') && !zero.owns('b') && one.owns('b'));
    assert.throws(() => shareOf([{ key: 'a' }, { key: 'b', after: 0 }], { index: 1, count: 2 }), {
      message: 'internal: operation 1 waits for 0, which another shard runs',
    });
  });

  test('sleepUntil: an instant already past returns at once, without a timer', async () => {
    let done = false;
    sleepUntil(wallNow() - 1000).then(() => { done = true; });
    await null;
    assert.equal(done, true);
  });

  test('sleepUntil: a timer, then a spin of its last milliseconds only, waking on time', async () => {
    // Three waits, the least late counted: a busy machine may take the processor from one of them.
    const late = [];
    for (let i = 0; i < 3; i += 1) {
      const at = wallNow() + 300;
      const cpu = process.cpuUsage();
      await sleepUntil(at);
      const woke = wallNow();
      const { user, system } = process.cpuUsage(cpu);
      assert.ok(woke >= at);
      assert.ok((user + system) / 1000 < 150, `${(user + system) / 1000} ms of CPU for a 300 ms wait`);
      late.push(woke - at);
    }
    assert.ok(Math.min(...late) < 15, `woke ${late.join(', ')} ms late`);
  });

  // A clock whose readings take `delays` ms and put the server `offsets` ms behind this machine.
  function clockQueries(delays, offsets, calls, { failRead = null, failAt = null } = {}) {
    return {
      fake: {
        against: 'the fake clock',
        async read(options) {
          calls.push(['read', options]);
          if (failRead) throw new Error(failRead);
          let reading = 0;
          return {
            now: async () => {
              const k = reading;
              reading += 1;
              calls.push(['now', k]);
              if (k === failAt) throw new Error('lost');
              const began = wallNow();
              // At least the delay by the clock the round trip is read from (wallNow is performance.now() moved).
              await sleepAtLeast(delays[k]);
              return began + (wallNow() - began) / 2 - offsets[k];
            },
            close: async () => { calls.push(['close']); },
          };
        },
      },
    };
  }
  const server = { driver: 'fake', kind: 'server' };

  test('the clock offset: five readings, the shortest round trip\'s, in milliseconds to three decimals', async () => {
    const calls = [];
    const options = { host: 'h', port: 1 };
    const result = await measureClockOffset(server, options, clockQueries([200, 4, 150, 250, 120], [900, 250, 900, 900, 900], calls));
    assert.deepEqual(Object.keys(result), ['offsetMs', 'roundTripMs', 'against']);
    assert.equal(result.against, 'the fake clock');
    assert.ok(Math.abs(result.offsetMs - 250) < 10, JSON.stringify(result));
    assert.ok(result.roundTripMs >= 4 && result.roundTripMs < 100, JSON.stringify(result));
    for (const value of [result.offsetMs, result.roundTripMs]) assert.equal(value, Math.round(value * 1000) / 1000);
    assert.deepEqual(calls, [['read', options], ['now', 0], ['now', 1], ['now', 2], ['now', 3], ['now', 4], ['close']]);
  });

  test('the clock offset: none for an embedded store or another driver, and an error of the server\'s recorded, not thrown', async () => {
    const calls = [];
    assert.equal(await measureClockOffset({ driver: 'fake', kind: 'embedded' }, {}, clockQueries([], [], calls)), null);
    assert.equal(await measureClockOffset({ driver: 'other', kind: 'server' }, {}, clockQueries([], [], calls)), null);
    assert.deepEqual(calls, []);
    assert.deepEqual(await measureClockOffset(server, {}, clockQueries([], [], calls, { failRead: 'refused' })), {
      offsetMs: null, roundTripMs: null, against: 'the fake clock', error: 'refused',
    });
    calls.length = 0;
    assert.deepEqual(await measureClockOffset(server, {}, clockQueries([1, 1, 1], [0, 0, 0], calls, { failAt: 2 })), {
      offsetMs: null, roundTripMs: null, against: 'the fake clock', error: 'lost',
    });
    assert.deepEqual(calls.at(-1), ['close']);
  });

  for (const [description, against] of [[postgresql, 'the PostgreSQL server (clock_timestamp())'], [mysql, 'the MySQL server (NOW(6))']]) {
    const { options, skip } = serverTarget(description);
    test(`the clock offset against the ${description.name} server on this machine: near zero, or the connection's error`, { skip }, async () => {
      const result = await measureClockOffset(description, { ...options, connectTimeoutMs: 5000 });
      assert.equal(result.against, against);
      assert.equal(result.error, undefined, result.error);
      assert.ok(Math.abs(result.offsetMs) < 50, JSON.stringify(result));
      assert.ok(result.roundTripMs > 0 && result.roundTripMs < 1000, JSON.stringify(result));
      const refused = await measureClockOffset(description, { ...options, host: '127.0.0.1', port: 1, connectTimeoutMs: 5000 });
      assert.deepEqual({ ...refused, error: undefined }, { offsetMs: null, roundTripMs: null, against, error: undefined });
      assert.match(refused.error, /ECONNREFUSED/);
    });
  }

  // A store that records the meeting's calls, with a marker and collections the test can set.
  function meetingStore({ state = 'owned', marker = { owner: 'db-shootout', version: 1 } } = {}) {
    const collections = new Map();
    return {
      state,
      marker,
      calls: [],
      async inspectNamespace() { return { state: this.state, marker: this.marker }; },
      async writeMarker(written) { this.calls.push(['writeMarker']); this.marker = written; },
      async createTempCollection(name) { this.calls.push(['create', name]); collections.set(name, []); },
      async dropTempCollection(name) { this.calls.push(['drop', name]); collections.delete(name); },
      async insertDocument(name, doc, options) {
        this.calls.push(['insert', name, doc, options]);
        if (collections.get(name).some((stored) => stored._key === doc._key)) throw new Error(`duplicate key ${doc._key}`);
        collections.get(name).push(doc);
      },
      async readCollection(name) { return [...collections.get(name)]; },
      async close() { this.calls.push(['close']); },
    };
  }
  const withoutTime = (shards) => ({ ...shards, writtenMs: typeof shards.writtenMs });

  test('the meeting: shard 0 opens, announces and closes, keeping the rest of the marker', async () => {
    const store = meetingStore();
    const leader = createCoordinator({ adapter: store, shard: { index: 0, count: 3 }, runId: 'R', waitMs: 2000 });
    const opened = wallNow();
    await leader.open();
    assert.deepEqual(store.calls, [['create', 'shard_done'], ['writeMarker']]);
    assert.equal(store.marker.owner, 'db-shootout');
    assert.equal(store.marker.version, 1);
    assert.deepEqual(withoutTime(store.marker.shards), { runId: 'R', count: 3, writtenMs: 'number', step: -1 });
    assert.ok(store.marker.shards.writtenMs >= opened && store.marker.shards.writtenMs <= wallNow());
    const later = wallNow() + 5000;
    assert.equal(await leader.start(1, later), later);
    assert.deepEqual(withoutTime(store.marker.shards), {
      runId: 'R', count: 3, writtenMs: 'number', step: 1, startAt: new Date(later).toISOString(), startAtMs: later,
    });
    assert.equal(store.marker.owner, 'db-shootout');
    await leader.close();
    await leader.release();
    assert.deepEqual(store.calls.slice(-2), [['drop', 'shard_done'], ['close']]);
  });

  test('the meeting: each shard\'s report of each step is its own document, not durable', async () => {
    const store = meetingStore();
    await createCoordinator({ adapter: store, shard: { index: 0, count: 3 }, runId: 'R', waitMs: 2000 }).open();
    for (const step of [0, 1]) {
      for (const index of [0, 1, 2]) await createCoordinator({ adapter: store, shard: { index, count: 3 }, runId: 'R', waitMs: 2000 }).done(step);
    }
    assert.deepEqual(store.calls.filter(([call]) => call === 'insert').map(([, name, doc, options]) => [name, doc, options]), [0, 1].flatMap(
      (step) => [0, 1, 2].map((shard) => ['shard_done', { _key: `C${step * 3 + shard + 1}`, run: 'R', step, shard }, { durable: false }]),
    ));
  });

  test('the meeting: a shard waiting for an announcement says so, and stops on a foreign namespace, a failed shard 0 or another count', async () => {
    const lines = [];
    const store = meetingStore();
    const other = createCoordinator({ adapter: store, shard: { index: 1, count: 3 }, runId: 'R', waitMs: 600, log: (line) => lines.push(line) });
    const began = performance.now();
    await assert.rejects(other.awaitStart(1), {
      code: 'E_TIMEOUT', message: 'shard 1 of 3 of run R: shard 0 did not announce step 2 (is it running, against this namespace?) within 1 s',
    });
    assert.ok(performance.now() - began >= 550);
    assert.deepEqual(lines, ['shard 1 of 3: waiting for shard 0 to announce step 2 of run R']);
    store.marker = undefined;
    await assert.rejects(other.awaitStart(0), { code: 'E_TIMEOUT' });
    store.marker = { shards: { runId: 'R', count: 3, writtenMs: wallNow(), step: null, failed: 'boom' } };
    await assert.rejects(other.awaitStart(0), { meeting: true, message: 'shard 1 of 3: shard 0 stopped: boom' });
    store.marker = { shards: { runId: 'R', count: 2, writtenMs: wallNow(), step: 0, startAtMs: 5 } };
    await assert.rejects(other.awaitStart(0), { code: 'E_USAGE', meeting: true, message: 'shard 1 of 3: shard 0 runs 2 shards, this one was given 3' });
    store.state = 'foreign';
    await assert.rejects(other.awaitStart(0), { code: 'E_NAMESPACE_FOREIGN', meeting: true, message: 'shard 1 of 3: the namespace is not the harness\'s' });
  });

  test('the meeting: shard 0 waits while shards keep reporting, and names the ones that stop reporting', { timeout: 10_000 }, async () => {
    const store = meetingStore();
    const shard = (index, waitMs = 600) => createCoordinator({ adapter: store, shard: { index, count: 3 }, runId: 'R', waitMs });
    await shard(0).open();
    // Another run's reports and another step's are not this step's.
    await store.insertDocument('shard_done', { _key: 'X1', run: 'other', step: 0, shard: 1 });
    await store.insertDocument('shard_done', { _key: 'X2', run: 'R', step: 1, shard: 2 });
    // One report every 250 ms: 750 ms in all, more than the 600 ms wait, but never 600 ms without one.
    const reports = [0, 1, 2].map((index) => new Promise((resolve) => { setTimeout(() => resolve(shard(index).done(0)), 250 * (index + 1)); }));
    const began = performance.now();
    await shard(0).awaitDone(0);
    assert.ok(performance.now() - began >= 700, `${performance.now() - began} ms`);
    await Promise.all(reports);
    await shard(0).done(1);
    const waiting = performance.now();
    await assert.rejects(shard(0, 600).awaitDone(1), {
      code: 'E_TIMEOUT', meeting: true,
      message: 'shard 0 of 3 of run R: shard 1 of 3 did not report step 2 done within 1 s (stopped, or killed?)',
    });
    assert.ok(performance.now() - waiting >= 550);
    await assert.rejects(shard(0, 300).awaitDone(2), { message: /: shard 0, shard 1, shard 2 of 3 did not report step 3 done within 0 s/ });
  });

  test('the shard settings: --start-at and --shard-wait need --shard, and --shard-wait is seconds above 0, at most a day', () => {
    for (const flag of ['start-at', 'run-id', 'shard-wait']) {
      assert.throws(() => shardSettings({ [flag]: '1' }, []), { code: 'E_USAGE', message: `--${flag} applies to a sharded run; add --shard <i>/<n>` });
    }
    const now = Date.parse('2026-01-01T12:00:00Z');
    const start = '2026-01-01T12:00:30Z';
    assert.deepEqual(shardSettings({ shard: '0/2', 'start-at': start }, ['run', '--suite', 'mixed', '--start-at', start, '--shard', '0/2'], { now }), {
      index: 0, count: 2, runId: 'run-7df020122dd6', startAtMs: now + 30_000, waitMs: 600_000,
    });
    assert.equal(shardSettings({ shard: 'index/2', 'run-id': 'x' }, [], { env: { JOB_COMPLETION_INDEX: '1' } }).index, 1);
    assert.equal(shardSettings({ shard: '0/2', 'run-id': 'x', 'shard-wait': 86_400 }, []).waitMs, 86_400_000);
    assert.equal(shardSettings({ shard: '0/2', 'run-id': 'x', 'shard-wait': 0.0015 }, []).waitMs, 2);
    for (const wait of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 86_401]) {
      assert.throws(() => shardSettings({ shard: '0/2', 'run-id': 'x', 'shard-wait': wait }, []), {
        code: 'E_USAGE', message: `--shard-wait must be a number of seconds above 0, at most 86,400, got ${wait}`,
      });
    }
  });
});

describe('the shard flags', () => {
  test('--shard i/n, or index/n with the index from JOB_COMPLETION_INDEX', () => {
    assert.deepEqual(parseShard('2/4', {}), { index: 2, count: 4 });
    assert.deepEqual(parseShard('index/4', { JOB_COMPLETION_INDEX: '3' }), { index: 3, count: 4 });
    assert.throws(() => parseShard('index/4', {}), { code: 'E_USAGE', message: /JOB_COMPLETION_INDEX, which is not set/ });
    assert.throws(() => parseShard('index/4', { JOB_COMPLETION_INDEX: '4' }), { code: 'E_USAGE', message: /shard 4 does not exist among 4/ });
    assert.throws(() => parseShard('4/4', {}), { code: 'E_USAGE', message: /does not exist/ });
    assert.throws(() => parseShard('1/0', {}), { code: 'E_USAGE', message: /from 1 to/ });
    assert.throws(() => parseShard('1', {}), { code: 'E_USAGE', message: /<i>\/<n>/ });
  });

  test('--start-at: an ISO time at most a few seconds past and an hour ahead', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    assert.equal(parseStartAt('2026-01-01T12:00:30Z', now), now + 30_000);
    assert.equal(parseStartAt('2026-01-01T11:59:58Z', now), now - 2000);
    assert.throws(() => parseStartAt('2026-01-01T11:59:00Z', now), { code: 'E_USAGE', message: /60 s in the past/ });
    assert.throws(() => parseStartAt('2026-01-01T13:00:01Z', now), { code: 'E_USAGE', message: /more than an hour ahead/ });
    assert.throws(() => parseStartAt('tomorrow', now), { code: 'E_USAGE', message: /ISO time/ });
  });

  test('the run id: --run-id, else the same for every shard given the same --start-at and flags', () => {
    const flags = ['run', '--suite', 'mixed', '--start-at', 'T'];
    const a = runIdOf({ startAt: 'T', args: [...flags, '--shard', '0/2'] });
    assert.equal(runIdOf({ startAt: 'T', args: [...flags, '--shard=1/2'] }), a);
    assert.notEqual(runIdOf({ startAt: 'T', args: [...flags, '--ops', '5', '--shard', '1/2'] }), a);
    assert.equal(runIdOf({ runId: 'r-1', args: [] }), 'r-1');
    assert.throws(() => runIdOf({ runId: 'a b', args: [] }), { code: 'E_USAGE' });
    assert.throws(() => runIdOf({ args: flags }), { code: 'E_USAGE', message: /--run-id <id> or --start-at/ });
  });

  test('the other shard flags are refused without --shard', () => {
    assert.equal(shardSettings({}, []), null);
    assert.throws(() => shardSettings({ 'run-id': 'x' }, []), { code: 'E_USAGE', message: /--run-id applies to a sharded run/ });
    assert.throws(() => shardSettings({ shard: '0/2', 'run-id': 'x', 'restart-cmd': 'pg_ctl restart' }, []), { code: 'E_USAGE', message: /--restart-cmd cannot/ });
    assert.deepEqual(shardSettings({ shard: '1/3', 'run-id': 'x', 'shard-wait': 2 }, []), {
      index: 1, count: 3, runId: 'x', startAtMs: null, waitMs: 2000,
    });
  });
});

const ctx = await mixed.prepare({ records: 200, ops: [7000], shape: 'varied', seed: 4 });

test('bench run refuses --shard for a suite whose checks need every client\'s writes, before any work', async () => {
  const { code, stderr } = await spawnBench(['run', '--suite', 'crud', '--db', 'sqlite', '--shard', '0/2', '--run-id', 'x', '--out', work]);
  assert.equal(code, 2, stderr);
  assert.match(stderr, /^error: --shard runs the mixed suite; the crud suite's checks read back what every client wrote/);
});

describe('the split of a step by key', () => {  const stream = (name) => byName[name].inputs(ctx, { ops: 7000, records: 200, distribution: 'zipfian' });

  test('FNV-1a 32 of the key, modulo the shards', () => {
    assert.equal(fnv1a32(''), 0x811c9dc5);
    assert.equal(fnv1a32('a'), 0xe40c292c);
    assert.equal(keyShard('a', 7), 0xe40c292c % 7);
  });

  test('every operation goes to exactly one shard, all of a key\'s to the same, in input order', () => {
    const inputs = stream('igiugid');
    const shares = [0, 1, 2].map((index) => shareOf(inputs, { index, count: 3 }));
    assert.equal(shares.reduce((total, share) => total + share.inputs.length, 0), inputs.length);
    const owners = new Map();
    shares.forEach((share, index) => {
      for (const op of share.inputs) {
        assert.equal(owners.get(op.key) ?? index, index, op.key);
        owners.set(op.key, index);
        assert.ok(share.owns(op.key));
      }
    });
    assert.ok(shares.every((share) => share.inputs.length > 1500), shares.map((share) => share.inputs.length).join());
    // A write waiting for its key's insert points at that insert within the share.
    for (const share of shares) {
      share.inputs.forEach((op, i) => {
        if (op.after !== undefined) {
          assert.ok(op.after < i);
          assert.equal(share.inputs[op.after].key, op.key);
          assert.equal(share.inputs[op.after].index, op.after);
        }
      });
    }
    assert.deepEqual(shareOf(inputs, { index: 1, count: 3 }).inputs, shares[1].inputs);
  });

  test('each shard\'s check of its own keys passes, and would fail over every key', async () => {
    // Two shares of one stream run one after the other on one in-process store, each checked as its shard would.
    const adapter = await connectAdapter(memory, { namespace: 'shardcheck', concurrency: 4, connectTimeoutMs: 1000 });
    const workload = byName.igiugid;
    const params = { ops: 7000, records: 200, distribution: 'zipfian', durable: false };
    try {
      await adapter.resetNamespace();
      await adapter.createTempCollection(COLLECTION);
      for (const doc of ctx.docs.slice(0, 200)) await adapter.insertDocument(COLLECTION, doc, { durable: false });
      const shares = [0, 1].map((index) => shareOf(workload.inputs(ctx, params), { index, count: 2 }));
      const outcomes = [];
      for (const share of shares) {
        await workload.setup(adapter);
        const answers = [];
        const starts = [];
        const ends = [];
        for (const op of share.inputs) {
          starts.push(performance.now());
          answers.push(await workload.call(adapter, op, params));
          ends.push(performance.now());
        }
        outcomes.push({ answers, times: { starts, ends } });
      }
      for (const [index, share] of shares.entries()) {
        const { answers, times } = outcomes[index];
        assert.deepEqual(await workload.check(ctx, share.inputs, answers, adapter, { ...params, owns: share.owns }, times), []);
        const unsplit = await workload.check(ctx, share.inputs, answers, adapter, params, times);
        assert.ok(unsplit.length > 0, 'the other shard\'s writes are failures to a check of every key');
      }
    } finally {
      await adapter.close();
    }
  });
});

describe('the shards\' meeting, in one process over the in-process store', () => {
  const options = { namespace: 'dbshootout_shardmeet', concurrency: 4, connectTimeoutMs: 1000, dataDir: null };
  const config = {
    records: 300, ops: 3000, runs: 1, durable: false, shape: 'varied', seed: 5, distribution: 'zipfian', concurrency: [2, 8],
    stallTimeoutMs: 10_000,
  };
  const runShard = async (shard, signal) => runBenchmark({
    suite: mixed, description: memory, adapterOptions: options, dataset: await mixed.prepare(config),
    workloads: [byName['50-50']], config, command: 'test', shard: { runId: 'meet', waitMs: 3000, startAtMs: null, ...shard }, signal,
  });

  test('every step starts at one announced instant, the first at --start-at, and every shard checks its keys', async () => {
    const startAtMs = Date.now() + 1500;
    const results = await Promise.all([0, 1, 2].map((index) => runShard({ index, count: 3, startAtMs })));
    const keys = Object.keys(results[0].workloads);
    assert.equal(keys.length, 2);
    for (const key of keys) {
      const runs = results.map((result) => result.workloads[key].runs[0]);
      assert.ok(results.every((result) => result.workloads[key].status === 'passed'), JSON.stringify(results.map((result) => result.workloads[key].failures)));
      assert.equal(results.reduce((total, result) => total + result.workloads[key].ops, 0), 3000);
      assert.equal(new Set(runs.map((run) => run.span.startAt)).size, 1, 'one start for every shard');
      for (const run of runs) {
        assert.ok(run.span.startMs >= Date.parse(run.span.startAt));
        // The span is the run's time, from the shard's start; how late it started is counted from the announced instant.
        assert.ok(Math.abs(run.span.endMs - run.span.startMs - run.ms) < 0.01, JSON.stringify(run.span));
        assert.ok(run.span.lateMs >= 0 && run.span.lateMs < 1000 && Math.abs(run.span.startMs - run.span.lateMs - Date.parse(run.span.startAt)) < 1, JSON.stringify(run.span));
      }
    }
    assert.ok(Date.parse(results[0].workloads[keys[0]].runs[0].span.startAt) >= startAtMs);
    assert.ok(Date.parse(results[0].workloads[keys[1]].runs[0].span.startAt) > results.reduce(
      (latest, result) => Math.max(latest, result.workloads[keys[0]].runs[0].span.endMs), 0), 'the second step after every shard ended the first');
    assert.deepEqual(results.map((result) => result.shard.index), [0, 1, 2]);
    assert.equal(results[1].shard.clock, null, 'no server clock to read');
  });

  test('a shard 0 that stops ends the others, which say why', async () => {
    const controller = new AbortController();
    const leader = runShard({ index: 0, count: 2, runId: 'stops' }, controller.signal);
    const other = runShard({ index: 1, count: 2, runId: 'stops' });
    controller.abort();
    await leader;
    await assert.rejects(other, /shard 1 of 2: shard 0 stopped: interrupted/);
  });

  test('an announcement of an earlier run with the same id is not taken for this run\'s', async () => {
    const adapter = await connectAdapter(memory, { ...options, concurrency: 1 });
    try {
      const { marker } = await adapter.inspectNamespace();
      const old = { runId: 'again', count: 2, step: 0, startAtMs: Date.now() - 20_000, writtenMs: Date.now() - 21_000 };
      await adapter.writeMarker({ ...marker, shards: old });
      const coordinator = createCoordinator({ adapter, shard: { index: 1, count: 2 }, runId: 'again', waitMs: 300 });
      await assert.rejects(coordinator.awaitStart(0), { code: 'E_TIMEOUT', message: /did not announce step 1/ });
      await adapter.writeMarker({ ...marker, shards: { ...old, writtenMs: Date.now() } });
      assert.equal(await coordinator.awaitStart(0), old.startAtMs);
    } finally {
      await adapter.close();
    }
  });

  // The two shards of one run, shard 0 over an adapter that knows it is shard 0's (or over `description`, given
  // `leader` among its options); `setupFails(params)` gives the error shard 0's step setup throws, if any.
  const leaderKnown = { ...memory, create: (adapterOptions) => Object.assign(memory.create(adapterOptions), { leader: adapterOptions.leader === true }) };
  const failingIn = (setupFails) => ({
    ...byName['50-50'],
    setup: async (adapter, params) => {
      const error = adapter.leader ? setupFails(params) : null;
      if (error) throw error;
      return byName['50-50'].setup?.(adapter, params);
    },
  });
  const runPair = async (runId, { setupFails = () => null, lines = [], description = leaderKnown } = {}) => Promise.allSettled([0, 1].map(async (index) => runBenchmark({
    suite: mixed, description, adapterOptions: { ...options, leader: index === 0 }, dataset: await mixed.prepare(config),
    workloads: [failingIn(setupFails)], config, command: 'test', shard: { index, count: 2, runId, waitMs: 3000, startAtMs: null },
    progress: { bar: () => ({ update() {}, stop() {} }), log: (line) => lines.push(`${index}: ${line}`) },
  })));

  test('shard 0 announces each step once and closes the meeting; every connection is closed', async () => {
    const steps = [];
    let opened = 0;
    let closed = 0;
    const counted = {
      ...memory,
      create: (adapterOptions) => {
        const adapter = memory.create(adapterOptions);
        const { writeMarker, close } = adapter;
        opened += 1;
        return Object.assign(adapter, {
          writeMarker: async (marker) => {
            if (adapterOptions.leader && marker.shards) steps.push(marker.shards.step);
            return writeMarker.call(adapter, marker);
          },
          close: async () => { closed += 1; return close.call(adapter); },
        });
      },
    };
    const results = await runPair('once', { description: counted });
    assert.ok(results.every((result) => result.value?.complete), 'both shards complete');
    assert.deepEqual(steps, [-1, 0, 1]);
    assert.equal(closed, opened);
    const adapter = await connectAdapter(memory, { ...options, concurrency: 1 });
    try {
      assert.equal((await adapter.inspectNamespace()).marker.shards.failed, undefined, 'closed, not abandoned');
      await assert.rejects(adapter.readCollection('shard_done'));
    } finally {
      await adapter.close();
    }
  });

  test('a step that fails on shard 0 before its start is still announced: the others run it', async () => {
    const lines = [];
    const [leader, other] = await runPair('fails-early', { setupFails: (params) => (params.concurrency === 2 ? new Error('setup broke') : null), lines });
    assert.equal(leader.status, 'fulfilled', leader.reason?.stack);
    assert.equal(other.status, 'fulfilled', other.reason?.stack);
    const [first, second] = Object.keys(leader.value.workloads);
    assert.deepEqual(leader.value.workloads[first].runs.map((run) => run.reason), ['setup broke']);
    assert.deepEqual([first, second].map((key) => other.value.workloads[key].status), ['passed', 'passed']);
    assert.equal(leader.value.workloads[second].status, 'passed');
    assert.deepEqual(lines.filter((line) => line.includes('waiting')), [
      '1: shard 1 of 2: waiting for shard 0 to announce step 1 of run fails-early',
      '1: shard 1 of 2: waiting for shard 0 to announce step 2 of run fails-early',
    ]);
  });

  test('a shard 0 that stops on an error tells the others why', async () => {
    const stall = Object.assign(new Error('no operation completed for 1 s'), { code: 'E_TIMEOUT' });
    const [leader, other] = await runPair('stalls', { setupFails: (params) => (params.concurrency === 2 ? stall : null) });
    assert.equal(leader.reason, stall);
    assert.equal(other.status, 'rejected');
    assert.equal(other.reason.message, 'shard 1 of 2: shard 0 stopped: no operation completed for 1 s');
  });

  test('a shard 0 that never comes is waited for no longer than --shard-wait', async () => {
    const began = performance.now();
    await assert.rejects(runShard({ index: 1, count: 2, runId: 'alone', waitMs: 500 }), {
      code: 'E_TIMEOUT', message: /shard 1 of 2 of run alone: shard 0 did not announce step 1 .* within 1 s/,
    });
    assert.ok(performance.now() - began < 5000);
  });
});

// The PostgreSQL server of `bench server start postgresql`, or a skip.
const target = serverTarget(postgresql);
const connectionFlags = target.options
  ? ['--host', target.options.host, '--port', String(target.options.port), '--user', target.options.user,
    ...(target.options.database ? ['--database', target.options.database] : [])]
  : [];
const env = target.options?.password ? { BENCH_PG_PASSWORD: target.options.password } : {};

// The arguments each pod of the generated Job runs, with its results directory here instead of the volume's.
function manifestArgs({ runId, shards, out, runFlags }) {
  const [load] = jobManifests({ db: 'postgresql', suite: 'mixed', shards, image: 'db-shootout:test', runId, shardWait: 5, runFlags });
  const args = [...load.spec.template.spec.containers[0].args];
  args[args.indexOf('--out') + 1] = out;
  return args;
}

// One process per shard, as the Job's pods; `kill` ends the one of that index before it could finish.
function runShards({ args, shards, kill = null }) {
  return Promise.all(Array.from({ length: shards }, (_, index) => new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env, JOB_COMPLETION_INDEX: String(index) }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.stdout.resume();
    if (index === kill) setTimeout(() => child.kill('SIGKILL'), 300);
    child.on('exit', (code, signal) => resolve({ index, code, signal, stderr }));
  })));
}

const histogramTotal = (run) => decodeHistogram(run.histogram).totalCount;
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

describe('shards as a Kubernetes Indexed Job runs them, against PostgreSQL', { skip: target.skip, timeout: 180_000 }, () => {
  after(() => postgresql.testSupport.dropNamespace({ ...target.options, namespace: 'dbshootout_shardtest' }));
  const work2 = (name) => {
    const dir = path.join(work, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const suiteFlags = (workload) => ['--workload', workload, '--ops', '2000', '--records', '300', '--concurrency', '4',
    '--distribution', 'uniform', '--namespace', 'dbshootout_shardtest', '--quiet'];

  test('three shards merged equal one process in operations, answers checked and histogram totals', async () => {
    const out = work2('three');
    const args = manifestArgs({ runId: 'shardtest-three', shards: 3, out, runFlags: [...connectionFlags, ...suiteFlags('igiugid')] });
    const shards = await runShards({ args, shards: 3 });
    for (const shard of shards) assert.equal(shard.code, 0, `shard ${shard.index}: ${shard.stderr}`);
    const partials = readdirSync(out).map((name) => readJson(path.join(out, name)));
    assert.deepEqual(partials.map((result) => result.shard.index).sort(), [0, 1, 2]);
    assert.ok(partials.every((result) => result.shard.clock.offsetMs !== null && result.shard.runId === 'shardtest-three'));

    const mergedFile = path.join(work, 'three.json');
    const merge = await spawnBench(['merge', out, '--out', mergedFile, '--quiet']);
    assert.equal(merge.code, 0, merge.stderr);
    const merged = readJson(mergedFile);

    const single = await spawnBench(['run', '--db', 'postgresql', '--suite', 'mixed', ...connectionFlags, ...suiteFlags('igiugid'),
      '--out', work2('single'), '--json'], { env });
    assert.equal(single.code, 0, single.stderr);
    const alone = JSON.parse(single.stdout);

    assert.deepEqual(Object.keys(merged.workloads), Object.keys(alone.workloads));
    for (const [key, entry] of Object.entries(merged.workloads)) {
      const [run] = entry.runs;
      assert.equal(entry.status, 'passed', `${key}: ${JSON.stringify(entry.failures)}`);
      assert.equal(entry.status, alone.workloads[key].status);
      assert.equal(entry.ops, alone.workloads[key].ops);
      assert.equal(histogramTotal(run), histogramTotal(alone.workloads[key].runs[0]));
      assert.equal(histogramTotal(run), 2000);
      // The shards' operations add up, and the run spans the first shard's start to the last one's end.
      const parts = partials.map((result) => result.workloads[key]);
      assert.equal(parts.reduce((total, part) => total + part.ops, 0), 2000);
      assert.equal(run.ms, Math.round((Math.max(...parts.map((part) => part.runs[0].span.endMs))
        - Math.min(...parts.map((part) => part.runs[0].span.startMs))) * 1000) / 1000);
      assert.ok(parts.every((part) => part.runs[0].span.startAt === parts[0].runs[0].span.startAt), 'one announced start');
    }
    assert.equal(merged.shards.machines.length, 3);
    assert.equal(merged.complete, true);
    assert.equal(merged.shard, undefined);

    const report = await spawnBench(['report', mergedFile, '--format', 'json']);
    assert.equal(report.code, 0, report.stderr);
    assert.equal(JSON.parse(report.stdout).workloads.length, 1);
  });

  test('a killed shard: shard 0 names it, and bench merge refuses the run naming it', async () => {
    const out = work2('killed');
    const args = manifestArgs({ runId: 'shardtest-killed', shards: 3, out, runFlags: [...connectionFlags, ...suiteFlags('read-only')] });
    const shards = await runShards({ args, shards: 3, kill: 2 });
    assert.equal(shards[2].signal, 'SIGKILL');
    assert.equal(shards[0].code, 1);
    assert.match(shards[0].stderr, /shard 2 of 3 did not report step 1 done within 5 s/);
    const merge = await spawnBench(['merge', out, '--out', path.join(work, 'killed.json')]);
    assert.equal(merge.code, 2, merge.stderr);
    assert.match(merge.stderr, /shards? 2\b|shard 2 of 3/);
  });
});
