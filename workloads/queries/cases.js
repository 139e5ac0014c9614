// The 33 query cases of the 2015 AQL shootout, as its test script runs them (the publication describes them; where
// it is silent the script decides: jsteemann/jsteemann.github.com, downloads/code/arango-25-26-shootout-script.js).
// Each is defined once, database-neutral: what it computes over one collection of the suite's documents
// (workloads/queries/data.js), the parameters the harness passes with it, the rows it answers and in which order,
// the reference answer computed here from the documents alone, and `aql`, the script's query with its bind
// parameters written in. workloads/README.md ("The queries suite") states the same definitions in prose; every
// adapter expresses each case in its own query language (adapters/<id>/queries.js).
//
// Rows: `documents` are documents in the shape they were written (own fields only: `_key`, value1..value8, numbers
// as JavaScript numbers, no system fields: ArangoDB's `_id` and `_rev` are in no answer); `numbers` and `strings` are
// bare values; `pairs` are two-element arrays. `order: 'any'` answers are compared as multisets, `'ascending'` ones
// row by row. A case whose reference is another's (`sameReferenceAs`: the joins answer every document, as
// extract-doc does) shares its digest.
import { DOCUMENTS_PER_GROUP, queryDocument } from './data.js';

// The lookups' IN list: the values of the first 10,000 documents (`for (var i = 0; i < params.n; ++i)`, n: 10000).
export const LOOKUP_COUNT = 10_000;
export const FILTER_NUMBER = 333;
export const FILTER_STRING = 'test333';
// The field merge-number and merge-string add: { testValue: <the document's value5 or value6> }.
export const MERGED_FIELD = 'testValue';
// keep keeps, and unset removes, `_key`, `_rev` and `_id`: of these the suite's documents have `_key` alone (the
// other two are ArangoDB's system attributes, in no answer).
export const SYSTEM_FIELDS = Object.freeze(['_key']);

// Code-point order of strings (JavaScript's `<` on these ASCII strings), the order `ascending` means for text.
export const byValue = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function* documents(n) {
  for (let i = 0; i < n; i += 1) yield queryDocument(i, n);
}

const all = (n, map) => Array.from(documents(n), map);


function groupCounts(n, attribute) {
  const counts = new Map();
  for (const doc of documents(n)) counts.set(doc[attribute], (counts.get(doc[attribute]) ?? 0) + 1);
  return [...counts];
}

const distinctGroups = (n, attribute) => groupCounts(n, attribute).map(([value]) => value);

// The one smallest (pick 1) or largest (pick -1) value, none of an empty collection.
const extreme = (n, attribute, pick) => {
  const values = all(n, (doc) => doc[attribute]);
  return n === 0 ? [] : [values.reduce((best, value) => (byValue(value, best) * pick < 0 ? value : best))];
};

// The IN list of the lookups: the values of documents 0 to 9,999 (on a collection smaller than the list, the values
// past its end find nothing).
const lookupValues = (numeric) => Array.from({ length: LOOKUP_COUNT }, (_, i) => (numeric ? i : `test${i}`));

const collectCase = (name, attribute, kind) => ({
  name,
  rows: kind,
  order: 'any',
  description: `the distinct values of ${attribute} (a ${kind === 'numbers' ? 'number' : 'string'} repeating over n / ${DOCUMENTS_PER_GROUP} groups), each once`,
  aql: `FOR c IN @@c COLLECT g = c.${attribute} RETURN g`,
  params: () => ({ attribute }),
  reference: (n) => distinctGroups(n, attribute),
});

const collectCountCase = (name, attribute) => ({
  name,
  rows: 'pairs',
  order: 'any',
  description: `each distinct value of ${attribute} with the number of documents holding it: [value, count]`,
  aql: `FOR c IN @@c COLLECT g = c.${attribute} WITH COUNT INTO l RETURN [ g, l ]`,
  params: () => ({ attribute }),
  reference: (n) => groupCounts(n, attribute),
});

const mergeCase = (name, attribute, kind) => ({
  name,
  rows: 'documents',
  order: 'any',
  description: `each document merged with the object { ${MERGED_FIELD}: its own ${attribute} } (a ${kind}): the document with that field added`,
  aql: `FOR c IN @@c RETURN MERGE(c, { '${MERGED_FIELD}': c.${attribute} })`,
  params: () => ({ attribute }),
  reference: (n) => all(n, (doc) => ({ ...doc, [MERGED_FIELD]: doc[attribute] })),
});

const extremeCase = (name, attribute, pick) => {
  const fn = pick > 0 ? 'MIN' : 'MAX';
  const string = attribute === 'value6';
  return {
    name,
    rows: string ? 'strings' : 'numbers',
    order: 'any',
    description: `the ${pick > 0 ? 'smallest' : 'largest'} ${attribute}${string ? ' in code-point order' : ' of the collection'} (not indexed): one row`,
    aql: `RETURN ${fn}(FOR c IN @@c RETURN c.${attribute})`,
    params: () => ({ attribute }),
    reference: (n) => extreme(n, attribute, pick),
  };
};

// The script sorts every document and keeps the first (`SORT ... LIMIT 1`): the answer is the smallest value.
const sortCase = (name, attribute) => {
  const string = attribute === 'value6';
  return {
    name,
    rows: string ? 'strings' : 'numbers',
    order: 'ascending',
    description: `${attribute} of every document sorted ascending${string ? ' in code-point order' : ''} (not indexed), the first one kept (LIMIT 1): one row`,
    aql: `FOR c IN @@c SORT c.${attribute} LIMIT 1 RETURN c.${attribute}`,
    params: () => ({ attribute }),
    reference: (n) => all(n, (doc) => doc[attribute]).sort(string ? byValue : (a, b) => a - b).slice(0, 1),
  };
};

const filterCase = (name, attribute, value) => ({
  name,
  rows: typeof value === 'number' ? 'numbers' : 'strings',
  order: 'any',
  description: `${attribute} of the documents whose ${attribute} equals ${JSON.stringify(value)} (not indexed: a full scan)`,
  aql: `FOR c IN @@c FILTER c.${attribute} == ${JSON.stringify(value)} RETURN c.${attribute}`,
  params: () => ({ attribute, value }),
  reference: (n) => all(n, (doc) => doc).filter((doc) => doc[attribute] === value).map((doc) => doc[attribute]),
});

const extractCase = (name, attribute, description, rows) => ({
  name,
  rows,
  order: 'any',
  description,
  aql: `FOR c IN @@c RETURN c.${attribute}`,
  params: () => ({ attribute }),
  reference: (n) => all(n, (doc) => doc[attribute]),
});

const join = (name, attribute, description) => ({
  name,
  rows: 'documents',
  order: 'any',
  description,
  aql: `FOR c1 IN @@c FOR c2 IN @@c FILTER c1.${attribute ?? '_id'} == c2.${attribute ?? '_id'} RETURN c1`,
  params: () => ({ attribute }),
  reference: (n) => all(n, (doc) => doc),
  sameReferenceAs: 'extract-doc',
});

const lookupCase = (name, attribute, numeric, index) => ({
  name,
  rows: 'documents',
  order: 'any',
  description: `the documents whose ${attribute} is in the list of the first ${LOOKUP_COUNT.toLocaleString('en-US')} ${numeric ? 'numbers, 0 to 9999' : 'strings, "test0" to "test9999"'} (one IN list, ${index})`,
  aql: `FOR c IN @@c FILTER c.${attribute} IN @keys RETURN c`,
  params: () => ({ attribute, values: lookupValues(numeric) }),
  reference: (n, { values }) => {
    const wanted = new Set(values);
    return all(n, (doc) => doc).filter((doc) => wanted.has(doc[attribute]));
  },
});

export const CASES = Object.freeze([
  collectCase('collect-number', 'value7', 'numbers'),
  collectCase('collect-string', 'value8', 'strings'),
  collectCountCase('collect-count-number', 'value7'),
  collectCountCase('collect-count-string', 'value8'),
  {
    name: 'subquery',
    rows: 'numbers',
    order: 'any',
    description: 'for each document, a correlated subquery selecting the documents with the same value1 (through its '
      + 'equality index), answering how many it found: one number per document',
    aql: 'FOR c IN @@c LET sub = (FOR s IN @@c FILTER s.value1 == c.value1 RETURN s) RETURN LENGTH(sub)',
    params: () => ({ attribute: 'value1' }),
    reference: (n) => {
      const counts = new Map(groupCounts(n, 'value1'));
      return all(n, (doc) => counts.get(doc.value1));
    },
  },
  {
    name: 'concat',
    rows: 'strings',
    order: 'any',
    description: 'for each document, _key, "-" and value5 (a number, written in decimal) concatenated into one string',
    aql: "FOR c IN @@c RETURN CONCAT(c._key, '-', c.value5)",
    params: () => ({ attribute: 'value5' }),
    reference: (n) => all(n, (doc) => `${doc._key}-${doc.value5}`),
  },
  mergeCase('merge-number', 'value5', 'number'),
  mergeCase('merge-string', 'value6', 'string'),
  {
    name: 'keep',
    rows: 'documents',
    order: 'any',
    description: 'each document reduced to the fields _key, _rev and _id: to its _key, the one of them the documents have',
    aql: "FOR c IN @@c RETURN KEEP(c, '_key', '_rev', '_id')",
    params: () => ({ attributes: [...SYSTEM_FIELDS] }),
    reference: (n) => all(n, (doc) => Object.fromEntries(SYSTEM_FIELDS.map((name) => [name, doc[name]]))),
  },
  {
    name: 'unset',
    rows: 'documents',
    order: 'any',
    description: 'each document without the fields _key, _rev and _id: value1 to value8',
    aql: "FOR c IN @@c RETURN UNSET(c, '_key', '_rev', '_id')",
    params: () => ({ attributes: [...SYSTEM_FIELDS] }),
    reference: (n) => all(n, (doc) => Object.fromEntries(Object.entries(doc).filter(([name]) => !SYSTEM_FIELDS.includes(name)))),
  },
  extremeCase('min-number', 'value5', 1),
  extremeCase('min-string', 'value6', 1),
  extremeCase('max-number', 'value5', -1),
  extremeCase('max-string', 'value6', -1),
  sortCase('sort-number', 'value5'),
  sortCase('sort-string', 'value6'),
  filterCase('filter-number', 'value5', FILTER_NUMBER),
  filterCase('filter-string', 'value6', FILTER_STRING),
  {
    name: 'extract-doc',
    rows: 'documents',
    order: 'any',
    description: 'every document, unmodified',
    aql: 'FOR c IN @@c RETURN c',
    params: () => ({}),
    reference: (n) => all(n, (doc) => doc),
  },
  extractCase('extract-key', '_key', 'the _key of every document', 'strings'),
  extractCase('extract-number', 'value1', 'value1 (a number) of every document', 'numbers'),
  extractCase('extract-string', 'value2', 'value2 (a string) of every document', 'strings'),
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
