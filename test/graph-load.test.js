// The graph suite's load through the memory adapter on a real prepared edge list: timed against the floor,
// reused while the marker and count agree, loaded again with --reimport; a load that stops half way is never
// taken for a whole one; an edges.tsv changed behind the manifest's back (same size) fails the load.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import memory from '../adapters/memory/description.js';
import { ErrorCodes } from '../core/errors.js';
import { prepareEdges } from '../datasets/edges.js';
import { BATCH, COLLECTION, loadEdgeCollection } from '../workloads/graph/load.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-graph-load-'));
after(() => rmSync(work, { recursive: true, force: true }));

// More than two batches of edges: 2,600 sources with 100 targets each.
const EDGES = 260_000;
const file = path.join(work, 'edges.tsv');
const lines = [];
for (let s = 1; s <= EDGES / 100; s += 1) for (let t = 1; t <= 100; t += 1) lines.push(`${s}\t${s + t}\t${(s * t) % 97}`);
writeFileSync(file, `${lines.join('\n')}\n`);

async function connected(namespace) {
  const options = { namespace, database: 'graph-load' };
  const adapter = memory.create(options);
  await adapter.connect();
  return { adapter, options };
}

const load = (adapter, options, data, reimport = false) => loadEdgeCollection({ adapter, description: memory, options, data, reimport });

test('a load is timed against the floor, reused while its marker and count agree, loaded again with --reimport', async () => {
  const data = await prepareEdges({ dataset: `file:${file}`, scale: 'tiny', seed: 1, cacheDir: path.join(work, 'cache') });
  assert.equal(data.edges, EDGES);
  const { adapter, options } = await connected('load_reuse');
  const first = await load(adapter, options, data);
  assert.equal(first.reused, false);
  assert.equal(first.edges, EDGES);
  assert.ok(first.floor.ms > 0 && first.floorMultiple > 0 && first.edgesPerSec > 0);
  assert.equal(first.sha256.edges, data.sha256, 'the bytes read hash as the manifest says');
  assert.deepEqual((await adapter.inspectNamespace()).marker.graph, { id: data.id, edges: EDGES, sha256: data.sha256 });
  assert.equal((await load(adapter, options, data)).reused, true);
  assert.equal((await load(adapter, options, data, true)).reused, false, '--reimport loads again');
  await adapter.graph.removeEdge(COLLECTION, { source: 1, target: 2 });
  assert.equal((await load(adapter, options, data)).reused, false, 'a count that no longer matches loads again');
  assert.equal(await adapter.graph.count(COLLECTION), EDGES);
});

test('a load that fails half way leaves no marker of the edge list, so the next run loads again', async () => {
  const data = await prepareEdges({ dataset: `file:${file}`, scale: 'tiny', seed: 1, cacheDir: path.join(work, 'cache') });
  const { adapter, options } = await connected('load_half');
  await load(adapter, options, data);
  const importEdges = adapter.graph.importEdges;
  let batches = 0;
  adapter.graph.importEdges = async (name, batch) => {
    batches += 1;
    if (batches === 2) throw new Error('the server went away');
    return importEdges(name, batch);
  };
  await assert.rejects(load(adapter, options, data, true), /the server went away/);
  assert.equal(batches, 2);
  assert.ok(await adapter.graph.count(COLLECTION) <= BATCH, 'half of it stored');
  assert.equal((await adapter.inspectNamespace()).marker.graph, undefined, 'no marker claims it');
  adapter.graph.importEdges = importEdges;
  const again = await load(adapter, options, data);
  assert.equal(again.reused, false);
  assert.equal(await adapter.graph.count(COLLECTION), EDGES);
});

test('an edges.tsv changed after it was prepared (same size) fails the load with both checksums and what to do', async () => {
  const cacheDir = path.join(work, 'cache-changed');
  const data = await prepareEdges({ dataset: `file:${file}`, scale: 'tiny', seed: 1, cacheDir });
  const text = readFileSync(data.file, 'utf8');
  const at = text.indexOf('\t', text.indexOf('\t') + 1) + 1;
  const digit = text[at] === '1' ? '2' : '1';
  writeFileSync(data.file, text.slice(0, at) + digit + text.slice(at + 1));
  const again = await prepareEdges({ dataset: `file:${file}`, scale: 'tiny', seed: 1, cacheDir });
  const { adapter, options } = await connected('load_changed');
  await assert.rejects(load(adapter, options, again), (error) => {
    assert.equal(error.code, ErrorCodes.DATASET);
    assert.match(error.message, new RegExp(`hashes to [0-9a-f]{64}, but its manifest records ${data.sha256}`));
    assert.match(error.message, /delete .* to prepare the edge list again/);
    return true;
  });
  assert.equal((await adapter.inspectNamespace()).marker.graph, undefined);
});
