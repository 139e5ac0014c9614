// The mixed suite: reads and writes of the same documents at once, as YCSB's core workloads mix them. A round
// loads `records` crud documents (untimed) into a fresh temporary collection, runs one workload's operation stream
// over them, checks every read and the final state, and drops the collection; so each workload, concurrency level
// and rate starts from the same loaded state. Closed loop at each `--concurrency` level, or open loop at each
// `--rate` (operations sent at their scheduled times, the pool still sized by the concurrency). A preset may set
// the size of each document's JSON (`docBytes`, crud's documents filled with words to it).
import { eachLimit } from 'async';
import { durabilityOf } from '../../core/terms.js';
import { usageError } from '../../core/errors.js';
import { claimNamespace } from '../../import/import.js';
import { DOCUMENT_BYTES, SHAPES, crudDocuments } from '../crud/documents.js';
import { DEFAULT_DISTRIBUTION, DISTRIBUTIONS } from './keys.js';
import { COLLECTION, WORKLOADS, crossInserts } from './workloads.js';

export const DEFAULT_RECORDS = 10_000;
export const DEFAULT_OPS = 100_000;
export const DEFAULT_SHAPE = 'uniform';
export const DEFAULT_LEVELS = [25];

export const stepKey = (name, { ops, concurrency, rate, durationS }) => `${name} n=${ops} c=${concurrency}${rate ? ` rate=${rate}` : ''}${durationS ? ` d=${durationS}s` : ''}`;

const list = (value) => [value].flat().filter((item) => item !== null && item !== undefined);

// `--rate` as given: a number, a list, or comma-separated text ("1000,2000,4000"); none means closed loop.
function rateList(value) {
  const items = typeof value === 'string' ? value.split(',').map((item) => (item.trim() === '' ? Number.NaN : Number(item))) : list(value);
  if (items.some((rate) => !(Number.isFinite(rate) && rate > 0))) {
    throw usageError(`--rate must be a positive number of operations per second or a comma-separated list of them, got ${value}`);
  }
  if (new Set(items).size !== items.length) throw usageError(`--rate names a value twice: ${value}`);
  return items;
}

// What the suite reads of the invocation's configuration, with its defaults.
export function mixedSettings(config) {
  const settings = {
    records: config.records ?? DEFAULT_RECORDS,
    ops: list(config.ops ?? DEFAULT_OPS),
    levels: list(config.concurrency),
    rates: rateList(config.rates),
    distribution: config.distribution ?? DEFAULT_DISTRIBUTION,
    shape: config.shape ?? DEFAULT_SHAPE,
    seed: config.seed ?? 1,
    runs: config.runs ?? 1,
    durable: Boolean(config.durable),
    docBytes: config.docBytes ?? null,
    // --duration: each run stops sending after this many seconds (or at --ops, whichever comes first).
    durationS: config.durationS ?? config.duration ?? null,
  };
  if (!DISTRIBUTIONS.includes(settings.distribution)) {
    throw usageError(`unknown distribution "${settings.distribution}"; valid distributions: ${DISTRIBUTIONS.join(', ')}`);
  }
  if (!SHAPES.includes(settings.shape)) throw usageError(`unknown shape "${settings.shape}"; valid shapes: ${SHAPES.join(', ')}`);
  if (!Number.isSafeInteger(settings.records) || settings.records < 1) {
    throw usageError(`--records must be a whole number of at least 1, got ${settings.records}`);
  }
  const { durationS } = settings;
  if (durationS !== null && !(typeof durationS === 'number' && durationS > 0 && durationS <= 86_400)) {
    throw usageError(`--duration must be a number of seconds above 0, at most 86,400, got ${durationS}`);
  }
  if (durationS !== null && settings.rates.length > 0) {
    throw usageError('--duration bounds a closed loop; an open loop (--rate) runs its --ops on its schedule: give one of them');
  }
  const { docBytes } = settings;
  if (docBytes !== null && !(Number.isSafeInteger(docBytes) && docBytes >= DOCUMENT_BYTES.min && docBytes <= DOCUMENT_BYTES.max)) {
    throw usageError(`the document size must be a whole number of bytes from ${DOCUMENT_BYTES.min} to ${DOCUMENT_BYTES.max.toLocaleString('en-US')}, got ${docBytes}`);
  }
  return settings;
}

// The document size, in the configuration and the data's description only when one was set: documents as they
// come are described as before sizes existed.
const sizeOf = (docBytes) => (docBytes ? { docBytes } : {});

// Untimed, a bounded number at a time: the round's pool is sized by its concurrency. (`async` needs an async
// function here: a plain one returning a promise would be taken for one expecting a callback.)
async function loadCollection(adapter, docs, concurrency) {
  await adapter.createTempCollection(COLLECTION);
  await eachLimit(docs, concurrency, async (doc) => adapter.insertDocument(COLLECTION, doc, { durable: false }));
}

export default {
  id: 'mixed',
  name: 'mixed',
  description: 'concurrent gets, updates, inserts and deletes of the same documents, closed or open loop, every read checked',
  workloads: WORKLOADS,
  alwaysRun: [],
  // The flags of `bench run` that only this suite takes (some shared with crud), and its defaults of the others.
  flags: ['records', 'ops', 'rate', 'distribution', 'shape', 'sync', 'doc-bytes', 'duration'],
  defaults: {
    runs: 3, concurrency: DEFAULT_LEVELS, records: DEFAULT_RECORDS, ops: [DEFAULT_OPS], distribution: DEFAULT_DISTRIBUTION,
    shape: DEFAULT_SHAPE, sync: false,
  },
  // The loaded documents, then those the cross-action pattern inserts; a write's base is the key's other version.
  // `settings` holds the names of bench run's flags or of the configuration (`configure`'s), which agree here.
  async prepare(settings) {
    const {
      records, ops, shape, seed, docBytes,
    } = mixedSettings(settings);
    const count = records + crossInserts(Math.max(...ops));
    return { shape, seed, records, ...sizeOf(docBytes), ...crudDocuments({ count, shape, seed, bytes: docBytes }) };
  },
  configure(settings) {
    const { rate, sync, ...rest } = settings;
    const durable = durabilityOf(settings) === 'durable';
    const {
      records, ops, levels, rates, distribution, shape, seed, docBytes, durationS,
    } = mixedSettings({ ...rest, rates: rate, durable });
    return {
      concurrency: levels, records, ops, rates, distribution, shape, durable, seed, ...sizeOf(docBytes),
      ...(durationS ? { durationS } : {}),
    };
  },
  describeData: (data) => ({
    id: `mixed-${data.shape}${data.docBytes ? `-b${data.docBytes}` : ''}-r${data.records}-s${data.seed}`,
    name: 'mixed documents',
    shape: data.shape,
    seed: data.seed,
    documents: data.records,
    ...sizeOf(data.docBytes),
    label: `${data.records} ${data.shape} documents${data.docBytes ? ` of ${data.docBytes} bytes of JSON` : ''}, seed ${data.seed}`,
  }),
  // Nothing to import: each round loads its documents into a temporary collection of a namespace the harness owns.
  load: async ({ adapter, description, options }) => { await claimNamespace({ adapter, description, options }); return null; },
  context: (data) => data,
  rounds({ config, workloads }) {
    const {
      records, ops: counts, levels, rates, distribution, shape, seed, runs, durable, docBytes, durationS,
    } = mixedSettings(config);
    if (levels.length === 0) throw usageError('the mixed suite needs a concurrency level');
    let loaded = null;
    // The same documents prepare() made first: a smaller count of crud documents is a prefix of a larger one.
    const documents = () => {
      loaded ??= crudDocuments({ count: records, shape, seed, bytes: docBytes }).docs;
      return loaded;
    };
    const rounds = [];
    for (const workload of workloads) {
      for (const ops of counts) {
        for (const concurrency of levels) {
          for (const rate of rates.length > 0 ? rates : [null]) {
            const params = { ops, records, distribution, concurrency, durable, ...(rate ? { rate } : {}), ...(durationS ? { durationS } : {}) };
            const step = { key: stepKey(workload.name, params), workload, params };
            for (let run = 1; run <= runs; run += 1) {
              rounds.push({
                run,
                label: `run ${run}/${runs}`,
                concurrency,
                setup: (adapter) => loadCollection(adapter, documents(), concurrency),
                teardown: (adapter) => adapter.dropTempCollection(COLLECTION),
                steps: [step],
              });
            }
          }
        }
      }
    }
    return rounds;
  },
};
