// The mixed suite: reads and writes of the same documents at once, as YCSB's core workloads mix them. The first
// round loads `records` crud documents (untimed, its time recorded) into a fresh temporary collection; each round
// runs one workload's operation stream over them and checks every read and the final state; the next round starts
// from that checked state, as YCSB loads once and runs its workloads on what the load left. A round reloads when
// the one before failed its check or could not be checked, or inserted and deleted (igiugid: its keys are no longer
// the loaded ones), and with `--reload` (every round from the loaded state) or `--shard` (each shard checks its own
// keys). The last round drops the collection. Closed loop at each `--concurrency` level, or open loop at each
// `--rate` (operations sent at their scheduled times, the pool still sized by the concurrency). A preset may set
// the size of each document's JSON (`docBytes`, crud's documents filled with words to it).
import { eachLimit } from 'async';
import { durabilityOf } from '../../core/terms.js';
import { usageError } from '../../core/errors.js';
import { claimNamespace } from '../../import/import.js';
import { DOCUMENT_BYTES, SHAPES, crudDocuments } from '../crud/documents.js';
import { DEFAULT_DISTRIBUTION, DISTRIBUTIONS } from './keys.js';
import { COLLECTION, WORKLOADS } from './workloads.js';

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
  const begin = performance.now();
  await adapter.createTempCollection(COLLECTION);
  await eachLimit(docs, concurrency, async (doc) => adapter.insertDocument(COLLECTION, doc, { durable: false }));
  return { documents: docs.length, ms: Math.round(performance.now() - begin), concurrency };
}

// What each round starts from, and whether the collection outlives it. `ctx.carried` is what a round's check
// reads (`initial`: the state the run before left, null after a load) and writes (`final`: the state it checked,
// kept only when every read and every key's end were right and the workload kept the loaded keys).
// `leftover(adapter)`: drops the collection a round kept for the next one when no next one runs (the benchmark
// interrupted or ended by an error between them).
function carryOver({ reload, documents }) {
  let state = null;
  return {
    async setup(adapter, ctx = {}, concurrency = 1) {
      const initial = state;
      state = null;
      ctx.carried = { initial, final: null };
      if (initial) return { startedFrom: 'the run before' };
      return { startedFrom: 'load', load: await loadCollection(adapter, documents(), concurrency) };
    },
    async teardown(adapter, ctx = {}, last = true) {
      state = reload || last ? null : ctx.carried?.final ?? null;
      ctx.carried = null;
      if (!state) await adapter.dropTempCollection(COLLECTION);
    },
    keeping: () => state !== null,
    async leftover(adapter) {
      if (!state) return;
      state = null;
      await adapter.dropTempCollection(COLLECTION);
    },
  };
}

export default {
  id: 'mixed',
  name: 'mixed',
  description: 'concurrent gets, updates, inserts and deletes of the same documents, closed or open loop, every read checked',
  workloads: WORKLOADS,
  alwaysRun: [],
  // The flags of `bench run` that only this suite takes (some shared with crud), and its defaults of the others.
  flags: ['records', 'ops', 'rate', 'distribution', 'shape', 'sync', 'doc-bytes', 'duration', 'reload'],
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
    const count = records + Math.max(...WORKLOADS.map((workload) => workload.inserts(seed, Math.max(...ops))));
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
      ...(durationS ? { durationS } : {}), ...(settings.reload ? { reload: true } : {}),
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
  // `sharded`: a --shard run, whose rounds each start from the load (each shard checks only its own keys).
  rounds({ config, workloads, sharded = false }) {
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
    const reload = Boolean(config.reload) || sharded;
    const carry = carryOver({ reload, documents });
    // Each round's writes carry versions above every earlier round's (workloads.js): a stride of the most
    // operations a round runs.
    const stride = Math.max(...counts) + 1;
    const rounds = [];
    for (const workload of workloads) {
      for (const ops of counts) {
        for (const concurrency of levels) {
          for (const rate of rates.length > 0 ? rates : [null]) {
            const params = { ops, records, distribution, concurrency, durable, ...(rate ? { rate } : {}), ...(durationS ? { durationS } : {}) };
            const key = stepKey(workload.name, params);
            for (let run = 1; run <= runs; run += 1) {
              const versionBase = reload ? 0 : rounds.length * stride;
              const step = {
                key, workload, params, inputsId: `${key} v${versionBase}`, inputs: (ctx) => workload.inputs(ctx, params, { versionBase }),
              };
              const index = rounds.length;
              rounds.push({
                run,
                label: `run ${run}/${runs}`,
                concurrency,
                setup: (adapter, ctx) => carry.setup(adapter, ctx, concurrency),
                teardown: (adapter, ctx) => carry.teardown(adapter, ctx, index === rounds.length - 1),
                steps: [step],
              });
            }
          }
        }
      }
    }
    // Called by the runner after the last round it ran, however the benchmark ended.
    rounds.leftover = (adapter) => carry.leftover(adapter);
    rounds.keeping = () => carry.keeping();
    return rounds;
  },
};
