// The graph suite's operations, in the order its workloads run within a round: the six reads, then the four
// writes (each write workload restores what it changed before the next one starts).
export const READ_OPERATIONS = Object.freeze(['findEdge', 'edgesOf', 'inEdges', 'friends', 'countFriends', 'countFollowers']);
export const WRITE_OPERATIONS = Object.freeze(['upsertEdge', 'upsertEdges', 'removeEdge', 'removeEdges']);
export const GRAPH_OPERATIONS = Object.freeze([...READ_OPERATIONS, ...WRITE_OPERATIONS]);
// The methods of `adapter.graph` that load and manage the edge collection (adapters/README.md, "The graph suite").
export const GRAPH_METHODS = Object.freeze(['create', 'importEdges', 'index', 'count', 'drop', 'scan', ...GRAPH_OPERATIONS]);
// Edges per upsertEdges/removeEdges request, as the publication's batches.
export const BATCH_SIZE = 500;
// The logical size of one edge: source, target and weight as 32-bit integers (the denominator of amplification).
export const EDGE_BYTES = 12;
