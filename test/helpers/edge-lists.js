// Edge lists for the adapters' own graph tests, in the batch shape the importer hands `graph.importEdges`:
// `length` edges as three Int32Arrays of sources, targets and weights.

// The batch of `edges`, given as [source, target, weight] triples.
export const batchOf = (edges) => ({
  length: edges.length,
  source: Int32Array.from(edges, ([source]) => source),
  target: Int32Array.from(edges, ([, target]) => target),
  weight: Int32Array.from(edges, ([, , weight]) => weight),
});

// Every edge of `count` from source 1 upwards, `perSource` targets each, in file order: one batch.
export function edgeList(count, perSource) {
  const edges = [];
  for (let i = 0; i < count; i += 1) {
    const source = 1 + Math.floor(i / perSource);
    edges.push([source, source + 1 + ((i * 7919) % 5000), i % 1000]);
  }
  return batchOf(edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]));
}

// `count` edges sorted by source then target, distinct, no self-loops: `perSource` targets per source, as
// { source, target, weight } in `edges`; `batch(from, to)` is the batch of edges[from] to edges[to - 1].
export function distinctEdges(count, perSource = 10) {
  const edges = Array.from({ length: count }, (_, i) => (
    { source: Math.floor(i / perSource) + 1, target: 100_000 + (i % perSource), weight: i * 7 }));
  return {
    edges,
    batch: (from, to) => batchOf(edges.slice(from, to).map(({ source, target, weight }) => [source, target, weight])),
  };
}
