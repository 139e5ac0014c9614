// The queries of the operations, as data, and the relation queries the shortest-path search calls (shortest-path.js).
// Each builder returns a fresh object: the driver keeps pipelines and options it is given, and may add to them.
import { COLLECTIONS, INDEXES } from './namespace.js';

// Documents per cursor batch. The server also ends a batch at 16 MiB, so this only lifts the driver's default
// first batch of 101 documents, which would cost a getMore round trip on any larger answer.
export const BATCH_SIZE = 100_000;
// Keys per `$in` list. A command is limited to 16 MiB; 50,000 keys of the Pokec form take about 1.1 MB, so a
// larger frontier of the shortest-path search is queried in slices of this size, one after the other.
export const IN_SLICE = 50_000;

export function cursorOptions() {
  return { batchSize: BATCH_SIZE };
}

// Without `_id`, both relation indexes cover the read: the server answers from the index alone.
export function relationsFind() {
  return { projection: { _id: 0, _from: 1, _to: 1 }, batchSize: BATCH_SIZE };
}

// A full scan: there is no index on AGE. An absent AGE groups under null.
export function agePipeline() {
  return [{ $group: { _id: '$AGE', count: { $sum: 1 } } }];
}

// The neighbourhood pipelines run on `relations`; each answers through one cursor, one document per key.

// One document `{ _id: <key> }` per distinct target of `key`'s relations (index from_to).
function firstLevel(key) {
  return [{ $match: { _from: key } }, { $group: { _id: '$_to' } }];
}

// Each `{ _id: <key> }` replaced by that profile as stored: one lookup in the `_id` index of profiles per key.
function profilesOfKeys() {
  return [
    { $lookup: { from: COLLECTIONS.profiles, localField: '_id', foreignField: '_id', as: 'profile' } },
    { $unwind: '$profile' },
    { $replaceWith: '$profile' },
  ];
}

export function neighborsDataPipeline(key) {
  return [...firstLevel(key), ...profilesOfKeys()];
}

// Each first-level key joins the targets of its own relations (one lookup in from_to per key, an array no larger
// than that profile's relations, far below the 16 MiB of a document); then the keys of both levels, without the
// start, are grouped once more, so each comes back once.
export function neighbors2Pipeline(key) {
  return [
    ...firstLevel(key),
    { $lookup: {
      from: COLLECTIONS.relations, localField: '_id', foreignField: '_from', as: 'next',
      pipeline: [{ $project: { _id: 0, _to: 1 } }],
    } },
    { $project: { _id: 0, key: { $concatArrays: [['$_id'], '$next._to'] } } },
    { $unwind: '$key' },
    { $match: { key: { $ne: key } } },
    { $group: { _id: '$key' } },
  ];
}

export function neighbors2dataPipeline(key) {
  return [...neighbors2Pipeline(key), ...profilesOfKeys()];
}

export function slices(keys, size = IN_SLICE) {
  const result = [];
  for (let i = 0; i < keys.length; i += size) result.push(keys.slice(i, i + size));
  return result;
}

// Every profile document read in full ($bsonSize needs the whole document).
export function warmupProfilesPipeline() {
  return [{ $group: { _id: null, bytes: { $sum: { $bsonSize: '$$ROOT' } } } }];
}

// Every entry of each index, counted through that index: the hint makes the server walk it from end to end.
export function warmupIndexScans() {
  const scan = (collection, field, hint) => ({
    collection,
    pipeline: [{ $match: { [field]: { $gte: '' } } }, { $count: 'entries' }],
    options: { hint },
  });
  return [
    scan('profiles', '_id', '_id_'),
    scan('relations', '_from', INDEXES.from.name),
    scan('relations', '_to', INDEXES.to.name),
  ];
}

// The relation queries of shortest-path.js on the `relations` collection, each answered from a covering index:
// (_from, _to) forward, (_to, _from) backward.
export function relationQueries(relations) {
  const edges = async (field, keys) => {
    const found = [];
    for (const slice of slices(keys)) {
      for (const relation of await relations.find({ [field]: { $in: slice } }, relationsFind()).toArray()) {
        found.push(relation);
      }
    }
    return found;
  };
  return {
    outgoing: (keys) => edges('_from', keys),
    incoming: (keys) => edges('_to', keys),
  };
}
