// Shortest path as one statement executed by DuckDB: a level-synchronous bidirectional breadth-first search
// written as a recursive CTE with USING KEY (DuckDB 1.3+). Its recursive table is keyed by (node, dir), so it
// holds each node a side visited once, with one parent on a shortest route and its distance from that side's
// start: `dir` 'f' searches forward from `from` along _from -> _to, 'b' backward from `to` along _to -> _from.
//
// In the recursive member `search` is the working table (the rows the last iteration produced) and
// `recurring.search` everything found so far. The working table always holds both frontiers: each iteration
// expands the smaller one by one level (its new nodes, each with one parent) and carries the other one over
// unchanged. It stops when a frontier node of one side is a node of the other (they met), when a side's frontier
// is empty (that side is exhausted: the backward side then holds every node that reaches `to`, and `from`, which
// the forward side holds, is not among them, so there is no path), or when depthF + depthB reached maxDepth.
//
// Minimal: while no node is in both sides, every path is longer than depthF + depthB, so the first level that
// makes the sides meet closes a path of depthF + depthB hops (after it), and the meeting node of smallest
// depthF + depthB is on a shortest path. The path is read back from there along the parents of both sides.
export function shortestPathSql({ relations }) {
  return `
    WITH RECURSIVE
      search (node, dir, parent, depth) USING KEY (node, dir) AS (
        SELECT $from::VARCHAR, 'f', NULL::VARCHAR, 0
        UNION ALL
        SELECT $to::VARCHAR, 'b', NULL::VARCHAR, 0
        UNION
        (WITH
          frontier AS (SELECT node, dir, parent, depth FROM search),
          sizes AS (
            SELECT count(*) FILTER (dir = 'f') AS forward, count(*) FILTER (dir = 'b') AS backward,
                   max(depth) FILTER (dir = 'f') + max(depth) FILTER (dir = 'b') AS hops
            FROM frontier
          ),
          side AS (
            SELECT CASE WHEN forward <= backward THEN 'f' ELSE 'b' END AS dir FROM sizes
            WHERE forward > 0 AND backward > 0 AND hops < $maxDepth
              AND NOT EXISTS (SELECT 1 FROM frontier AS w JOIN recurring.search AS o ON o.node = w.node AND o.dir <> w.dir)
          )
        SELECT r._to, 'f', any_value(r._from), any_value(s.depth) + 1
        FROM frontier AS s JOIN ${relations} AS r ON r._from = s.node
        WHERE s.dir = 'f' AND (SELECT dir FROM side) = 'f'
          AND r._to NOT IN (SELECT v.node FROM recurring.search AS v WHERE v.dir = 'f')
        GROUP BY r._to
        UNION ALL
        SELECT r._from, 'b', any_value(r._to), any_value(s.depth) + 1
        FROM frontier AS s JOIN ${relations} AS r ON r._to = s.node
        WHERE s.dir = 'b' AND (SELECT dir FROM side) = 'b'
          AND r._from NOT IN (SELECT v.node FROM recurring.search AS v WHERE v.dir = 'b')
        GROUP BY r._from
        UNION ALL
        SELECT node, dir, parent, depth FROM frontier WHERE dir <> (SELECT dir FROM side))
      ),
      meeting AS (
        SELECT f.node, f.depth + b.depth AS hops
        FROM search AS f JOIN search AS b ON b.node = f.node AND f.dir = 'f' AND b.dir = 'b'
        ORDER BY hops
        LIMIT 1
      ),
      head (node, parent, position) AS (
        SELECT s.node, s.parent, 0 FROM search AS s JOIN meeting AS m ON s.node = m.node WHERE s.dir = 'f'
        UNION ALL
        SELECT s.node, s.parent, h.position - 1 FROM head AS h JOIN search AS s ON s.node = h.parent WHERE s.dir = 'f'
      ),
      tail (node, parent, position) AS (
        SELECT s.node, s.parent, 0 FROM search AS s JOIN meeting AS m ON s.node = m.node WHERE s.dir = 'b'
        UNION ALL
        SELECT s.node, s.parent, t.position + 1 FROM tail AS t JOIN search AS s ON s.node = t.parent WHERE s.dir = 'b'
      )
    SELECT node FROM (SELECT node, position FROM head UNION ALL SELECT node, position FROM tail WHERE position > 0)
    WHERE (SELECT hops FROM meeting) <= $maxDepth
    ORDER BY position
  `;
}
