// Shortest path as one statement executed by DuckDB: a breadth-first search written as a recursive CTE with
// USING KEY (DuckDB 1.3+), whose recursive table is keyed by node, so it holds each visited node once, with one
// parent on a shortest route and its distance from `from`.
//
// Each iteration joins only the last level (the working table, `search`) with the relations, keeps the targets
// no earlier level reached (`recurring.search` is the whole table so far) and gives each new node one parent
// (GROUP BY). Every level is one hop further than the one before, so the first level that reaches `to` gives
// it its distance, which is minimal; once `to` is in the table, or the levels reached maxDepth, or a level
// found no new node, the recursion ends. The path is read back from `to` along the parents.
//
// The anchor needs `to` to have an incoming relation: without one no path exists (the hardPath case), and
// the search would otherwise visit everything reachable from `from` to find that out. A bidirectional search
// knows this after its first backward step; this is that step.
export function shortestPathSql({ relations }) {
  return `
    WITH RECURSIVE
      search (node, parent, depth) USING KEY (node) AS (
        SELECT $from::VARCHAR, NULL::VARCHAR, 0
        WHERE EXISTS (SELECT 1 FROM ${relations} WHERE _to = $to)
        UNION
        SELECT r._to, any_value(r._from), any_value(s.depth) + 1
        FROM search AS s JOIN ${relations} AS r ON r._from = s.node
        WHERE s.depth < $maxDepth
          AND NOT EXISTS (SELECT 1 FROM recurring.search AS v WHERE v.node = $to)
          AND r._to NOT IN (SELECT v.node FROM recurring.search AS v)
        GROUP BY r._to
      ),
      route (node, parent, depth) AS (
        SELECT node, parent, depth FROM search WHERE node = $to
        UNION ALL
        SELECT s.node, s.parent, s.depth FROM route AS p JOIN search AS s ON s.node = p.parent
      )
    SELECT node FROM route ORDER BY depth
  `;
}
