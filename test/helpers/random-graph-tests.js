// An adapter's graph operations on seeded random graphs, from sparse (long paths, many unreachable pairs) to dense
// (short paths with many alternatives), against a breadth-first search in JavaScript (test/helpers/graphs.js).
import { after, before, describe, test } from 'node:test';
import { assertNeighbourSets, assertPathCases, pathCases, randomGraph, searchPaths, xorshift32 } from './graphs.js';

// The server adapters' graphs and searches: xorshift32's graphs of seeds 11 to 13, 400 searches each up to 16
// hops, 25 at a time as in a benchmark run.
export const SERVER_GRAPHS = {
  graphs: [
    { nodes: 100, edges: 150, seed: 11 },
    { nodes: 100, edges: 260, seed: 12 },
    { nodes: 300, edges: 3000, seed: 13 },
  ],
  generator: xorshift32,
  pairs: 400,
  maxDepth: 16,
  concurrency: 25,
};

// For each of `graphs` ({ nodes, edges, seed }, drawn with `generator`), a describe titled `title(spec)`: before
// it, `open(spec)` resolves with a connected adapter whose namespace is empty, and the graph's profiles, its
// relations (`batch` at a time, as the importer sends them) and the indexes are imported; after it, `close(db,
// spec)`. Its tests: shortestPath on `pairs` searches up to `maxDepth`, `concurrency` at a time; the one- and
// two-hop neighbourhoods of every profile.
export function describeRandomGraphs({
  title, graphs, generator, skip, open, close, batch = Infinity, pairs, maxDepth, concurrency,
}) {
  for (const spec of graphs) {
    describe(title(spec), { skip }, () => {
      const graph = randomGraph(spec, generator);
      let db;

      before(async () => {
        db = await open(spec);
        await db.importProfiles(Array.from({ length: spec.nodes }, (_, i) => ({ _key: `P${i + 1}`, AGE: i % 5 })));
        for (let i = 0; i < graph.relations.length; i += batch) await db.importRelations(graph.relations.slice(i, i + batch));
        await db.createIndexes();
      });

      after(async () => {
        await close(db, spec);
      });

      test('shortestPath agrees with breadth-first search: length, relations, maxDepth, null', async () => {
        const cases = pathCases(graph, pairs, maxDepth);
        assertPathCases(cases, await searchPaths(db, cases, concurrency), graph.out);
      });

      test('neighbors and neighbors2 agree with the adjacency lists', async () => {
        await assertNeighbourSets(db, graph);
      });
    });
  }
}

// open and close for a server's adapter: a fresh namespace of `options`, dropped after.
export function serverNamespace(description, options) {
  return {
    open: async () => {
      const db = description.create(options);
      await db.connect();
      await db.resetNamespace();
      return db;
    },
    close: async (db) => {
      await db.close();
      await description.testSupport.dropNamespace(options);
    },
  };
}
