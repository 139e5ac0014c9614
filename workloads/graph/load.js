// Loading the graph suite's edge collection: the edge list is read and parsed alone first (the floor the
// import is compared with, as the publication did), then streamed through the adapter's bulk path in batches,
// indexed, counted and checked whole against the edge list, its bytes hashed in the same pass. A collection the
// namespace's marker records for the same edge list (id, count, sha256), whose count still matches and which
// holds the edge list (each pair the writes touch as the edge list has it or as written) is reused; any other is
// loaded again, after saying what was found.
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { parseFloor } from '../../datasets/edges.js';
import { claimNamespace } from '../../import/import.js';
import { EdgeReference } from './reference.js';
import { describeDifferences, verifyStore, writtenState } from './verify.js';

export const COLLECTION = 'edges';
export const BATCH = 100_000;
// The floor's passes: the first warms the page cache (and the parser's code), as the import finds them.
export const FLOOR_PASSES = 2;

const round1 = (value) => Math.round(value * 10) / 10;
const number = (value) => value.toLocaleString('en-US');
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const perSecond = (count, ms) => (ms > 0 ? Math.round((count / ms) * 1000) : null);
const identity = (data) => ({ id: data.id, edges: data.edges, sha256: data.sha256 });

function sameIdentity(stored, wanted) {
  return Boolean(stored) && Object.entries(wanted).every(([name, value]) => stored[name] === value);
}

async function storedMarker(adapter) {
  return (await adapter.inspectNamespace()).marker ?? {};
}

// The whole collection against the edge list; with `tolerant`, each pair the write workloads touch may also hold
// what they write (a run interrupted before its undo). Resolves what verifyStore() does, and its time.
async function verified(adapter, { reference, params }, tolerant) {
  const started = performance.now();
  const written = tolerant && params ? writtenState({
    upserted: [...params.upsertEdge.edges, ...params.upsertEdges.edges],
    removed: [...params.removeEdge.edges, ...params.removeEdges.edges],
  }) : undefined;
  const found = await verifyStore(adapter, COLLECTION, reference, { written, tolerant });
  return { ...found, ms: performance.now() - started };
}

async function importEdges({ adapter, data, progress, expected }) {
  const digest = {};
  const started = performance.now();
  await adapter.graph.create(COLLECTION);
  const bar = progress?.bar(`importing ${data.edges.toLocaleString('en-US')} edges`, data.edges);
  let done = 0;
  try {
    for await (const batch of data.readBatches({ batchSize: BATCH, digest })) {
      await adapter.graph.importEdges(COLLECTION, batch);
      done += batch.length;
      bar?.update(done);
    }
  } finally {
    bar?.stop();
  }
  const edgesMs = performance.now() - started;
  const { sha256 } = digest;
  if (sha256 !== data.sha256) {
    throw new BenchError(ErrorCodes.DATASET, `${data.file} hashes to ${sha256}, but its manifest records ${data.sha256}: `
      + `the file changed after it was prepared; delete ${data.dir} to prepare the edge list again`);
  }
  progress?.log('building the indexes');
  await adapter.graph.index(COLLECTION);
  const ms = performance.now() - started;
  const count = await adapter.graph.count(COLLECTION);
  if (count !== data.edges || done !== data.edges) {
    throw new BenchError(ErrorCodes.IMPORT, `loading the edge list stored ${count} edges (${done} read), not ${data.edges}`);
  }
  const check = await verified(adapter, await expected(), false);
  if (check.count > 0) throw new BenchError(ErrorCodes.IMPORT, `the edge collection just loaded differs from the edge list: ${describeDifferences(check)}`);
  progress?.log(`checked the whole edge collection against the edge list: ${number(check.edges)} edges in ${seconds(check.ms)}`);
  return { ms, edgesMs, sha256 };
}

// Resolves what the result records under `import`: { reused, edges, ms, edgesMs, indexesMs, edgesPerSec, floor,
// floorMultiple, collectionBytes, sha256 }; `sha256` ({ edges }) is moved to the dataset by the runner.
// `expected()` resolves { reference, params } of the edge list (the suite's context); without it, the reference
// alone, and a reused collection must hold exactly the edge list.
export async function loadEdgeCollection({ adapter, description, options, data, reimport, progress, expected }) {
  await claimNamespace({ adapter, description, options });
  const marker = await storedMarker(adapter);
  const wanted = identity(data);
  const sizeOf = async () => (await adapter.graph.diskUsage?.(COLLECTION)) ?? null;
  let context;
  const expectedOnce = async () => {
    context ??= expected ? await expected() : { reference: new EdgeReference(await data.loadEdges()) };
    return context;
  };
  if (!reimport && sameIdentity(marker.graph, wanted)) {
    const count = await adapter.graph.count(COLLECTION);
    if (count !== data.edges) {
      // Which edges: what a lost or doubled row was is worth a scan before the reload.
      const check = await verified(adapter, await expectedOnce(), true);
      const which = check.count > 0 ? ` (${describeDifferences(check)})` : '';
      progress?.log(`the edge collection holds ${number(count)} edges of ${number(data.edges)}${which}: loading it again`);
    } else {
      const check = await verified(adapter, await expectedOnce(), true);
      if (check.count === 0) {
        progress?.log(`reusing the edge collection: ${number(data.edges)} edges, loaded before, checked whole in ${seconds(check.ms)}`);
        return { reused: true, edges: data.edges, ms: 0, collectionBytes: await sizeOf(), sha256: { edges: data.sha256 } };
      }
      progress?.log(`the edge collection differs from the edge list: ${describeDifferences(check)}: loading it again`);
    }
  }
  // The marker forgets the collection first, so that a load that stops half way is never taken for a whole one.
  if (marker.graph) {
    const { graph, ...rest } = marker;
    await adapter.writeMarker(rest);
  }
  progress?.log(`reading and parsing ${data.file} alone (the floor, the faster of ${FLOOR_PASSES} passes)`);
  const floor = await parseFloor(data, { passes: FLOOR_PASSES });
  const { ms, edgesMs, sha256 } = await importEdges({ adapter, data, progress, expected: expectedOnce });
  await adapter.writeMarker({ ...(await storedMarker(adapter)), graph: wanted });
  return {
    reused: false,
    edges: data.edges,
    ms: round1(ms),
    edgesMs: round1(edgesMs),
    indexesMs: round1(ms - edgesMs),
    edgesPerSec: perSecond(data.edges, ms),
    floor: { ms: round1(floor.ms), edgesPerSec: perSecond(data.edges, floor.ms), passes: floor.passMs.map(round1) },
    floorMultiple: floor.ms > 0 ? Math.round((ms / floor.ms) * 100) / 100 : null,
    collectionBytes: await sizeOf(),
    sha256: { edges: sha256 },
  };
}
