import { after, before, describe, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite from '../../adapters/sqlite/description.js';
import { assertNeighbourSets, assertPathCases, mulberry32, pathCases, randomGraph, searchPaths } from '../helpers/graphs.js';

// Random directed graphs, from sparse (paths up to ~15 hops, many unreachable pairs) to dense (short paths
// with many alternatives), each checked against a plain breadth-first search in JavaScript.
const GRAPHS = [
  { nodes: 80, edges: 120, seed: 1 },
  { nodes: 80, edges: 200, seed: 2 },
  { nodes: 200, edges: 1600, seed: 3 },
];
const PAIRS_PER_GRAPH = 300;
const MAX_DEPTH_LIMIT = 16;

for (const spec of GRAPHS) {
  describe(`sqlite graph operations on a random graph of ${spec.nodes} nodes and ${spec.edges} relations`, () => {
    const graph = randomGraph(spec, mulberry32);
    let dir;
    let db;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'db-shootout-sqlite-'));
      db = sqlite.create({ namespace: 'dbshootout', database: join(dir, 'graph.sqlite') });
      await db.connect();
      await db.resetNamespace();
      await db.writeMarker({ dataset: `random-${spec.seed}` });
      await db.importProfiles(Array.from({ length: spec.nodes }, (_, i) => ({ _key: `P${i + 1}`, AGE: i % 7 })));
      await db.importRelations(graph.relations);
      await db.createIndexes();
    });

    after(async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test('shortestPath is minimal, follows relations, and respects maxDepth', async () => {
      // One search at a time, as a benchmark run drives a serial adapter.
      const cases = pathCases(graph, PAIRS_PER_GRAPH, MAX_DEPTH_LIMIT);
      assertPathCases(cases, await searchPaths(db, cases, 1), graph.out);
    });

    test('neighbors and neighbors2 match the adjacency lists', async () => {
      await assertNeighbourSets(db, graph);
    });
  });
}
