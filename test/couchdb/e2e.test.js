// A validated end-to-end `bench run --suite crud` against the couchdb adapter's server (the local PouchDB Server,
// or BENCH_COUCHDB_URL's), as a user would start it: every phase at two concurrency levels must pass, and the
// result must name the server as it names itself. Skips without a server unless BENCH_REQUIRE lists couchdb.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import couchdb from '../../adapters/couchdb/description.js';
import { spawnBench } from '../helpers/cli.js';
import { connectionFlags, serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_e2e';
const TIMEOUT_MS = 300_000;
const { options, skip } = serverTarget(couchdb, { namespace: NAMESPACE });
const out = mkdtempSync(path.join(os.tmpdir(), 'bench-e2e-couchdb-'));
after(async () => {
  rmSync(out, { recursive: true, force: true });
  if (!skip) await couchdb.testSupport.dropNamespace(options);
});

test('bench run --db couchdb --suite crud validates every phase and names the server it measured', { skip, timeout: TIMEOUT_MS }, async () => {
  const { flags, env } = connectionFlags(couchdb, options, ['host', 'port', 'user']);
  const { code, stdout, stderr } = await spawnBench(['run', '--db', 'couchdb', '--suite', 'crud', '--runs', '1', '--ops', '300',
    '--concurrency', '1,8', '--shape', 'varied', '--runs', '1', '--json', '--quiet', '--namespace', NAMESPACE,
    '--out', out, ...flags], { env, timeoutMs: TIMEOUT_MS });
  assert.equal(code, 0, stderr);
  const result = JSON.parse(stdout);
  assert.equal(result.db.id, 'couchdb');
  assert.equal(result.complete, true);
  assert.equal(result.db.driver.name, 'nano');
  const welcome = await (await fetch(`http://${options.host}:${options.port}/`)).json();
  const pouchdb = Object.hasOwn(welcome, 'express-pouchdb');
  if (pouchdb) assert.match(result.db.version, /^PouchDB Server .*not Apache CouchDB$/);
  // The durability term, relaxed by default: PouchDB Server gives it; the settings read back name the server.
  const { durability } = result.terms;
  assert.equal(durability.term, 'relaxed');
  assert.equal(durability.scope, 'server');
  assert.equal(durability.how, couchdb.terms.durability.relaxed.how);
  assert.deepEqual(durability.applied, []);
  assert.match(durability.settings.server.value, pouchdb ? /^PouchDB Server / : /^Apache CouchDB /);
  if (pouchdb) {
    assert.equal(durability.verified, true, JSON.stringify(durability.problems));
    assert.deepEqual(durability.settings['pouchdb_server/in_memory'], { value: 'false', source: 'server (GET /_config/pouchdb_server)' });
  }
  const statuses = Object.entries(result.workloads).map(([name, workload]) => [name, workload.status]);
  assert.equal(statuses.length, 8, JSON.stringify(statuses));
  for (const [name, status] of statuses) assert.equal(status, 'passed', `${name}: ${JSON.stringify(result.workloads[name].failures)}`);
});

test('bench run --db couchdb refuses, before any work, the term its server cannot give, naming the server', { skip, timeout: TIMEOUT_MS }, async () => {
  const { flags, env } = connectionFlags(couchdb, options, ['host', 'port', 'user']);
  const welcome = await (await fetch(`http://${options.host}:${options.port}/`)).json();
  const pouchdb = Object.hasOwn(welcome, 'express-pouchdb');
  // PouchDB Server never fsyncs, Apache CouchDB 3 always does.
  const term = pouchdb ? 'durable' : 'relaxed';
  const { code, stderr } = await spawnBench(['run', '--db', 'couchdb', '--suite', 'crud', '--runs', '1', '--ops', '10',
    '--concurrency', '1', '--runs', '1', '--quiet', '--durability', term, '--namespace', NAMESPACE, '--out', out, ...flags],
  { env, timeoutMs: TIMEOUT_MS });
  assert.equal(code, 1, stderr);
  assert.match(stderr, new RegExp(`CouchDB does not run under the ${term} durability term this run asks for`));
  assert.match(stderr, pouchdb ? /PouchDB Server [\d.]+ at \S+ writes LevelDB without fsync/ : /Apache CouchDB \S+ at \S+ commits every write with fsync/);
});
