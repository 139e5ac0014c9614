// The offline import (adapters/orientdb/offline-import.js) against a real OrientDB server of the test's own: a
// cache directory of its own holding the installed release (its jars shared, its databases and configuration its
// own) and a free port, so the server the other tests share is never touched. Offline on `tiny`: the database
// replaced while the server keeps running, counts, marker and key index, every record, bag and schema object equal
// to what the online import stores, and a validated run; the online path kept, and recorded with its reason, for a
// server `bench server` does not run; an import interrupted while the importer runs, followed by a rerun that finds
// the namespace unfinished and imports again. `tiny` is enough: some of its bags are above the size where OrientDB
// keeps them in a B-tree, and what costs time here is the importer's start, the same at any size.
// Skips when OrientDB is not installed (`npx bench server install orientdb`), fails instead when BENCH_REQUIRE
// lists orientdb.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import orientjs from 'orientjs';
import { credentials } from '../../adapters/orientdb/connection.js';
import orientdb from '../../adapters/orientdb/description.js';
import { serverProcess } from '../../cli/options.js';
import { defaultCacheDir } from '../../core/paths.js';
import { prepareDataset } from '../../datasets/dataset.js';
import { importDataset } from '../../import/import.js';
import { serverFamily, startServer, stopServer } from '../../server/index.js';
import { portIsFree } from '../../server/process.js';
import { runningServer } from '../../server/state.js';
import { releaseDir } from '../../server/versions.js';
import { WORKLOADS, WORKLOAD_NAMES } from '../../workloads/social/workloads.js';
import { expectedStatus } from '../helpers/terms.js';
import { BIN, spawnBench } from '../helpers/cli.js';
import { SERVER_CONNECT_TIMEOUT_MS } from '../helpers/limits.js';

const server = serverFamily('orientdb');
const release = server.defaultVersion;
// The default release where `bench server install` put it: the family's directory (an older install) or its own.
const installedDir = releaseDir(server, defaultCacheDir(), release);
const installedHome = path.join(installedDir, `orientdb-community-${release}`);
const installed = server.installedIn(installedDir).includes(release);
const required = (process.env.BENCH_REQUIRE ?? '').split(',').map((id) => id.trim()).includes('orientdb');
if (!installed && required) throw new Error(`BENCH_REQUIRE lists orientdb, but OrientDB ${release} is not installed in ${installedHome}`);
const skip = installed ? false : `OrientDB ${release} is not installed: run \`npx bench server install orientdb\``;

const NAMESPACE = 'dbshootout_offline';
const SCALE = 'tiny';
const ONLINE = 'dbshootout_offline_online';
const TIMEOUT_MS = 600_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const SILENT = { debug() {}, log() {}, error() {} };

// A binary port whose HTTP listener's port (56 above) is free too, below the kernel's ephemeral range.
async function serverPort() {
  const [ephemeralLow] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * (ephemeralLow - 20_100));
    if (await portIsFree(port) && await portIsFree(port + 56)) return port;
  }
}

// Every profile as text that holds its fields with their types and the keys of both its bags, sorted by key; the
// classes with their properties and clusters; the indexes; the database's settings. Two imports of one dataset
// that store the same thing give the same snapshot.
const SNAPSHOT = {
  profiles: `SELECT _key, @this.toJSON('') AS json, out('Knows')._key AS out, in('Knows')._key AS in,
    out_Knows.type() AS outType, in_Knows.type() AS inType FROM Profile ORDER BY _key`,
  types: "SELECT _key, AGE.type() AS age, public.type() AS public, region.type() AS region FROM Profile WHERE AGE IS NOT NULL ORDER BY _key LIMIT 5",
  classes: `SELECT name, superClass, clusterIds, properties:{name, type} AS properties
    FROM (SELECT expand(classes) FROM metadata:schema) ORDER BY name`,
  indexes: 'SELECT name, type, indexDefinition FROM (SELECT expand(indexes) FROM metadata:indexmanager) ORDER BY name',
  database: 'SELECT * FROM metadata:database',
  users: 'SELECT name FROM OUser ORDER BY name',
};

describe('orientdb offline import', { skip, timeout: TIMEOUT_MS * 4 }, () => {
  let cacheDir;
  let dataset;
  let options;
  let client;

  const staging = () => path.join(cacheDir, 'servers', 'orientdb', `orientdb-community-${release}`, 'offline-import');
  const env = () => ({ BENCH_CACHE_DIR: cacheDir });

  async function query(name, sql) {
    const session = await client.session({ name, ...credentials(options), pushNotification: false });
    try {
      return await session.query(sql, { pageSize: 1_000_000 }).all();
    } finally {
      await session.close();
    }
  }

  async function importInto(namespace, { force = true, server: target = serverProcess(orientdb, { 'cache-dir': cacheDir }) } = {}) {
    const adapter = orientdb.create({ ...options, namespace });
    await adapter.connect();
    try {
      return await importDataset({ adapter, description: orientdb, options: { ...options, namespace }, dataset, force, server: target, offline: 'offline' });
    } finally {
      await adapter.close();
    }
  }

  async function marker(name = NAMESPACE) {
    const rows = await query(name, 'SELECT json FROM Marker');
    assert.equal(rows.length, 1);
    return JSON.parse(rows[0].json);
  }

  async function snapshot(name) {
    const taken = {};
    for (const [part, sql] of Object.entries(SNAPSHOT)) taken[part] = await query(name, sql);
    for (const profile of taken.profiles) {
      // The bags as the keys they lead to (below): their RIDs differ between two databases.
      profile.json = JSON.parse(profile.json);
      delete profile.json.out_Knows;
      delete profile.json.in_Knows;
      profile.out = [...profile.out].sort();
      profile.in = [...profile.in].sort();
    }
    delete taken.database[0].name;
    return JSON.parse(JSON.stringify(taken));
  }

  async function waitFor(check, what, timeoutMs = 120_000) {
    const deadline = performance.now() + timeoutMs;
    while (!(await check())) {
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(100);
    }
  }

  before(async () => {
    cacheDir = mkdtempSync(path.join(os.tmpdir(), 'bench-orientdb-offline-'));
    // The installed release's jars, scripts and configuration; databases, logs and the compiled importer its own.
    const home = path.join(cacheDir, 'servers', 'orientdb', `orientdb-community-${release}`);
    mkdirSync(home, { recursive: true });
    for (const dir of ['lib', 'plugins', 'www']) symlinkSync(path.join(installedHome, dir), path.join(home, dir));
    for (const dir of ['bin', 'config']) cpSync(path.join(installedHome, dir), path.join(home, dir), { recursive: true });
    const state = await startServer(server, { cacheDir, port: await serverPort() });
    options = {
      ...orientdb.connection.defaults, host: state.host, port: state.port, user: state.user, password: undefined,
      namespace: NAMESPACE, concurrency: 4, connectTimeoutMs: SERVER_CONNECT_TIMEOUT_MS, dataDir: cacheDir,
    };
    client = await orientjs.OrientDBClient.connect({ host: state.host, port: state.port, logger: SILENT });
    dataset = await prepareDataset({ scale: SCALE, cacheDir });
  });

  after(async () => {
    await client?.close();
    if (cacheDir) {
      await stopServer(server, { cacheDir }).catch(() => {});
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  test('imports offline: the database replaced without a restart, counts, marker and key index, and a validated run', { timeout: TIMEOUT_MS }, async () => {
    const before = runningServer(cacheDir, 'orientdb').pid;
    const result = await importInto(NAMESPACE);
    assert.equal(result.path, 'offline');
    assert.equal(result.onlineBecause, undefined);
    assert.ok(result.loadMs > 0 && result.loadMs < result.ms, `${result.loadMs} of ${result.ms} ms`);
    assert.equal(result.loadSteps.vertices, dataset.profiles);
    assert.equal(result.loadSteps.relations, dataset.relations);
    assert.equal(runningServer(cacheDir, 'orientdb').pid, before, 'the server kept running');
    assert.equal(existsSync(staging()), false, 'the staging directory is removed');
    const written = await marker();
    assert.equal(written.imported, true);
    assert.equal(written.timings.path, 'offline');
    const [counts] = await query(NAMESPACE, 'SELECT count(*) AS profiles, sum(out_Knows.size()) AS relations FROM Profile');
    assert.deepEqual(counts, { profiles: dataset.profiles, relations: dataset.relations });

    const out = path.join(cacheDir, 'results');
    const { code, stdout, stderr } = await spawnBench(['run', '--db', 'orientdb', '--scale', SCALE, '--runs', '1', '--json',
      '--quiet', '--namespace', NAMESPACE, '--out', out], { env: env(), timeoutMs: TIMEOUT_MS });
    assert.equal(code, 0, stderr);
    const shown = JSON.parse(stdout);
    assert.equal(shown.import.reused, true, 'the run measures the import made before it');
    assert.equal(shown.import.path, 'offline');
    assert.deepEqual(Object.keys(shown.workloads), WORKLOAD_NAMES);
    // OrientDB's one durability term is relaxed: it has no durable singleWriteSync.
    for (const workload of WORKLOADS) {
      const entry = shown.workloads[workload.name];
      assert.equal(entry.status, expectedStatus(orientdb, workload, 'relaxed'), `${workload.name}: ${JSON.stringify(entry.failures ?? entry.reason)}`);
    }
    assert.equal(shown.workloads.singleWriteSync.status, 'unsupported');
  });

  test('stores what the online import stores: every record with its types and bags, the schema, the indexes, the settings', { timeout: TIMEOUT_MS }, async () => {
    // The online import, for a server the harness does not know as its own: the path it took and why.
    const online = await importInto(ONLINE, { server: null });
    assert.equal(online.path, 'online');
    assert.match(online.onlineBecause, /not one that `bench server` runs/);
    const [offlineData, onlineData] = [await snapshot(NAMESPACE), await snapshot(ONLINE)];
    assert.equal(offlineData.profiles.length, dataset.profiles);
    assert.ok(offlineData.profiles.some((profile) => profile.outType === 'LINKBAG' && profile.out.length > 40),
      'some bag is above the threshold where OrientDB keeps it in its B-tree');
    assert.deepEqual(offlineData.types.map(({ age, public: pub, region }) => [age, pub, region]).at(0), ['LONG', 'LONG', 'STRING']);
    assert.ok(offlineData.indexes.some(({ name, type }) => name === 'Profile._key' && type === 'UNIQUE_HASH_INDEX'));
    for (const part of Object.keys(SNAPSHOT)) assert.deepEqual(offlineData[part], onlineData[part], part);
  });

  test('Ctrl-C while the importer runs: the database is untouched and unfinished, the rerun imports again', { timeout: TIMEOUT_MS }, async () => {
    const before = await query(NAMESPACE, 'SELECT count(*) AS count FROM Profile');
    // A process group of its own, so the test can send Ctrl-C to the harness and the importer as a terminal does.
    const child = spawn(process.execPath, [BIN, 'import', '--db', 'orientdb', '--scale', SCALE, '--import-path', 'offline', '--namespace', NAMESPACE,
      '--out', path.join(cacheDir, 'results')], { env: { ...process.env, ...env() }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    // The database it writes exists once the importer works.
    await waitFor(() => existsSync(path.join(staging(), 'databases', NAMESPACE)), 'the importer to start', TIMEOUT_MS);
    process.kill(-child.pid, 'SIGINT');
    assert.notEqual(await exited, 0, stderr);
    // OrientDB's own handler of SIGINT shuts its engine down and exits with 1; the JVM's, before the engine's is
    // installed, with 130.
    assert.match(stderr, /the offline importer (failed \(exit code 1\)|was ended by SIGINT);\s+database "dbshootout_offline"\s+is untouched/);
    assert.equal((await marker()).imported, false, 'the namespace is an unfinished import');
    assert.deepEqual(await query(NAMESPACE, 'SELECT count(*) AS count FROM Profile'), before, 'the old database is still in place');
    assert.deepEqual(readdirSync(staging()), ['importer.log'], 'only the log the error names is kept');

    const again = await importInto(NAMESPACE, { force: false });
    assert.equal(again.reused, false);
    assert.equal(again.path, 'offline');
    assert.equal((await marker()).imported, true);
    assert.equal(existsSync(staging()), false, 'what the interrupted import left is removed');
  });
});
