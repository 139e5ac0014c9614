// The social-network suite as data: each workload names the adapter operation it calls, the inputs it
// derives from the dataset, and how its answers are checked. One generic runner executes them all.
// The result of every workload is defined in workloads/README.md.
import { profileKey, profileId } from '../../datasets/columns.js';
import { MAX_PATH_DEPTH } from '../../datasets/scales.js';
import { hasEdge } from '../../datasets/graph.js';
import {
  abbreviate, collectionDifferences, documentDifference, histogramDifference, keySetDifference,
} from '../compare.js';

function expectedDocument(ctx, id) {
  const doc = ctx.profiles.get(id);
  if (!doc) throw new Error(`internal: profile ${id} was not loaded for validation`);
  return doc;
}

// Checks return the failures only, as { input, problem }; `difference` returns null for a right answer.
function eachAnswer(difference) {
  return (ctx, inputs, answers) => {
    const failures = [];
    for (let i = 0; i < answers.length; i += 1) {
      const problem = difference(ctx, i, answers[i], inputs[i]);
      if (problem) failures.push({ input: inputs[i], problem });
    }
    return failures;
  };
}

function readCheck(ids) {
  return eachAnswer((ctx, i, got) => documentDifference(expectedDocument(ctx, ids(ctx)[i]), got));
}

function keysOf(ids) {
  return Array.from(ids, profileKey).sort();
}

function documentsCheck(reference) {
  return eachAnswer((ctx, i, got) => {
    const ids = reference(ctx)[i];
    if (!Array.isArray(got)) return `expected an array of documents, got ${abbreviate(got)}`;
    const keyDifference = keySetDifference(keysOf(ids), got.map((doc) => doc?._key));
    if (keyDifference) return keyDifference;
    for (const doc of got) {
      const difference = documentDifference(expectedDocument(ctx, profileId(doc._key)), doc);
      if (difference) return `${doc._key}: ${difference}`;
    }
    return null;
  });
}

function writeBodies(count) {
  return (ctx) => ctx.dataset.params.writeIds.slice(0, count)
    .map((id, i) => ({ ...expectedDocument(ctx, id), _key: `W${i + 1}` }));
}

// singleWrite follows the run's durability term (singleWriteSync's operation under the durable one);
// singleWriteSync is durable per write whatever the run's term.
function writeWorkload(name, description, count, durability) {
  return {
    name,
    operation: name,
    compared: true,
    description,
    durability,
    profileIds: (dataset) => dataset.params.writeIds.slice(0, count(dataset)),
    inputs: (ctx) => writeBodies(count(ctx.dataset))(ctx),
    call: (adapter, doc, params) => (params?.durable ? adapter.singleWriteSync(name, doc) : adapter.singleWrite(name, doc)),
    setup: (adapter) => adapter.createTempCollection(name),
    teardown: (adapter) => adapter.dropTempCollection(name),
    check: async (ctx, inputs, answers, adapter) => collectionDifferences(inputs, await adapter.readCollection(name)),
  };
}

// A neighbourhood as keys. `reference` names the reference answers, aligned with params.neighborStarts.
function keysWorkload(name, reference, description) {
  return {
    name,
    operation: name,
    compared: true,
    description,
    inputs: (ctx) => ctx.dataset.params.neighborStarts.map(profileKey),
    call: (adapter, key) => adapter[name](key),
    check: eachAnswer((ctx, i, got) => keySetDifference(keysOf(ctx.dataset.reference[reference][i]), got)),
  };
}

// The same neighbourhood as documents, for `starts`: a prefix of params.neighborStarts.
function documentsWorkload(name, reference, starts, description) {
  return {
    name,
    operation: name,
    compared: true,
    description,
    profileIds: (dataset) => dataset.reference[reference].slice(0, dataset.params[starts].length)
      .flatMap((ids) => Array.from(ids)),
    inputs: (ctx) => ctx.dataset.params[starts].map(profileKey),
    call: (adapter, key) => adapter[name](key),
    check: documentsCheck((ctx) => ctx.dataset.reference[reference]),
  };
}

function pathDifference(ctx, [from, to], expectedHops, got) {
  if (expectedHops < 0) return got === null ? null : `expected null (no path), got ${abbreviate(got)}`;
  if (!Array.isArray(got)) return `expected a path of ${expectedHops} hops, got ${abbreviate(got)}`;
  if (got.length - 1 !== expectedHops) {
    return `expected a path of ${expectedHops} hops, got ${got.length - 1}: ${abbreviate(got)}`;
  }
  if (got[0] !== from || got[got.length - 1] !== to) {
    return `path must run from ${from} to ${to}, got ${abbreviate(got)}`;
  }
  for (let i = 1; i < got.length; i += 1) {
    let a;
    let b;
    try {
      a = profileId(got[i - 1]);
      b = profileId(got[i]);
    } catch {
      return `malformed key in path ${abbreviate(got)}`;
    }
    if (!hasEdge(ctx.graph, a, b)) return `${got[i - 1]} -> ${got[i]} is not a relation of the dataset`;
  }
  return null;
}

const pairKeys = ([from, to]) => [profileKey(from), profileKey(to)];
const callShortestPath = (adapter, [from, to]) => adapter.shortestPath(from, to, MAX_PATH_DEPTH);

export const WORKLOADS = [
  {
    name: 'warmup',
    operation: 'singleRead',
    compared: false,
    description: "the adapter's warm-up, then reads of warm-up ids disjoint from the measured ones",
    profileIds: (dataset) => dataset.params.warmupIds,
    inputs: (ctx) => ctx.dataset.params.warmupIds.map(profileKey),
    setup: (adapter) => adapter.warmup(),
    call: (adapter, key) => adapter.singleRead(key),
    check: readCheck((ctx) => ctx.dataset.params.warmupIds),
  },
  {
    name: 'singleRead',
    operation: 'singleRead',
    compared: true,
    description: 'read profiles by key',
    profileIds: (dataset) => dataset.params.readIds,
    inputs: (ctx) => ctx.dataset.params.readIds.map(profileKey),
    call: (adapter, key) => adapter.singleRead(key),
    check: readCheck((ctx) => ctx.dataset.params.readIds),
  },
  writeWorkload('singleWrite', 'insert profile-like documents, acknowledged under the run\'s durability term',
    (dataset) => dataset.sizes.writes, 'run'),
  writeWorkload('singleWriteSync', 'insert profile-like documents, durable acknowledgement per write',
    (dataset) => dataset.sizes.writesSync, 'durable'),
  {
    name: 'aggregation',
    operation: 'aggregation',
    compared: true,
    description: 'count profiles per AGE',
    inputs: () => [null],
    call: (adapter) => adapter.aggregation(),
    check: eachAnswer((ctx, i, got) => histogramDifference(ctx.dataset.reference.ageHistogram, got)),
  },
  keysWorkload('neighbors', 'neighbors', 'distinct keys of the 1-hop outbound neighbours'),
  documentsWorkload('neighborsData', 'neighbors', 'neighborStarts', 'the 1-hop outbound neighbours as full profile documents'),
  keysWorkload('neighbors2', 'neighbors2', 'distinct keys reachable in 1 or 2 outbound hops, without the start'),
  documentsWorkload('neighbors2data', 'neighbors2', 'neighbors2dataStarts',
    'the 1- and 2-hop outbound neighbourhood as full profile documents'),
  {
    name: 'shortestPath',
    operation: 'shortestPath',
    compared: true,
    description: `an outbound shortest path of at most ${MAX_PATH_DEPTH} hops between each pair`,
    needsGraph: true,
    inputs: (ctx) => ctx.dataset.params.pathPairs.map(pairKeys),
    call: callShortestPath,
    check: eachAnswer((ctx, i, got, pair) => pathDifference(ctx, pair, ctx.dataset.reference.pathLengths[i], got)),
  },
  {
    name: 'hardPath',
    operation: 'shortestPath',
    compared: true,
    description: 'one pair with no path at all: the answer is null',
    inputs: (ctx) => [pairKeys(ctx.dataset.params.hardPair)],
    call: callShortestPath,
    check: eachAnswer((ctx, i, got) => (got === null ? null : `expected null (no path), got ${abbreviate(got)}`)),
  },
];

export const WORKLOAD_NAMES = WORKLOADS.map((workload) => workload.name);
