import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite from '../../adapters/sqlite/description.js';
import { mulberry32 } from '../helpers/graphs.js';
import { describeRandomGraphs } from '../helpers/random-graph-tests.js';

// Random directed graphs, from sparse (paths up to ~15 hops, many unreachable pairs) to dense (short paths
// with many alternatives), each checked against a plain breadth-first search in JavaScript.
const GRAPHS = [
  { nodes: 80, edges: 120, seed: 1 },
  { nodes: 80, edges: 200, seed: 2 },
  { nodes: 200, edges: 1600, seed: 3 },
];
const PAIRS_PER_GRAPH = 300;
const MAX_DEPTH_LIMIT = 16;

// Each graph in a database file of its own, in a directory removed after.
const dirs = new Map();

describeRandomGraphs({
  title: (spec) => `sqlite graph operations on a random graph of ${spec.nodes} nodes and ${spec.edges} relations`,
  graphs: GRAPHS,
  generator: mulberry32,
  open: async (spec) => {
    const dir = mkdtempSync(join(tmpdir(), 'db-shootout-sqlite-'));
    dirs.set(spec, dir);
    const db = sqlite.create({ namespace: 'dbshootout', database: join(dir, 'graph.sqlite') });
    await db.connect();
    await db.resetNamespace();
    await db.writeMarker({ dataset: `random-${spec.seed}` });
    return db;
  },
  close: async (db, spec) => {
    await db.close();
    rmSync(dirs.get(spec), { recursive: true, force: true });
  },
  pairs: PAIRS_PER_GRAPH,
  maxDepth: MAX_DEPTH_LIMIT,
  // One search at a time, as a benchmark run drives a serial adapter.
  concurrency: 1,
});
