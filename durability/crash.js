// `bench crash` as an API: per write mode, `trials` times over, stream inserts into a temporary collection,
// kill the database's whole process tree with SIGKILL at a seeded moment, start it again with the code
// `bench server start` uses, and count the acknowledged writes (those in the harness's fsynced log) that the
// collection no longer holds. A process crash, not a power loss: the operating system's page cache survives.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { DEFAULT_TRIALS } from '../core/defaults.js';
import { BenchError, ErrorCodes, withTimeout } from '../core/errors.js';
import { createRandom } from '../datasets/random.js';
import { connectAdapter } from '../runner/run.js';
import { startServer } from '../server/index.js';
import { killTree, treeOf } from '../server/process.js';
import { AckLog, readAckLog } from './ack-log.js';
import { nodeLossTest } from './cluster.js';
import { crashModes, insertFor, loadDocuments, settled, sleep, streamInserts, withAdapter } from './load.js';
export const CRASH_KIND = 'process crash: SIGKILL to the database\'s whole process tree; the operating system and '
  + 'its page cache survive it, so this is not a power-loss test';
// The kill lands this long after the first acknowledged write: load in full swing, at a moment the seed fixes.
export const KILL_WINDOW_MS = Object.freeze({ from: 1000, to: 3000 });
// How long acknowledgements still in flight at the kill may take to arrive before the log is closed.
const SETTLE_MS = 5000;
// A database that acknowledges no insert for this long is not under load: the trial fails instead of waiting.
const FIRST_ACK_TIMEOUT_MS = 60_000;
const CLOSE_TIMEOUT_MS = 5000;
const POLL_MS = 20;
const MISSING_EXAMPLES = 5;
const CHILD = fileURLToPath(new URL('./child.js', import.meta.url));

const collectionOf = (mode) => `crash_${mode}`;

async function ensureNamespace(adapter) {
  const { state } = await adapter.inspectNamespace();
  if (state === 'absent') await adapter.resetNamespace();
  if (state === 'foreign') {
    throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, 'the namespace holds data the harness did not create; choose another with --namespace');
  }
}

// The keys of `keys` the collection no longer holds.
export async function missingKeys(adapter, collection, keys) {
  const stored = new Set((await adapter.readCollection(collection)).map((doc) => doc._key));
  return keys.filter((key) => !stored.has(key)).sort();
}

// Waits until the child has logged its first acknowledgement; rejects when it exits first or the time runs out.
async function firstChildAck(child, logFile, stderr) {
  const deadline = performance.now() + FIRST_ACK_TIMEOUT_MS;
  for (;;) {
    if (performance.now() > deadline) {
      throw new BenchError(ErrorCodes.TIMEOUT, `no write was acknowledged within ${FIRST_ACK_TIMEOUT_MS / 1000} s: ${stderr().trim()}`);
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new BenchError(ErrorCodes.CONNECT, `the database process ended before any write was acknowledged: ${stderr().trim() || `exit ${child.exitCode}`}`);
    }
    try {
      if (statSync(logFile).size > 0) return;
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    await sleep(POLL_MS);
  }
}

// An embedded database in a child process: the child inserts and logs, the harness kills it.
async function childTrial({ description, options, mode, concurrency, trial, logFile, documentsFile, killAfterMs }) {
  const spec = {
    db: description.id, options, mode, collection: collectionOf(mode), concurrency, trial, logFile, documentsFile,
  };
  const child = spawn(process.execPath, [CHILD, JSON.stringify(spec)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await firstChildAck(child, logFile, () => stderr);
    await sleep(killAfterMs);
    if (child.exitCode !== null) throw new BenchError(ErrorCodes.CONNECT, `the load stopped before the kill: ${stderr.trim()}`);
    await killTree(await treeOf(child.pid), description.name);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  }
  return { restartMs: null };
}

// A local server: the harness inserts and logs, and kills the server's process tree under the load.
async function serverTrial({ description, options, target, mode, concurrency, trial, logFile, documents, killAfterMs, cacheDir }) {
  const adapter = await connectAdapter(description, options);
  const log = new AckLog(logFile);
  const load = streamInserts({
    adapter, insert: insertFor(description, mode), collection: collectionOf(mode), documents, concurrency, log, trial,
  });
  try {
    await withTimeout(load.firstAck, FIRST_ACK_TIMEOUT_MS, `no write was acknowledged within ${FIRST_ACK_TIMEOUT_MS / 1000} s`);
    if (load.acknowledged === 0) throw (await load.done).error;
    const ended = await settled(load.done, killAfterMs);
    if (ended) throw new BenchError(ErrorCodes.CONNECT, `an insert failed before the kill: ${(await load.done).error.message}`);
    await killTree(await treeOf(target.state.pid), target.server.name);
  } finally {
    load.stop();
    await settled(load.done, SETTLE_MS);
    log.close();
    await settled(adapter.close(), CLOSE_TIMEOUT_MS);
  }
  const began = performance.now();
  target.state = await startServer(target.server, { cacheDir, port: target.state.port });
  return { restartMs: Math.round(performance.now() - began) };
}

// One write mode's crashes against its adapter's claim: a mode declared durable per write (`durablePerWrite`)
// fails when it lost any acknowledged write; another mode may lose some, and the count is what it reports.
export function summariseMode(description, mode, crashes) {
  const acknowledged = crashes.reduce((sum, crash) => sum + crash.acknowledged, 0);
  const lost = crashes.reduce((sum, crash) => sum + crash.lost, 0);
  const durablePerWrite = (description.durablePerWrite ?? []).includes(mode);
  return {
    operation: mode,
    trials: crashes.length,
    acknowledged,
    lost,
    claim: description.durability?.[mode] ?? null,
    durablePerWrite,
    verdict: !durablePerWrite ? 'not claimed' : lost === 0 ? 'verified' : 'failed',
    crashes,
  };
}

// Per write mode: { operation, trials, acknowledged, lost, claim, durablePerWrite, verdict, crashes }.
// `target` from crashTarget(); `options` the adapter's options; `workDir` a directory for the logs;
// `onUpdate(section)` after every write mode.
export async function crashTest({
  description, target, options, trials = DEFAULT_TRIALS, concurrency, seed, documentsFile, workDir, cacheDir, progress,
  onUpdate = () => {},
}) {
  const random = createRandom(seed);
  const documents = await loadDocuments(documentsFile);
  mkdirSync(workDir, { recursive: true });
  // A cluster loses one node at a time, the others under load (cluster.js).
  if (target.kind === 'server' && target.state.cluster) {
    return nodeLossTest({
      description, target, options, trials, concurrency, random, documents, workDir, cacheDir, progress, window: KILL_WINDOW_MS, onUpdate,
    });
  }
  const section = {};
  for (const mode of crashModes(description)) {
    const collection = collectionOf(mode);
    const crashes = [];
    for (let trial = 1; trial <= trials; trial += 1) {
      const killAfterMs = Math.round(KILL_WINDOW_MS.from + random.next() * (KILL_WINDOW_MS.to - KILL_WINDOW_MS.from));
      const logFile = path.join(workDir, `${description.id}-${mode}-${trial}.log`);
      rmSync(logFile, { force: true });
      await withAdapter(description, options, async (adapter) => {
        await ensureNamespace(adapter);
        await adapter.createTempCollection(collection);
      });
      const common = { description, options, mode, concurrency, trial, logFile, killAfterMs };
      const { restartMs } = target.kind === 'child'
        ? await childTrial({ ...common, documentsFile })
        : await serverTrial({ ...common, target, documents, cacheDir });
      const acknowledged = readAckLog(logFile);
      const missing = await withAdapter(description, options, async (adapter) => {
        const keys = await missingKeys(adapter, collection, acknowledged);
        await adapter.dropTempCollection(collection);
        return keys;
      });
      crashes.push({
        trial, killAfterMs, restartMs, acknowledged: acknowledged.length, lost: missing.length, missing: missing.slice(0, MISSING_EXAMPLES),
      });
      progress?.log(`${description.id} ${mode} crash ${trial}/${trials}: killed ${(killAfterMs / 1000).toFixed(2)} s into the load, `
        + `${acknowledged.length} writes acknowledged, ${missing.length} lost`
        + (restartMs === null ? '' : `; restarted in ${(restartMs / 1000).toFixed(1)} s`));
    }
    section[mode] = summariseMode(description, mode, crashes);
    await onUpdate(section);
  }
  return section;
}
