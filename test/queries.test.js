// The queries suite's definitions, references, answer check, sizes, plan and loading, and its run through the
// runner over the in-process memory adapter (the conformance suite runs the cases against every database).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import memory from '../adapters/memory/description.js';
import { ErrorCodes } from '../core/errors.js';
import { runBenchmark } from '../runner/run.js';
import { CASES, CASE_NAMES, LOOKUP_COUNT, getCase } from '../workloads/queries/cases.js';
import { answerProblem, canonicalRows, digestOf } from '../workloads/queries/check.js';
import { GENERATION, SIZES, collectionName, groupsOf, parseSizes, queryDocument } from '../workloads/queries/data.js';
import { loadQueryCollections } from '../workloads/queries/load.js';
import suite from '../workloads/queries/suite.js';

// The script's 33 tests, in its order.
const PUBLISHED = ['collect-number', 'collect-string', 'collect-count-number', 'collect-count-string', 'subquery',
  'concat', 'merge-number', 'merge-string', 'keep', 'unset', 'min-number', 'min-string', 'max-number', 'max-string', 'sort-number',
  'sort-string', 'filter-number', 'filter-string', 'extract-doc', 'extract-key', 'extract-number', 'extract-string',
  'join-key', 'join-id', 'join-hash-number', 'join-hash-string', 'join-skiplist-number', 'join-skiplist-string',
  'lookup-key', 'lookup-hash-number', 'lookup-hash-string', 'lookup-skiplist-number', 'lookup-skiplist-string'];

function check(name, answer, n = 1000) {
  const queryCase = getCase(name);
  const params = queryCase.params(n);
  const expected = () => queryCase.reference(n, params);
  return answerProblem(queryCase, answer, digestOf(canonicalRows(expected(), queryCase.order)), expected);
}

const reference = (name, n = 1000) => {
  const queryCase = getCase(name);
  return queryCase.reference(n, queryCase.params(n));
};

const shuffled = (rows) => rows.map((row, i) => [(i * 7919) % rows.length, row]).sort((a, b) => a[0] - b[0]).map(([, row]) => row);

test('the 33 cases of the publication\'s script, each with a definition, the script\'s query, rows and an order', () => {
  assert.deepEqual(CASE_NAMES, PUBLISHED);
  for (const queryCase of CASES) {
    assert.ok(queryCase.description.length > 20, `${queryCase.name} is defined`);
    assert.match(queryCase.aql, /^(FOR c1? IN @@c |RETURN (MIN|MAX)\(FOR c IN @@c )/, queryCase.name);
    assert.ok(['documents', 'numbers', 'strings', 'pairs'].includes(queryCase.rows), queryCase.name);
    assert.equal(queryCase.order, queryCase.name.startsWith('sort-') ? 'ascending' : 'any', queryCase.name);
  }
});

test('document i holds the published values: hashed, sorted and unindexed copies of i and "test" + i, and its group of n / 100', () => {
  assert.deepEqual(queryDocument(123_456, 1_000_000), {
    _key: 'test123456', value1: 123_456, value2: 'test123456', value3: 123_456, value4: 'test123456', value5: 123_456,
    value6: 'test123456', value7: 3456, value8: 'test3456',
  });
  assert.deepEqual([queryDocument(123, 10_000).value7, queryDocument(123, 1000).value8], [23, 'test3']);
  assert.deepEqual(Object.values(SIZES).map(groupsOf), [10, 100, 1000, 10_000]);
  assert.equal(collectionName('1M'), 'values1m');
});

test('the references hold the values the data implies', () => {
  assert.deepEqual(reference('collect-number').sort((a, b) => a - b), Array.from({ length: 10 }, (_, i) => i));
  assert.equal(reference('collect-string', 100_000).length, 1000, 'n / 100 groups');
  assert.deepEqual(reference('collect-count-string').find(([value]) => value === 'test7'), ['test7', 100]);
  assert.ok(reference('collect-count-number', 10_000).every(([, count]) => count === 100), 'every group holds 100 documents');
  assert.equal(reference('collect-count-number').reduce((sum, [, count]) => sum + count, 0), 1000);
  assert.deepEqual(reference('subquery').slice(0, 2), [1, 1]);
  assert.equal(reference('subquery').length, 1000);
  assert.equal(reference('concat')[42], 'test42-42');
  assert.deepEqual(reference('merge-number')[5], { ...queryDocument(5, 1000), testValue: 5 });
  assert.deepEqual(reference('merge-string')[5], { ...queryDocument(5, 1000), testValue: 'test5' });
  assert.deepEqual(reference('keep')[5], { _key: 'test5' });
  assert.deepEqual(reference('unset')[5], { value1: 5, value2: 'test5', value3: 5, value4: 'test5', value5: 5, value6: 'test5', value7: 5, value8: 'test5' });
  assert.deepEqual(reference('min-number'), [0]);
  assert.deepEqual(reference('max-number', 10_000), [9999]);
  assert.deepEqual(reference('min-string'), ['test0']);
  // Code-point order: "test999" sorts after "test1000".
  assert.deepEqual(reference('max-string'), ['test999']);
  assert.deepEqual(reference('sort-number', 10_000), [0], 'sorted, the first one kept');
  assert.deepEqual(reference('sort-string'), ['test0']);
  assert.deepEqual(reference('filter-number'), [333], 'the filtered attribute, not the document');
  assert.deepEqual(reference('filter-string'), ['test333']);
  assert.equal(reference('join-hash-string').length, 1000);
});

test('a case that shares another\'s reference has the same reference rows', () => {
  const shared = CASES.filter((queryCase) => queryCase.sameReferenceAs);
  assert.deepEqual(shared.map((queryCase) => queryCase.name), CASE_NAMES.filter((name) => name.startsWith('join-')));
  for (const queryCase of shared) assert.deepEqual(reference(queryCase.name), reference(queryCase.sameReferenceAs), queryCase.name);
});

test('the lookups ask for the first 10,000 values, whatever the size, and find those that exist', () => {
  assert.equal(LOOKUP_COUNT, 10_000);
  for (const n of [1000, 1_000_000]) {
    assert.deepEqual(getCase('lookup-hash-number').params(n).values, Array.from({ length: 10_000 }, (_, i) => i));
    assert.deepEqual(getCase('lookup-hash-string').params(n).values.slice(-2), ['test9998', 'test9999']);
  }
  assert.deepEqual(reference('lookup-key', 100_000).map((doc) => doc.value1), Array.from({ length: 10_000 }, (_, i) => i));
  assert.equal(reference('lookup-skiplist-number', 1000).length, 1000, 'on 1k, the values past the end find nothing');
});

test('a right answer passes in any row order, and a sort only in its order', () => {
  assert.equal(check('extract-doc', shuffled(reference('extract-doc'))), null);
  assert.equal(check('collect-count-number', shuffled(reference('collect-count-number'))), null);
  // Field order within a document does not matter.
  assert.equal(check('lookup-key', shuffled(reference('lookup-key')).map((doc) => Object.fromEntries(Object.entries(doc).reverse()))), null);
  assert.equal(check('sort-number', [0]), null);
  assert.match(check('sort-string', ['test1', 'test0']), /^2 rows, expected 1; row 1: expected "test0", got "test1"/);
});

test('every kind of wrong answer fails, saying what is wrong', () => {
  const docs = reference('extract-doc');
  assert.match(check('extract-doc', docs.slice(1)), /^999 rows, expected 1000; missing row \{"_key":"test0"/);
  assert.match(check('extract-doc', [...docs, docs[3]]), /unexpected row \{"_key":"test3"/, 'a duplicate row');
  assert.match(check('extract-doc', docs.map((doc, i) => (i === 9 ? { ...doc, _id: 'values/test9' } : doc))), /unexpected row \{"_id":"values\/test9"/, 'a system field');
  assert.match(check('extract-doc', docs.map((doc, i) => (i === 9 ? { ...doc, constructor: 'x' } : doc))), /unexpected row/, 'an inherited name as a field');
  const { value8: _, ...short } = docs[4];
  assert.match(check('extract-doc', docs.map((doc, i) => (i === 4 ? short : doc))), /missing row \{"_key":"test4"/, 'a missing field');
  assert.match(check('extract-number', reference('extract-number').map(String)), /missing row 0; .*unexpected row "0"/, 'numbers as strings');
  assert.match(check('min-number', [1]), /missing row 0; unexpected row 1/);
  assert.match(check('min-number', [NaN]), /unexpected row NaN/, 'NaN is not JSON\'s null');
  assert.match(check('min-number', [0n]), /unexpected row 0n/, 'a BigInt is not a number');
  assert.match(check('extract-doc', docs.map((doc, i) => (i === 333 ? { ...doc, extra: undefined } : doc))), /unexpected row \{"_key":"test333".*"extra":undefined/, 'an undefined field is a field');
  assert.match(check('merge-number', reference('merge-number').map(({ testValue, ...doc }) => ({ testValue: String(testValue), ...doc }))), /unexpected row \{"_key":"test\d+",.*"testValue":"\d+"/, 'fields out of order are still compared by value and type');
  assert.match(check('filter-number', [queryDocument(333, 1000)]), /missing row 333; unexpected row \{"_key":"test333"/, 'the document is not its attribute');
  assert.match(check('max-string', []), /0 rows, expected 1; missing row "test999"/);
  assert.match(check('collect-number', reference('collect-number').map((v) => [v])), /unexpected row \[0\]/);
  assert.match(check('subquery', reference('subquery').map((count, i) => (i === 0 ? 2 : count))), /^1000 rows; missing row 1; unexpected row 2/);
  assert.match(check('extract-key', { rows: [] }), /the answer is not an array of rows/);
  assert.match(check('sort-number', [0, 1, 2]), /^3 rows, expected 1; row 2: expected no row, got 1; row 3: expected no row, got 2/, 'every row, not the first one');
});

test('--size takes the allowed sizes only, each once, and refuses anything else with exit 2', () => {
  assert.deepEqual(parseSizes('10k,1M,10k'), ['10k', '1M']);
  assert.deepEqual(Object.keys(SIZES), ['1k', '10k', '100k', '1M']);
  for (const bad of ['10K', '2k', '', '1m', '10k,,x']) {
    assert.throws(() => parseSizes(bad), (error) => error.code === ErrorCodes.USAGE && /--size must be a comma-separated list of 1k, 10k, 100k, 1M/.test(error.message), bad);
  }
});

test('the plan: per size and case one round of a warm-up and --runs measured executions, one query at a time', () => {
  const config = suite.configure({ ...suite.defaults, size: '1k,10k', runs: 3 });
  assert.deepEqual(config.sizes, ['1k', '10k']);
  const rounds = suite.rounds({ config: { ...config, runs: 3 }, workloads: suite.workloads.slice(0, 2) });
  assert.deepEqual(rounds.map((round) => round.label), ['collect-number 1k', 'collect-string 1k', 'collect-number 10k', 'collect-string 10k']);
  for (const round of rounds) {
    assert.equal(round.concurrency, 1);
    assert.equal(round.stallFailsRound, true);
    assert.deepEqual(round.steps.map((step) => [step.run, step.warmups]), [[1, 1], [2, 0], [3, 0]]);
    assert.ok(round.steps.every((step) => step.key === round.label));
  }
  assert.deepEqual(rounds[2].steps[0].params, { size: '10k', documents: 10_000, collection: 'values10k' });
  assert.throws(() => suite.configure({ ...suite.defaults, concurrency: [4] }), /--concurrency does not apply to --suite queries/);
  assert.throws(() => suite.configure({ ...suite.defaults, clients: 2 }), /--clients does not apply to --suite queries/);
});

const options = (namespace) => ({ namespace, database: 'queries-test', concurrency: 1 });

async function withMemory(namespace, body) {
  const adapter = memory.create(options(namespace));
  await adapter.connect();
  try {
    return await body(adapter);
  } finally {
    await adapter.close();
  }
}

test('a loaded collection is reused while the marker and its count agree, and loaded again otherwise', async () => {
  await withMemory('load', async (adapter) => {
    const load = (reimport = false) => loadQueryCollections({ adapter, description: memory, options: options('load'), sizes: ['1k'], reimport });
    const first = await load();
    assert.equal(first.reused, false);
    assert.equal(first.collections['1k'].documents, 1000);
    assert.equal(typeof first.collections['1k'].documentsPerSec, 'number');
    assert.deepEqual((await adapter.inspectNamespace()).marker.queries, { values1k: { documents: 1000, groups: 10, generation: GENERATION } });
    assert.deepEqual((await load()).collections['1k'], { documents: 1000, reused: true });
    assert.equal((await load(true)).collections['1k'].reused, false, '--reimport loads again');
    await adapter.importQueryDocuments('values1k', [queryDocument(5000, 1000)]);
    assert.equal((await load()).collections['1k'].reused, false, 'a count that differs is loaded again');
    assert.equal(await adapter.countQueryDocuments('values1k'), 1000);
  });
});

test('a collection that lost a document or holds one more is named with its count before it is loaded again', async () => {
  await withMemory('load_count', async (adapter) => {
    const lines = [];
    const progress = { log: (line) => lines.push(line), bar: () => null };
    const load = () => loadQueryCollections({ adapter, description: memory, options: options('load_count'), sizes: ['1k'], reimport: false, progress });
    await load();
    lines.length = 0;
    await adapter.importQueryDocuments('values1k', [queryDocument(5000, 1000)]);
    assert.equal((await load()).collections['1k'].reused, false);
    assert.equal(lines[0], 'values1k holds 1,001 documents of 1,000: loading it again');
    // A lost document: the collection made again from 999 of its documents.
    lines.length = 0;
    await adapter.createQueryCollection('values1k');
    await adapter.importQueryDocuments('values1k', Array.from({ length: 999 }, (_, i) => queryDocument(i, 1000)));
    assert.equal((await load()).collections['1k'].reused, false);
    assert.equal(lines[0], 'values1k holds 999 documents of 1,000: loading it again');
    assert.equal(await adapter.countQueryDocuments('values1k'), 1000);
  });
});

test('a load into a namespace the harness does not own is refused', async () => {
  await memory.testSupport.plantForeign(options('foreign'));
  await withMemory('foreign', async (adapter) => {
    await assert.rejects(loadQueryCollections({ adapter, description: memory, options: options('foreign'), sizes: ['1k'] }),
      (error) => error.code === ErrorCodes.NAMESPACE_FOREIGN);
  });
});

function runQueries(description, { workloads = suite.workloads, runs = 2, stallTimeoutMs = 60_000, namespace = 'run' } = {}) {
  const config = { ...suite.configure({ ...suite.defaults, size: '1k' }), runs, workloads: workloads.map((w) => w.name), stallTimeoutMs };
  return runBenchmark({
    suite, description, adapterOptions: { ...options(namespace), connectTimeoutMs: 1000 }, dataset: { sizes: ['1k'] },
    workloads, config, command: 'test',
  });
}

test('a run measures every case per size, records runs, rows and the published statistics', async () => {
  const result = await runQueries(memory, { runs: 3 });
  assert.equal(result.suite, 'queries');
  assert.equal(result.complete, true);
  assert.equal(Object.keys(result.workloads).length, 33);
  for (const [name, entry] of Object.entries(result.workloads)) {
    assert.equal(entry.status, 'passed', name);
    assert.deepEqual(entry.runs.map((run) => run.run), [1, 2, 3], name);
    assert.ok(entry.summary.minMs <= entry.summary.medianMs && entry.summary.medianMs <= entry.summary.maxMs, name);
  }
  assert.equal(result.workloads['collect-number 1k'].runs[0].rows, 10);
  assert.equal(result.workloads['sort-string 1k'].runs[0].rows, 1);
  assert.equal(result.workloads['lookup-key 1k'].runs[2].rows, 1000);
  assert.deepEqual(result.workloads['max-string 1k'].params, { size: '1k', documents: 1000, collection: 'values1k' });
});

// The memory adapter with one case broken: what a database that answers wrongly, or hangs, gets.
function broken(caseName, answer) {
  return {
    ...memory,
    create(adapterOptions) {
      const adapter = memory.create(adapterOptions);
      const query = adapter.query.bind(adapter);
      adapter.query = (name, collection, params) => (name === caseName ? answer(query(name, collection, params)) : query(name, collection, params));
      return adapter;
    },
  };
}

test('a wrong answer fails its case with what was wrong, and the others still pass', async () => {
  const description = broken('sort-number', async (rows) => (await rows).map((value) => value + 1));
  const result = await runQueries(description, { workloads: suite.workloads.filter((w) => w.name.startsWith('sort') || w.name === 'concat'), namespace: 'wrong' });
  assert.equal(result.workloads['sort-number 1k'].status, 'failed');
  assert.match(result.workloads['sort-number 1k'].failures[0].problem, /row 1: expected 0, got 1/);
  assert.equal(result.workloads['sort-string 1k'].status, 'passed');
  assert.equal(result.workloads['concat 1k'].status, 'passed');
});

test('a query that stalls fails its case, and the suite goes on with the next', async () => {
  const description = broken('join-id', () => new Promise(() => {}));
  const result = await runQueries(description, {
    workloads: suite.workloads.filter((w) => ['join-key', 'join-id', 'join-hash-number'].includes(w.name)), stallTimeoutMs: 300, namespace: 'stall',
  });
  assert.equal(result.complete, true);
  assert.equal(result.workloads['join-id 1k'].status, 'failed');
  assert.match(result.workloads['join-id 1k'].runs[0].reason, /no operation completed for 0 s/);
  assert.match(result.workloads['join-id 1k'].runs[1].reason, /not run: join-id 1k failed before it/);
  assert.equal(result.workloads['join-key 1k'].status, 'passed');
  assert.equal(result.workloads['join-hash-number 1k'].status, 'passed');
});

test('a case the adapter does not support is recorded with the reason its description gives', async () => {
  const description = {
    ...memory,
    supports: memory.supports.filter((operation) => operation !== 'join-id'),
    unsupported: { 'join-id': 'no record identifier of its own' },
  };
  const result = await runQueries(description, { workloads: suite.workloads.filter((w) => w.name.startsWith('join-')), namespace: 'unsupported' });
  assert.equal(result.workloads['join-id 1k'].status, 'unsupported');
  assert.equal(result.workloads['join-id 1k'].reason, 'no record identifier of its own');
  assert.equal(result.workloads['join-key 1k'].status, 'passed');
});
