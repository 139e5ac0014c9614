// The server-side graph queries against a breadth-first search in JavaScript, on seeded random graphs from
// sparse (long paths, many unreachable pairs) to dense (short paths with many alternatives): OrientDB's own
// shortestPath() with the adapter's maxDepth correction, and the one- and two-hop neighbourhoods, with duplicate
// relations and self-loops. The searches run 25 at a time, as in a benchmark run. Runs against the local server
// of `bench server start orientdb`.
import orientdb from '../../adapters/orientdb/description.js';
import { SERVER_GRAPHS, describeRandomGraphs, serverNamespace } from '../helpers/random-graph-tests.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_orienttest_graphs';

const { options, skip } = serverTarget(orientdb, { namespace: NAMESPACE, concurrency: SERVER_GRAPHS.concurrency });

describeRandomGraphs({
  title: (spec) => `orientdb graph queries on ${spec.nodes} nodes and ${spec.edges} random relations`,
  ...SERVER_GRAPHS,
  skip,
  ...serverNamespace(orientdb, options),
  batch: 1000,
});
