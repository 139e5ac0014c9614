// Loading the graph suite's edge collection: the edge list is read and parsed alone first (the floor the
// import is compared with, as the publication did), then streamed through the adapter's bulk path in batches,
// indexed and counted, its bytes hashed in the same pass. A collection the namespace's marker records for the
// same edge list (id, count, sha256) and whose count still matches is reused; any other is loaded again.
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { parseFloor } from '../../datasets/edges.js';
import { claimNamespace } from '../../import/import.js';

export const COLLECTION = 'edges';
export const BATCH = 100_000;

const round1 = (value) => Math.round(value * 10) / 10;
const perSecond = (count, ms) => (ms > 0 ? Math.round((count / ms) * 1000) : null);
const identity = (data) => ({ id: data.id, edges: data.edges, sha256: data.sha256 });

function sameIdentity(stored, wanted) {
  return Boolean(stored) && Object.entries(wanted).every(([name, value]) => stored[name] === value);
}

async function storedMarker(adapter) {
  return (await adapter.inspectNamespace()).marker ?? {};
}

async function importEdges({ adapter, data, progress }) {
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
  return { ms, edgesMs, sha256 };
}

// Resolves what the result records under `import`: { reused, edges, ms, edgesMs, indexesMs, edgesPerSec, floor,
// floorMultiple, collectionBytes, sha256 }; `sha256` ({ edges }) is moved to the dataset by the runner.
export async function loadEdgeCollection({ adapter, description, options, data, reimport, progress }) {
  await claimNamespace({ adapter, description, options });
  const marker = await storedMarker(adapter);
  const wanted = identity(data);
  const sizeOf = async () => (await adapter.graph.diskUsage?.(COLLECTION)) ?? null;
  if (!reimport && sameIdentity(marker.graph, wanted) && await adapter.graph.count(COLLECTION) === data.edges) {
    progress?.log(`reusing the edge collection: ${data.edges.toLocaleString('en-US')} edges, loaded before`);
    return { reused: true, edges: data.edges, ms: 0, collectionBytes: await sizeOf(), sha256: { edges: data.sha256 } };
  }
  // The marker forgets the collection first, so that a load that stops half way is never taken for a whole one.
  if (marker.graph) {
    const { graph, ...rest } = marker;
    await adapter.writeMarker(rest);
  }
  progress?.log(`reading and parsing ${data.file} alone (the floor)`);
  const floor = await parseFloor(data);
  const { ms, edgesMs, sha256 } = await importEdges({ adapter, data, progress });
  await adapter.writeMarker({ ...(await storedMarker(adapter)), graph: wanted });
  return {
    reused: false,
    edges: data.edges,
    ms: round1(ms),
    edgesMs: round1(edgesMs),
    indexesMs: round1(ms - edgesMs),
    edgesPerSec: perSecond(data.edges, ms),
    floor: { ms: round1(floor.ms), edgesPerSec: perSecond(data.edges, floor.ms) },
    floorMultiple: floor.ms > 0 ? Math.round((ms / floor.ms) * 100) / 100 : null,
    collectionBytes: await sizeOf(),
    sha256: { edges: sha256 },
  };
}
