// Shortest path by level-synchronous bidirectional breadth-first search, run by the server: each level is one
// INSERT ... SELECT that joins a frontier with a covering relation index, writing into per-connection
// TEMPORARY tables. Node only keeps each side's start, depth and frontier size.
//
// Each side has a `visited` table (node, parent, depth), its search tree, and a `frontier` table, a copy of
// the level being expanded. The copy exists because Oracle MySQL cannot open one TEMPORARY table twice in a
// statement, and INSERT ... SELECT into `visited` would have to read `visited` too.
//
// Correctness: a side's `visited` holds every node within its depth of its start, with that distance and one
// parent on a shortest path to it. While the two trees share no node, the distance from -> to exceeds
// depthF + depthB. Each step first looks for a relation from the deepest level of one side into the other
// tree: such a relation closes a path of depthF + depthB + 1 hops, which is therefore minimal. Only when
// there is none is the level expanded, so the trees stay disjoint, and the last and largest level of a
// search is never written.
//
// TEMPORARY tables belong to their connection, so every search runs on one pool connection of its own and
// concurrent searches never see each other's rows.
import { KEY_TYPE } from './schema.js';

// MEMORY tables take their row limit from max_heap_table_size when they are created. It is a bound, not an
// allocation: at about 330 bytes per visited row, 1 GiB holds every profile of the full Pokec twice over.
const TABLE_BYTES = 1024 * 1024 * 1024;

export class PathFinder {
  #relations;
  #tables;
  #prepared = new WeakSet();

  constructor(tables) {
    this.#relations = tables.relations;
    const side = (name) => ({
      visited: `${tables.database}.path_${name}_visited`,
      frontier: `${tables.database}.path_${name}_frontier`,
    });
    this.#tables = { forward: side('forward'), backward: side('backward') };
  }

  async find(pool, from, to, maxDepth) {
    if (from === to) return [from];
    const connection = await pool.getConnection();
    try {
      await this.#prepare(connection);
      return await this.#search(connection, from, to, maxDepth);
    } finally {
      connection.release();
    }
  }

  // Creates the tables once per connection; the driver keeps the same connection object while it lives.
  async #prepare(connection) {
    if (this.#prepared.has(connection.connection)) return;
    await connection.query(`SET SESSION max_heap_table_size = ${TABLE_BYTES}`);
    for (const { visited, frontier } of Object.values(this.#tables)) {
      await connection.query(`
        CREATE TEMPORARY TABLE IF NOT EXISTS ${visited}
          (node ${KEY_TYPE} NOT NULL PRIMARY KEY, parent ${KEY_TYPE} NULL, depth TINYINT UNSIGNED NOT NULL,
           INDEX USING BTREE (depth))
        ENGINE=MEMORY`);
      await connection.query(
        `CREATE TEMPORARY TABLE IF NOT EXISTS ${frontier} (node ${KEY_TYPE} NOT NULL PRIMARY KEY) ENGINE=MEMORY`);
    }
    this.#prepared.add(connection.connection);
  }

  async #search(connection, from, to, maxDepth) {
    const forward = this.#side(connection, 'forward', 'backward', '_from', '_to');
    const backward = this.#side(connection, 'backward', 'forward', '_to', '_from');
    await forward.start(from);
    await backward.start(to);
    while (forward.depth + backward.depth < maxDepth) {
      const current = forward.frontier <= backward.frontier ? forward : backward;
      const edge = await current.meet();
      if (edge !== undefined) return this.#path(connection, edge);
      // A level is only worth building when a later step could still close a path within maxDepth.
      if (forward.depth + backward.depth + 1 >= maxDepth) return null;
      if (await current.expand() === 0) return null;
    }
    return null;
  }

  // The statements of one search direction: `near`/`far` are the column of the node already visited and of
  // the node one hop further in this direction (_from/_to forward, _to/_from backward).
  #side(connection, name, otherName, near, far) {
    const { visited, frontier } = this.#tables[name];
    const other = this.#tables[otherName].visited;
    const relations = this.#relations;
    const side = {
      key: null,
      depth: 0,
      frontier: 1,
      async start(key) {
        side.key = key;
        await connection.execute(`TRUNCATE TABLE ${visited}`);
        await connection.execute(`INSERT INTO ${visited} (node, parent, depth) VALUES (?, NULL, 0)`, [key]);
      },
      // Reads both trees and writes nothing, so it needs no frontier copy.
      async meet() {
        const [rows] = await connection.execute(`
          SELECT STRAIGHT_JOIN r._from AS head, r._to AS tail
          FROM ${visited} AS f JOIN ${relations} AS r ON r.${near} = f.node JOIN ${other} AS o ON o.node = r.${far}
          WHERE f.depth = ? LIMIT 1`, [side.depth]);
        return rows[0];
      },
      // INSERT IGNORE keeps the first parent of each node, and nodes already visited keep their smaller depth.
      // The first level starts from the start key itself, so it needs no frontier copy either.
      async expand() {
        let result;
        if (side.depth === 0) {
          [result] = await connection.execute(`
            INSERT IGNORE INTO ${visited} (node, parent, depth)
            SELECT r.${far}, r.${near}, 1 FROM ${relations} AS r WHERE r.${near} = ?`, [side.key]);
        } else {
          await connection.execute(`TRUNCATE TABLE ${frontier}`);
          await connection.execute(`INSERT INTO ${frontier} (node) SELECT node FROM ${visited} WHERE depth = ?`,
            [side.depth]);
          [result] = await connection.execute(`
            INSERT IGNORE INTO ${visited} (node, parent, depth)
            SELECT STRAIGHT_JOIN r.${far}, r.${near}, ?
            FROM ${frontier} AS f JOIN ${relations} AS r ON r.${near} = f.node`, [side.depth + 1]);
        }
        side.depth += 1;
        side.frontier = result.affectedRows;
        return result.affectedRows;
      },
    };
    return side;
  }

  // One statement follows the parents from both ends of the closing relation: `head` back to `from` in the
  // forward tree, `tail` on to `to` in the backward tree. Each recursive CTE reads its table once, which
  // Oracle MySQL allows for TEMPORARY tables too.
  async #path(connection, { head, tail }) {
    const chain = (name, visited) => `
      ${name} (node, hops) AS (
        SELECT CAST(? AS CHAR(32) CHARACTER SET utf8mb4) COLLATE utf8mb4_bin, 0
        UNION ALL
        SELECT v.parent, c.hops + 1 FROM ${name} AS c JOIN ${visited} AS v ON v.node = c.node
        WHERE v.parent IS NOT NULL
      )`;
    const [rows] = await connection.execute(`
      WITH RECURSIVE ${chain('head', this.#tables.forward.visited)}, ${chain('tail', this.#tables.backward.visited)}
      SELECT node, hops, 0 AS side FROM head
      UNION ALL
      SELECT node, hops, 1 AS side FROM tail`, [head, tail]);
    const chainOf = (side) => rows.filter((row) => row.side === side).sort((a, b) => a.hops - b.hops)
      .map(({ node }) => node);
    return chainOf(0).reverse().concat(chainOf(1));
  }
}
