// The queries of the operations, as data, and the relation queries the graph searches call (graph.js). Each
// builder returns a fresh object: the driver keeps pipelines and options it is given, and may add to them.
import { INDEXES } from './namespace.js';

// Documents per cursor batch. The server also ends a batch at 16 MiB, so this only lifts the driver's default
// first batch of 101 documents, which would cost a getMore round trip on any larger answer.
export const BATCH_SIZE = 100_000;
// Keys per `$in` list. A command is limited to 16 MiB; 50,000 keys of the Pokec form take about 1.1 MB, so a
// larger frontier or key set is queried in slices of this size, one after the other.
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

// The distinct targets of many sources. `distinct` answers in one reply document, limited to 16 MiB, which a
// whole level of the graph can exceed; `$group` answers through a cursor.
export function targetsPipeline(keys) {
  return [{ $match: { _from: { $in: keys } } }, { $group: { _id: '$_to' } }];
}

export function documentsFilter(keys) {
  return { _id: { $in: keys } };
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

// The relation queries of graph.js on the `relations` collection, each answered from a covering index:
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
    async targets(keys) {
      // The relations of one source fit in one reply: `distinct` is one round trip.
      if (keys.length === 1) return relations.distinct('_to', { _from: keys[0] });
      const found = new Set();
      for (const slice of slices(keys)) {
        for (const { _id } of await relations.aggregate(targetsPipeline(slice), cursorOptions()).toArray()) {
          found.add(_id);
        }
      }
      return [...found];
    },
    outgoing: (keys) => edges('_from', keys),
    incoming: (keys) => edges('_to', keys),
  };
}
