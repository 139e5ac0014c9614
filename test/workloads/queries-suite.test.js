// The queries suite's parts one by one, without the runner: what the suite declares, its workloads' calls,
// checks and tallies, the reference digests computed once, the answer check's limits (examples, clipped rows,
// canonical texts), and the loader's batches, timings, marker and refusals against a store made up here.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mock, test } from 'node:test';
import { ErrorCodes } from '../../core/errors.js';
import { CASES, byValue, getCase } from '../../workloads/queries/cases.js';
import { answerProblem, canonicalRow, canonicalRows, digestOf } from '../../workloads/queries/check.js';
import { GENERATION, INDEXES, groupsOf, parseSizes, queryDocument, queryDocuments } from '../../workloads/queries/data.js';
import { BATCH, loadQueryCollections } from '../../workloads/queries/load.js';
import suite, { stepKey } from '../../workloads/queries/suite.js';
import { WORKLOADS, queriesContext } from '../../workloads/queries/workloads.js';

test('the suite declares its identity, flags and defaults, and describes its data', async () => {
  assert.equal(suite.id, 'queries');
  assert.equal(suite.name, 'queries');
  assert.equal(suite.description, 'the 33 read-only query cases of the AQL shootout on collections of 10k, 100k and 1M documents, one query at a time');
  assert.equal(suite.workloads, WORKLOADS);
  assert.deepEqual(suite.alwaysRun, []);
  assert.deepEqual(suite.flags, ['size', 'reimport']);
  assert.deepEqual(suite.defaults, { runs: 5, concurrency: [1], size: '10k,100k,1M' });
  assert.deepEqual(await suite.prepare({ size: '1k,10k' }), { sizes: ['1k', '10k'] });
  await assert.rejects(suite.prepare({ size: ['1k', '10k', '1M'] }),
    { code: ErrorCodes.USAGE, message: '--size is given 3 times; give it once, as a comma-separated list' });
  assert.deepEqual(suite.configure({ size: '10k', concurrency: [1], clients: 1 }), { sizes: ['10k'], concurrency: [1] });
  assert.deepEqual(suite.configure({ size: '1M', concurrency: [1, 1] }), { sizes: ['1M'], concurrency: [1] });
  assert.throws(() => suite.configure({ size: '1k', concurrency: [1, 2] }),
    { code: ErrorCodes.USAGE, message: '--concurrency does not apply to --suite queries: its queries run one at a time, as published' });
  assert.throws(() => suite.configure({ size: '1k', concurrency: [1], clients: 2 }),
    { code: ErrorCodes.USAGE, message: '--clients does not apply to --suite queries: its queries run one at a time, from one client' });
  assert.deepEqual(suite.describeData({ sizes: ['1k', '1M'] }), {
    id: 'queries-groups-of-100', name: 'query shootout documents', groups: { '1k': 10, '1M': 10_000 }, generation: GENERATION,
    sizes: { '1k': 1000, '1M': 1_000_000 }, label: 'generated documents (1k, 1M), groups of 100 documents',
  });
  assert.equal(stepKey('concat', '10k'), 'concat 10k');
  const rounds = suite.rounds({ config: { sizes: ['1k'], runs: 2 }, workloads: WORKLOADS.slice(0, 1) });
  assert.equal(rounds.length, 1);
  assert.equal(rounds[0].run, 1);
  assert.equal(rounds[0].chained, false);
  assert.deepEqual(rounds[0].steps.map((step) => step.label), ['collect-number 1k run 1/2', 'collect-number 1k run 2/2']);
  assert.equal(rounds[0].steps[0].workload, WORKLOADS[0]);
  assert.equal(typeof suite.context().reference, 'function');
});

test('a workload per case: its query called on the size\'s collection, its rows tallied, its answer checked against the reference', () => {
  assert.deepEqual(WORKLOADS.map((w) => w.name), CASES.map((c) => c.name));
  assert.ok(WORKLOADS.every((w, i) => w.operation === CASES[i].name && w.compared === true && w.description === CASES[i].description));
  const workload = WORKLOADS.find((w) => w.name === 'filter-number');
  const queryCase = getCase('filter-number');
  assert.deepEqual(workload.inputs({}, { documents: 1000 }), [queryCase.params(1000)]);
  const calls = [];
  const adapter = { query: (...args) => { calls.push(args); return 'answer'; } };
  assert.equal(workload.call(adapter, { x: 1 }, { collection: 'values1k' }), 'answer');
  assert.deepEqual(calls, [['filter-number', 'values1k', { x: 1 }]]);
  assert.deepEqual(workload.tally([], [[1, 2, 3]]), { rows: 3 });
  assert.deepEqual(workload.tally([], [{ rows: [] }]), { rows: null });
  const ctx = queriesContext();
  const [params] = workload.inputs(ctx, { documents: 1000 });
  const right = queryCase.reference(1000, params);
  assert.deepEqual(workload.check(ctx, [params], [right], null, { documents: 1000 }), []);
  const failures = workload.check(ctx, [params], [[]], null, { documents: 1000 });
  assert.deepEqual(failures.map((f) => f.input), ['filter-number on 1000 documents']);
  assert.match(failures[0].problem, /^0 rows, expected 1; missing row 333$/);
});

test('each case\'s reference digest is computed once per size, and a case that shares another\'s uses that one\'s', () => {
  const ctx = queriesContext();
  let computed = 0;
  const counted = (queryCase) => ({ ...queryCase, reference: (...args) => { computed += 1; return queryCase.reference(...args); } });
  const extract = counted(getCase('extract-key'));
  const params = extract.params(1000);
  const digest = ctx.reference(extract, 1000, params);
  assert.deepEqual(digest, digestOf(canonicalRows(getCase('extract-key').reference(1000, params), extract.order)));
  assert.equal(ctx.reference(extract, 1000, params), digest);
  assert.equal(computed, 1);
  assert.notDeepEqual(ctx.reference(extract, 100, extract.params(100)), digest);
  assert.equal(computed, 2);
  const shared = CASES.find((c) => c.sameReferenceAs);
  const owner = getCase(shared.sameReferenceAs);
  const mine = ctx.reference(counted(owner), 1000, owner.params(1000));
  assert.equal(ctx.reference(counted(shared), 1000, shared.params(1000)), mine);
  assert.equal(computed, 3);
});

test('the check names three examples at most, clips long rows, and counts rows when only their number differs', () => {
  const many = { name: 'many', order: 'any' };
  const expected = ['a', 'b', 'c', 'd', 'e'];
  const problem = (queryCase, answer, rows) => answerProblem(queryCase, answer, digestOf(canonicalRows(rows, queryCase.order)), () => rows);
  assert.equal(problem(many, ['v', 'w', 'x', 'y', 'z'], expected),
    '5 rows; missing row "a"; missing row "b"; missing row "c"; unexpected row "v"; unexpected row "w"; unexpected row "x"');
  assert.equal(problem(many, ['a', 'b', 'c', 'd'], expected), '4 rows, expected 5; missing row "e"');
  assert.equal(problem(many, ['a', 'b', 'c', 'd', 'e', 'e'], expected), '6 rows, expected 5; unexpected row "e"');
  assert.equal(problem(many, ['a', 'b', 'c', 'd', 'e'], expected), null);
  // Missing rows after the last answered one, and extra rows after the last expected one.
  assert.equal(problem(many, ['a'], ['a', 'b']), '1 rows, expected 2; missing row "b"');
  assert.equal(problem(many, ['a', 'b'], ['a']), '2 rows, expected 1; unexpected row "b"');
  const ordered = { name: 'ordered', order: 'ascending' };
  assert.equal(problem(ordered, [5, 4, 3, 2, 1], [1, 2, 3, 4, 5]), '5 rows; row 1: expected 1, got 5; row 2: expected 2, got 4; row 4: expected 4, got 2');
  assert.equal(problem(ordered, [1], [1, 2]), '1 rows, expected 2; row 2: expected 2, got no row');
  const long = 'x'.repeat(200);
  const clipped = problem(many, [long], ['y']);
  assert.equal(clipped, `1 rows; missing row "y"; unexpected row ${JSON.stringify(long).slice(0, 119)}…`);
  const exact = 'x'.repeat(118); // 120 characters as JSON text: kept whole
  assert.equal(problem(many, [exact], ['y']), `1 rows; missing row "y"; unexpected row ${JSON.stringify(exact)}`);
});

test('canonical rows: fields by name at any depth, arrays of documents, values JSON cannot write told apart', () => {
  assert.equal(canonicalRow({ b: 1, a: 'x' }), '{"a":"x","b":1}');
  assert.equal(canonicalRow({ a: 1, b: { d: [1, 'x'], c: null } }), '{"a":1,"b":{"c":null,"d":[1,"x"]}}');
  assert.equal(canonicalRow({ a: 1, a2: true }), '{"a":1,"a2":true}');
  assert.equal(canonicalRow([{ b: 2, a: 1 }, 3]), '[{"a":1,"b":2},3]');
  assert.equal(canonicalRow([1, 'a', null, false]), '[1,"a",null,false]');
  assert.equal(canonicalRow({ a: Number.NaN }), '{"a":NaN}');
  assert.equal(canonicalRow({ a: Number.POSITIVE_INFINITY }), '{"a":Infinity}');
  assert.equal(canonicalRow({ a: undefined }), '{"a":undefined}');
  assert.equal(canonicalRow([undefined]), '[undefined]');
  assert.equal(canonicalRow(5n), '5n');
  assert.equal(canonicalRow('5'), '"5"');
  assert.deepEqual(canonicalRows([3, 1, 2], 'any'), ['1', '2', '3']);
  assert.deepEqual(canonicalRows([3, 1, 2], 'ascending'), ['3', '1', '2']);
  assert.deepEqual(digestOf(['a', 'b']), { rows: 2, sha256: createHash('sha256').update('a\nb\n').digest('hex') });
});

test('the documents and their indexes as published, n / 100 groups of 100 documents', () => {
  assert.equal(GENERATION, 2);
  assert.deepEqual(INDEXES, { hash: ['value1', 'value2'], sorted: ['value3', 'value4'] });
  assert.deepEqual(queryDocuments(98, 101, 10_000).map((doc) => [doc._key, doc.value7, doc.value8]), [['test98', 98, 'test98'], ['test99', 99, 'test99'], ['test100', 0, 'test0']]);
  assert.deepEqual(queryDocuments(998, 1001, 100_000).map((doc) => [doc.value7, doc.value8]), [[998, 'test998'], [999, 'test999'], [0, 'test0']]);
  assert.deepEqual(queryDocuments(9, 11, 1000).map((doc) => doc.value7), [9, 0]);
  assert.deepEqual(queryDocuments(5, 5, 1000), []);
  assert.deepEqual(queryDocument(7, 1000), queryDocuments(7, 8, 1000)[0]);
  assert.deepEqual([groupsOf(1_000_000), groupsOf(200), groupsOf(199), groupsOf(12), groupsOf(0)], [10_000, 2, 1, 1, 1]);
});

// A store that keeps what the loader sends, and a marker, as an adapter would.
function madeUpStore({ marker = null, countOff = 0 } = {}) {
  const store = {
    marker, calls: [], collections: new Map(),
    inspectNamespace: async () => ({ state: 'owned', marker: store.marker }),
    resetNamespace: async () => {},
    writeMarker: async (next) => { store.calls.push(['marker', JSON.parse(JSON.stringify(next))]); store.marker = next; },
    createQueryCollection: async (name) => { store.calls.push(['create', name]); store.collections.set(name, 0); },
    batches: [],
    importQueryDocuments: async (name, docs) => {
      store.batches.push(docs);
      store.calls.push(['import', name, docs[0]._key, docs.length]);
      store.collections.set(name, store.collections.get(name) + docs.length);
    },
    indexQueryCollection: async (name) => { store.calls.push(['index', name]); },
    countQueryDocuments: async (name) => (store.collections.get(name) ?? 0) + countOff,
  };
  return store;
}

const load = (adapter, sizes, extra = {}) => loadQueryCollections({ adapter, description: { id: 'made-up' }, options: {}, sizes, ...extra });

test('the loader: batches of 10,000 documents, indexed after, counted; its timings; the progress it shows', async () => {
  assert.equal(BATCH, 10_000);
  const store = madeUpStore();
  const shown = [];
  const progress = {
    bar: (label, total) => { shown.push(['bar', label, total]); return { update: (n) => shown.push(['update', n]), stop: () => shown.push(['stop']) }; },
    log: (line) => shown.push(['log', line]),
  };
  const result = await load(store, ['100k'], { progress });
  assert.deepEqual(store.calls.filter((call) => call[0] === 'import').map((call) => [call[2], call[3]]),
    Array.from({ length: 10 }, (_, i) => [`test${i * 10_000}`, 10_000]));
  assert.deepEqual(store.calls.map((call) => call[0]).filter((kind) => kind !== 'import'), ['create', 'index', 'marker']);
  assert.deepEqual(shown, [['bar', 'loading values100k', 100_000], ...Array.from({ length: 10 }, (_, i) => ['update', (i + 1) * 10_000]), ['stop']]);
  const entry = result.collections['100k'];
  assert.deepEqual(Object.keys(entry), ['documents', 'reused', 'ms', 'documentsMs', 'indexesMs', 'documentsPerSec']);
  assert.equal(entry.documents, 100_000);
  assert.equal(entry.reused, false);
  assert.ok(entry.ms > 0 && entry.documentsMs > 0 && entry.indexesMs >= 0, JSON.stringify(entry));
  assert.ok(entry.documentsMs <= entry.ms);
  for (const figure of [entry.ms, entry.documentsMs, entry.indexesMs]) assert.equal(Math.round(figure * 10) / 10, figure);
  assert.ok(Math.abs(entry.indexesMs - (entry.ms - entry.documentsMs)) <= 0.11, JSON.stringify(entry));
  assert.ok(Number.isInteger(entry.documentsPerSec));
  assert.ok(Math.abs((entry.documentsPerSec * entry.ms) / 100_000_000 - 1) < 0.05, JSON.stringify(entry));
  assert.equal(result.reused, false);
  assert.equal(result.ms, entry.ms);
  assert.deepEqual(store.marker, { queries: { values100k: { documents: 100_000, groups: 1000, generation: GENERATION } } });
  assert.deepEqual(store.batches[9].at(-1), queryDocument(99_999, 100_000), 'the documents of a collection of that size');
  // A size that does not fill its last batch.
  const small = madeUpStore();
  await load(small, ['1k']);
  assert.deepEqual(small.calls.filter((call) => call[0] === 'import').map((call) => call.slice(1)), [['values1k', 'test0', 1000]]);
});

test('the loader reuses a collection its marker records, says so, and sums the times of those it loaded', async () => {
  const wanted = { documents: 1000, groups: 10, generation: GENERATION };
  const store = madeUpStore({ marker: { other: 'kept', queries: { values1k: wanted } } });
  store.collections.set('values1k', 1000);
  const lines = [];
  const result = await load(store, ['1k', '10k'], { progress: { log: (line) => lines.push(line), bar: () => null } });
  assert.deepEqual(lines, ['reusing values1k: 1,000 documents, loaded before']);
  assert.deepEqual(result.collections['1k'], { documents: 1000, reused: true });
  assert.equal(result.reused, false);
  assert.equal(result.ms, result.collections['10k'].ms);
  assert.deepEqual(store.marker, { other: 'kept', queries: { values1k: wanted, values10k: { ...wanted, documents: 10_000, groups: 100 } } });
  const again = await load(store, ['1k', '10k']);
  assert.deepEqual(again, { reused: true, ms: 0, collections: { '1k': { documents: 1000, reused: true }, '10k': { documents: 10_000, reused: true } } });
  // Another generation, groups or count in the marker: loaded again, the marker forgetting it first.
  for (const stale of [{ ...wanted, generation: GENERATION - 1 }, { ...wanted, groups: 100 }, { ...wanted, documents: 999 }]) {
    const old = madeUpStore({ marker: { queries: { values1k: stale, values10k: wanted } } });
    old.collections.set('values1k', 1000);
    await load(old, ['1k']);
    assert.deepEqual(old.calls[0], ['marker', { queries: { values10k: wanted } }], JSON.stringify(stale));
    assert.deepEqual(old.calls.at(-1), ['marker', { queries: { values10k: wanted, values1k: wanted } }]);
  }
  // No marker of the collection: nothing to forget first.
  const fresh = madeUpStore({ marker: { queries: {} } });
  await load(fresh, ['1k']);
  assert.deepEqual(fresh.calls.map((call) => call[0]), ['create', 'import', 'index', 'marker']);
});

test('the loader refuses a collection that stored another count', async () => {
  await assert.rejects(load(madeUpStore({ countOff: -1 }), ['1k']),
    { code: ErrorCodes.IMPORT, message: 'loading values1k stored 999 documents, not 1000' });
  const store = madeUpStore({ countOff: 1 });
  await assert.rejects(load(store, ['1k']), { message: 'loading values1k stored 1001 documents, not 1000' });
  assert.equal(store.marker, null, 'no marker for a collection that failed its count');
});

// Every case as workloads/README.md publishes it: the rows it answers, their order, its description (the text a
// result records), the script's query and the parameters the harness sends, at 1,000 documents. A lookup's IN list
// is given by the type and first values of its 10,000 entries.
const PUBLISHED = [
  ['collect-number', 'numbers', 'any', 'the distinct values of value7 (a number repeating over n / 100 groups), each once', 'FOR c IN @@c COLLECT g = c.value7 RETURN g', { attribute: 'value7' }],
  ['collect-string', 'strings', 'any', 'the distinct values of value8 (a string repeating over n / 100 groups), each once', 'FOR c IN @@c COLLECT g = c.value8 RETURN g', { attribute: 'value8' }],
  ['collect-count-number', 'pairs', 'any', 'each distinct value of value7 with the number of documents holding it: [value, count]', 'FOR c IN @@c COLLECT g = c.value7 WITH COUNT INTO l RETURN [ g, l ]', { attribute: 'value7' }],
  ['collect-count-string', 'pairs', 'any', 'each distinct value of value8 with the number of documents holding it: [value, count]', 'FOR c IN @@c COLLECT g = c.value8 WITH COUNT INTO l RETURN [ g, l ]', { attribute: 'value8' }],
  ['subquery', 'numbers', 'any', 'for each document, a correlated subquery selecting the documents with the same value1 (through its equality index), answering how many it found: one number per document', 'FOR c IN @@c LET sub = (FOR s IN @@c FILTER s.value1 == c.value1 RETURN s) RETURN LENGTH(sub)', { attribute: 'value1' }],
  ['concat', 'strings', 'any', 'for each document, _key, "-" and value5 (a number, written in decimal) concatenated into one string', "FOR c IN @@c RETURN CONCAT(c._key, '-', c.value5)", { attribute: 'value5' }],
  ['merge-number', 'documents', 'any', 'each document merged with the object { testValue: its own value5 } (a number): the document with that field added', "FOR c IN @@c RETURN MERGE(c, { 'testValue': c.value5 })", { attribute: 'value5' }],
  ['merge-string', 'documents', 'any', 'each document merged with the object { testValue: its own value6 } (a string): the document with that field added', "FOR c IN @@c RETURN MERGE(c, { 'testValue': c.value6 })", { attribute: 'value6' }],
  ['keep', 'documents', 'any', 'each document reduced to the fields _key, _rev and _id: to its _key, the one of them the documents have', "FOR c IN @@c RETURN KEEP(c, '_key', '_rev', '_id')", { attributes: ['_key'] }],
  ['unset', 'documents', 'any', 'each document without the fields _key, _rev and _id: value1 to value8', "FOR c IN @@c RETURN UNSET(c, '_key', '_rev', '_id')", { attributes: ['_key'] }],
  ['min-number', 'numbers', 'any', 'the smallest value5 of the collection (not indexed): one row', 'RETURN MIN(FOR c IN @@c RETURN c.value5)', { attribute: 'value5' }],
  ['min-string', 'strings', 'any', 'the smallest value6 in code-point order (not indexed): one row', 'RETURN MIN(FOR c IN @@c RETURN c.value6)', { attribute: 'value6' }],
  ['max-number', 'numbers', 'any', 'the largest value5 of the collection (not indexed): one row', 'RETURN MAX(FOR c IN @@c RETURN c.value5)', { attribute: 'value5' }],
  ['max-string', 'strings', 'any', 'the largest value6 in code-point order (not indexed): one row', 'RETURN MAX(FOR c IN @@c RETURN c.value6)', { attribute: 'value6' }],
  ['sort-number', 'numbers', 'ascending', 'value5 of every document sorted ascending (not indexed), the first one kept (LIMIT 1): one row', 'FOR c IN @@c SORT c.value5 LIMIT 1 RETURN c.value5', { attribute: 'value5' }],
  ['sort-string', 'strings', 'ascending', 'value6 of every document sorted ascending in code-point order (not indexed), the first one kept (LIMIT 1): one row', 'FOR c IN @@c SORT c.value6 LIMIT 1 RETURN c.value6', { attribute: 'value6' }],
  ['filter-number', 'numbers', 'any', 'value5 of the documents whose value5 equals 333 (not indexed: a full scan)', 'FOR c IN @@c FILTER c.value5 == 333 RETURN c.value5', { attribute: 'value5', value: 333 }],
  ['filter-string', 'strings', 'any', 'value6 of the documents whose value6 equals "test333" (not indexed: a full scan)', 'FOR c IN @@c FILTER c.value6 == "test333" RETURN c.value6', { attribute: 'value6', value: 'test333' }],
  ['extract-doc', 'documents', 'any', 'every document, unmodified', 'FOR c IN @@c RETURN c', {}],
  ['extract-key', 'strings', 'any', 'the _key of every document', 'FOR c IN @@c RETURN c._key', { attribute: '_key' }],
  ['extract-number', 'numbers', 'any', 'value1 (a number) of every document', 'FOR c IN @@c RETURN c.value1', { attribute: 'value1' }],
  ['extract-string', 'strings', 'any', 'value2 (a string) of every document', 'FOR c IN @@c RETURN c.value2', { attribute: 'value2' }],
  ['join-key', 'documents', 'any', 'the collection joined with itself on _key, each document of the left side once per match (so: every document once)', 'FOR c1 IN @@c FOR c2 IN @@c FILTER c1._key == c2._key RETURN c1', { attribute: '_key' }],
  ['join-id', 'documents', 'any', "the collection joined with itself on the database's own record identifier (ArangoDB _id, MongoDB _id, a row id, Neo4j's element id, OrientDB's @rid), the left documents", 'FOR c1 IN @@c FOR c2 IN @@c FILTER c1._id == c2._id RETURN c1', { attribute: null }],
  ['join-hash-number', 'documents', 'any', 'the collection joined with itself on value1 (equality index), the left documents', 'FOR c1 IN @@c FOR c2 IN @@c FILTER c1.value1 == c2.value1 RETURN c1', { attribute: 'value1' }],
  ['join-hash-string', 'documents', 'any', 'the collection joined with itself on value2 (equality index), the left documents', 'FOR c1 IN @@c FOR c2 IN @@c FILTER c1.value2 == c2.value2 RETURN c1', { attribute: 'value2' }],
  ['join-skiplist-number', 'documents', 'any', 'the collection joined with itself on value3 (sorted index), the left documents', 'FOR c1 IN @@c FOR c2 IN @@c FILTER c1.value3 == c2.value3 RETURN c1', { attribute: 'value3' }],
  ['join-skiplist-string', 'documents', 'any', 'the collection joined with itself on value4 (sorted index), the left documents', 'FOR c1 IN @@c FOR c2 IN @@c FILTER c1.value4 == c2.value4 RETURN c1', { attribute: 'value4' }],
  ['lookup-key', 'documents', 'any', 'the documents whose _key is in the list of the first 10,000 strings, "test0" to "test9999" (one IN list, the primary key)', 'FOR c IN @@c FILTER c._key IN @keys RETURN c', { attribute: '_key', values: ['test0', 'test1', 'test2'] }],
  ['lookup-hash-number', 'documents', 'any', 'the documents whose value1 is in the list of the first 10,000 numbers, 0 to 9999 (one IN list, an equality index)', 'FOR c IN @@c FILTER c.value1 IN @keys RETURN c', { attribute: 'value1', values: [0, 1, 2] }],
  ['lookup-hash-string', 'documents', 'any', 'the documents whose value2 is in the list of the first 10,000 strings, "test0" to "test9999" (one IN list, an equality index)', 'FOR c IN @@c FILTER c.value2 IN @keys RETURN c', { attribute: 'value2', values: ['test0', 'test1', 'test2'] }],
  ['lookup-skiplist-number', 'documents', 'any', 'the documents whose value3 is in the list of the first 10,000 numbers, 0 to 9999 (one IN list, a sorted index)', 'FOR c IN @@c FILTER c.value3 IN @keys RETURN c', { attribute: 'value3', values: [0, 1, 2] }],
  ['lookup-skiplist-string', 'documents', 'any', 'the documents whose value4 is in the list of the first 10,000 strings, "test0" to "test9999" (one IN list, a sorted index)', 'FOR c IN @@c FILTER c.value4 IN @keys RETURN c', { attribute: 'value4', values: ['test0', 'test1', 'test2'] }],
];

test('every case as published: its rows, their order, its description and the parameters it is sent', () => {
  assert.deepEqual(CASES.map((c) => c.name), PUBLISHED.map(([name]) => name));
  for (const [name, rows, order, description, aql, params] of PUBLISHED) {
    const queryCase = getCase(name);
    assert.deepEqual([queryCase.rows, queryCase.order, queryCase.description, queryCase.aql], [rows, order, description, aql], name);
    const sent = queryCase.params(1000);
    if (params.values) {
      assert.equal(sent.values.length, 10_000, name);
      assert.ok(sent.values.every((value) => typeof value === typeof params.values[0]), `${name}: every value a ${typeof params.values[0]}`);
      assert.deepEqual({ ...sent, values: sent.values.slice(0, 3) }, params, name);
    } else {
      assert.deepEqual(sent, params, name);
    }
  }
  assert.throws(() => getCase('nosuch'), { message: 'internal: unknown query case nosuch' });
  assert.throws(() => getCase('toString'), { message: 'internal: unknown query case toString' });
});

test('the references\' edges: code-point order, an empty collection\'s extremes, sorts and filters, a filter past the end', () => {
  assert.deepEqual([byValue('test10', 'test9'), byValue('test9', 'test10'), byValue('test9', 'test9')], [-1, 1, 0]);
  assert.deepEqual([byValue(2, 10), byValue(10, 2), byValue(3, 3)], [-1, 1, 0]);
  for (const name of ['min-number', 'min-string', 'max-number', 'max-string']) assert.deepEqual(getCase(name).reference(0), [], name);
  assert.deepEqual(getCase('min-string').reference(12), ['test0']);
  assert.deepEqual(getCase('max-string').reference(12), ['test9']);
  assert.deepEqual(getCase('max-number').reference(12), [11]);
  for (const name of ['sort-number', 'sort-string', 'filter-number', 'filter-string']) assert.deepEqual(getCase(name).reference(0), [], name);
  assert.deepEqual(getCase('filter-number').reference(333), [], 'document 333 is the 334th');
  assert.deepEqual(getCase('filter-number').reference(334), [333]);
});

test('the check lists three unexpected rows at most even when fewer rows are missing', () => {
  const rows = ['z'];
  const reference = digestOf(canonicalRows(rows, 'any'));
  assert.equal(answerProblem({ name: 'few', order: 'any' }, ['a', 'b', 'c', 'd', 'e'], reference, () => rows),
    '5 rows, expected 1; missing row "z"; unexpected row "a"; unexpected row "b"; unexpected row "c"');
});

test('--size: spaces and empty entries between commas are ignored; nothing but them is refused', () => {
  assert.deepEqual(parseSizes(' 1k , 10k ,,1k,'), ['1k', '10k']);
  assert.throws(() => parseSizes(' , '), { code: ErrorCodes.USAGE, message: '--size must be a comma-separated list of 1k, 10k, 100k, 1M; got " , "' });
  assert.throws(() => parseSizes('1k,10K'), { code: ErrorCodes.USAGE, message: '--size must be a comma-separated list of 1k, 10k, 100k, 1M; got "1k,10K"' });
});

test('the loader\'s times on a clock that moves by known steps', async (t) => {
  // The clock is read when the load starts, once the documents are in, and once the indexes are built.
  const readings = [1000, 1250.04, 1400.1];
  const now = mock.method(performance, 'now', () => readings.shift() ?? 5000);
  t.after(() => now.mock.restore());
  const result = await load(madeUpStore(), ['1k']);
  now.mock.restore();
  assert.deepEqual(result.collections['1k'], { documents: 1000, reused: false, ms: 400.1, documentsMs: 250, indexesMs: 150.1, documentsPerSec: 2499 });
  assert.equal(result.ms, 400.1);
});
