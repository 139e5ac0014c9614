// Presets: the parameters of published benchmark runs, so that `bench run --preset <name>` reruns a publication with
// one flag. Each preset belongs to one suite (which it chooses) and names every parameter it sets, in the suite's
// own flags where it has one (workloads/<suite>/presets.js, each value with the sentence of the publication it comes
// from). A flag given as well overrides the preset's value; the result document records the preset, every
// parameter as run and each override (`config.preset`).
import { BenchError, ErrorCodes, usageError } from '../core/errors.js';
import { durabilityOf, parseSize } from '../core/terms.js';
import { PRESETS as SOCIAL, presetLimits } from './social/presets.js';
import { PRESETS as CRUD } from './crud/presets.js';
import { PRESETS as MIXED } from './mixed/presets.js';
import { PRESETS as QUERIES } from './queries/presets.js';
import { PRESETS as GRAPH } from './graph/presets.js';

// In the order of the suites (workloads/index.js).
const BY_SUITE = Object.freeze({ social: SOCIAL, crud: CRUD, mixed: MIXED, queries: QUERIES, graph: GRAPH });

export const PRESETS = Object.freeze(Object.fromEntries(Object.entries(BY_SUITE).flatMap(([suite, presets]) => (
  Object.entries(presets).map(([name, preset]) => [name, Object.freeze({ name, suite, ...preset })])))));

// The flags that override a parameter (the first one typed names the override). Any other parameter is overridden
// by the flag of its name; mixed's docBytes by --doc-bytes; social's pathPairs has no flag: the preset alone sets it.
const OVERRIDING_FLAGS = Object.freeze({ durability: ['durability', 'sync'], pathPairs: [], docBytes: ['doc-bytes'] });
const flagsOf = (name) => (Object.hasOwn(OVERRIDING_FLAGS, name) ? OVERRIDING_FLAGS[name] : [name]);

// A dataset a preset takes when `bench data fetch` has put its files in the cache, else the synthetic one of the
// same size (the whole Pokec network is generated as well as downloaded).
const IF_PRESENT = Object.freeze({ 'pokec-if-present': 'pokec' });
// Datasets only `bench data fetch` provides: a preset that names one needs its files before any work.
const FETCHED = Object.freeze(['cit-patents']);

export function presetNames() {
  return Object.keys(PRESETS);
}

export function presetsOf(suiteId) {
  return Object.values(PRESETS).filter((preset) => preset.suite === suiteId);
}

export function getPreset(name) {
  if (!Object.hasOwn(PRESETS, name)) {
    const valid = Object.keys(BY_SUITE).map((suite) => `${Object.keys(BY_SUITE[suite]).join(', ')} (${suite})`);
    throw usageError(`unknown preset "${name}"; valid presets: ${valid.join(', ')}`);
  }
  return PRESETS[name];
}

// What bench run checks of --preset before any work: the preset exists, and --suite, when typed, is its suite. Any
// other flag typed with it overrides the preset's value (applyPreset).
export function checkPresetFlags(name, given, suite) {
  if (Array.isArray(name)) throw usageError(`--preset is given ${name.length} times; give it once`);
  const preset = getPreset(name);
  if (given.has('suite') && suite !== preset.suite) {
    throw usageError(`--preset ${name} is a preset of --suite ${preset.suite}, not of --suite ${suite}; `
      + `drop --suite (the preset chooses its suite) or give --suite ${preset.suite}`);
  }
  return preset;
}

// 10000,100000 for a list; the value itself otherwise.
export const formatValue = (value) => (Array.isArray(value) ? value.join(',') : String(value));
const copy = (value) => (Array.isArray(value) ? [...value] : value);
// Two values of a parameter that run the same: sizes by their bytes (512MB is 512mb), the rest as written.
const same = (name, a, b) => (name === 'cache' ? parseSize(a) === parseSize(b) : JSON.stringify(a) === JSON.stringify(b));

// A typed flag's value in the form of the preset's: a list of numbers or of names, a number, or text; the
// durability as --durability and --sync together decide it.
function typedValue(name, presetValue, argv) {
  if (name === 'durability') return durabilityOf(argv);
  const text = argv[name];
  if (Array.isArray(presetValue)) {
    const items = String(text).split(',').map((item) => item.trim()).filter((item) => item !== '');
    return typeof presetValue[0] === 'number' ? items.map(Number) : items;
  }
  return typeof presetValue === 'number' ? Number(text) : text;
}

const shellWord = (text) => (/^[\w./:@+-]+$/.test(text) ? text : `'${String(text).replaceAll("'", "'\\''")}'`);

// `argv` with the preset's parameters in place of the flags' defaults: its suite chosen, every parameter set
// unless a flag typed (`given`) overrides it. `locate(dataset)` tells whether `bench data fetch <dataset>` has put
// that dataset's files in the cache: { present, dir }. Returns { argv, preset }, `preset` being what the result
// records: { name, suite, description, parameters (each as run), overridden: [{ parameter, flag, preset, used }] },
// and for the social suite its `limits`.
export function applyPreset(argv, given, { locate }) {
  const preset = checkPresetFlags(argv.preset, given, argv.suite);
  const applied = { ...argv, suite: preset.suite };
  const parameters = {};
  const overridden = [];
  for (const [name, value] of Object.entries(preset.parameters)) {
    const fetched = typeof value === 'string' && Object.hasOwn(IF_PRESENT, value) ? IF_PRESENT[value] : null;
    const own = fetched ? (locate(fetched).present ? fetched : 'synthetic') : copy(value);
    const flag = flagsOf(name).find((candidate) => given.has(candidate));
    if (flag) {
      const used = typedValue(name, value, argv);
      parameters[name] = used;
      if (!same(name, used, own)) overridden.push({ parameter: name, flag, preset: copy(value), used });
    } else {
      parameters[name] = own;
      applied[name] = Array.isArray(own) ? own.join(',') : own;
    }
  }
  // The publication's numbers are of its dataset's edges: no other dataset stands in for it unless --dataset says so.
  if (FETCHED.includes(parameters.dataset) && !given.has('dataset')) {
    const { present, dir } = locate(parameters.dataset);
    if (!present) {
      const cacheDir = given.has('cache-dir') ? ` --cache-dir ${shellWord(argv['cache-dir'])}` : '';
      throw new BenchError(ErrorCodes.DATASET, `--preset ${preset.name} runs on ${parameters.dataset}, whose files are `
        + `not in ${dir}: fetch them first with \`bench data fetch ${parameters.dataset}${cacheDir}\`, or give --dataset `
        + 'to run the preset on another dataset');
    }
  }
  const record = {
    name: preset.name, suite: preset.suite, description: preset.description, parameters, overridden,
  };
  if (preset.suite === 'social') record.limits = presetLimits(parameters);
  return { argv: applied, preset: record };
}

// The line a run starts with: the preset, its parameters as run and what overrode them.
export function presetLine({
  name, suite, description, parameters, overridden,
}) {
  const values = Object.entries(parameters).map(([parameter, value]) => `${parameter} ${formatValue(value)}`);
  const overrides = overridden.length === 0 ? 'no flag overrides it'
    : `overridden: ${overridden.map(({
      parameter, flag, preset, used,
    }) => `${parameter} ${formatValue(used)} (--${flag}; the preset's ${formatValue(preset)})`).join(', ')}`;
  return `preset ${name} (suite ${suite}): ${description}; ${values.join(', ')}; ${overrides}`;
}

// A preset as `bench list` shows it.
export function describePreset({ name, description, parameters }) {
  return { name, description, parameters: Object.fromEntries(Object.entries(parameters).map(([key, value]) => [key, copy(value)])) };
}
