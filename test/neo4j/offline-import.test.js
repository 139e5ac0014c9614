// The offline import (adapters/neo4j/offline-import.js) against a real Neo4j server of the test's own: a cache
// directory of its own holding the installed release's jars and a free port, so the server the other tests share
// is never stopped. Offline on `tiny`, checked by counts, the marker, the key constraint and a validated run;
// the online path kept, and recorded with its reason, when the database holds a node outside the namespace; an
// import interrupted while the importer runs, then one whose harness is killed while the database is replaced,
// then the rerun that finds the namespace unfinished and imports again. The tests run in this order, each from
// what the one before left. Every import is of `tiny`: what costs time here is the importer's and the server's
// starts, the same at any size.
// Skips when Neo4j is not installed (`npx bench server install neo4j`), fails instead when BENCH_REQUIRE lists neo4j.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createDriver } from '../../adapters/neo4j/connection.js';
import neo4j from '../../adapters/neo4j/description.js';
import { serverProcess } from '../../cli/options.js';
import { defaultCacheDir } from '../../core/paths.js';
import { prepareDataset } from '../../datasets/dataset.js';
import { importDataset } from '../../import/import.js';
import { serverFamily, startServer, stopServer } from '../../server/index.js';
import { portIsFree } from '../../server/process.js';
import { runningServer } from '../../server/state.js';
import { releaseDir } from '../../server/versions.js';
import { WORKLOAD_NAMES } from '../../workloads/social/workloads.js';
import { BIN, spawnBench } from '../helpers/cli.js';
import { SERVER_CONNECT_TIMEOUT_MS } from '../helpers/limits.js';

const server = serverFamily('neo4j');
// The default release where `bench server install` put it: the family's directory (an older install) or its own.
const installedDir = releaseDir(server, defaultCacheDir(), server.defaultVersion);
const installedLib = path.join(installedDir, 'lib');
const installed = server.installedIn(installedDir).includes(server.defaultVersion);
const required = (process.env.BENCH_REQUIRE ?? '').split(',').map((id) => id.trim()).includes('neo4j');
if (!installed && required) throw new Error(`BENCH_REQUIRE lists neo4j, but Neo4j ${server.defaultVersion} is not installed in ${installedLib}`);
const skip = installed ? false : `Neo4j ${server.defaultVersion} is not installed: run \`npx bench server install neo4j\``;

const NAMESPACE = 'dbshootout_offline';
const SCALE = 'tiny';
// Two server starts and an importer run per offline import, on a shared two-core machine.
const TIMEOUT_MS = 900_000;
// One wait of a test: a tiny import and a server restart, within the test's timeout. A restart took more than
// 240 s beside a full test run of other files on two cores (load average 10).
const WAIT_MS = 420_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A Bolt port whose HTTP connector's port (213 below) is free too, both below the kernel's ephemeral range: the
// server stops and starts again during the tests, and a port in that range may meanwhile become the local end of
// some process's outgoing connection.
async function serverPort() {
  const [ephemeralLow] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * (ephemeralLow - 20_000));
    if (await portIsFree(port) && await portIsFree(port - 213)) return port;
  }
}

describe('neo4j offline import', { skip, timeout: TIMEOUT_MS * 4 }, () => {
  let cacheDir;
  let dataset;
  let options;
  let admin;

  const staging = () => path.join(cacheDir, 'servers', 'neo4j', 'home', 'offline-import');
  const env = () => ({ BENCH_CACHE_DIR: cacheDir });

  async function query(text, params) {
    const session = admin.session({ database: 'neo4j' });
    try {
      return (await session.run(text, params)).records.map((record) => record.toObject());
    } finally {
      await session.close();
    }
  }

  async function withAdapter(body) {
    const adapter = neo4j.create(options);
    await adapter.connect();
    try {
      return await body(adapter);
    } finally {
      await adapter.close();
    }
  }

  async function importOnce({ force = true } = {}) {
    return withAdapter((adapter) => importDataset({
      adapter, description: neo4j, options, dataset, force, server: serverProcess(neo4j, { 'cache-dir': cacheDir }), offline: 'offline',
    }));
  }

  async function marker() {
    const [found] = await query(`MATCH (m:${NAMESPACE}_Marker) RETURN m.marker AS marker`);
    return found && JSON.parse(found.marker);
  }

  // `context()`: what to add to the error when the wait times out (what the harness printed, the staging files).
  async function waitFor(check, what, timeoutMs = 120_000, context = () => '') {
    const deadline = performance.now() + timeoutMs;
    while (!(await check())) {
      if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${context()}`);
      await sleep(100);
    }
  }

  // The staging directory's files, and the end of each text file in it.
  function stagingReport() {
    if (!existsSync(staging())) return `\n${staging()} does not exist`;
    return readdirSync(staging()).map((name) => {
      const file = path.join(staging(), name);
      let tail = '';
      try {
        tail = readFileSync(file, 'utf8').split('\n').slice(-15).join('\n      ');
      } catch {
        // a directory
      }
      return `\n  ${name}${tail ? `:\n      ${tail}` : ''}`;
    }).join('');
  }

  // `bench run` of `workloads` (every one unless told) on what the namespace holds, each answer checked against the
  // reference.
  async function assertValidRun(workloads = WORKLOAD_NAMES) {
    const out = path.join(cacheDir, 'results');
    // Neo4j's one durability term: every commit forces its transaction log.
    const { code, stdout, stderr } = await spawnBench(['run', '--db', 'neo4j', '--scale', SCALE, '--runs', '1', '--json',
      '--quiet', '--namespace', NAMESPACE, '--out', out, '--durability', 'durable', '--workload', workloads.join(',')],
    { env: env(), timeoutMs: TIMEOUT_MS });
    assert.equal(code, 0, stderr);
    const result = JSON.parse(stdout);
    assert.equal(result.import.reused, true, 'the run measures the import made before it');
    assert.deepEqual(Object.keys(result.workloads).filter((name) => name !== 'warmup'), workloads.filter((name) => name !== 'warmup'));
    for (const [name, workload] of Object.entries(result.workloads)) {
      assert.equal(workload.status, 'passed', `${name}: ${JSON.stringify(workload.failures)}`);
    }
    return result;
  }

  before(async () => {
    cacheDir = mkdtempSync(path.join(os.tmpdir(), 'bench-neo4j-offline-'));
    // The installed jars, shared: the release counts as installed in this cache too.
    mkdirSync(path.join(cacheDir, 'servers', 'neo4j'), { recursive: true });
    symlinkSync(installedLib, path.join(cacheDir, 'servers', 'neo4j', 'lib'));
    const state = await startServer(server, { cacheDir, port: await serverPort() });
    options = {
      ...neo4j.connection.defaults, host: state.host, port: state.port, password: undefined, namespace: NAMESPACE,
      concurrency: 4, connectTimeoutMs: SERVER_CONNECT_TIMEOUT_MS, dataDir: cacheDir,
    };
    admin = createDriver({ ...options, concurrency: 1 });
    dataset = await prepareDataset({ scale: SCALE, cacheDir });
  });

  after(async () => {
    await admin?.close();
    if (cacheDir) {
      await stopServer(server, { cacheDir }).catch(() => {});
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  test('imports offline: the database replaced, counts, marker and key constraint, and a validated run', { timeout: TIMEOUT_MS }, async () => {
    const before = runningServer(cacheDir, 'neo4j').pid;
    const result = await importOnce();
    assert.equal(result.path, 'offline');
    assert.equal(result.onlineBecause, undefined);
    assert.ok(result.loadMs > 0 && result.loadMs < result.ms, `${result.loadMs} of ${result.ms} ms`);
    assert.notEqual(runningServer(cacheDir, 'neo4j').pid, before, 'the server was restarted on the new database');
    assert.equal(existsSync(staging()), false, 'the staging directory is removed');
    const [counts] = await query(`MATCH (p:${NAMESPACE}_Profile) WITH count(p) AS profiles
      MATCH ()-[r:${NAMESPACE}_KNOWS]->() RETURN profiles, count(r) AS relations`);
    assert.deepEqual(counts, { profiles: dataset.profiles, relations: dataset.relations });
    const written = await marker();
    assert.equal(written.imported, true);
    assert.equal(written.timings.path, 'offline');
    const constraints = await query('SHOW CONSTRAINTS YIELD name, type RETURN name, type');
    assert.deepEqual(constraints, [{ name: `${NAMESPACE}_profile_key`, type: 'UNIQUENESS' }]);
    const shown = await assertValidRun();
    assert.equal(shown.import.path, 'offline');
  });

  test('a node outside the namespace keeps the online path, and bench import says why', { timeout: TIMEOUT_MS }, async () => {
    const [{ id }] = await query("CREATE (n:DbShootoutOther {owner: 'someone else'}) RETURN elementId(n) AS id");
    try {
      const before = runningServer(cacheDir, 'neo4j').pid;
      const { code, stdout, stderr } = await spawnBench(['import', '--db', 'neo4j', '--scale', SCALE, '--import-path', 'offline', '--namespace', NAMESPACE,
        '--out', path.join(cacheDir, 'results')], { env: env(), timeoutMs: TIMEOUT_MS });
      assert.equal(code, 0, stderr);
      assert.match(stdout, /online: database "neo4j" holds nodes labelled DbShootoutOther, outside namespace "dbshootout_offline"/);
      assert.equal(runningServer(cacheDir, 'neo4j').pid, before, 'the server was not restarted');
      assert.equal((await query('MATCH (n) WHERE elementId(n) = $id RETURN n.owner AS owner', { id }))[0]?.owner, 'someone else');
      // The online import's data is checked by every workload in test/e2e-servers.test.js; here, that a run reuses it.
      const shown = await assertValidRun(['aggregation']);
      assert.equal(shown.import.path, 'online');
      assert.match(shown.import.onlineBecause, /DbShootoutOther/);
    } finally {
      await query('MATCH (n) WHERE elementId(n) = $id DELETE n', { id });
    }
  });

  test('Ctrl-C while the importer runs: the database is untouched and unfinished', { timeout: TIMEOUT_MS }, async () => {
    const before = runningServer(cacheDir, 'neo4j').pid;
    // A process group of its own, so the test can send Ctrl-C to the harness and the importer as a terminal does.
    const child = spawn(process.execPath, [BIN, 'import', '--db', 'neo4j', '--scale', SCALE, '--import-path', 'offline',
      '--namespace', NAMESPACE, '--out', path.join(cacheDir, 'results')],
    { env: { ...process.env, ...env() }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await waitFor(() => existsSync(path.join(staging(), 'neo4j-admin.log')), 'the importer to start');
    await sleep(1000);
    process.kill(-child.pid, 'SIGINT');
    assert.notEqual(await exited, 0, stderr);
    assert.match(stderr, /neo4j-admin database import full was ended by SIGINT; the server's database is untouched/);
    assert.equal(runningServer(cacheDir, 'neo4j').pid, before, 'the server kept running');
    assert.equal((await marker()).imported, false, 'the namespace is an unfinished import');
    assert.deepEqual(readdirSync(staging()), ['neo4j-admin.log'], 'only the log the error names is kept');
  });

  // From the unfinished import the Ctrl-C left: bench import goes on without --reimport.
  test('the harness killed while the database is replaced: the server comes back, the rerun imports again', { timeout: TIMEOUT_MS }, async () => {
    assert.equal((await marker()).imported, false, 'the test before left an unfinished import');
    const before = runningServer(cacheDir, 'neo4j').pid;
    const child = spawn(process.execPath, [BIN, 'import', '--db', 'neo4j', '--scale', SCALE, '--import-path', 'offline',
      '--namespace', NAMESPACE, '--out', path.join(cacheDir, 'results')], { env: { ...process.env, ...env() }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    let ended = null;
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => { ended = { code, signal }; resolve(signal); }));
    // A harness that ends before the replacement starts (an import that failed) is said at once, with its words;
    // each wait is bounded below the test's own timeout, and says where it stood.
    const where = () => `\nbench import's stderr:\n${stderr}\nstaging files:${stagingReport()}`;
    await waitFor(() => {
      if (ended) assert.fail(`bench import ended (exit code ${ended.code}) before the replacement started:\n${stderr}`);
      // The replacement's own file, written once its process runs: replace.json is written before the process is
      // started, and a harness killed between the two leaves the server untouched, with nothing to replace it.
      return existsSync(path.join(staging(), 'replace-started.json'));
    }, 'the replacement to start', WAIT_MS, where);
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');
    // The detached replacement goes on without the harness and starts the server again.
    await waitFor(() => existsSync(path.join(staging(), 'replace-outcome.json')), 'the replacement to end', WAIT_MS, where);
    const after = runningServer(cacheDir, 'neo4j');
    assert.ok(after && after.pid !== before, 'the server runs again, restarted');
    const found = await marker();
    assert.equal(found.imported, false, 'the new database holds an unfinished import, never a finished one');

    const again = await importOnce({ force: false });
    assert.equal(again.reused, false);
    assert.equal(again.path, 'offline');
    assert.equal((await marker()).imported, true);
    assert.equal(existsSync(staging()), false, 'what the killed import left is removed');
  });
});
