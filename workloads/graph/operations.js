// The graph suite's operations, in the order its workloads run within a round: the six reads, then the four
// writes (each write workload restores what it changed before the next one starts).
export const READ_OPERATIONS = Object.freeze(['findEdge', 'edgesOf', 'inEdges', 'friends', 'countFriends', 'countFollowers']);
export const WRITE_OPERATIONS = Object.freeze(['upsertEdge', 'upsertEdges', 'removeEdge', 'removeEdges']);
export const GRAPH_OPERATIONS = Object.freeze([...READ_OPERATIONS, ...WRITE_OPERATIONS]);
// The methods of `adapter.graph` that load and manage the edge collection (adapters/README.md, "The graph suite").
export const GRAPH_METHODS = Object.freeze(['create', 'importEdges', 'index', 'count', 'drop', 'scan', ...GRAPH_OPERATIONS]);
// Edges per upsertEdges/removeEdges request, as the publication's batches.
export const BATCH_SIZE = 500;
// Edges per request of the untimed undo (the restore after each write workload, and a repair): the undo's request
// size is not measured, so it stays within what every server answers, including one that holds a resource per
// statement of a request until the request ends (FerretDB 1.x keeps one of its 50 backend connections per upsert
// of an existing edge: adapters/ferretdb/README.md).
export const UNDO_BATCH_SIZE = 40;
// The logical size of one edge: source, target and weight as 32-bit integers (the denominator of amplification).
export const EDGE_BYTES = 12;
