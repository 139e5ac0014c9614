// The graph suite's answer checks: each returns null for a right answer, else what differs. Edges are flat
// objects of exactly `source`, `target` and `weight`, all numbers; lists of edges and of ids are compared as
// multisets (any order, every element once as often as expected).
import { abbreviate, documentDifference } from '../compare.js';

const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const edgeText = ({ source, target, weight }) => `${source}->${target} (${weight})`;

export function edgeProblem(expected, got) {
  if (expected === null) return got === null ? null : `expected no edge (null), got ${abbreviate(got)}`;
  if (got === null || got === undefined) return `expected ${edgeText(expected)}, got ${abbreviate(got)}`;
  return documentDifference(expected, got);
}

// The first element of `got` that is not in `expected` (or appears more often), or the first missing one.
function multisetProblem(expected, got, key, describe) {
  const wanted = new Map();
  for (const item of expected) wanted.set(key(item), (wanted.get(key(item)) ?? 0) + 1);
  for (const item of got) {
    const k = key(item);
    const left = wanted.get(k) ?? 0;
    if (left === 0) return `${describe(item)} is not expected${expected.length === got.length ? '' : ` (expected ${expected.length} items, got ${got.length})`}`;
    wanted.set(k, left - 1);
  }
  for (const [k, left] of wanted) if (left > 0) return `missing ${k} (expected ${expected.length} items, got ${got.length})`;
  return null;
}

export function edgeListProblem(expected, got) {
  if (!Array.isArray(got)) return `expected an array of ${expected.length} edges, got ${abbreviate(got)}`;
  const bad = got.findIndex((edge) => !isEdge(edge));
  if (bad >= 0) return `an element is ${abbreviate(got[bad])}, not an edge { source, target, weight } of integer numbers`;
  return multisetProblem(expected, got, edgeText, (edge) => `edge ${edgeText(edge)}`);
}

const EDGE_FIELDS = ['source', 'target', 'weight'];

// Exactly the three fields, own ones, each an integer number.
function isEdge(value) {
  if (!isPlainObject(value)) return false;
  const fields = Object.keys(value);
  return fields.length === EDGE_FIELDS.length && EDGE_FIELDS.every((field) => Object.hasOwn(value, field) && Number.isInteger(value[field]));
}

export function idListProblem(expected, got) {
  if (!Array.isArray(got)) return `expected an array of ${expected.length} ids, got ${abbreviate(got)}`;
  const bad = got.find((id) => typeof id !== 'number' || !Number.isInteger(id));
  if (bad !== undefined) return `an id is ${abbreviate(bad)}, not an integer number`;
  return multisetProblem(expected, got, String, (id) => `id ${id}`);
}

export function countProblem(expected, got) {
  return documentDifference(expected, got);
}
