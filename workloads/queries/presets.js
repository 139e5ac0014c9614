// The queries suite's presets: the parameters of its publications, each value with the sentence it comes from.
export const PRESETS = Object.freeze({
  'aql-shootout-2015': Object.freeze({
    description: 'the AQL shootout, ArangoDB 2.5 vs 2.6 (2015): the 33 query cases of its test script on 10k, 100k '
      + 'and 1M documents, 5 runs each, one query at a time; min, max and average per case and size',
    parameters: Object.freeze({
      // "The dataset sizes are 10,000 documents, 100,000 documents, and 1,000,000documents."
      size: Object.freeze(['10k', '100k', '1M']),
      // "Each query was run five times on each dataset, so execution time outliers can be identified."
      runs: 5,
      // "Queries were run in isolation on an otherwise idle server."
      concurrency: 1,
    }),
  }),
});
