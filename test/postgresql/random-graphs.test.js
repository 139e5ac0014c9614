// The server-side graph queries against a breadth-first search in JavaScript, on seeded random graphs from
// sparse (long paths, many unreachable pairs) to dense (short paths with many alternatives). The searches run 25
// at a time, as in a benchmark run. The graph code is shared by both adapters, so the document one stands for
// both. Runs against the local server of `bench server start postgresql`.
import postgresql from '../../adapters/postgresql/description.js';
import { SERVER_GRAPHS, describeRandomGraphs, serverNamespace } from '../helpers/random-graph-tests.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_pgtest_graphs';

const { options, skip } = serverTarget(postgresql, { namespace: NAMESPACE, concurrency: SERVER_GRAPHS.concurrency });

describeRandomGraphs({
  title: (spec) => `postgresql graph queries on ${spec.nodes} nodes and ${spec.edges} random relations`,
  ...SERVER_GRAPHS,
  skip,
  ...serverNamespace(postgresql, options),
});
