// The graph suite in OrientDB SQL. An edge collection is a graph of its own in the namespace's database: vertices
// of the class `Tmp_g_<name>_V` (an INTEGER `id`, a UNIQUE_HASH_INDEX on it) and regular edges of the class
// `Tmp_g_<name>` (an edge record with its `out` and `in` links and an INTEGER `weight`, a UNIQUE index on
// (out, in)): temporary collections' classes, so resetNamespace() and dropNamespace, which drop the database,
// remove them. Each vertex holds the RIDs of its edges in two link bags, `out_Tmp_g_<name>` and
// `in_Tmp_g_<name>`, which the traversals read. What the adapter lends, `store`:
//   label                       the adapter's id, for messages
//   query(sql, params)          one statement, resolving to every row
//   command(sql, params)        the same for a statement that changes something
//   script(sql, params)         statements run in order, in one request
//   withSession(work)           work(session) on a session of the pool
//   sessions                    how many sessions a bulk load may use at once
import async from 'async';
import orientjs from 'orientjs';
import { EdgeLoad } from './edge-load.js';
import { tempClass } from './schema.js';

// Records per transaction of the load: a remote transaction's commit costs more than linearly in its records
// (20,000 vertices took 45 s in one, 0.8 s per 5,000 in transactions of 1,000).
const VERTICES_PER_TX = 1000;
const EDGES_PER_TX = 500;
// Vertices per script when the bags are written, as the social import does (adapter.js).
const UPDATES_PER_SCRIPT = 100;
// A script's transaction is run again up to this many times when another one changed the same vertex first
// (OrientDB's optimistic concurrency: a concurrent modification of a vertex's link bag).
const COMMIT_RETRIES = 10;
// Edges per batch of scan().
const SCAN_BATCH = 10_000;

export function graphNames(label, name) {
  const edge = tempClass(label, `g_${name}`);
  const vertex = tempClass(label, `g_${name}_V`);
  return { edge, vertex, out: `out_${edge}`, in: `in_${edge}`, idIndex: `${vertex}.id`, pairIndex: `${edge}.out_in` };
}

// Every statement of collection `name`.
export function graphStatements({ edge, vertex, out, in: inn, idIndex, pairIndex }) {
  const byId = (param) => `(SELECT FROM ${vertex} WHERE id = :${param})`;
  const edgesOf = (direction) => `(SELECT expand(${direction}('${edge}')) FROM ${vertex} WHERE id = :id)`;
  // A sum of INTEGERs stays an INTEGER in OrientDB and wraps past 2^31: each weight is made a LONG first.
  const tally = (direction) => `SELECT count(*) AS count, sum(weight.asLong()) AS weight FROM ${edgesOf(direction)}`;
  return {
    create: `
      CREATE CLASS ${vertex} EXTENDS V;
      CREATE PROPERTY ${vertex}.id INTEGER;
      CREATE PROPERTY ${vertex}.${out} LINKBAG;
      CREATE PROPERTY ${vertex}.${inn} LINKBAG;
      CREATE CLASS ${edge} EXTENDS E;
      CREATE PROPERTY ${edge}.out LINK ${vertex};
      CREATE PROPERTY ${edge}.in LINK ${vertex};
      CREATE PROPERTY ${edge}.weight INTEGER;
    `,
    // UNSAFE: a vertex or edge class with records in it is dropped only so.
    drop: `DROP CLASS ${edge} IF EXISTS UNSAFE; DROP CLASS ${vertex} IF EXISTS UNSAFE;`,
    index: `
      CREATE INDEX ${idIndex} ON ${vertex} (id) UNIQUE_HASH_INDEX;
      CREATE INDEX ${pairIndex} ON ${edge} (out, in) UNIQUE;
    `,
    exists: 'SELECT count(*) AS count FROM (SELECT expand(classes) FROM metadata:schema) WHERE name = :name',
    count: `SELECT count(*) AS count FROM ${edge}`,
    // Every edge record with its ends' ids, for the suite's check of the whole collection.
    scan: `SELECT out.id AS source, in.id AS target, weight FROM ${edge}`,
    // Each end's vertex from the id index, once, then the edge from the (out, in) index.
    findEdge: `SELECT weight FROM ${edge} WHERE out IN ${byId('source')} AND in IN ${byId('target')}`,
    edgesOf: `SELECT out.id AS source, in.id AS target, weight FROM ${edgesOf('bothE')}`,
    inEdges: `SELECT out.id AS source, weight FROM ${edgesOf('inE')}`,
    friends: `SELECT both('${edge}').id.asSet() AS ids FROM ${vertex} WHERE id = :id`,
    countFriends: tally('bothE'),
    countFollowers: tally('inE'),
    removeEdge: `DELETE EDGE ${edge} FROM ${byId('source')} TO ${byId('target')}`,
  };
}

// One script, one transaction: each distinct vertex found or created once (UPDATE ... UPSERT on the id index),
// then each edge created or given its weight (CREATE EDGE ... UPSERT on the (out, in) index), all or none.
export function upsertScript({ edge, vertex }, edges) {
  const params = {};
  const lines = [];
  const vertices = new Map();
  const vertexVar = (id) => {
    if (!vertices.has(id)) {
      const i = vertices.size;
      vertices.set(id, `v${i}`);
      params[`v${i}`] = id;
      lines.push(`LET v${i} = UPDATE ${vertex} SET id = :v${i} UPSERT RETURN AFTER WHERE id = :v${i};`);
    }
    return vertices.get(id);
  };
  edges.forEach(({ source, target, weight }, i) => {
    const [from, to] = [vertexVar(source), vertexVar(target)];
    params[`w${i}`] = weight;
    lines.push(`CREATE EDGE ${edge} UPSERT FROM $${from} TO $${to} SET weight = :w${i};`);
  });
  return { script: transaction(lines), params };
}

export function removeScript({ edge, vertex }, pairs) {
  const params = {};
  const lines = pairs.map(({ source, target }, i) => {
    params[`s${i}`] = source;
    params[`t${i}`] = target;
    return `DELETE EDGE ${edge} FROM (SELECT FROM ${vertex} WHERE id = :s${i}) TO (SELECT FROM ${vertex} WHERE id = :t${i});`;
  });
  return { script: transaction(lines), params };
}

const transaction = (lines) => `BEGIN;\n${lines.join('\n')}\nCOMMIT RETRY ${COMMIT_RETRIES};`;

const toRid = ({ cluster, position }) => new orientjs.RID({ cluster, position });

// The bags of one vertex, set once: every edge RID of each direction.
function bagUpdate(names, { rid, out, in: inn }, index, params) {
  const sets = [];
  if (out.length > 0) {
    sets.push(`${names.out} = :o${index}`);
    params[`o${index}`] = out.map(toRid);
  }
  if (inn.length > 0) {
    sets.push(`${names.in} = :i${index}`);
    params[`i${index}`] = inn.map(toRid);
  }
  return `UPDATE #${rid.cluster}:${rid.position} SET ${sets.join(', ')};`;
}

function* chunks(items, size) {
  let chunk = [];
  for (const item of items) {
    chunk.push(item);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

const tally = (rows) => ({ count: rows[0]?.count ?? 0, weight: rows[0]?.weight ?? 0 });

export function graphOperations(store) {
  const collections = new Map();
  const collection = (name) => {
    let found = collections.get(name);
    if (!found) {
      const names = graphNames(store.label, name);
      found = { names, sql: graphStatements(names) };
      collections.set(name, found);
    }
    return found;
  };
  // The load under way per collection (edge-load.js): its vertices' RIDs and the edges still to enter the bags.
  const loads = new Map();

  // Records of `items` created in transactions of `size`, `store.sessions` at a time; `onCreated` gets each
  // transaction's created records (with their RIDs).
  const createAll = (items, size, toRecord, onCreated) => async.eachLimit([...chunks(items, size)], store.sessions,
    async (part) => store.withSession(async (session) => {
      const tx = session.begin();
      for (const item of part) tx.create(toRecord(item));
      let result;
      try {
        result = await tx.commit();
      } catch (error) {
        await tx.rollback().catch(() => {});
        throw error;
      }
      onCreated(result.created);
    }));

  return {
    async create(name) {
      const { sql } = collection(name);
      await store.script(sql.drop);
      await store.script(sql.create);
      loads.set(name, new EdgeLoad());
    },

    // The batch's new vertices first, then its edges as records linking them; the bags wait for index().
    async importEdges(name, batch) {
      const { names } = collection(name);
      const load = loads.get(name);
      if (!load) throw new Error(`${store.label}: importEdges("${name}") before create("${name}")`);
      await createAll(load.newVertices(batch), VERTICES_PER_TX, (id) => ({ '@class': names.vertex, id }),
        (records) => records.forEach((record) => load.addVertex(record.id, record['@rid'])));
      const edges = Array.from({ length: batch.length }, (_, i) => i);
      const { source, target, weight } = batch;
      await createAll(edges, EDGES_PER_TX,
        (i) => ({ '@class': names.edge, out: toRid(load.rid(source[i])), in: toRid(load.rid(target[i])), weight: weight[i] }),
        (records) => records.forEach((record) => load.addEdge(record.out, record.in, record['@rid'])));
    },

    // Every vertex's bags written once, scripts of UPDATES_PER_SCRIPT vertices side by side (no two touch the
    // same vertex), then the two indexes. OrientDB's planner keeps no statistics to refresh.
    async index(name) {
      const { names, sql } = collection(name);
      const load = loads.get(name);
      loads.delete(name);
      if (load) {
        await async.eachLimit(chunks(load.takeBags(), UPDATES_PER_SCRIPT), store.sessions, async (updates) => {
          const params = {};
          const lines = updates.map((update, i) => bagUpdate(names, update, i, params));
          await store.script(`BEGIN;\n${lines.join('\n')}\nCOMMIT;`, params);
        });
      }
      await store.script(sql.index);
    },

    async count(name) {
      const { names, sql } = collection(name);
      const [{ count }] = await store.query(sql.exists, { name: names.edge });
      if (count === 0) return 0;
      return (await store.query(sql.count))[0].count;
    },

    async drop(name) {
      loads.delete(name);
      await store.script(collection(name).sql.drop);
    },

    // One query (the driver fetches its rows in pages), handed over in batches of SCAN_BATCH.
    async scan(name, visit) {
      const { names, sql } = collection(name);
      const [{ count }] = await store.query(sql.exists, { name: names.edge });
      if (count === 0) return;
      const rows = await store.query(sql.scan);
      for (let from = 0; from < rows.length; from += SCAN_BATCH) {
        await visit(rows.slice(from, from + SCAN_BATCH).map(({ source, target, weight }) => ({ source, target, weight })));
      }
    },

    async findEdge(name, source, target) {
      const rows = await store.query(collection(name).sql.findEdge, { source, target });
      return rows.length === 0 ? null : { source, target, weight: rows[0].weight };
    },

    async edgesOf(name, vertex) {
      const rows = await store.query(collection(name).sql.edgesOf, { id: vertex });
      return rows.map(({ source, target, weight }) => ({ source, target, weight }));
    },

    async inEdges(name, vertex) {
      const rows = await store.query(collection(name).sql.inEdges, { id: vertex });
      return rows.map(({ source, weight }) => ({ source, target: vertex, weight }));
    },

    async friends(name, vertex) {
      const rows = await store.query(collection(name).sql.friends, { id: vertex });
      return rows.length === 0 ? [] : rows[0].ids;
    },

    // No row at all when nothing matches.
    async countFriends(name, vertex) {
      return tally(await store.query(collection(name).sql.countFriends, { id: vertex }));
    },

    async countFollowers(name, vertex) {
      return tally(await store.query(collection(name).sql.countFollowers, { id: vertex }));
    },

    // The writes' third argument, `{ durable }` (the run's durability term), changes nothing: OrientDB 3.2
    // acknowledges every commit before its WAL records are written, and no request can ask for more, so the
    // harness runs these writes under the relaxed term only (description.js, terms).
    async upsertEdge(name, edge) {
      const { script, params } = upsertScript(collection(name).names, [edge]);
      await store.script(script, params);
    },

    async upsertEdges(name, edges) {
      const { script, params } = upsertScript(collection(name).names, edges);
      await store.script(script, params);
    },

    async removeEdge(name, { source, target }) {
      await store.command(collection(name).sql.removeEdge, { source, target });
    },

    async removeEdges(name, pairs) {
      const { script, params } = removeScript(collection(name).names, pairs);
      await store.script(script, params);
    },
  };
}
