// The suites beyond the social one (test/e2e-servers.test.js) and crud's terms (test/e2e-terms.test.js), through
// the real CLI against FerretDB: mixed, queries and the graph suite's reads and writes, each validated, under the durable term
// (FerretDB has no relaxed one). What the capability probe finds FerretDB lacks is unsupported with the probe's
// reason; everything else passes. Small sizes: FerretDB 1.x evaluates most filters in its own process, so its scans
// take seconds where a database's index takes milliseconds (adapters/ferretdb/README.md).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { UPDATE_POOL_DEFECT } from '../../adapters/ferretdb/adapter.js';
import ferretdb from '../../adapters/ferretdb/description.js';
import { serverSupportsAt } from '../../adapters/server-supports.js';
import { spawnBench } from '../helpers/cli.js';
import { connectionFlags, serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_ferretdb_suites';
const TIMEOUT_MS = 600_000;
const { options, skip } = serverTarget(ferretdb, { namespace: NAMESPACE });
const out = mkdtempSync(path.join(os.tmpdir(), 'bench-ferretdb-suites-'));
after(() => rmSync(out, { recursive: true, force: true }));

// The connection as a user gives it, and the run's common flags.
const { flags: connection } = connectionFlags(ferretdb, options);
const common = ['--db', 'ferretdb', '--runs', '1', '--durability', 'durable', '--json', '--quiet', '--namespace', NAMESPACE,
  '--out', out, '--stall-timeout', '300', ...connection];

// A run's result, the run having exited 0 and completed under the durable term, read back.
async function run(flags) {
  const { code, stdout, stderr } = await spawnBench(['run', ...flags, ...common], { timeoutMs: TIMEOUT_MS - 30_000 });
  assert.equal(code, 0, stderr);
  const result = JSON.parse(stdout);
  assert.equal(result.db.id, 'ferretdb');
  assert.match(result.db.name, /^FerretDB/);
  assert.equal(result.complete, true);
  assert.equal(result.terms.durability.term, 'durable');
  assert.equal(result.terms.durability.verified, true, JSON.stringify(result.terms.durability.problems));
  return result;
}

// Every workload passed, or is unsupported with one of the reasons the probe gives for this server; those named in
// `passing` passed (so that a server found to lack everything cannot pass here).
async function checkStatuses(result, passing) {
  const reasons = new Set(Object.values((await serverSupportsAt(ferretdb, options)).unsupported));
  const statuses = Object.fromEntries(Object.entries(result.workloads).map(([name, entry]) => [name, entry.status]));
  for (const [name, entry] of Object.entries(result.workloads)) {
    if (entry.status === 'unsupported') assert.ok(reasons.has(entry.reason), `${name}: ${entry.reason} is not a reason the probe gives`);
    else assert.equal(entry.status, 'passed', `${name}: ${JSON.stringify(entry.failures ?? entry.error)}`);
  }
  for (const name of passing) assert.equal(statuses[name], 'passed', `${name}: ${statuses[name]}`);
  return statuses;
}

describe('bench run --db ferretdb, the other suites validated', { skip }, () => {
  after(() => ferretdb.testSupport.dropNamespace(options));

  test('mixed: every workload, scans and read-modify-write included, every read and write checked', { timeout: TIMEOUT_MS }, async () => {
    const result = await run(['--suite', 'mixed', '--records', '200', '--ops', '200', '--concurrency', '8']);
    const statuses = await checkStatuses(result, []);
    const names = Object.keys(statuses);
    assert.deepEqual(names.map((name) => name.split(' ')[0]),
      ['read-only', 'write-only', '50-50', '95-5', 'igiugid', 'read-modify-write', 'scan-insert']);
    assert.deepEqual(Object.values(statuses), names.map(() => 'passed'));
  });

  test('queries: the cases FerretDB runs pass at 1k; those it lacks ($lookup, $min/$max, $concat) are unsupported with the reason', { timeout: TIMEOUT_MS }, async () => {
    const result = await run(['--suite', 'queries', '--size', '1k']);
    const statuses = await checkStatuses(result, ['collect-number 1k', 'filter-number 1k', 'extract-doc 1k', 'lookup-key 1k', 'sort-string 1k']);
    for (const name of ['join-key 1k', 'min-number 1k', 'concat 1k']) assert.equal(statuses[name], 'unsupported', name);
  });

  test('graph: the reads on an edge file, every answer checked; the aggregations FerretDB answers wrongly are unsupported', { timeout: TIMEOUT_MS }, async () => {
    const file = path.join(out, 'edges.tsv');
    writeFileSync(file, randomEdges(300, 1000));
    const result = await run(['--suite', 'graph', '--scale', 'tiny', '--dataset', `file:${file}`,
      '--workload', 'findEdge,edgesOf,inEdges,friends,countFriends,countFollowers']);
    assert.equal(result.import.edges, 1000);
    const statuses = await checkStatuses(result, ['findEdge', 'edgesOf', 'inEdges']);
    assert.deepEqual(Object.keys(statuses), ['findEdge', 'edgesOf', 'inEdges', 'friends', 'countFriends', 'countFollowers']);
  });

  // The untimed undo after each write sends at most UNDO_BATCH_SIZE upserts per command; upsertEdges' 500 would wedge
  // FerretDB 1.x (its update keeps a backend connection per matching statement), so it is unsupported by version.
  test('graph: the writes, each read back and the whole collection checked, then undone; upsertEdges unsupported on FerretDB 1.x with the defect', { timeout: TIMEOUT_MS }, async () => {
    const file = path.join(out, 'edges-writes.tsv');
    writeFileSync(file, randomEdges(1000, 6000));
    const result = await run(['--suite', 'graph', '--scale', 'tiny', '--dataset', `file:${file}`,
      '--workload', 'upsertEdge,upsertEdges,removeEdge,removeEdges']);
    assert.equal(result.import.edges, 6000);
    const statuses = await checkStatuses(result, ['upsertEdge', 'removeEdge', 'removeEdges']);
    assert.deepEqual(Object.keys(statuses), ['upsertEdge', 'upsertEdges', 'removeEdge', 'removeEdges']);
    assert.match(result.db.version, /^1\./);
    assert.equal(statuses.upsertEdges, 'unsupported');
    assert.equal(result.workloads.upsertEdges.reason, UPDATE_POOL_DEFECT);
  });
});

// `count` distinct weighted edges among `vertices` vertices, no loops, as tab-separated lines (a fixed sequence).
function randomEdges(vertices, count) {
  let state = 7;
  const next = () => { state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0; return state >>> 8; };
  const seen = new Set();
  const lines = [];
  while (lines.length < count) {
    const from = (next() % vertices) + 1;
    const to = (next() % vertices) + 1;
    if (from === to || seen.has(`${from} ${to}`)) continue;
    seen.add(`${from} ${to}`);
    lines.push(`${from}\t${to}\t${(next() % 100) + 1}`);
  }
  return `${lines.join('\n')}\n`;
}
