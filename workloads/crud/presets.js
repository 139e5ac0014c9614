// The crud suite's presets: the parameters of its publications, each value with the sentence it comes from.
import { DEFAULT_LEVELS } from './suite.js';

export const PRESETS = Object.freeze({
  'crud-2012': Object.freeze({
    description: 'ArangoDB vs CouchDB (2012): 10,000 and 100,000 individual inserts, gets, updates and deletes at '
      + 'concurrency 1 to 64, no sync to disk after each write',
    parameters: Object.freeze({
      // "Following are the results that show the total time it took to execute 10,000 individual HTTP document
      // insert operations via 10,000 individual HTTP API calls, with varying concurrency levels." and "Following are
      // the results for the same test cases as before (insert, delete, update, get operations) but now with 100,000
      // instead of 10,000 documents."
      ops: Object.freeze([10_000, 100_000]),
      // "the test measures the total time to insert, delete, update, and get individual documents via the databases'
      // HTTP document APIs, with varying concurrency levels." The levels are those of the test it repeats ("The test
      // setup and server specification is the one described in the previous post"), whose post says "These inserts
      // were done with varying concurrency levels from 1 (no concurrency) to 64 clients."
      // (arangodb.com/2012/09/performance-different-journal-sizes); the doublings between are the suite's.
      concurrency: Object.freeze([...DEFAULT_LEVELS]),
      // "the type of documents used in these tests might have favored ArangoDB, because all documents had identical
      // attribute names and types (but not ids and values)."
      shape: 'uniform',
      // "waitForSync was turned off in ArangoDB, and delayed_commits was turned on in CouchDB, so both databases did
      // not sync data to disk after each operation."
      durability: 'relaxed',
      // "Time was measured from the client perspective.": one total time per operation, count and level, so one run.
      runs: 1,
    }),
  }),
});
