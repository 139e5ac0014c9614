// The server-side graph queries against a breadth-first search in JavaScript, on seeded random graphs from
// sparse (long paths, many unreachable pairs) to dense (short paths with many alternatives). The searches run 25
// at a time, as in a benchmark run. The graph code is shared by both adapters, so the document one stands for
// both. Runs against the local server of `bench server start postgresql`.
import postgresql from '../../adapters/postgresql/description.js';
import { xorshift32 } from '../helpers/graphs.js';
import { describeRandomGraphs, serverNamespace } from '../helpers/random-graph-tests.js';
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

describeRandomGraphs({
  title: (spec) => `postgresql graph queries on ${spec.nodes} nodes and ${spec.edges} random relations`,
  graphs: GRAPHS,
  generator: xorshift32,
  skip,
  ...serverNamespace(postgresql, options),
  pairs: PAIRS,
  maxDepth: MAX_DEPTH,
  concurrency: CONCURRENCY,
});
