// The shortest-path search, driven from Node one level at a time: each level is one server-side query (see
// social.js) for the whole frontier, and only this search's frontiers and visited nodes are held here, never
// the graph. It takes the queries as an interface, so the same code runs against MongoDB and, in the unit tests,
// against an in-memory stub of these query functions.
//
//   queries.outgoing(keys) -> the relations { _from, _to } whose `_from` is one of `keys`
//   queries.incoming(keys) -> the relations { _from, _to } whose `_to` is one of `keys`

// Level-synchronous bidirectional breadth-first search. Each side maps every node it has visited to its
// neighbour one hop closer to that side's start (null for the start). A level expands the side with the
// smaller frontier: one query for all of the frontier's relations (outgoing forward, incoming backward).
//
// Correctness: with `hops` the two sides' depths added, no path has at most `hops` hops (true at the start,
// from !== to), and each frontier holds exactly the nodes at its side's depth. A path of hops + 1 would run
// through a node of the expanded frontier and, one hop on, a node the other side has visited; so the first
// such relation in the level's answer closes a path of exactly hops + 1, which is minimal. Without one, the
// invariant holds for hops + 1. A side that finds no new node has visited everything it reaches: no path.
export async function shortestPath(queries, from, to, maxDepth) {
  if (from === to) return [from];
  const forward = { parents: new Map([[from, null]]), frontier: [from] };
  const backward = { parents: new Map([[to, null]]), frontier: [to] };
  for (let hops = 0; hops < maxDepth; hops += 1) {
    const isForward = forward.frontier.length <= backward.frontier.length;
    const [side, other] = isForward ? [forward, backward] : [backward, forward];
    const relations = await (isForward ? queries.outgoing(side.frontier) : queries.incoming(side.frontier));
    const next = [];
    for (const relation of relations) {
      const [near, far] = isForward ? [relation._from, relation._to] : [relation._to, relation._from];
      // The relation always runs from a node the forward side has visited to one the backward side has.
      if (other.parents.has(far)) return joinPath(forward.parents, backward.parents, relation._from, relation._to);
      if (!side.parents.has(far)) {
        side.parents.set(far, near);
        next.push(far);
      }
    }
    if (next.length === 0) return null;
    side.frontier = next;
  }
  return null;
}

// `head` back to the forward start, then `tail` on to the backward start.
function joinPath(forwardParents, backwardParents, head, tail) {
  const path = [];
  for (let node = head; node !== null; node = forwardParents.get(node)) path.push(node);
  path.reverse();
  for (let node = tail; node !== null; node = backwardParents.get(node)) path.push(node);
  return path;
}
