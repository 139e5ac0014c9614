// A real 3-node MariaDB Galera cluster, started, used and stopped through the CLI in a cache of its own: every node
// in sync, a mixed run (closed loop and open loop) spread over the three nodes with every read validated, the
// topology and each node's figures in the result, and a bounded stop of every node. Skipped with the reason where
// galera-4 and mariadb-server are not installed, unless BENCH_REQUIRE lists galera (CI does).
// test-needs: none
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clusterInstalled, nodePorts } from '../../server/galera.js';
import { isAlive, recordedState, removeServerFiles } from '../../server/state.js';
import { serverFamily } from '../../server/index.js';
import { spawnBench } from '../helpers/cli.js';
import { freePortBlock } from '../helpers/net.js';

const NODES = 3;
const required = (process.env.BENCH_REQUIRE ?? '').split(',').map((id) => id.trim()).includes('galera');
const installed = await clusterInstalled();
const reason = 'a Galera cluster needs galera-4 and mariadb-server: run `npx bench server install mariadb --nodes 3` (as root)';
if (required && !installed) throw new Error(`BENCH_REQUIRE lists galera, but ${reason}`);

// A base port whose block of every node is free, below the kernel's ephemeral range.
const freeBase = () => freePortBlock(21306, Array.from({ length: NODES }, (_, i) => Object.values(nodePorts(0, i + 1))).flat());

// A cache of its own for each cluster, and the CLI run in it.
function clusterCache(prefix) {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const env = { BENCH_CACHE_DIR: cacheDir };
  const bench = (args, timeoutMs = 300_000) => spawnBench(args, { env, timeoutMs });
  return {
    cacheDir,
    out: path.join(cacheDir, 'results'),
    env,
    bench,
    // The cluster stopped, its files outside the cache and the cache removed.
    async remove() {
      await bench(['server', 'stop', 'mariadb'], 120_000);
      removeServerFiles(serverFamily('mariadb'), { cacheDir });
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

describe('a 3-node Galera cluster', { skip: installed ? false : reason, timeout: 900_000 }, () => {
  const cache = clusterCache('bench-galera-');
  const { cacheDir, out, bench } = cache;
  let port;
  let state;

  before(async () => {
    port = await freeBase();
    const started = await bench(['server', 'start', 'mariadb', '--nodes', String(NODES), '--port', String(port), '--quiet']);
    assert.equal(started.code, 0, started.stderr);
    state = recordedState(cacheDir, 'mariadb');
  });

  after(() => cache.remove());

  test('every node is started, in sync, in one primary component of three', async () => {
    assert.equal(state.cluster.nodes.length, NODES);
    assert.deepEqual(state.cluster.nodes.map((node) => node.port), [1, 2, 3].map((k) => nodePorts(port, k).sql));
    const status = await bench(['server', 'status', 'mariadb'], 60_000);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /a Galera .* cluster "dbshootout" of 3 nodes/);
    const lines = status.stdout.split('\n').filter((line) => /^ {2}n\d /.test(line));
    assert.equal(lines.length, NODES, status.stdout);
    for (const line of lines) assert.match(line, /: Synced, Primary, cluster size 3, ready ON$/);
  });

  test('a mixed run spreads its connections over the three nodes, every read validated, the topology recorded', async () => {
    const run = await bench(['run', '--db', 'mysql', '--suite', 'mixed', '--workload', '50-50,igiugid', '--records', '500',
      '--ops', '1500', '--concurrency', '6', '--runs', '1', '--out', out, '--quiet', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.equal(result.topology.kind, 'galera');
    assert.deepEqual(result.topology.nodes.map((node) => node.endpoint), state.cluster.nodes.map((node) => `127.0.0.1:${node.port}`));
    assert.ok(result.topology.nodes.every((node) => node.galera.clusterSize === NODES && node.galera.syncWait === 15));
    assert.match(result.topology.reads, /causal \(wsrep_sync_wait=15\)/);
    assert.equal(result.config.connection.endpoints.length, NODES);
    // Durability is every node's: each was set to the run's term and read back.
    assert.equal(result.terms.durability.verified, true);
    for (const name of ['50-50', 'igiugid']) {
      const key = Object.keys(result.workloads).find((one) => one.startsWith(name));
      const [only] = result.workloads[key].runs;
      assert.equal(only.valid, true, `${key}: ${only.reason}`);
      // Two connections on each node, and each node ran a share of the statements.
      assert.equal(only.nodes.length, NODES);
      for (const node of only.nodes) assert.ok(node.statements >= 100, `${key}: ${node.endpoint} ran ${node.statements} statements`);
      // What a write replicates reaches the other nodes.
      assert.ok(only.nodes.every((node) => node.receivedBytes > 0), JSON.stringify(only.nodes));
      // The server's figures are each node's process tree, and their sums.
      assert.deepEqual(only.resources.server.nodes.map((node) => node.name), ['n1', 'n2', 'n3']);
      assert.ok(only.resources.server.rssMeanBytes >= only.resources.server.nodes[0].rssMeanBytes);
    }
  });

  test('an open-loop run too', async () => {
    const run = await bench(['run', '--db', 'mysql', '--suite', 'mixed', '--workload', '95-5', '--records', '500',
      '--ops', '600', '--rate', '200', '--concurrency', '6', '--runs', '1', '--out', out, '--quiet', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    const [entry] = Object.values(result.workloads);
    assert.equal(entry.runs[0].valid, true, entry.runs[0].reason);
    assert.ok(entry.runs[0].openLoop, 'an open-loop run');
    assert.ok(entry.runs[0].nodes.every((node) => node.statements > 50), JSON.stringify(entry.runs[0].nodes));
  });

  test('a node killed under write load on the others: no acknowledged write lost, the node back by IST, every node alike', async () => {
    const crash = await bench(['crash', '--db', 'mysql', '--trials', '1', '--concurrency', '4', '--out', out, '--json', '--quiet'], 300_000);
    assert.equal(crash.code, 0, crash.stderr);
    const result = JSON.parse(crash.stdout);
    const loss = result.durability['node-kill'];
    assert.equal(loss.verdict, 'verified', JSON.stringify(loss));
    assert.equal(loss.lost, 0);
    assert.ok(loss.acknowledged > 0);
    const [trial] = loss.crashes;
    assert.equal(trial.node, 'n1');
    assert.equal(trial.consistent, true);
    assert.deepEqual(trial.nodes.map((node) => node.node), ['n1', 'n2', 'n3']);
    assert.ok(trial.nodes.every((node) => node.rows >= trial.acknowledged && node.lost === 0), JSON.stringify(trial.nodes));
    // The survivors evicted the dead node and went on: writes were held for seconds, not for the rest of the load.
    assert.ok(trial.refusedMs < 5500, `writes held for ${trial.refusedMs} ms`);
    assert.match(readFileSync(path.join(path.dirname(state.cluster.nodes[0].logFile), 'mariadb.log'), 'utf8'), /IST received|Prepared IST receiver/);
    // The killed node is back under a new pid, in the state, and the cluster is whole again.
    const now = recordedState(cacheDir, 'mariadb');
    assert.notEqual(now.cluster.nodes[0].pid, state.cluster.nodes[0].pid);
    assert.equal(now.pid, now.cluster.nodes[0].pid);
    const status = await bench(['server', 'status', 'mariadb'], 60_000);
    assert.equal(status.stdout.split('\n').filter((line) => /: Synced, Primary, cluster size 3, ready ON$/.test(line)).length, NODES, status.stdout);
    state = now;
  });

  test('--nodes applies to install and start; a cluster of another size is not started beside it', async () => {
    const stop = await bench(['server', 'stop', 'mariadb', '--nodes', '3'], 30_000);
    assert.equal(stop.code, 2);
    assert.match(stop.stderr, /--nodes applies to install and start/);
    const zero = await bench(['server', 'start', 'mariadb', '--nodes', '0'], 30_000);
    assert.equal(zero.code, 2);
    assert.match(zero.stderr, /--nodes must be a positive integer up to 9, got 0/);
    const other = await bench(['server', 'start', 'mariadb', '--nodes', '2', '--port', String(port)], 30_000);
    assert.equal(other.code, 2);
    assert.match(other.stderr, /MariaDB is running a cluster of 3 nodes .*stop it first/);
    const single = await bench(['server', 'start', 'postgresql', '--nodes', '2'], 30_000);
    assert.equal(single.code, 2);
    assert.match(single.stderr, /--nodes: PostgreSQL takes --replicas/);
  });

  test('stop ends every node, in bounded time', async () => {
    const pids = state.cluster.nodes.map((node) => node.pid);
    assert.ok(pids.every(isAlive));
    const stop = await bench(['server', 'stop', 'mariadb'], 120_000);
    assert.equal(stop.code, 0, stop.stderr);
    assert.match(stop.stdout, /MariaDB stopped/);
    assert.ok(pids.every((pid) => !isAlive(pid)), 'every node is gone');
    assert.equal(readdirSync(path.join(cacheDir, 'servers', 'mariadb')).includes('state.json'), false);
    assert.ok(readFileSync(state.cluster.nodes[0].logFile, 'utf8').includes('WSREP'), 'the node logs are kept');
  });
});

describe('a size sweep: bench run --nodes 1,2', { skip: installed ? false : reason, timeout: 900_000 }, () => {
  const cache = clusterCache('bench-galera-sweep-');
  const { cacheDir, out, env } = cache;

  after(() => cache.remove());

  test('one result per size, each from a cluster started from scratch and stopped, and a report of the series', async () => {
    const port = await freeBase();
    const run = await spawnBench(['run', '--db', 'mysql', '--suite', 'mixed', '--workload', '50-50', '--records', '300', '--ops', '600',
      '--concurrency', '4', '--runs', '1', '--nodes', '1,2', '--cluster-port', String(port), '--clients-per-node', '1',
      '--out', out, '--json', '--quiet'], { env, timeoutMs: 600_000 });
    assert.equal(run.code, 0, run.stderr);
    const results = JSON.parse(run.stdout);
    assert.deepEqual(results.map((result) => result.topology.nodes.length), [1, 2]);
    // --clients-per-node 1: one client process per node.
    assert.deepEqual(results.map((result) => result.config.clients), [1, 2]);
    for (const result of results) {
      const [entry] = Object.values(result.workloads);
      assert.equal(entry.runs[0].valid, true, entry.runs[0].reason);
      assert.equal(entry.runs[0].nodes.length, result.topology.nodes.length);
    }
    assert.equal(recordedState(cacheDir, 'mariadb'), null, 'the last cluster was stopped');
    const report = await spawnBench(['report', out], { env, timeoutMs: 60_000 });
    assert.equal(report.code, 0, report.stderr);
    assert.match(report.stdout, /Cluster size: throughput of the whole cluster against its nodes:/);
    assert.match(report.stdout, /mysql@1 +1 +ok/);
    assert.match(report.stdout, /mysql@2 +2 +ok/);
  });

  test('a sweep refuses what it cannot honour, before any work', async () => {
    const cases = [
      [['--db', 'postgresql', '--nodes', '1,2'], /--nodes: the harness starts no cluster of PostgreSQL \(--nodes: mysql\)/],
      [['--db', 'mysql', '--nodes', '1,2', '--host', '127.0.0.1'], /--host does not go with --nodes/],
      [['--db', 'mysql', '--nodes', '1,2', '--clients', '2'], /--clients-per-node scales the client processes/],
      [['--db', 'mysql', '--nodes', '0,2'], /--nodes must be a positive integer up to 9/],
      [['--db', 'mysql,sqlite', '--nodes', '2'], /--nodes sweeps the cluster sizes of one database/],
      [['--db', 'mysql', '--cluster-port', '23306'], /--cluster-port applies with --nodes/],
    ];
    for (const [args, message] of cases) {
      const refused = await spawnBench(['run', '--suite', 'mixed', ...args, '--out', out], { env, timeoutMs: 60_000 });
      assert.equal(refused.code, 2, `${args.join(' ')}: ${refused.stderr}`);
      assert.match(refused.stderr, message);
    }
  });
});

describe('a 3-node Galera cluster in network namespaces', { skip: !installed ? reason : process.getuid?.() !== 0 ? 'network namespaces need root' : false, timeout: 900_000 }, () => {
  const cache = clusterCache('bench-galera-netns-');
  const { cacheDir, out, bench } = cache;
  let state;

  before(async () => {
    const started = await bench(['server', 'start', 'mariadb', '--nodes', String(NODES), '--netns', '--port', String(await freeBase()), '--quiet']);
    assert.equal(started.code, 0, started.stderr);
    state = recordedState(cacheDir, 'mariadb');
  });

  after(() => cache.remove());

  test('each node on an address of its own namespace; a run reaches them over TCP from the harness\'s own address there', async () => {
    const { network } = state.cluster.layout;
    assert.match(network.cidr, /^10\.77\.\d+\.0\/24$/);
    assert.deepEqual(state.cluster.nodes.map((node) => node.host), [1, 2, 3].map((k) => `${network.subnet}.${k}`));
    const run = await bench(['run', '--db', 'mysql', '--suite', 'mixed', '--workload', '50-50', '--records', '300', '--ops', '600',
      '--concurrency', '3', '--runs', '1', '--out', out, '--json', '--quiet']);
    assert.equal(run.code, 0, run.stderr);
    const [only] = Object.values(JSON.parse(run.stdout).workloads)[0].runs;
    assert.equal(only.valid, true, only.reason);
    assert.ok(only.nodes.every((node) => node.statements > 0), JSON.stringify(only.nodes));
    // What crossed each node's own link, from its namespace's counters.
    assert.ok(only.resources.server.nodes.every((node) => node.network.rxBytes > 0 && node.network.txBytes > 0), JSON.stringify(only.resources.server.nodes));
    assert.ok(only.resources.server.network.rxBytes > 0);
  });

  test('a node killed and a node cut off the network: nothing acknowledged lost, the cut node refusing reads, every node alike', async () => {
    const crash = await bench(['crash', '--db', 'mysql', '--trials', '1', '--concurrency', '4', '--out', out, '--json', '--quiet'], 400_000);
    assert.equal(crash.code, 0, crash.stderr);
    const { durability } = JSON.parse(crash.stdout);
    assert.deepEqual(Object.keys(durability), ['node-kill', 'network-cut']);
    for (const fault of Object.values(durability)) {
      assert.equal(fault.verdict, 'verified', JSON.stringify(fault));
      assert.equal(fault.crashes[0].consistent, true);
    }
    const [cut] = durability['network-cut'].crashes;
    assert.equal(cut.cutNode.refused, true, cut.cutNode.message);
    assert.match(cut.cutNode.message, /WSREP has not yet prepared node for application use/);
    assert.equal(durability['network-cut'].cutNodeAnswered, 0);
  });

  test('stop removes the namespaces with the nodes', async () => {
    const stop = await bench(['server', 'stop', 'mariadb'], 120_000);
    assert.equal(stop.code, 0, stop.stderr);
    const { execFileSync } = await import('node:child_process');
    const left = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
    for (const node of state.cluster.layout.network.nodes) assert.ok(!left.includes(node.namespace), left);
    assert.ok(!left.includes(state.cluster.layout.network.hub), left);
    assert.ok(!execFileSync('ip', ['-o', 'addr'], { encoding: 'utf8' }).includes(`${state.cluster.layout.network.subnet}.254`));
  });
});
