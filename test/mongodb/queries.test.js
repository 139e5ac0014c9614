// The mongodb adapter's queries suite without a server: the command of every case, the indexes, and what
// runQuery() sends and returns, through a recording stand-in of the driver's collection (canned rows, not MongoDB).
// What a server answers is checked by the conformance suite, which needs one (BENCH_MONGODB_URL).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import mongodb from '../../adapters/mongodb/description.js';
import { isOwnCollection, queryCollectionName } from '../../adapters/mongodb/namespace.js';
import { INDEXES, caseRequest, runQuery } from '../../adapters/mongodb/queries.js';
import { CASES, CASE_NAMES, LOOKUP_COUNT } from '../../workloads/queries/cases.js';
import { INDEXES as CONTRACT_INDEXES } from '../../workloads/queries/data.js';

const SIZE = 100_000;
const COLLECTION = 'q_values100k';
const built = Object.fromEntries(CASES.map((queryCase) => {
  const params = queryCase.params(SIZE);
  return [queryCase.name, { queryCase, params, ...caseRequest(queryCase.name, COLLECTION, params) }];
}));
const STORED_FIELDS = ['_id', 'value1', 'value2', 'value3', 'value4', 'value5', 'value6', 'value7', 'value8'];

describe('mongodb queries suite: the commands', () => {
  test('every case of the suite is supported, each one find or one aggregation', () => {
    assert.deepEqual([...CASE_NAMES].sort(), mongodb.supports.filter((name) => CASE_NAMES.includes(name)).sort());
    assert.equal(mongodb.unsupported, undefined, 'nothing is left unsupported');
    for (const name of CASE_NAMES) {
      const { find, aggregate } = built[name];
      assert.ok((find === undefined) !== (aggregate === undefined), `${name}: exactly one command`);
    }
  });

  test('a lookup is one find whose $in holds the 10,000 values as given', () => {
    for (const name of CASE_NAMES.filter((caseName) => caseName.startsWith('lookup-'))) {
      const { find, params } = built[name];
      const stored = params.attribute === '_key' ? '_id' : params.attribute;
      assert.deepEqual(Object.keys(find), [stored], name);
      assert.equal(find[stored].$in.length, LOOKUP_COUNT, name);
      assert.deepEqual(find[stored].$in, params.values, name);
    }
  });

  test('a join is a $lookup of the same collection on the case\'s attribute, unwound, the matches dropped', () => {
    for (const { name, params } of CASES.filter((queryCase) => queryCase.name.startsWith('join-'))) {
      const { attribute } = params(1000);
      const on = name === 'join-key' || name === 'join-id' ? '_id' : attribute;
      const [lookup, unwind, project] = built[name].aggregate;
      assert.deepEqual(lookup.$lookup, {
        from: COLLECTION, localField: on, foreignField: on, pipeline: [{ $project: { _id: 1 } }], as: 'matches',
      }, name);
      assert.deepEqual(unwind, { $unwind: '$matches' }, name);
      assert.deepEqual(project, { $project: { matches: 0 } }, name);
    }
  });

  test('the subquery counts, per document, the documents of its value1 through a $lookup of the same collection', () => {
    const [lookup, project] = built.subquery.aggregate;
    assert.equal(lookup.$lookup.from, COLLECTION);
    assert.equal(lookup.$lookup.localField, 'value1');
    assert.equal(lookup.$lookup.foreignField, 'value1');
    assert.deepEqual(project, { $project: { _id: 0, count: { $size: `$${lookup.$lookup.as}` } } });
  });

  test('a projection names only stored fields, so no other field reaches a returned document', () => {
    for (const name of ['keep', 'unset', 'sort-number', 'sort-string', 'filter-number', 'filter-string', 'extract-key', 'extract-number', 'extract-string']) {
      const { projection } = built[name].options;
      for (const fieldName of Object.keys(projection)) assert.ok(STORED_FIELDS.includes(fieldName), `${name}: ${fieldName}`);
    }
    assert.deepEqual(built.keep.options.projection, { _id: 1 }, 'the _key alone');
    assert.deepEqual(built.unset.options.projection, { _id: 0 }, 'all but the _key');
    assert.deepEqual(caseRequest('keep', COLLECTION, { attributes: ['value1'] }).options.projection, { _id: 0, value1: 1 },
      'without _key, _id is excluded');
    assert.deepEqual(built['filter-number'].find, { value5: 333 });
    assert.deepEqual(built['filter-number'].options.projection, { _id: 0, value5: 1 }, 'the filtered attribute only');
  });

  test('merge adds testValue from the document\'s own field, never a constant', () => {
    assert.deepEqual(built['merge-number'].aggregate, [{ $addFields: { testValue: '$value5' } }]);
    assert.deepEqual(built['merge-string'].aggregate, [{ $addFields: { testValue: '$value6' } }]);
  });

  test('a sort is a find sorted ascending on the field with a limit of 1; no command names a collation', () => {
    for (const name of ['sort-number', 'sort-string']) {
      const { find, options, params } = built[name];
      assert.deepEqual(find, {});
      assert.deepEqual(options.sort, { [params.attribute]: 1 });
      assert.equal(options.limit, 1);
    }
    for (const name of CASE_NAMES) assert.equal(JSON.stringify(built[name]).includes('collation'), false, name);
  });

  test('an attribute outside the documents is refused, as is an unknown case', () => {
    assert.throws(() => caseRequest('filter-number', COLLECTION, { attribute: '$where', value: 1 }), /not a field of the query documents/);
    assert.throws(() => caseRequest('no-such-case', COLLECTION, {}), /unknown query case no-such-case/);
  });

  test('hashed indexes on value1 and value2, ascending ones on value3 and value4, none on value5 to value8', () => {
    assert.deepEqual(INDEXES.map(({ key }) => key), [
      ...CONTRACT_INDEXES.hash.map((name) => ({ [name]: 'hashed' })),
      ...CONTRACT_INDEXES.sorted.map((name) => ({ [name]: 1 })),
    ]);
  });

  test('query collections are the namespace\'s own, so a reset drops them', () => {
    assert.equal(queryCollectionName('dbshootout', 'values1m'), 'q_values1m');
    assert.ok(isOwnCollection(queryCollectionName('dbshootout', 'conformance_values')));
    assert.throws(() => queryCollectionName('dbshootout', 'values.1k'), /not an identifier/);
  });
});

// The driver's collection as runQuery() uses it: find() and aggregate() record their arguments and yield `rows`.
function recordingCollection(rows) {
  const calls = [];
  const cursor = (kind, args) => {
    calls.push({ kind, args });
    return { toArray: async () => structuredClone(rows) };
  };
  return {
    calls,
    collectionName: COLLECTION,
    find: (...args) => cursor('find', args),
    aggregate: (...args) => cursor('aggregate', args),
  };
}

describe('mongodb queries suite: runQuery', () => {
  const run = async (caseName, rows) => {
    const collection = recordingCollection(rows);
    const answer = await runQuery({ collection: () => collection }, caseName, 'values100k', built[caseName].params);
    assert.equal(collection.calls.length, 1, `${caseName}: one command`);
    return { answer, call: collection.calls[0] };
  };

  test('documents come back with _id as _key and every other field as stored', async () => {
    const stored = [{ _id: 'test7', value1: 7, value2: 'test7' }];
    for (const name of ['extract-doc', 'lookup-hash-string', 'join-id', 'merge-number']) {
      const { answer } = await run(name, stored);
      assert.deepEqual(answer, [{ _key: 'test7', value1: 7, value2: 'test7' }], name);
    }
  });

  test('pairs and bare values are read from the fields the command names', async () => {
    assert.deepEqual((await run('collect-count-number', [{ _id: 3, count: 10 }])).answer, [[3, 10]]);
    assert.deepEqual((await run('subquery', [{ count: 1 }])).answer, [1]);
    assert.deepEqual((await run('unset', [{ value1: 3, value2: 'test3' }])).answer, [{ value1: 3, value2: 'test3' }], 'no _key added');
    assert.deepEqual((await run('keep', [{ _id: 'test3' }])).answer, [{ _key: 'test3' }]);
    assert.deepEqual((await run('filter-string', [{ value6: 'test333' }])).answer, ['test333']);
    assert.deepEqual((await run('collect-string', [{ _id: 'test3' }])).answer, ['test3']);
    assert.deepEqual((await run('min-string', [{ _id: null, value: 'test0' }])).answer, ['test0']);
    assert.deepEqual((await run('sort-number', [{ value5: 0 }])).answer, [0]);
    assert.deepEqual((await run('concat', [{ text: 'test3-3' }])).answer, ['test3-3']);
    assert.deepEqual((await run('extract-key', [{ _id: 'test3' }])).answer, ['test3']);
    assert.deepEqual((await run('extract-string', [{ value2: 'test3' }])).answer, ['test3']);
  });

  test('the command sent is the case\'s, with large cursor batches', async () => {
    const { call } = await run('lookup-skiplist-number', []);
    assert.equal(call.kind, 'find');
    assert.deepEqual(call.args[0], built['lookup-skiplist-number'].find);
    assert.equal(call.args[1].batchSize, 100_000);
    const joined = await run('join-skiplist-string', []);
    assert.equal(joined.call.kind, 'aggregate');
    assert.deepEqual(joined.call.args[0], built['join-skiplist-string'].aggregate);
  });
});
