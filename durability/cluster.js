// `bench crash` on a cluster `bench server` runs (server/galera.js): node loss, counted. Per trial one node is
// killed with SIGKILL while inserts stream to the others; the load goes on through the loss (a failed insert is
// counted and the next one sent), then the killed node is started again and rejoins (by IST from a survivor's
// cache), and every node is read: each must hold every acknowledged write, and all of them the same rows.
// Galera's promise: a write acknowledged by a node of the primary component survives the loss of a minority.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BenchError, ErrorCodes, withTimeout } from '../core/errors.js';
import { connectAdapter } from '../runner/run.js';
import { killNode, startNode, waitUntilSynced } from '../server/galera.js';
import { setNodeLink } from '../server/netns.js';
import { stateFile } from '../server/state.js';
import { AckLog, readAckLog } from './ack-log.js';
import { insertFor, settled, sleep, streamInserts, withAdapter } from './load.js';

export const NODE_LOSS_KIND = 'node loss: SIGKILL to one node\'s process tree under write load on the others, then the node started again '
  + '(and, for nodes in network namespaces, one node cut off the network the same way, then its link restored); every node is read afterwards';
export const NODE_KILL = 'node-kill';
export const NETWORK_CUT = 'network-cut';
const REJOIN_TIMEOUT_MS = 120_000;
// "WSREP has not yet prepared node for application use": a node outside the primary component refuses queries.
const ER_UNKNOWN_COM_ERROR = 1047;
// The insert the load sends: singleWrite under the run's durability term.
const MODE = 'singleWrite';
// How long the load goes on after the kill: past the cluster's eviction of the dead node (3 s inactive timeout).
const AFTER_KILL_MS = 6000;
const FIRST_ACK_TIMEOUT_MS = 60_000;
const SETTLE_MS = 10_000;
const CLOSE_TIMEOUT_MS = 10_000;
const MISSING_EXAMPLES = 5;
export const CLUSTER_CLAIM = 'Galera: a write acknowledged by a node of the primary component survives the loss of a minority of the nodes, and every node that rejoins holds it';

const collectionOf = () => 'crash_nodes';

// The longest time after `from` in which no write was acknowledged: how long the cluster refused (or held) writes.
export function longestGap(times, from, until) {
  const after = times.filter((at) => at >= from).sort((a, b) => a - b);
  let previous = from;
  let longest = 0;
  for (const at of [...after, until]) {
    longest = Math.max(longest, at - previous);
    previous = at;
  }
  return longest;
}

// The adapter's options for the given nodes only.
function optionsFor(options, nodes) {
  const endpoints = nodes.map(({ host, port }) => ({ host, port }));
  return { ...options, endpoints, host: endpoints[0].host, port: endpoints[0].port, endpointOffset: 0 };
}

// Per node, the acknowledged keys it does not hold, and the keys it holds.
async function readEveryNode(description, options, nodes, collection, acknowledged) {
  const out = [];
  for (const node of nodes) {
    const keys = await withAdapter(description, optionsFor({ ...options, concurrency: 1 }, [node]), async (adapter) => (await adapter.readCollection(collection)).map((doc) => doc._key));
    const held = new Set(keys);
    out.push({ node: node.name, rows: keys.length, missing: acknowledged.filter((key) => !held.has(key)).sort(), keys: held });
  }
  return out;
}

function sameRows(readings) {
  const [first, ...rest] = readings;
  return rest.every((reading) => reading.keys.size === first.keys.size && [...reading.keys].every((key) => first.keys.has(key)));
}

// What the cut-off node answers to a read while it is cut off: refused (Galera's 1047, not part of a primary
// component) or not.
async function probeCutNode(node, collection, table) {
  const { default: mysql } = await import('mysql2/promise');
  let connection;
  try {
    connection = await mysql.createConnection({ socketPath: node.socket, user: 'root', connectTimeout: 5000 });
    await connection.query(`SELECT COUNT(*) FROM ${table(collection)}`);
    return { refused: false, message: 'answered the read' };
  } catch (error) {
    // Only Galera's own refusal counts; any other error says nothing of the node's state.
    return { refused: error.errno === ER_UNKNOWN_COM_ERROR, message: error.message };
  } finally {
    connection?.destroy();
  }
}

// One trial: `fault` node `victim` (1-based) `killAfterMs` into the load on the others: 'node-kill' (SIGKILL, then
// started again) or 'network-cut' (its link down for as long as a kill's load goes on, then up again).
async function nodeTrial({ description, options, target, victim, concurrency, trial, logFile, documents, killAfterMs, cacheDir, fault = NODE_KILL }) {
  const { cluster } = target.state;
  const survivors = cluster.nodes.filter((node) => node.k !== victim);
  const dead = cluster.nodes.find((node) => node.k === victim);
  const collection = collectionOf();
  await withAdapter(description, optionsFor(options, survivors), async (adapter) => {
    const { state } = await adapter.inspectNamespace();
    if (state === 'absent') await adapter.resetNamespace();
    if (state === 'foreign') throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, 'the namespace holds data the harness did not create; choose another with --namespace');
    await adapter.createTempCollection(collection);
  });
  const adapter = await connectAdapter(description, optionsFor(options, survivors));
  const log = new AckLog(logFile);
  const load = streamInserts({ adapter, insert: insertFor(description, MODE), collection, documents, concurrency, log, trial, throughFailures: true });
  let killedAt;
  let stoppedAt;
  let probe = null;
  try {
    await withTimeout(load.firstAck, FIRST_ACK_TIMEOUT_MS, `no write was acknowledged within ${FIRST_ACK_TIMEOUT_MS / 1000} s`);
    await sleep(killAfterMs);
    killedAt = performance.now();
    if (fault === NETWORK_CUT) {
      await setNodeLink(cluster.layout.network, victim, false);
      // Past the others' eviction of it: it is a component of its own, which Galera makes refuse every query.
      await sleep(AFTER_KILL_MS - 1000);
      probe = await probeCutNode(dead, collection, (name) => `\`${options.namespace}\`.tmp_${name}`);
      await sleep(1000);
    } else {
      await killNode(dead);
      await sleep(AFTER_KILL_MS);
    }
  } finally {
    if (fault === NETWORK_CUT && killedAt !== undefined) await setNodeLink(cluster.layout.network, victim, true);
    stoppedAt = performance.now();
    load.stop();
    await settled(load.done, SETTLE_MS);
    log.close();
    await settled(adapter.close(), CLOSE_TIMEOUT_MS);
  }
  const refusedMs = Math.round(longestGap(load.acks, killedAt, stoppedAt));
  const erroredAfterKill = load.failures.filter((failure) => failure.at >= killedAt).length;
  let rejoinMs;
  if (fault === NETWORK_CUT) {
    // Its network back: the node finds the primary component again and catches up by IST.
    rejoinMs = await waitUntilSynced(dead, REJOIN_TIMEOUT_MS, { kill: false, after: ' of its network\'s return' });
  } else {
    // The node again, on its own data: it rejoins by IST from a survivor.
    const began = performance.now();
    const restarted = await startNode(cluster.layout, victim, { rejoin: true });
    rejoinMs = Math.round(performance.now() - began);
    // The state names the node's new process (and, for the first node, the cluster's pid).
    Object.assign(dead, restarted);
    if (victim === 1) Object.assign(target.state, { pid: restarted.pid });
    writeFileSync(stateFile(cacheDir, target.server.family), `${JSON.stringify(target.state, null, 2)}\n`);
  }
  const acknowledged = readAckLog(logFile);
  const readings = await readEveryNode(description, options, cluster.nodes, collection, acknowledged);
  await withAdapter(description, optionsFor({ ...options, concurrency: 1 }, [cluster.nodes[0]]), (one) => one.dropTempCollection(collection));
  const lost = new Set(readings.flatMap((reading) => reading.missing));
  return {
    trial, node: dead.name, killAfterMs, acknowledged: acknowledged.length, lost: lost.size, errored: load.failures.length,
    erroredAfterKill, refusedMs, rejoinMs, consistent: sameRows(readings),
    ...(probe && { cutNode: probe }),
    nodes: readings.map(({ node, rows, missing }) => ({ node, rows, lost: missing.length, missing: missing.slice(0, MISSING_EXAMPLES) })),
    errors: [...new Set(load.failures.map((failure) => failure.message))].slice(0, 3),
  };
}

// The cluster's section of the crash result: { 'node-kill': { operation, kind, trials, acknowledged, lost, errored,
// refusedMs, rejoinMs, inconsistent, claim, durablePerWrite, verdict, crashes } }. Node k = trial's turn, in order.
// The faults a cluster can be put through: a kill always, a network cut when its nodes run in namespaces.
export function clusterFaults(state) {
  return state.cluster.layout?.network ? [NODE_KILL, NETWORK_CUT] : [NODE_KILL];
}

export async function nodeLossTest({ description, target, options, trials, concurrency, random, documents, workDir, cacheDir, progress, window, onUpdate = () => {} }) {
  const nodes = target.state.cluster.nodes.length;
  if (nodes < 3) {
    throw new BenchError(ErrorCodes.USAGE, `a node-loss test needs a cluster of 3 nodes or more, so that the others keep a majority (this one has ${nodes}); start it with \`npx bench server start ${target.server.family} --nodes 3\``);
  }
  const section = {};
  for (const fault of clusterFaults(target.state)) {
    const crashes = [];
    for (let trial = 1; trial <= trials; trial += 1) {
      const victim = ((trial - 1) % nodes) + 1;
      const killAfterMs = Math.round(window.from + random.next() * (window.to - window.from));
      const logFile = path.join(workDir, `${description.id}-${fault}-${trial}.log`);
      rmSync(logFile, { force: true });
      const crash = await nodeTrial({ description, options, target, victim, concurrency, trial, logFile, documents, killAfterMs, cacheDir, fault });
      crashes.push(crash);
      const what = fault === NETWORK_CUT ? `${crash.node} cut off the network` : `${crash.node} killed`;
      progress?.log(`${description.id} ${fault} ${trial}/${trials}: ${what} ${(killAfterMs / 1000).toFixed(2)} s into the load, `
        + `${crash.acknowledged} writes acknowledged, ${crash.lost} lost, ${crash.errored} errored, writes held for ${(crash.refusedMs / 1000).toFixed(1)} s at most; `
        + (crash.cutNode ? `while cut off it ${crash.cutNode.refused ? `refused a read (${crash.cutNode.message})` : 'ANSWERED a read'}; ` : '')
        + `back in sync in ${(crash.rejoinMs / 1000).toFixed(1)} s; ${crash.consistent ? 'every node holds the same rows' : 'THE NODES DIFFER'}`);
      section[fault] = summariseNodeLoss(crashes, fault);
      await onUpdate(section);
    }
  }
  return section;
}

export function summariseNodeLoss(crashes, fault = NODE_KILL) {
  const sum = (field) => crashes.reduce((total, crash) => total + crash[field], 0);
  const lost = sum('lost');
  const inconsistent = crashes.filter((crash) => !crash.consistent).length;
  const answeredCut = crashes.filter((crash) => crash.cutNode && !crash.cutNode.refused).length;
  return {
    operation: MODE,
    kind: fault,
    ...(fault === NETWORK_CUT && { cutNodeAnswered: answeredCut }),
    trials: crashes.length,
    acknowledged: sum('acknowledged'),
    lost,
    errored: sum('errored'),
    refusedMs: { max: Math.max(0, ...crashes.map((crash) => crash.refusedMs)) },
    rejoinMs: { max: Math.max(0, ...crashes.map((crash) => crash.rejoinMs)) },
    inconsistent,
    claim: CLUSTER_CLAIM,
    durablePerWrite: true,
    verdict: lost === 0 && inconsistent === 0 ? 'verified' : 'failed',
    crashes,
  };
}
