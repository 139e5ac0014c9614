// The graph suite in Cypher. An edge collection is a graph of its own: its vertices are nodes labelled
// `<ns>_tmp_g_<name>` with an INTEGER property `id` and a uniqueness constraint on it, its edges relationships of
// the type `<ns>_tmp_g_<name>_EDGE` with an INTEGER property `weight`. A relationship is stored in the
// adjacency of both its nodes, so the in-edges of a vertex need no index of their own: the constraint's index
// finds the vertex, its relationships of that type and direction are read from there. What the adapter lends,
// `store`:
//   read(query, params)        one auto-commit query in a read session, resolving to its records
//   write(query, params)       the same in a write session
//   names                      the namespace's names (schema.js)
import neo4j from 'neo4j-driver';
import { deleteNodes, deleteRelationships, dropSchema } from './namespace.js';
import { quote } from './schema.js';

// Seconds to wait for the vertex constraint's index to come online after the load.
const INDEX_ONLINE_TIMEOUT_S = 600;
// Vertices per page of scan().
const SCAN_VERTICES = 5000;
// Bolt sends a JavaScript number as a FLOAT. A single id is bound as an INTEGER, the type the constraint's index
// holds; lists of ids and weights go as FLOATs (cheaper to encode than an Integer object per value) and become
// INTEGERs in the query (toInteger()).
const int = (value) => neo4j.int(value);

// The label, the relationship type and the constraint of collection `name`, quoted for Cypher text.
export function graphNames(names, name) {
  const { label, keyConstraint } = names.temp(`g_${name}`);
  const type = `${label}_EDGE`;
  return { label, type, keyConstraint, L: quote(label), T: quote(type) };
}

// A property no vertex has: setting it takes the node's write lock (adapter's crud.js does the same).
const LOCK_PROPERTY = '`db-shootout lock`';

// The head of a write: each vertex of `$ids` (distinct, ascending) found (MATCH) or found or created (MERGE) and
// write-locked in that order, before the rest of the query runs (collect() waits for every row).
function lockVertices(L, find) {
  return `UNWIND $ids AS id ${find} (v:${L} {id: toInteger(id)})
      SET v.${LOCK_PROPERTY} = true REMOVE v.${LOCK_PROPERTY}
      WITH collect(v) AS locked`;
}

// Every statement of collection `name`. Ids are bound as INTEGER parameters, so the constraint's index is
// sought with the type it holds.
export function graphStatements({ L, T, keyConstraint }) {
  const vertex = (param) => `(:${L} {id: $${param}})`;
  return {
    // New vertices of a batch, in the order given; their node ids come back as one list.
    createVertices: `UNWIND $ids AS id CREATE (v:${L} {id: toInteger(id)}) RETURN collect(id(v))`,
    // One row per source vertex: its node id, its targets' node ids and the weights. A node id is found without
    // an index (NodeByIdSeek), so the load runs before the constraint exists.
    createEdges: `UNWIND $groups AS g MATCH (a) WHERE id(a) = g[0]
      UNWIND range(0, size(g[1]) - 1) AS i MATCH (b) WHERE id(b) = g[1][i]
      CREATE (a)-[:${T} {weight: toInteger(g[2][i])}]->(b)`,
    key: `CREATE CONSTRAINT ${quote(keyConstraint)} IF NOT EXISTS FOR (v:${L}) REQUIRE v.id IS UNIQUE`,
    // The count store answers a count of one relationship type.
    count: `MATCH ()-[r:${T}]->() RETURN count(r)`,
    findEdge: `MATCH ${vertex('source')}-[r:${T}]->${vertex('target')} RETURN r.weight`,
    // A page of the whole collection: the next $limit vertices by id (a range seek of the key's index), each with
    // its out-edges as [target, weight]; a vertex without out-edges still takes a row, so the pages stay bounded.
    scan: `MATCH (v:${L}) WHERE v.id > $after WITH v ORDER BY v.id LIMIT $limit
      RETURN v.id, [(v)-[r:${T}]->(o) | [o.id, r.weight]]`,
    // Each direction as a list of [other end, weight] in one record; no self-loops, so no edge is in both.
    edgesOf: `MATCH (v:${L} {id: $vertex})
      RETURN [(v)-[r:${T}]->(o) | [o.id, r.weight]], [(v)<-[r:${T}]-(o) | [o.id, r.weight]]`,
    inEdges: `MATCH (v:${L} {id: $vertex}) RETURN [(v)<-[r:${T}]-(o) | [o.id, r.weight]]`,
    friends: `MATCH (v:${L} {id: $vertex})-[:${T}]-(o) RETURN collect(DISTINCT o.id)`,
    // Aggregation without a grouping key answers one row even when nothing matches: 0 and 0.
    countFriends: `MATCH (v:${L} {id: $vertex})-[r:${T}]-() RETURN count(r), sum(r.weight)`,
    countFollowers: `MATCH (v:${L} {id: $vertex})<-[r:${T}]-() RETURN count(r), sum(r.weight)`,
    // The writes take the write lock of every vertex they touch first, in ascending order of id, and only then
    // touch relationships: two transactions lock their common vertices in the same order, so they queue instead
    // of deadlocking (with MERGE alone, concurrent batches sharing vertices failed with DeadlockDetected).
    // MERGE on the constrained id finds or creates each vertex; setting and removing a property no vertex has
    // takes its write lock, which MERGE of a relationship between the locked nodes then relies on: one
    // relationship per pair.
    upsertEdges: `${lockVertices(L, 'MERGE')}
      UNWIND $edges AS e MATCH (a:${L} {id: toInteger(e[0])}), (b:${L} {id: toInteger(e[1])})
      MERGE (a)-[r:${T}]->(b) SET r.weight = toInteger(e[2])`,
    removeEdges: `${lockVertices(L, 'MATCH')}
      UNWIND $pairs AS p MATCH (:${L} {id: toInteger(p[0])})-[r:${T}]->(:${L} {id: toInteger(p[1])}) DELETE r`,
  };
}

// Consecutive edges of one source as [source, [targets], [weights]], each vertex as its node id: the batch is
// sorted by source, so each source node is sought once per batch and each id sent once.
export function groupBySource({ length, source, target, weight }, nodeOf) {
  const groups = [];
  let group = null;
  for (let i = 0; i < length; i += 1) {
    if (group === null || source[i] !== source[i - 1]) {
      group = [nodeOf(source[i]), [], []];
      groups.push(group);
    }
    group[1].push(nodeOf(target[i]));
    group[2].push(weight[i]);
  }
  return groups;
}

// The vertices of a batch not yet in `known` (a Map from vertex id to node id), each once, in order of first
// appearance; they are marked in `known` with a node id still to come (-1).
export function newVertices({ length, source, target }, known) {
  const ids = [];
  const add = (id) => {
    if (known.has(id)) return;
    known.set(id, -1);
    ids.push(id);
  };
  for (let i = 0; i < length; i += 1) {
    add(source[i]);
    add(target[i]);
  }
  return ids;
}

// The distinct ends of `edges`, ascending: the order in which a write locks them.
export function verticesOf(edges) {
  return [...new Set(edges.flatMap(({ source, target }) => [source, target]))].sort((a, b) => a - b);
}

const toEdge = (source, target, weight) => ({ source, target, weight });

export function graphOperations(store) {
  const collections = new Map();
  const collection = (name) => {
    let found = collections.get(name);
    if (!found) {
      const names = graphNames(store.names, name);
      found = { ...names, cypher: graphStatements(names) };
      collections.set(name, found);
    }
    return found;
  };
  // The node id of each vertex the current load created, by vertex id: the load finds the ends of an edge by node
  // id, before any index exists. Dropped by index().
  const loads = new Map();
  const first = async (query, params) => (await store.read(query, params))[0];

  return {
    async create(name) {
      await this.drop(name);
      loads.set(name, new Map());
    },

    async importEdges(name, batch) {
      const { cypher } = collection(name);
      const known = loads.get(name);
      if (!known) throw new Error(`neo4j: importEdges("${name}") before create("${name}")`);
      const ids = newVertices(batch, known);
      if (ids.length > 0) {
        const [record] = await store.write(cypher.createVertices, { ids });
        record.get(0).forEach((node, i) => known.set(ids[i], node));
      }
      await store.write(cypher.createEdges, { groups: groupBySource(batch, (id) => known.get(id)) });
    },

    // The constraint, built on the loaded vertices; Neo4j keeps its planner's statistics itself (the count
    // store, and an index is sampled when its population completes).
    async index(name) {
      const { cypher, keyConstraint } = collection(name);
      loads.delete(name);
      await store.write(cypher.key);
      await store.read('CALL db.awaitIndex($name, $seconds)', { name: keyConstraint, seconds: INDEX_ONLINE_TIMEOUT_S });
    },

    async count(name) {
      return (await first(collection(name).cypher.count)).get(0);
    },

    async drop(name) {
      const { label, type, keyConstraint } = collection(name);
      loads.delete(name);
      await deleteRelationships(store.write, type);
      await deleteNodes(store.write, label);
      await dropSchema(store.write, { constraints: [keyConstraint], indexes: [] });
    },

    // Pages of SCAN_VERTICES vertices in the order of their ids, each page one read.
    async scan(name, visit) {
      let after = -1;
      for (;;) {
        const records = await store.read(collection(name).cypher.scan, { after: int(after), limit: int(SCAN_VERTICES) });
        const batch = [];
        for (const record of records) {
          const source = record.get(0);
          for (const [target, weight] of record.get(1)) batch.push(toEdge(source, target, weight));
          after = source;
        }
        if (batch.length > 0) await visit(batch);
        if (records.length < SCAN_VERTICES) return;
      }
    },

    async findEdge(name, source, target) {
      const record = await first(collection(name).cypher.findEdge, { source: int(source), target: int(target) });
      return record ? toEdge(source, target, record.get(0)) : null;
    },

    async edgesOf(name, vertex) {
      const record = await first(collection(name).cypher.edgesOf, { vertex: int(vertex) });
      if (!record) return [];
      return [...record.get(0).map(([other, weight]) => toEdge(vertex, other, weight)),
        ...record.get(1).map(([other, weight]) => toEdge(other, vertex, weight))];
    },

    async inEdges(name, vertex) {
      const record = await first(collection(name).cypher.inEdges, { vertex: int(vertex) });
      return record ? record.get(0).map(([other, weight]) => toEdge(other, vertex, weight)) : [];
    },

    async friends(name, vertex) {
      return (await first(collection(name).cypher.friends, { vertex: int(vertex) })).get(0);
    },

    async countFriends(name, vertex) {
      const record = await first(collection(name).cypher.countFriends, { vertex: int(vertex) });
      return { count: record.get(0), weight: record.get(1) };
    },

    async countFollowers(name, vertex) {
      const record = await first(collection(name).cypher.countFollowers, { vertex: int(vertex) });
      return { count: record.get(0), weight: record.get(1) };
    },

    // The writes' third argument, `{ durable }` (the run's durability term), changes nothing: Neo4j forces its
    // transaction log at every commit and has no weaker acknowledgement, so each write commits durably either way
    // (the relaxed term is unavailable, and the harness runs no write under it: description.js, terms).
    // One edge is a batch of one: the same statement, its two vertices locked in order.
    async upsertEdge(name, edge) {
      await this.upsertEdges(name, [edge]);
    },

    async upsertEdges(name, edges) {
      await store.write(collection(name).cypher.upsertEdges,
        { ids: verticesOf(edges), edges: edges.map((e) => [e.source, e.target, e.weight]) });
    },

    async removeEdge(name, pair) {
      await this.removeEdges(name, [pair]);
    },

    async removeEdges(name, pairs) {
      await store.write(collection(name).cypher.removeEdges,
        { ids: verticesOf(pairs), pairs: pairs.map((p) => [p.source, p.target]) });
    },
  };
}
