// The singleRead workload at a fixed concurrency against a server, through the harness and through a hand-made
// closed loop over the same keys: the set-up and the two kinds of contender of benchmarks/pg-overhead.js,
// pg-drivers.js and mysql-drivers.js.
import { performance } from 'node:perf_hooks';
import { defaultCacheDir } from '../core/paths.js';
import { profileKey } from '../datasets/columns.js';
import { prepareDataset } from '../datasets/dataset.js';
import { importDataset } from '../import/import.js';
import { execute } from '../runner/execute.js';
import { WORKLOADS } from '../workloads/social/workloads.js';

const { call } = WORKLOADS.find((workload) => workload.name === 'singleRead');

// The dataset of `scale`, an adapter per driver (options from `optionsOf(driver)`), connected, and the dataset
// imported through the first driver's into the namespace, or reused when it already holds it; `keys`: `ops` read
// keys, the dataset's in turn.
export async function prepareSingleRead({ description, drivers, optionsOf, scale, ops }) {
  const dataset = await prepareDataset({ scale, cacheDir: defaultCacheDir() });
  const adapters = Object.fromEntries(drivers.map((driver) => [driver, description.create(optionsOf(driver))]));
  for (const adapter of Object.values(adapters)) await adapter.connect();
  const first = adapters[drivers[0]];
  const imported = await importDataset({ adapter: first, description, options: optionsOf(drivers[0]), dataset });
  const version = await first.serverVersion();
  const readKeys = dataset.params.readIds.map(profileKey);
  const keys = Array.from({ length: ops }, (_, i) => readKeys[i % readKeys.length]);
  return { dataset, adapters, imported, version, keys };
}

// "dataset synthetic-small-s1-g1 (imported in 2.5 s)", or "(reused)".
export function datasetNote(dataset, imported) {
  return `dataset ${dataset.id} (${imported.reused ? 'reused' : `imported in ${(imported.ms / 1000).toFixed(1)} s`})`;
}

// Opens `count` connections of a pool at once and hands them back, so that a loop never waits for one to open.
export async function openConnections(count, connect) {
  const connections = await Promise.all(Array.from({ length: count }, () => connect()));
  for (const connection of connections) connection.release();
}

function checkAnswers(answers) {
  const missing = answers.filter((answer) => answer == null).length;
  if (missing > 0) throw new Error(`${missing} reads found no document: is the dataset imported completely?`);
}

// A contender: runner/execute.js with the singleRead workload's call through `adapter`; resolves with its ops/s.
export function harness({ adapter, keys, concurrency }) {
  return async () => {
    const outcome = await execute({ inputs: keys, call, adapter, concurrency });
    if (outcome.errors.length > 0) throw outcome.errors[0].error;
    checkAnswers(outcome.answers);
    return keys.length / (outcome.wallMs / 1000);
  };
}

// A contender: `concurrency` workers taking the next key in turn; `read(key)` resolves with the rows of one read.
export function rawLoop({ keys, concurrency, read }) {
  return async () => {
    const answers = new Array(keys.length);
    let next = 0;
    const begin = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < keys.length) {
        const index = next;
        next += 1;
        answers[index] = (await read(keys[index]))[0];
      }
    }));
    const rate = keys.length / ((performance.now() - begin) / 1000);
    checkAnswers(answers);
    return rate;
  };
}
