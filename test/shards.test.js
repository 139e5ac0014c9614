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
import {
  createCoordinator, fnv1a32, keyShard, parseShard, parseStartAt, runIdOf, shardSettings, shareOf,
} from '../runner/shards.js';
import mixed from '../workloads/mixed/suite.js';
import { COLLECTION, WORKLOADS } from '../workloads/mixed/workloads.js';
import { BIN, spawnBench } from './helpers/cli.js';
import { serverTarget } from './helpers/servers.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-shards-'));
after(() => rmSync(work, { recursive: true, force: true }));
const byName = Object.fromEntries(WORKLOADS.map((workload) => [workload.name, workload]));

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
      for (const run of runs) assert.ok(run.span.startMs >= Date.parse(run.span.startAt));
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

  test('a shard 0 that never comes is waited for no longer than --shard-wait', async () => {
    const began = Date.now();
    await assert.rejects(runShard({ index: 1, count: 2, runId: 'alone', waitMs: 500 }), {
      code: 'E_TIMEOUT', message: /shard 1 of 2 of run alone: shard 0 did not announce step 1 .* within 1 s/,
    });
    assert.ok(Date.now() - began < 5000);
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
