// The social suite's presets: the parameters of the nosql-tests publications, so that `bench run --preset <name>`
// reproduces one without a list of flags to get right (workloads/presets.js applies them). Besides the flags' values,
// a preset may shorten a workload's parameter list to the length a publication used (`pathPairs`); the result
// document records it.
import { usageError } from '../../core/errors.js';

// What every nosql-tests publication shares: the whole Pokec network (the real one when its files are in the cache,
// else the synthetic one of the same size), the driver pool of 25 connections, five runs (the 2015 update: "For our
// tests we run the workloads 5 times (from scratch), averaging the results."), single writes acknowledged before a
// sync to disk (the same: "We have therefore split this test into two use cases single write and single write sync.
// The latter waits until the write has synced to disk."; singleWriteSync is durable whatever the term). 100,000 single reads and writes,
// 1,000 neighbourhoods, 100 neighbors2data starts and the hard path are the `full` scale's own sizes
// (datasets/scales.js).
const CLASSIC = Object.freeze({
  scale: 'full', dataset: 'pokec-if-present', concurrency: 25, runs: 5, durability: 'relaxed',
});

export const PRESETS = Object.freeze({
  'nosql-tests-2018': Object.freeze({
    description: 'the 2018 publication: 1,000 shortest paths (ArangoDB 3.3.3, MongoDB 3.6.1, Neo4j 3.3.1, '
      + 'OrientDB 2.2.29, PostgreSQL 10.1 on an AWS i3.4xlarge server, c3.xlarge client)',
    parameters: CLASSIC,
  }),
  'nosql-tests-2015-autumn': Object.freeze({
    description: 'the autumn 2015 update: 40 shortest paths (16 cores, 60 GB RAM on GCE)',
    parameters: Object.freeze({ ...CLASSIC, pathPairs: 40 }),
  }),
  'nosql-tests-2015': Object.freeze({
    description: 'the first 2015 publication: 19 shortest paths (16 cores, 60 GB RAM on GCE)',
    // "As mentioned in the original blog post, we originally started with 20 pairs – one, however, blew up the
    // tests."
    parameters: Object.freeze({ ...CLASSIC, pathPairs: 19 }),
  }),
});

// The list parameters a preset may shorten, each with the reference answers aligned with it.
const LIMITABLE = Object.freeze({
  pathPairs: { params: 'pathPairs', reference: ['pathLengths'] },
});

// The parameter lists a preset's parameters shorten: { pathPairs: 19 }, or {} for the lists as the scale has them.
export function presetLimits(parameters) {
  return Object.fromEntries(Object.entries(parameters).filter(([name]) => Object.hasOwn(LIMITABLE, name)));
}

// The dataset with parameter lists cut to their first `limits[name]` entries. A prefix keeps every input
// aligned with its reference answer, so validation is unchanged; the lists themselves are never lengthened.
export function limitDataset(dataset, limits = {}) {
  const entries = Object.entries(limits);
  if (entries.length === 0) return dataset;
  const params = { ...dataset.params };
  const reference = { ...dataset.reference };
  const sizes = { ...dataset.sizes };
  for (const [name, count] of entries) {
    const spec = LIMITABLE[name];
    if (!spec) throw new Error(`internal: parameter list "${name}" cannot be limited`);
    const available = dataset.params[spec.params].length;
    if (count > available) {
      throw usageError(`the dataset has ${available} ${name}, fewer than the ${count} asked for`);
    }
    params[spec.params] = dataset.params[spec.params].slice(0, count);
    for (const key of spec.reference) reference[key] = dataset.reference[key].slice(0, count);
    sizes[name] = count;
  }
  return { ...dataset, params, reference, sizes };
}
