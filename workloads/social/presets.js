// Presets: the parameters of published benchmark runs, so that `bench run --preset <name>` reproduces one
// without a list of flags to get right. A preset fixes the dataset, the runs and the concurrency, and may
// shorten a workload's parameter list to the length a publication used; the result document records it.
import { usageError } from '../../core/errors.js';

// What every nosql-tests publication shares: the whole Pokec network, the driver pool of 25 connections, five
// runs; 100,000 single reads and writes, 1,000 neighbourhoods, 100 neighbors2data starts and the hard path are
// the `full` scale's own sizes (datasets/scales.js).
const CLASSIC = Object.freeze({ scale: 'full', dataset: 'pokec-if-present', concurrency: 25, runs: 5 });

export const PRESETS = Object.freeze({
  'nosql-tests-2018': Object.freeze({
    ...CLASSIC,
    limits: Object.freeze({}),
    description: 'the 2018 publication: 1,000 shortest paths (ArangoDB 3.3.3, MongoDB 3.6.1, Neo4j 3.3.1, '
      + 'OrientDB 2.2.29, PostgreSQL 10.1 on an AWS i3.4xlarge server, c3.xlarge client)',
  }),
  'nosql-tests-2015-autumn': Object.freeze({
    ...CLASSIC,
    limits: Object.freeze({ pathPairs: 40 }),
    description: 'the autumn 2015 update: 40 shortest paths (16 cores, 60 GB RAM on GCE)',
  }),
  'nosql-tests-2015': Object.freeze({
    ...CLASSIC,
    limits: Object.freeze({ pathPairs: 19 }),
    description: 'the first 2015 publication: 19 shortest paths (16 cores, 60 GB RAM on GCE)',
  }),
});

// The flags a preset decides; giving one of them as well would make the run something the preset is not.
export const PRESET_FLAGS = Object.freeze(['scale', 'runs', 'concurrency']);

export function presetNames() {
  return Object.keys(PRESETS);
}

export function getPreset(name) {
  if (!Object.hasOwn(PRESETS, name)) {
    throw usageError(`unknown preset "${name}"; valid presets: ${presetNames().join(', ')}`);
  }
  return PRESETS[name];
}

// The flags of `given` (the flag names the user typed) that the preset fixes: a usage error, naming them.
export function checkPresetFlags(name, given) {
  const preset = getPreset(name);
  const clashes = PRESET_FLAGS.filter((flag) => given.has(flag));
  if (clashes.length > 0) {
    throw usageError(`--preset ${name} fixes ${clashes.map((flag) => `--${flag} ${preset[flag]}`).join(', ')}; `
      + 'drop those flags, or run without the preset');
  }
  return preset;
}

// The list parameters a preset may shorten, each with the reference answers aligned with it.
const LIMITABLE = Object.freeze({
  pathPairs: { params: 'pathPairs', reference: ['pathLengths'] },
});

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
