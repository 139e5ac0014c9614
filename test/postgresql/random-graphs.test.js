// The server-side graph queries against a breadth-first search in JavaScript, on seeded random graphs from
// sparse (long paths, many unreachable pairs) to dense (short paths with many alternatives). The searches run 25
// at a time, as in a benchmark run. The graph code is shared by both adapters, so the document one stands for
// both. Runs against the local server of `bench server start postgresql`.
import { after, before, describe, test } from 'node:test';
import postgresql from '../../adapters/postgresql/description.js';
import { assertNeighbourSets, assertPathCases, pathCases, randomGraph, searchPaths, xorshift32 } from '../helpers/graphs.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_pgtest_graphs';
const GRAPHS = [
  { nodes: 100, edges: 150, seed: 11 },
  { nodes: 100, edges: 260, seed: 12 },
  { nodes: 300, edges: 3000, seed: 13 },
];
const PAIRS = 400;
const CONCURRENCY = 25;
const MAX_DEPTH = 16;

const { options, skip } = serverTarget(postgresql, { namespace: NAMESPACE, concurrency: CONCURRENCY });

for (const spec of GRAPHS) {
  describe(`postgresql graph queries on ${spec.nodes} nodes and ${spec.edges} random relations`, { skip }, () => {
    const graph = randomGraph(spec, xorshift32);
    let db;

    before(async () => {
      db = postgresql.create(options);
      await db.connect();
      await db.resetNamespace();
      await db.importProfiles(Array.from({ length: spec.nodes }, (_, i) => ({ _key: `P${i + 1}`, AGE: i % 5 })));
      await db.importRelations(graph.relations);
      await db.createIndexes();
    });

    after(async () => {
      await db.close();
      await postgresql.testSupport.dropNamespace(options);
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
