// The 32 query cases of the 2015 AQL shootout (the publication counts 33 but names these 32), each defined once,
// database-neutral: what it computes over one collection of the suite's documents (workloads/queries/data.js),
// the parameters the harness passes with it, the rows it answers and in which order, and the reference answer,
// computed here from the documents alone. workloads/README.md ("The queries suite") states the same definitions
// in prose; every adapter expresses each case in its own query language (adapters/<id>/queries.js).
//
// Rows: `documents` are whole documents in the shape they were written (own fields only: `_key`, value1..value8,
// numbers as JavaScript numbers, no system fields); `numbers` and `strings` are bare values; `pairs` are
// two-element arrays. `order: 'any'` answers are compared as multisets, `'ascending'` ones row by row. A case
// whose reference is another's (`sameReferenceAs`: the joins answer every document, as extract-doc does) shares
// its digest.
import { GROUPS, queryDocument } from './data.js';

export const LOOKUP_COUNT = 10_000;
export const FILTER_NUMBER = 333;
export const FILTER_STRING = 'test333';
export const MERGE_OBJECT = Object.freeze({ testValue: 'merged', testNumber: 1 });
export const KEPT = Object.freeze(['_key', 'value1', 'value2']);
export const UNSET = Object.freeze(['value1', 'value2']);

// Code-point order of strings (JavaScript's `<` on these ASCII strings), the order `ascending` means for text.
export const byValue = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function* documents(n) {
  for (let i = 0; i < n; i += 1) yield queryDocument(i);
}

const all = (n, map) => Array.from(documents(n), map);

// The IN list of the lookups: LOOKUP_COUNT values spread evenly over the collection (every `step`-th document;
// on a collection smaller than the list, the values past its end find nothing).
export function lookupIndexes(n) {
  const step = Math.max(1, Math.floor(n / LOOKUP_COUNT));
  return Array.from({ length: LOOKUP_COUNT }, (_, k) => k * step);
}

function distinctGroups(n, attribute) {
  return [...new Set(all(n, (doc) => doc[attribute]))];
}

function groupCounts(n, attribute) {
  const counts = new Map();
  for (const doc of documents(n)) counts.set(doc[attribute], (counts.get(doc[attribute]) ?? 0) + 1);
  return [...counts];
}

const extreme = (n, attribute, pick) => {
  const values = all(n, (doc) => doc[attribute]);
  return n === 0 ? [] : [values.reduce((best, value) => (byValue(value, best) * pick < 0 ? value : best))];
};

function lookup(n, attribute, values) {
  const wanted = new Set(values);
  return all(n, (doc) => doc).filter((doc) => wanted.has(doc[attribute]));
}

const lookupValues = (numeric) => (n) => lookupIndexes(n).map((i) => (numeric ? i : `test${i}`));

const join = (name, attribute, description) => ({
  name,
  rows: 'documents',
  order: 'any',
  description,
  params: () => ({ attribute }),
  reference: (n) => all(n, (doc) => doc),
  sameReferenceAs: 'extract-doc',
});

const lookupCase = (name, attribute, numeric, index) => ({
  name,
  rows: 'documents',
  order: 'any',
  description: `the documents whose ${attribute} is in a list of ${LOOKUP_COUNT.toLocaleString('en-US')} ${numeric ? 'numbers' : 'strings'} (one IN list, ${index})`,
  params: (n) => ({ attribute, values: lookupValues(numeric)(n) }),
  reference: (n, { values }) => lookup(n, attribute, values),
});

export const CASES = Object.freeze([
  {
    name: 'collect-number',
    rows: 'numbers',
    order: 'any',
    description: `the distinct values of value7 (a number repeating over ${GROUPS} groups), each once`,
    params: () => ({ attribute: 'value7' }),
    reference: (n) => distinctGroups(n, 'value7'),
  },
  {
    name: 'collect-string',
    rows: 'strings',
    order: 'any',
    description: `the distinct values of value8 (a string repeating over ${GROUPS} groups), each once`,
    params: () => ({ attribute: 'value8' }),
    reference: (n) => distinctGroups(n, 'value8'),
  },
  {
    name: 'collect-count-number',
    rows: 'pairs',
    order: 'any',
    description: 'each distinct value of value7 with the number of documents holding it: [value, count]',
    params: () => ({ attribute: 'value7' }),
    reference: (n) => groupCounts(n, 'value7'),
  },
  {
    name: 'collect-count-string',
    rows: 'pairs',
    order: 'any',
    description: 'each distinct value of value8 with the number of documents holding it: [value, count]',
    params: () => ({ attribute: 'value8' }),
    reference: (n) => groupCounts(n, 'value8'),
  },
  {
    name: 'subquery',
    rows: 'pairs',
    order: 'any',
    description: 'for each document, a correlated subquery counting the documents with the same value1: [_key, count]',
    params: () => ({ attribute: 'value1' }),
    reference: (n) => {
      const counts = new Map(groupCounts(n, 'value1'));
      return all(n, (doc) => [doc._key, counts.get(doc.value1)]);
    },
  },
  {
    name: 'concat',
    rows: 'strings',
    order: 'any',
    description: 'for each document, _key, "-" and value5 (a number, written in decimal) concatenated into one string',
    params: () => ({ attribute: 'value5' }),
    reference: (n) => all(n, (doc) => `${doc._key}-${doc.value5}`),
  },
  {
    name: 'merge',
    rows: 'documents',
    order: 'any',
    description: `each document merged with the constant object ${JSON.stringify(MERGE_OBJECT)} (its fields added)`,
    params: () => ({ object: { ...MERGE_OBJECT } }),
    reference: (n) => all(n, (doc) => ({ ...doc, ...MERGE_OBJECT })),
  },
  {
    name: 'keep',
    rows: 'documents',
    order: 'any',
    description: `each document reduced to the named fields ${KEPT.join(', ')}`,
    params: () => ({ attributes: [...KEPT] }),
    reference: (n) => all(n, (doc) => Object.fromEntries(KEPT.map((name) => [name, doc[name]]))),
  },
  {
    name: 'unset',
    rows: 'documents',
    order: 'any',
    description: `each document without the named fields ${UNSET.join(', ')}`,
    params: () => ({ attributes: [...UNSET] }),
    reference: (n) => all(n, (doc) => Object.fromEntries(Object.entries(doc).filter(([name]) => !UNSET.includes(name)))),
  },
  {
    name: 'min-number',
    rows: 'numbers',
    order: 'any',
    description: 'the smallest value5 of the collection (not indexed): one row',
    params: () => ({ attribute: 'value5' }),
    reference: (n) => extreme(n, 'value5', 1),
  },
  {
    name: 'min-string',
    rows: 'strings',
    order: 'any',
    description: 'the smallest value6 in code-point order (not indexed): one row',
    params: () => ({ attribute: 'value6' }),
    reference: (n) => extreme(n, 'value6', 1),
  },
  {
    name: 'max-number',
    rows: 'numbers',
    order: 'any',
    description: 'the largest value5 of the collection (not indexed): one row',
    params: () => ({ attribute: 'value5' }),
    reference: (n) => extreme(n, 'value5', -1),
  },
  {
    name: 'max-string',
    rows: 'strings',
    order: 'any',
    description: 'the largest value6 in code-point order (not indexed): one row',
    params: () => ({ attribute: 'value6' }),
    reference: (n) => extreme(n, 'value6', -1),
  },
  {
    name: 'sort-number',
    rows: 'numbers',
    order: 'ascending',
    description: 'value5 of every document, sorted ascending (not indexed)',
    params: () => ({ attribute: 'value5' }),
    reference: (n) => all(n, (doc) => doc.value5).sort((a, b) => a - b),
  },
  {
    name: 'sort-string',
    rows: 'strings',
    order: 'ascending',
    description: 'value6 of every document, sorted ascending in code-point order (not indexed)',
    params: () => ({ attribute: 'value6' }),
    reference: (n) => all(n, (doc) => doc.value6).sort(byValue),
  },
  {
    name: 'filter-number',
    rows: 'documents',
    order: 'any',
    description: `the documents whose value5 equals ${FILTER_NUMBER} (not indexed: a full scan)`,
    params: () => ({ attribute: 'value5', value: FILTER_NUMBER }),
    reference: (n) => all(n, (doc) => doc).filter((doc) => doc.value5 === FILTER_NUMBER),
  },
  {
    name: 'filter-string',
    rows: 'documents',
    order: 'any',
    description: `the documents whose value6 equals "${FILTER_STRING}" (not indexed: a full scan)`,
    params: () => ({ attribute: 'value6', value: FILTER_STRING }),
    reference: (n) => all(n, (doc) => doc).filter((doc) => doc.value6 === FILTER_STRING),
  },
  {
    name: 'extract-doc',
    rows: 'documents',
    order: 'any',
    description: 'every document, unmodified',
    params: () => ({}),
    reference: (n) => all(n, (doc) => doc),
  },
  {
    name: 'extract-key',
    rows: 'strings',
    order: 'any',
    description: 'the _key of every document',
    params: () => ({ attribute: '_key' }),
    reference: (n) => all(n, (doc) => doc._key),
  },
  {
    name: 'extract-number',
    rows: 'numbers',
    order: 'any',
    description: 'value1 (a number) of every document',
    params: () => ({ attribute: 'value1' }),
    reference: (n) => all(n, (doc) => doc.value1),
  },
  {
    name: 'extract-string',
    rows: 'strings',
    order: 'any',
    description: 'value2 (a string) of every document',
    params: () => ({ attribute: 'value2' }),
    reference: (n) => all(n, (doc) => doc.value2),
  },
  join('join-key', '_key',
    'the collection joined with itself on _key, each document of the left side once per match (so: every document once)'),
  join('join-id', null,
    "the collection joined with itself on the database's own record identifier (ArangoDB _id, MongoDB _id, a row id, Neo4j's element id, OrientDB's @rid), the left documents"),
  join('join-hash-number', 'value1',
    'the collection joined with itself on value1 (equality index), the left documents'),
  join('join-hash-string', 'value2',
    'the collection joined with itself on value2 (equality index), the left documents'),
  join('join-skiplist-number', 'value3',
    'the collection joined with itself on value3 (sorted index), the left documents'),
  join('join-skiplist-string', 'value4',
    'the collection joined with itself on value4 (sorted index), the left documents'),
  lookupCase('lookup-key', '_key', false, 'the primary key'),
  lookupCase('lookup-hash-number', 'value1', true, 'an equality index'),
  lookupCase('lookup-hash-string', 'value2', false, 'an equality index'),
  lookupCase('lookup-skiplist-number', 'value3', true, 'a sorted index'),
  lookupCase('lookup-skiplist-string', 'value4', false, 'a sorted index'),
].map((entry) => Object.freeze(entry)));

export const CASE_NAMES = Object.freeze(CASES.map((entry) => entry.name));

export function getCase(name) {
  const found = CASES.find((entry) => entry.name === name);
  if (!found) throw new Error(`internal: unknown query case ${name}`);
  return found;
}
