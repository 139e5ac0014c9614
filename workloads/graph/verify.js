// The whole edge collection against the edge list, off the clock: every stored edge, read back through
// `adapter.graph.scan()` one batch at a time (the adapter's pages or cursor), is looked up in the reference (a binary search in its source's
// out-edges) and marked seen, so that a changed weight, an edge the edge list lacks, a pair stored twice and, once
// the scan ends, every edge never seen are each found and named. The write workloads' pairs are expected as they
// wrote them (`written`); `tolerant` accepts each of those pairs either as the edge list has it or as written
// (what a run interrupted before its undo leaves), and nothing else.
import { abbreviate } from '../compare.js';
import { UNDO_BATCH_SIZE } from './operations.js';

// The differences kept to be named; beyond them only counted.
export const MAX_DIFFERENCES = 100;

const pairKey = (source, target) => `${source} ${target}`;
const isId = (value) => Number.isInteger(value) && value >= 0 && value <= 0x7fffffff;

// What a write workload leaves: the pairs it upserted with their weights, the pairs it removed as null.
export function writtenState({ upserted = [], removed = [] } = {}) {
  const written = new Map();
  for (const { source, target, weight } of upserted) written.set(pairKey(source, target), { source, target, weight });
  for (const { source, target } of removed) written.set(pairKey(source, target), { source, target, weight: null });
  return written;
}

// Resolves { edges, differences, count, pending }: the rows scanned; the first MAX_DIFFERENCES differences as
// { source, target, problem }, `count` of them all; `pending`, the written pairs found as written (tolerant only).
export async function verifyStore(adapter, collection, reference, { written = new Map(), tolerant = false } = {}) {
  const differences = [];
  let count = 0;
  const differ = (source, target, problem) => {
    count += 1;
    if (differences.length < MAX_DIFFERENCES) differences.push({ source, target, problem: `edge ${source}->${target} ${problem}` });
  };
  // The written pairs by their index in the reference (existing edges) or by key (new pairs).
  const writtenAt = new Map();
  const writtenNew = new Map();
  for (const [key, edge] of written) {
    const at = reference.find(edge.source, edge.target);
    if (at >= 0) writtenAt.set(at, edge.weight);
    else writtenNew.set(key, edge);
  }
  const seen = new Uint8Array(reference.length);
  const seenNew = new Map();
  let pending = 0;
  let edges = 0;
  // A weight `found` for a pair whose edge list weight is `original` (null: not an edge) and written weight
  // `wanted` (undefined: not written; null: removed).
  const judge = (source, target, found, original, wanted) => {
    const expected = wanted === undefined ? original : wanted;
    if (found === expected) {
      if (tolerant && wanted !== undefined && wanted !== original) pending += 1;
      return;
    }
    if (tolerant && wanted !== undefined) {
      if (found === original) return;
      // Either the edge list's weight or the written one (a pair present in neither state was not reached here).
      differ(source, target, `holds weight ${found}, expected ${[original, wanted].filter((weight) => weight !== null).join(' or ')}`);
      return;
    }
    if (expected === null) differ(source, target, `(weight ${found}) is stored, but ${original === null ? 'is not in the edge list' : 'was removed'}`);
    else differ(source, target, `holds weight ${found}, expected ${expected}`);
  };
  await adapter.graph.scan(collection, (batch) => {
    if (!Array.isArray(batch)) throw new Error(`graph.scan() yielded ${abbreviate(batch)}, not an array of edges`);
    for (const edge of batch) {
      edges += 1;
      const { source, target, weight } = edge ?? {};
      if (!isId(source) || !isId(target) || !Number.isInteger(weight)) {
        differ(edge?.source, edge?.target, `is stored as ${abbreviate(edge)}, not { source, target, weight } of integer numbers`);
        continue;
      }
      const at = reference.find(source, target);
      if (at >= 0) {
        seen[at] = Math.min(seen[at] + 1, 255);
        if (seen[at] > 1) differ(source, target, `is stored more than once (again with weight ${weight})`);
        else judge(source, target, weight, reference.weight[at], writtenAt.has(at) ? writtenAt.get(at) : undefined);
        continue;
      }
      const key = pairKey(source, target);
      const times = (seenNew.get(key) ?? 0) + 1;
      seenNew.set(key, times);
      if (times > 1) differ(source, target, `is stored more than once (again with weight ${weight})`);
      else judge(source, target, weight, null, writtenNew.has(key) ? writtenNew.get(key).weight : undefined);
    }
  });
  for (let at = 0; at < reference.length; at += 1) {
    if (seen[at] > 0) continue;
    const wanted = writtenAt.has(at) ? writtenAt.get(at) : undefined;
    if (wanted === null) {
      if (tolerant) pending += 1;
    } else {
      differ(reference.source[at], reference.target[at], `(weight ${tolerant ? reference.weight[at] : wanted ?? reference.weight[at]}) is missing`);
    }
  }
  for (const [key, { source, target, weight }] of writtenNew) {
    if (weight !== null && !seenNew.has(key) && !tolerant) differ(source, target, `(weight ${weight}) is missing`);
  }
  return { edges, differences, count, pending };
}

// The differences in a sentence: the first few named, the rest counted.
export function describeDifferences({ differences, count }, shown = 3) {
  const named = differences.slice(0, shown).map(({ problem }) => problem).join('; ');
  return count > shown ? `${named}; and ${count - shown} more` : named;
}

// Puts every pair of `differences` back as the edge list has it: pairs stored that should not be (or twice) are
// removed, then the edge list's edge of every differing pair that has one is upserted.
export async function repairStore(adapter, collection, reference, differences) {
  const pairs = new Map();
  for (const { source, target } of differences) if (isId(source) && isId(target)) pairs.set(pairKey(source, target), { source, target });
  const all = [...pairs.values()];
  const originals = all.map(({ source, target }) => reference.findEdge(source, target)).filter(Boolean);
  for (let i = 0; i < all.length; i += UNDO_BATCH_SIZE) await adapter.graph.removeEdges(collection, all.slice(i, i + UNDO_BATCH_SIZE));
  for (let i = 0; i < originals.length; i += UNDO_BATCH_SIZE) await adapter.graph.upsertEdges(collection, originals.slice(i, i + UNDO_BATCH_SIZE));
}
