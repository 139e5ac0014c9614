// The mixed suite's workloads as data: each one operation stream over a collection loaded with `records`
// documents, deterministic from the seed (which operation, from the workload's mix; which key, from the
// distribution), run closed or open loop, then checked as a whole (consistency.js) from each operation's answer,
// start and end and the collection read back. The rule is in workloads/README.md.
import { createRandom } from '../../datasets/random.js';
import { crudKey } from '../crud/documents.js';
import { createKeyChooser } from './keys.js';
import {
  DELETE, INSERT, READ, READ_MODIFY_WRITE, SCAN, UPDATE, consistencyFailures,
} from './consistency.js';

export const COLLECTION = 'mixed';
// The cross-action pattern, repeated: insert, get, insert, update, get, insert, delete.
export const CROSS_PATTERN = 'IGIUGID';
const PATTERN_KINDS = { I: INSERT, G: READ, U: UPDATE, D: DELETE };
// Each workload's stream of one seed: the operation kinds and the keys draw from sequences of their own.
const STREAM_KINDS = 31;
const STREAM_KEYS = 41;
const STREAM_LENGTHS = 51;
// A scan's length, drawn uniformly from 1 to this (YCSB's workload E: maxscanlength 100, uniform).
export const MAX_SCAN_LENGTH = 100;
// An update never targets a deleted key: it draws again, this many times at most.
const MAX_UPDATE_DRAWS = 100_000;
// The write of operation i carries version versionBase + i + 2, above the loaded documents' (crud's uniform
// documents have 1). A run that starts from the state the run before left has a base above every version that
// run wrote (suite.js), so that a write it loses never leaves a value its own stream also wrote.
const FIRST_VERSION = 2;

// How many inserts `ops` operations of the cross-action pattern make: the documents a stream needs beyond the
// loaded ones.
export function crossInserts(ops) {
  const perPattern = [...CROSS_PATTERN].filter((letter) => letter === 'I').length;
  const rest = [...CROSS_PATTERN.slice(0, ops % CROSS_PATTERN.length)].filter((letter) => letter === 'I').length;
  return Math.floor(ops / CROSS_PATTERN.length) * perPattern + rest;
}

// The version written by operation `index`: a document of the key's shape whose `version` names that operation.
// Successive writes of one key alternate between its two crud versions, so that with varied shapes a replace
// that merged instead would show.
function written(ctx, number, writes, version) {
  const base = writes % 2 === 0 ? ctx.updates[number] : ctx.docs[number];
  return { ...base, version };
}

// A read with the mix's probability, else its write: an update, or a read-modify-write; or a scan with the mix's
// probability, else an insert.
function proportionKind(mix) {
  if (mix.scan !== undefined) return (random) => (random.next() < mix.scan ? SCAN : INSERT);
  const write = mix.readModifyWrite ? READ_MODIFY_WRITE : UPDATE;
  return (random) => (random.next() < mix.read ? READ : write);
}

// How many inserts the first `ops` operations of a mix's stream make (the kinds draw from a sequence of their own,
// so this is the stream's count exactly).
export function mixInserts(mix, { seed, stream, ops }) {
  if (mix.pattern) return crossInserts(ops);
  if (mix.scan === undefined) return 0;
  const next = proportionKind(mix);
  const kinds = createRandom(seed, STREAM_KINDS + stream);
  let inserts = 0;
  for (let i = 0; i < ops; i += 1) if (next(kinds, i) === INSERT) inserts += 1;
  return inserts;
}

// The operations of one workload. Reads, updates and read-modify-writes choose their key by the distribution among
// the keys that exist so far (a write draws again on a deleted key); an insert takes the next new key; a delete
// takes the oldest key that no update wrote and that is not the latest insert, so that no update ever meets a key a
// delete removed. A write of a key this stream inserted carries `after`: its insert, which it waits for
// (workloads' call), since the key does not exist before the insert completes.
export function operationStream(ctx, {
  mix, ops, records, distribution, stream, versionBase = 0,
}) {
  const capacity = records + mixInserts(mix, { seed: ctx.seed, stream, ops });
  if (capacity > ctx.docs.length) throw new Error(`internal: ${capacity} documents needed, ${ctx.docs.length} prepared`);
  const kinds = createRandom(ctx.seed, STREAM_KINDS + stream);
  const lengths = createRandom(ctx.seed, STREAM_LENGTHS + stream);
  const chooseKey = createKeyChooser({ distribution, random: createRandom(ctx.seed, STREAM_KEYS + stream), capacity });
  const nextKind = mix.pattern ? (random, i) => PATTERN_KINDS[mix.pattern[i % mix.pattern.length]] : proportionKind(mix);
  const writes = new Uint32Array(capacity);
  const updated = new Uint8Array(capacity);
  const deleted = new Uint8Array(capacity);
  const insertedBy = new Int32Array(capacity).fill(-1);
  let count = records;
  let oldest = 0;
  const operations = new Array(ops);
  for (let i = 0; i < ops; i += 1) {
    const kind = nextKind(kinds, i);
    let number;
    if (kind === SCAN) {
      operations[i] = { kind, key: crudKey(chooseKey(count) + 1), limit: 1 + Math.floor(lengths.next() * MAX_SCAN_LENGTH) };
      continue;
    }
    if (kind === READ) {
      number = chooseKey(count);
    } else if (kind === INSERT) {
      number = count;
      count += 1;
      insertedBy[number] = i;
    } else if (kind === UPDATE || kind === READ_MODIFY_WRITE) {
      let draws = 0;
      do {
        number = chooseKey(count);
        draws += 1;
        if (draws > MAX_UPDATE_DRAWS) throw new Error('internal: every key drawn for an update was deleted');
      } while (deleted[number]);
      updated[number] = 1;
    } else {
      while (oldest < count && (updated[oldest] || deleted[oldest])) oldest += 1;
      if (oldest >= count - 1) {
        throw new Error(`internal: no key to delete at operation ${i}: every older key was updated or deleted`);
      }
      number = oldest;
      deleted[number] = 1;
    }
    const op = kind === INSERT ? { kind, key: crudKey(number + 1), index: i } : { kind, key: crudKey(number + 1) };
    if (kind !== READ && kind !== DELETE) {
      op.doc = written(ctx, number, writes[number], versionBase + i + FIRST_VERSION);
      writes[number] += 1;
    }
    if (kind !== READ && kind !== INSERT && insertedBy[number] >= 0) {
      op.after = insertedBy[number];
      operations[op.after].awaited = true;
    }
    operations[i] = op;
  }
  return operations;
}

// Per connection (each round has its own), the inserts that a later write of their key waits for. Made on first
// use as well, since a client process of bench run --clients has a connection the workload's setup never saw.
const awaitedInserts = new WeakMap();

function settlement(adapter, index) {
  if (!awaitedInserts.has(adapter)) awaitedInserts.set(adapter, new Map());
  const pending = awaitedInserts.get(adapter);
  let entry = pending.get(index);
  if (!entry) {
    entry = {};
    entry.promise = new Promise((resolve, reject) => Object.assign(entry, { resolve, reject }));
    // A failed insert whose dependants never ran must not be an unhandled rejection.
    entry.promise.catch(() => {});
    pending.set(index, entry);
  }
  return entry;
}

async function insert(adapter, op, durable) {
  if (!op.awaited) return adapter.insertDocument(COLLECTION, op.doc, { durable });
  const entry = settlement(adapter, op.index);
  try {
    await adapter.insertDocument(COLLECTION, op.doc, { durable });
  } catch (error) {
    entry.reject(new Error(`its insert (operation ${op.index}) failed: ${error.message}`));
    throw error;
  }
  return entry.resolve();
}

async function perform(adapter, op, { durable }) {
  if (op.after !== undefined) await settlement(adapter, op.after).promise;
  switch (op.kind) {
    case READ: return adapter.getDocument(COLLECTION, op.key);
    case SCAN: return adapter.scanDocuments(COLLECTION, op.key, op.limit);
    case UPDATE: return adapter.updateDocument(COLLECTION, op.key, op.doc, { durable });
    case DELETE: return adapter.deleteDocument(COLLECTION, op.key, { durable });
    case READ_MODIFY_WRITE: {
      const read = await adapter.getDocument(COLLECTION, op.key);
      await adapter.updateDocument(COLLECTION, op.key, op.doc, { durable });
      return read;
    }
    default: return insert(adapter, op, durable);
  }
}

// `owns`: the keys this process checks (those of its shard of a `bench run --shard` run; runner/shards.js splits
// by key, so every write a read of them overlapped is among its own operations); every key otherwise.
function loadedState(ctx, records, owns) {
  return new Map(ctx.docs.slice(0, records).filter((doc) => owns(doc._key)).map((doc) => [doc._key, doc]));
}

// The state a run starts from: what the run before it left, when the suite carries it over (ctx.carried, suite.js),
// else the loaded documents.
function startState(ctx, params, owns) {
  const carried = ctx.carried?.initial;
  if (!carried) return loadedState(ctx, params.records, owns);
  return new Map([...carried].filter(([key]) => owns(key)));
}

// `operation`: the one that tells whether an adapter supports the workload (an adapter offers the four document
// operations together). `keepsKeys`: its writes never insert or delete, so the keys it leaves are the loaded ones
// and the next run may start from its final state.
function mixedWorkload({ name, operation, description, mix, stream }) {
  const keepsKeys = !mix.pattern && mix.scan === undefined;
  return {
    name,
    operation,
    compared: true,
    description,
    // Its timed writes follow the run's durability term; the read-only mix times none.
    durability: mix.read === 1 ? null : 'run',
    // The check needs when each operation began and ended.
    timed: true,
    // Each operation's kind, for its latency apart from the others' (get, update, insert, delete).
    kindOf: (op) => op.kind,
    keepsKeys,
    // The documents its stream of `ops` operations inserts beyond the loaded ones (suite.js prepares them).
    inserts: (seed, ops) => mixInserts(mix, { seed, stream, ops }),
    inputs: (ctx, params, { versionBase = 0 } = {}) => operationStream(ctx, { ...params, mix, stream, versionBase }),
    setup: async (adapter) => { awaitedInserts.set(adapter, new Map()); },
    call: (adapter, op, params) => perform(adapter, op, params),
    async check(ctx, inputs, answers, adapter, params, times) {
      const owns = params.owns ?? (() => true);
      const read = await adapter.readCollection(COLLECTION);
      const final = Array.isArray(read) ? read.filter((doc) => typeof doc?._key !== 'string' || owns(doc._key)) : read;
      const failures = consistencyFailures({
        initial: startState(ctx, params, owns),
        operations: inputs,
        answers,
        starts: times.starts,
        ends: times.ends,
        final,
      });
      // A state every read and every key's end agreed with is the next run's start; any other, the next run reloads.
      if (ctx.carried && failures.length === 0 && keepsKeys) ctx.carried.final = new Map(final.map((doc) => [doc._key, doc]));
      return failures;
    },
    teardown: async (adapter) => { awaitedInserts.delete(adapter); },
  };
}

export const WORKLOADS = [
  mixedWorkload({ name: 'read-only', operation: 'getDocument', description: 'gets only', mix: { read: 1 }, stream: 0 }),
  mixedWorkload({ name: 'write-only', operation: 'updateDocument', description: 'updates (replace) only', mix: { read: 0 }, stream: 1 }),
  mixedWorkload({ name: '50-50', operation: 'updateDocument', description: 'gets and updates, half each', mix: { read: 0.5 }, stream: 2 }),
  mixedWorkload({ name: '95-5', operation: 'updateDocument', description: '95% gets, 5% updates', mix: { read: 0.95 }, stream: 3 }),
  mixedWorkload({
    name: 'igiugid',
    operation: 'insertDocument',
    description: `the cross-action pattern ${[...CROSS_PATTERN].join(' ')}: insert, get, insert, update, get, insert, delete`,
    mix: { pattern: CROSS_PATTERN },
    stream: 4,
  }),
  mixedWorkload({
    name: 'read-modify-write',
    operation: 'updateDocument',
    description: 'gets and read-modify-writes (a get, then an update of its key), half each: YCSB\'s workload F',
    mix: { read: 0.5, readModifyWrite: true },
    stream: 5,
  }),
  mixedWorkload({
    name: 'scan-insert',
    operation: 'scanDocuments',
    description: `95% scans of 1 to ${MAX_SCAN_LENGTH} documents (uniform) from a key the distribution chooses, 5% inserts: YCSB's workload E`,
    mix: { scan: 0.95 },
    stream: 6,
  }),
];
