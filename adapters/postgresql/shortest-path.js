// Shortest path by level-synchronous bidirectional breadth-first search, run entirely by the server: a PL/pgSQL
// function in the namespace's schema, one call per path, at most two queries per level.
//
// Each side keeps its visited nodes in a jsonb object, node -> the neighbour one hop closer to that side's start
// (null for the start itself). jsonb objects keep their keys sorted, so `visited ? node` is a binary search and
// `visited ->> node` walks a path back; no table is created or shared, so concurrent calls on any number of
// sessions never interfere, and nothing is left to clean up.
//
// A level works on the side with the smaller frontier, in two steps, each one index-only scan of a covering
// relation index for all frontier nodes at once (`= ANY (frontier)`):
//   1. meet: the first relation from this side's frontier to a node the other side has visited closes a path;
//   2. expand: otherwise the frontier moves one hop, skipping nodes this side has visited; jsonb_object_agg
//      keeps one parent per new node. A side that finds no new node has visited everything it reaches: no path.
// Correctness: with `hops` = the two sides' depths added, no path has at most `hops` hops (true at the start,
// from <> to). A path of hops + 1 would run through a node of this side's frontier and, one hop on, a node the
// other side has visited, so step 1 finds a path of exactly hops + 1 when there is one, and otherwise expanding
// keeps the invariant for hops + 1. The last level, usually the largest, is never expanded: step 1 stops at its
// first meeting.
//
// STABLE: every query of one call reads the snapshot of the calling statement, so a search sees one state of
// the relations.
export function shortestPathFunctionSql(names) {
  const { relations, shortestPath } = names;
  return `
    CREATE FUNCTION ${shortestPath}(source text, target text, max_depth integer)
    RETURNS text[] LANGUAGE plpgsql STABLE AS $body$
    DECLARE
      forward jsonb := jsonb_build_object(source, NULL);
      backward jsonb := jsonb_build_object(target, NULL);
      forward_frontier text[] := ARRAY[source];
      backward_frontier text[] := ARRAY[target];
      hops integer := 0;
      added jsonb;
      near text;
      far text;
      node text;
      path text[];
    BEGIN
      WHILE hops < max_depth LOOP
        IF cardinality(forward_frontier) <= cardinality(backward_frontier) THEN
          SELECT r._from, r._to INTO near, far
          FROM ${relations} AS r
          WHERE r._from = ANY (forward_frontier) AND backward ? r._to
          LIMIT 1;
          EXIT WHEN FOUND OR hops + 1 = max_depth;
          SELECT jsonb_object_agg(r._to, r._from) INTO added
          FROM ${relations} AS r
          WHERE r._from = ANY (forward_frontier) AND NOT (forward ? r._to);
          EXIT WHEN added IS NULL;
          forward := forward || added;
          forward_frontier := ARRAY(SELECT jsonb_object_keys(added));
        ELSE
          SELECT r._from, r._to INTO near, far
          FROM ${relations} AS r
          WHERE r._to = ANY (backward_frontier) AND forward ? r._from
          LIMIT 1;
          EXIT WHEN FOUND OR hops + 1 = max_depth;
          SELECT jsonb_object_agg(r._from, r._to) INTO added
          FROM ${relations} AS r
          WHERE r._to = ANY (backward_frontier) AND NOT (backward ? r._from);
          EXIT WHEN added IS NULL;
          backward := backward || added;
          backward_frontier := ARRAY(SELECT jsonb_object_keys(added));
        END IF;
        hops := hops + 1;
      END LOOP;
      -- near (visited forward) -> far (visited backward) is the meeting relation, if any.
      IF near IS NULL THEN
        RETURN NULL;
      END IF;
      path := ARRAY[near, far];
      node := forward ->> near;
      WHILE node IS NOT NULL LOOP
        path := array_prepend(node, path);
        node := forward ->> node;
      END LOOP;
      node := backward ->> far;
      WHILE node IS NOT NULL LOOP
        path := array_append(path, node);
        node := backward ->> node;
      END LOOP;
      RETURN path;
    END
    $body$;
  `;
}
