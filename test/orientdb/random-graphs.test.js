// The server-side graph queries against a breadth-first search in JavaScript, on seeded random graphs from
// sparse (long paths, many unreachable pairs) to dense (short paths with many alternatives): OrientDB's own
// shortestPath() with the adapter's maxDepth correction, and the one- and two-hop neighbourhoods, with duplicate
// relations and self-loops. The searches run 25 at a time, as in a benchmark run. Runs against the local server
// of `bench server start orientdb`.
import orientdb from '../../adapters/orientdb/description.js';
import { xorshift32 } from '../helpers/graphs.js';
import { describeRandomGraphs, serverNamespace } from '../helpers/random-graph-tests.js';
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

describeRandomGraphs({
  title: (spec) => `orientdb graph queries on ${spec.nodes} nodes and ${spec.edges} random relations`,
  graphs: GRAPHS,
  generator: xorshift32,
  skip,
  ...serverNamespace(orientdb, options),
  batch: 1000,
  pairs: PAIRS,
  maxDepth: MAX_DEPTH,
  concurrency: CONCURRENCY,
});
