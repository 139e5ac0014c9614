// The AQL of the operations, each executed by the server as one query. Collection names are the model's fixed
// names; every input is a bind parameter. Each builder returns the `{ query, bindVars }` that db.query() takes.
import { COLLECTIONS, profileId } from './model.js';

const { profiles, relations } = COLLECTIONS;

// Documents leave the server in the contract's shape: ArangoDB's _id and _rev are removed, _key stays.
const DOCUMENT = (variable) => `UNSET(${variable}, '_id', '_rev')`;

// The _to handles of the relations with _from = @start: a lookup in the edge index, which ArangoDB keeps on _from
// and _to of every edge collection. No profile document is read.
const OUTBOUND_IDS = `FOR e IN ${relations} FILTER e._from == @start RETURN DISTINCT e._to`;

// Breadth-first, every vertex at most once (global uniqueness requires order 'bfs'), so each vertex within two
// hops is emitted once, at its distance. The start vertex is filtered out, whether or not the traversal would
// reach it again.
const WITHIN_TWO_HOPS = `WITH ${profiles}
  FOR v IN 1..2 OUTBOUND @start ${relations}
  OPTIONS { order: 'bfs', uniqueVertices: 'global' }
  FILTER v._id != @start`;

const QUERIES = Object.freeze({
  aggregation: `FOR p IN ${profiles} COLLECT age = p.AGE WITH COUNT INTO n RETURN [age, n]`,
  neighbors: `FOR e IN ${relations} FILTER e._from == @start RETURN DISTINCT PARSE_IDENTIFIER(e._to).key`,
  // Primary-index lookups of the neighbours' handles; a relation to oneself makes one a neighbour of oneself,
  // as in the reference.
  neighborsData: `LET ids = (${OUTBOUND_IDS})
  FOR p IN ${profiles} FILTER p._id IN ids RETURN ${DOCUMENT('p')}`,
  neighbors2: `${WITHIN_TWO_HOPS} RETURN v._key`,
  neighbors2data: `${WITHIN_TWO_HOPS} RETURN ${DOCUMENT('v')}`,
  shortestPath: `WITH ${profiles}
  FOR v IN OUTBOUND SHORTEST_PATH @from TO @to ${relations} RETURN v._key`,
  // Reads every profile document whole (LENGTH of a document counts its attributes).
  warmup: `FOR p IN ${profiles} COLLECT AGGREGATE attributes = SUM(LENGTH(p)) RETURN attributes`,
  // Every stored document as it is; the adapter strips the system attributes as it does for a single read.
  readCollection: 'FOR d IN @@collection RETURN d',
});

export const aggregationQuery = () => ({ query: QUERIES.aggregation, bindVars: {} });

export const neighborsQuery = (key) => ({ query: QUERIES.neighbors, bindVars: { start: profileId(key) } });

export const neighborsDataQuery = (key) => ({ query: QUERIES.neighborsData, bindVars: { start: profileId(key) } });

export const neighbors2Query = (key) => ({ query: QUERIES.neighbors2, bindVars: { start: profileId(key) } });

export const neighbors2dataQuery = (key) => ({ query: QUERIES.neighbors2data, bindVars: { start: profileId(key) } });

export const shortestPathQuery = (from, to) => ({
  query: QUERIES.shortestPath,
  bindVars: { from: profileId(from), to: profileId(to) },
});

export const warmupQuery = () => ({ query: QUERIES.warmup, bindVars: {} });

export const readCollectionQuery = (collection) => ({
  query: QUERIES.readCollection,
  bindVars: { '@collection': collection },
});
