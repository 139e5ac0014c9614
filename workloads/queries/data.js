// The queries suite's data: generated, deterministic, the documents of the 2015 AQL shootout. In a collection of n
// documents, document i (0 <= i < n) is
//   { _key: "test" + i, value1: i, value2: "test" + i, value3: i, value4: "test" + i,
//     value5: i, value6: "test" + i, value7: i % g, value8: "test" + (i % g) }
// with g = n / 100 groups (the shootout's script: `var g = n / 100;`), so every group holds 100 documents: 100
// groups on 10k, 1,000 on 100k, 10,000 on 1M. value1 and value2 carry an equality (hash) index, value3 and value4 a
// sorted (B-tree, skiplist) index, value5 to value8 none. value1 to value6 are unique; value7 and value8 repeat.
import { usageError } from '../../core/errors.js';

export const DOCUMENTS_PER_GROUP = 100;
// The sizes a run may name; the shootout's three are the default. 1k serves quick checks (`bench check`, CI).
export const SIZES = Object.freeze({ '1k': 1_000, '10k': 10_000, '100k': 100_000, '1M': 1_000_000 });
export const DEFAULT_SIZES = Object.freeze(['10k', '100k', '1M']);
// Bumped whenever the documents or the collections' layout change, so that a stored collection of an older
// generation is loaded again instead of reused. 2: the groups follow the size (n / 100), as the shootout's did.
export const GENERATION = 2;

export const INDEXES = Object.freeze({
  hash: Object.freeze(['value1', 'value2']),
  sorted: Object.freeze(['value3', 'value4']),
});

// The number of groups of value7 and value8 in a collection of n documents: n / 100 for every size the suite
// loads (all multiples of 100); a smaller collection (a test's) has one group.
export function groupsOf(n) {
  return Math.max(1, Math.floor(n / DOCUMENTS_PER_GROUP));
}

// Document i of a collection of n documents.
export function queryDocument(i, n) {
  const text = `test${i}`;
  const group = i % groupsOf(n);
  return {
    _key: text, value1: i, value2: text, value3: i, value4: text, value5: i, value6: text, value7: group, value8: `test${group}`,
  };
}

// The collection of one size in the namespace: `values10k`, `values1m` (letters and digits, lower case, so that
// every database stores the name as given).
export function collectionName(size) {
  return `values${size.toLowerCase()}`;
}

// `--size 10k,1M` → ['10k', '1M'], in the order given, each once; anything else is a usage error (exit 2).
export function parseSizes(value) {
  const given = String(value).split(',').map((part) => part.trim()).filter((part) => part.length > 0);
  const valid = Object.keys(SIZES);
  const unknown = given.filter((size) => !Object.hasOwn(SIZES, size));
  if (given.length === 0 || unknown.length > 0) {
    throw usageError(`--size must be a comma-separated list of ${valid.join(', ')}; got ${JSON.stringify(String(value))}`);
  }
  return [...new Set(given)];
}

// Documents [from, to) of a collection of n documents, as the loader sends them in batches.
export function queryDocuments(from, to, n) {
  return Array.from({ length: to - from }, (_, k) => queryDocument(from + k, n));
}
