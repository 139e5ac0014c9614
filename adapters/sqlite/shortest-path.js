// Shortest path by level-synchronous bidirectional breadth-first search, run entirely by SQLite: each level is
// one INSERT ... SELECT that joins the current frontier of a TEMP "visited" table with a covering relation index.
//
// Correctness: a side's table holds every node within its depth, with its BFS distance and one parent on a
// shortest route. Until a meeting is found, the shortest path is longer than depthF + depthB (else a node on it
// would already be in both tables), so any node met right after a level closes a path of exactly
// depthF + depthB hops: minimal, and no ordering among meeting nodes is needed.
//
// better-sqlite3 is synchronous: one find() runs start to finish without any other statement on this
// connection in between, so the same two TEMP tables are reused, cleared at the start of every call.

export class PathFinder {
  #forward;
  #backward;
  #clear;
  #transaction;

  constructor(db, tables) {
    db.exec(`
      CREATE TEMP TABLE IF NOT EXISTS ${tables.pathForward}
        (node TEXT PRIMARY KEY NOT NULL, parent TEXT, depth INTEGER NOT NULL) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS temp.${tables.pathForward}_depth ON ${tables.pathForward} (depth);
      CREATE TEMP TABLE IF NOT EXISTS ${tables.pathBackward}
        (node TEXT PRIMARY KEY NOT NULL, parent TEXT, depth INTEGER NOT NULL) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS temp.${tables.pathBackward}_depth ON ${tables.pathBackward} (depth);
    `);
    const forward = `temp.${tables.pathForward}`;
    const backward = `temp.${tables.pathBackward}`;
    this.#forward = side(db, forward, backward, tables.relations, '_from', '_to');
    this.#backward = side(db, backward, forward, tables.relations, '_to', '_from');
    this.#clear = [db.prepare(`DELETE FROM ${forward}`), db.prepare(`DELETE FROM ${backward}`)];
    // One read snapshot for the whole search: every level sees the same relations.
    this.#transaction = db.transaction((from, to, maxDepth) => this.#search(from, to, maxDepth));
  }

  find(from, to, maxDepth) {
    if (from === to) return [from];
    return this.#transaction(from, to, maxDepth);
  }

  #search(from, to, maxDepth) {
    for (const clear of this.#clear) clear.run();
    const forward = { ...this.#forward, depth: 0, frontier: 1 };
    const backward = { ...this.#backward, depth: 0, frontier: 1 };
    forward.seed.run(from);
    backward.seed.run(to);
    while (forward.depth + backward.depth < maxDepth) {
      const current = forward.frontier <= backward.frontier ? forward : backward;
      const added = current.expand.run({ depth: current.depth }).changes;
      if (added === 0) return null;
      current.depth += 1;
      current.frontier = added;
      const meeting = current.meet.get(current.depth);
      if (meeting !== undefined) {
        const head = forward.chain.all(meeting).reverse();
        const tail = backward.chain.all(meeting);
        return head.concat(tail.slice(1));
      }
    }
    return null;
  }
}

// The statements of one search direction: `near`/`far` are the column of the node already visited and of the
// node one hop further in this direction (_from/_to forward, _to/_from backward).
function side(db, visited, other, relations, near, far) {
  return {
    seed: db.prepare(`INSERT INTO ${visited} (node, parent, depth) VALUES (?, NULL, 0)`),
    // CROSS JOIN pins the join order: frontier first, then the covering index on (near, far).
    expand: db.prepare(`
      INSERT OR IGNORE INTO ${visited} (node, parent, depth)
      SELECT r.${far}, r.${near}, @depth + 1
      FROM ${visited} AS v CROSS JOIN ${relations} AS r ON r.${near} = v.node
      WHERE v.depth = @depth
    `),
    meet: db.prepare(`
      SELECT v.node FROM ${visited} AS v CROSS JOIN ${other} AS o ON o.node = v.node
      WHERE v.depth = ?
      LIMIT 1
    `).pluck(),
    // From the meeting node back to this side's start, one parent at a time.
    chain: db.prepare(`
      WITH RECURSIVE chain (node, parent, depth) AS (
        SELECT node, parent, depth FROM ${visited} WHERE node = ?
        UNION ALL
        SELECT v.node, v.parent, v.depth FROM ${visited} AS v JOIN chain AS c ON v.node = c.parent
      )
      SELECT node FROM chain ORDER BY depth DESC
    `).pluck(),
  };
}
