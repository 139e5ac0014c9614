// What the server behind the wire protocol can run, asked of the server itself: each feature the adapter's queries
// rely on is tried once, with a tiny pipeline (or index) on a scratch collection of the namespace's database, and
// its answer compared with the one MongoDB documents. A server that refuses a feature, or answers it otherwise,
// lacks it; the operations built on it are then unsupported on that server, with the server's own words as the
// reason (adapters/README.md, "Operations a server lacks"). Nothing is keyed on the server's name or version:
// MongoDB passes every probe, FerretDB 1.x refuses several, and any other server is judged by its answers alone.
import { BSON, MongoServerError } from 'mongodb';
import { tempCollectionName } from './namespace.js';

// The scratch collection's documents: two, so a $group has something to fold.
export const PROBE_DOCUMENTS = Object.freeze([
  Object.freeze({ _id: 'a', n: 1, s: 'x', list: [1, 2], inner: { k: 'a' } }),
  Object.freeze({ _id: 'b', n: 2, s: 'y', list: [3], inner: { k: 'b' } }),
]);
const [A, B] = PROBE_DOCUMENTS;
const only = (id) => ({ $match: { _id: id } });

// Each feature: what it is, the operations (of `supports`) built on it, and the request that tries it. `pipeline`
// is an aggregation on the scratch collection whose answer must equal `expect` (an array, compared as BSON-equal
// documents in order); `index` is an index the server must accept. `part` names a part of the adapter that is
// not an operation (the warm-up), which the adapter leaves out, and says so in its settings, when it is missing.
export const FEATURES = Object.freeze([
  {
    name: '$lookup',
    what: 'the $lookup stage with localField and foreignField',
    operations: ['neighborsData', 'neighbors2data'],
    pipeline: (scratch) => [only('a'), { $lookup: { from: scratch, localField: '_id', foreignField: '_id', as: 'same' } }],
    expect: [{ ...A, same: [A] }],
  },
  {
    name: '$lookup with a pipeline',
    what: 'the $lookup stage with localField, foreignField and a pipeline (MongoDB 5.0)',
    operations: ['neighbors2', 'neighbors2data', 'subquery', 'join-key', 'join-id', 'join-hash-number', 'join-hash-string',
      'join-skiplist-number', 'join-skiplist-string'],
    pipeline: (scratch) => [only('a'), { $lookup: {
      from: scratch, localField: '_id', foreignField: '_id', pipeline: [{ $project: { _id: 1 } }], as: 'same',
    } }],
    expect: [{ ...A, same: [{ _id: 'a' }] }],
  },
  {
    name: '$replaceWith',
    what: 'the $replaceWith stage',
    operations: ['neighborsData', 'neighbors2data'],
    pipeline: () => [only('a'), { $replaceWith: '$inner' }],
    expect: [A.inner],
  },
  {
    name: '$unwind',
    what: 'the $unwind stage',
    operations: ['neighborsData', 'neighbors2', 'neighbors2data', 'join-key', 'join-id', 'join-hash-number', 'join-hash-string',
      'join-skiplist-number', 'join-skiplist-string'],
    pipeline: () => [only('a'), { $unwind: '$list' }, { $project: { _id: 0, list: 1 } }],
    expect: [{ list: 1 }, { list: 2 }],
  },
  {
    name: '$concatArrays',
    what: 'the $concatArrays expression over an array literal holding a field path',
    operations: ['neighbors2', 'neighbors2data'],
    pipeline: () => [only('a'), { $project: { _id: 0, all: { $concatArrays: [['$_id'], '$list'] } } }],
    expect: [{ all: ['a', 1, 2] }],
  },
  {
    name: '$size',
    what: 'the $size expression',
    operations: ['subquery'],
    pipeline: () => [only('a'), { $project: { _id: 0, count: { $size: '$list' } } }],
    expect: [{ count: 2 }],
  },
  {
    name: '$min and $max in $group',
    what: 'the $min and $max accumulators of $group',
    operations: ['min-number', 'min-string', 'max-number', 'max-string'],
    pipeline: () => [{ $group: { _id: null, low: { $min: '$n' }, high: { $max: '$s' } } }],
    expect: [{ _id: null, low: 1, high: 'y' }],
  },
  {
    name: '$concat',
    what: 'the $concat and $toString expressions',
    operations: ['concat'],
    pipeline: () => [only('a'), { $project: { _id: 0, text: { $concat: ['$_id', '-', { $toString: '$n' }] } } }],
    expect: [{ text: 'a-1' }],
  },
  {
    name: '$addFields of a field path',
    what: 'the $addFields stage with a field path as the value',
    operations: ['merge-number', 'merge-string'],
    pipeline: () => [only('a'), { $addFields: { copy: '$n' } }],
    expect: [{ ...A, copy: 1 }],
  },
  {
    name: '$cond',
    what: 'the $cond and $eq expressions as the key of $group',
    operations: ['friends'],
    pipeline: () => [{ $group: { _id: { $cond: [{ $eq: ['$_id', 'a'] }, '$s', '$_id'] } } }, { $sort: { _id: 1 } }],
    expect: [{ _id: 'b' }, { _id: 'x' }],
  },
  {
    name: '$sum of a field',
    what: 'the $sum accumulator of a field in $group',
    operations: ['countFriends', 'countFollowers'],
    pipeline: () => [{ $group: { _id: null, count: { $sum: 1 }, total: { $sum: '$n' } } }],
    expect: [{ _id: null, count: 2, total: 3 }],
  },
  {
    name: '$bsonSize',
    what: 'the $bsonSize expression',
    part: 'warmup',
    pipeline: () => [{ $group: { _id: null, bytes: { $sum: { $bsonSize: '$$ROOT' } } } }],
    expect: [{ _id: null, bytes: PROBE_DOCUMENTS.reduce((sum, doc) => sum + BSON.calculateObjectSize(doc), 0) }],
  },
  {
    name: 'hashed index',
    what: 'a hashed index',
    part: 'equalityIndex',
    index: { key: { s: 'hashed' }, name: 's_hashed' },
  },
].map((feature) => Object.freeze(feature)));

// One feature's outcome from what the server did: { ok: true }, or { ok: false, reason }. `answer` is the rows the
// pipeline returned (or undefined for an index), `error` what the server refused it with.
export function judge(feature, { answer, error }) {
  if (error) {
    const code = error.codeName ? ` (${error.codeName})` : '';
    return { ok: false, reason: `the server refuses ${feature.what}: ${error.message}${code}` };
  }
  if (feature.pipeline && !sameAnswer(answer, feature.expect)) {
    return { ok: false, reason: `the server answers ${feature.what} wrongly: ${BSON.EJSON.stringify(feature.pipeline('scratch'))} `
      + `gave ${BSON.EJSON.stringify(answer)} instead of ${BSON.EJSON.stringify(feature.expect)}` };
  }
  return { ok: true };
}

function sameAnswer(answer, expect) {
  if (!Array.isArray(answer) || answer.length !== expect.length) return false;
  return answer.every((row, i) => canonical(row) === canonical(expect[i]));
}

// Field order does not matter (a server may write a document's fields in another order), values do, types included.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
  }
  return `${typeof value}:${JSON.stringify(value)}`;
}

// What the outcomes mean for the adapter: `unsupported`, each operation of a missing feature with the reasons of
// every feature it lacks; `parts`, each part of the adapter (warmup, equalityIndex) with its reason when missing.
export function capabilityDecision(outcomes) {
  const unsupported = {};
  const parts = {};
  for (const feature of FEATURES) {
    const outcome = outcomes[feature.name];
    if (!outcome || outcome.ok) continue;
    for (const operation of feature.operations ?? []) {
      unsupported[operation] = unsupported[operation] ? `${unsupported[operation]}; ${outcome.reason}` : outcome.reason;
    }
    if (feature.part) parts[feature.part] = outcome.reason;
  }
  return { unsupported, parts };
}

let probes = 0;

// Runs every probe in a scratch collection of its own (a `tmp_` name, which a reset of the namespace removes if a
// crash left it behind), created here, so that nothing that existed before is touched, and dropped at the end.
// Resolves { outcomes, queryPlanner }: queryPlanner is the server's explain of a find on the scratch collection.
// A refusal is an outcome; any other failure (the connection) rejects.
export async function probeServer(db) {
  probes += 1;
  const name = tempCollectionName(db.databaseName, `capability_probe_${process.pid}_${probes}`);
  const scratch = await db.createCollection(name);
  try {
    await scratch.insertMany(PROBE_DOCUMENTS.map((doc) => ({ ...doc })));
    const outcomes = {};
    for (const feature of FEATURES) {
      const attempt = {};
      try {
        if (feature.pipeline) attempt.answer = await scratch.aggregate(feature.pipeline(name)).toArray();
        else await scratch.createIndex(feature.index.key, { name: feature.index.name });
      } catch (error) {
        if (!(error instanceof MongoServerError)) throw error;
        attempt.error = error;
      }
      outcomes[feature.name] = judge(feature, attempt);
    }
    const { queryPlanner } = await db.command({ explain: { find: name, filter: { _id: B._id } } });
    return { outcomes, queryPlanner };
  } finally {
    await scratch.drop();
  }
}
