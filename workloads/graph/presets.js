// The graph suite's presets: the parameters of its publications, each value with the sentence it comes from, or
// why the publication gives none.
export const PRESETS = Object.freeze({
  'unum-graph-2021': Object.freeze({
    description: 'Unum\'s graph benchmark (2021) on SNAP\'s cit-Patents: edge lookups, friends and followers, upserts '
      + 'and removals one by one and in batches of 500, one request at a time, a 512 MB cache',
    parameters: Object.freeze({
      // The first of its datasets, "PatentCitations MouseGenes HumanBrain", the one SNAP publishes
      // (`bench data fetch cit-patents`). Its numbers are of these edges: no other edge list stands in for it.
      dataset: 'cit-patents',
      // The publication gives no count of requests: the suite's largest sizes (10,000 of each read, 5,000 of each
      // single write, 20 batches), for an edge list of 16.5 million edges.
      scale: 'full',
      // Its ten tables, one workload each: "Random Reads: Find Specific Edge", "Find Connected Edges", "Find Ingoing
      // Edges", "Find Friends", "Count Friends", "Count Followers", then "Random Writes: Upsert Edge", "Upsert Edges
      // Batch", "Remove Edge", "Remove Edges Batch". A batch is the suite's 500 edges ("Input: 500 new edges.").
      workload: Object.freeze([
        'findEdge', 'edgesOf', 'inEdges', 'friends', 'countFriends', 'countFollowers',
        'upsertEdge', 'upsertEdges', 'removeEdge', 'removeEdges',
      ]),
      // "Concurrency is tested only in systems that explicitly support it.": its tables are of one request at a time.
      concurrency: 1,
      // "The benchmarks were repeated dozens of times." gives no number: the suite's 3 runs.
      runs: 3,
      // "Databases were configured to use 512 MB of RAM for cache and 4 cores for query execution." (--cache)
      cache: '512MB',
      // The publication names no sync setting: the harness's default term, fixed here.
      durability: 'relaxed',
    }),
  }),
});
