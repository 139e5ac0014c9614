// The server-side graph queries against a breadth-first search in JavaScript, on seeded random graphs from
// sparse (long paths, many unreachable pairs) to dense (short paths with many alternatives): OrientDB's own
// shortestPath() with the adapter's maxDepth correction, and the one- and two-hop neighbourhoods, with duplicate
// relations and self-loops. The searches run 25 at a time, as in a benchmark run. Runs against the local server
// of `bench server start orientdb`.
import { after, before, describe, test } from 'node:test';
import orientdb from '../../adapters/orientdb/description.js';
import { assertNeighbourSets, assertPathCases, pathCases, randomGraph, searchPaths, xorshift32 } from '../helpers/graphs.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_orienttest_graphs';
const GRAPHS = [
  { nodes: 100, edges: 150, seed: 11 },
  { nodes: 100, edges: 260, seed: 12 },
  { nodes: 300, edges: 3000, seed: 13 },
];
const PAIRS = 400;
const CONCURRENCY = 25;
const MAX_DEPTH = 16;

const { options, skip } = serverTarget(orientdb, { namespace: NAMESPACE, concurrency: CONCURRENCY });

for (const spec of GRAPHS) {
  describe(`orientdb graph queries on ${spec.nodes} nodes and ${spec.edges} random relations`, { skip }, () => {
    const graph = randomGraph(spec, xorshift32);
    let db;

    before(async () => {
      db = orientdb.create(options);
      await db.connect();
      await db.resetNamespace();
      await db.importProfiles(Array.from({ length: spec.nodes }, (_, i) => ({ _key: `P${i + 1}`, AGE: i % 5 })));
      // In batches, as the importer sends them.
      for (let i = 0; i < graph.relations.length; i += 1000) await db.importRelations(graph.relations.slice(i, i + 1000));
      await db.createIndexes();
    });

    after(async () => {
      await db.close();
      await orientdb.testSupport.dropNamespace(options);
    });

    test('shortestPath agrees with breadth-first search: length, relations, maxDepth, null', async () => {
      const cases = pathCases(graph, PAIRS, MAX_DEPTH);
      assertPathCases(cases, await searchPaths(db, cases, CONCURRENCY), graph.out);
    });

    test('neighbors and neighbors2 agree with the adjacency lists', async () => {
      await assertNeighbourSets(db, graph);
    });
  });
}
