// The couchdb adapter's queries suite without a server: the request of every case, the views, and what runQuery()
// sends and returns through a recording stand-in of nano's database scope (canned answers, not CouchDB). The
// conformance suite runs every case against the local PouchDB Server.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { queryDatabase } from '../../adapters/couchdb/namespace.js';
import {
  AGGREGATE_VIEWS, CASE_NAMES, INDEX_VIEWS, UNSUPPORTED, caseRequest, runQuery,
} from '../../adapters/couchdb/queries.js';
import { CASES, LOOKUP_COUNT } from '../../workloads/queries/cases.js';
import { INDEXES as CONTRACT_INDEXES } from '../../workloads/queries/data.js';

const SIZE = 100_000;
const built = Object.fromEntries(CASES.filter(({ name }) => CASE_NAMES.includes(name)).map((queryCase) => {
  const input = queryCase.params(SIZE);
  return [queryCase.name, { input, ...caseRequest(queryCase.name, input) }];
}));

describe('couchdb queries suite: the requests', () => {
  test('every case is either expressed or unsupported with its reason, never both', () => {
    const all = CASES.map(({ name }) => name);
    assert.deepEqual([...CASE_NAMES, ...Object.keys(UNSUPPORTED)].sort(), [...all].sort());
    for (const reason of Object.values(UNSUPPORTED)) assert.match(reason, /^CouchDB/);
  });

  test('a lookup is one request whose keys are the 10,000 values as given: _all_docs for _key, a view for the others', () => {
    assert.equal(built['lookup-key'].kind, 'keys');
    assert.deepEqual(built['lookup-key'].keys, built['lookup-key'].input.values);
    for (const name of CASE_NAMES.filter((caseName) => caseName.startsWith('lookup-') && caseName !== 'lookup-key')) {
      const { kind, design, view, params, input } = built[name];
      assert.equal(kind, 'view', name);
      assert.equal(`_design/${design}`, INDEX_VIEWS._id, `${name} reads an index view`);
      assert.equal(view, input.attribute, name);
      assert.equal(params.keys.length, LOOKUP_COUNT, name);
      assert.deepEqual(params.keys, input.values, name);
      assert.equal(params.include_docs, true, name);
    }
  });

  test('the index views are value1 to value4; the others sort (value5, value6) and count groups (value7, value8); all in raw collation', () => {
    assert.deepEqual(Object.keys(INDEX_VIEWS.views), [...CONTRACT_INDEXES.hash, ...CONTRACT_INDEXES.sorted]);
    assert.deepEqual(Object.keys(AGGREGATE_VIEWS.views), ['value5', 'value6', 'value7', 'value8']);
    for (const design of [INDEX_VIEWS, AGGREGATE_VIEWS]) {
      for (const [name, { map, reduce, options }] of Object.entries(design.views)) {
        assert.equal(map, `function (doc) { emit(doc.${name}, null); }`);
        assert.deepEqual(options, { collation: 'raw' }, `${name}: code-point order`);
        assert.equal(reduce, ['value7', 'value8'].includes(name) ? '_count' : undefined, name);
      }
    }
  });

  test('collect groups the counting view; min and max read one row of a sorted view from either end, a sort its first', () => {
    assert.deepEqual(built['collect-count-string'].params, { group: true });
    assert.equal(built['collect-number'].view, 'value7');
    assert.deepEqual(built['min-string'].params, { limit: 1, descending: false });
    assert.deepEqual(built['max-number'].params, { limit: 1, descending: true });
    assert.deepEqual([built['sort-string'].view, built['sort-string'].params], ['value6', { limit: 1 }]);
  });

  test('every Mango query asks for every match (CouchDB answers 25 by default) and projects stored names only', () => {
    const mango = CASE_NAMES.filter((name) => built[name].kind === 'find');
    assert.deepEqual(mango.sort(), ['extract-doc', 'extract-key', 'extract-number', 'extract-string', 'filter-number',
      'filter-string', 'keep', 'unset'].sort());
    for (const name of mango) {
      assert.ok(built[name].body.limit >= 2 ** 31 - 1, name);
      for (const field of built[name].body.fields ?? []) assert.match(field, /^(_id|value[1-8])$/, name);
    }
    assert.deepEqual(built.keep.body.fields, ['_id']);
    assert.deepEqual(built.unset.body.fields, ['value1', 'value2', 'value3', 'value4', 'value5', 'value6', 'value7', 'value8']);
    assert.deepEqual(built['filter-string'].body.selector, { value6: 'test333' });
    assert.deepEqual(built['filter-string'].body.fields, ['value6'], 'the filtered attribute only');
  });

  test('an attribute outside the documents is refused', () => {
    assert.throws(() => caseRequest('filter-number', { attribute: '_rev', value: 1 }), /not a field of the query documents/);
  });

  test('a query collection is a database of the namespace', () => {
    assert.equal(queryDatabase('dbshootout', 'values1m'), 'dbshootout-q-values1m');
  });
});

// nano's database scope as runQuery() uses it: find(), fetch() and view() record their arguments and answer `answer`.
function recordingScope(answer) {
  const calls = [];
  const record = (kind) => async (...args) => {
    calls.push({ kind, args });
    return structuredClone(answer);
  };
  return { calls, find: record('find'), fetch: record('fetch'), view: record('view') };
}

describe('couchdb queries suite: runQuery', () => {
  const run = async (caseName, answer) => {
    const scope = recordingScope(answer);
    const rows = await runQuery({ database: () => scope }, caseName, 'values100k', built[caseName].input);
    assert.equal(scope.calls.length, 1, `${caseName}: one request`);
    return { rows, call: scope.calls[0] };
  };

  test('documents come back with _id as _key, without _rev', async () => {
    const doc = { _id: 'test7', _rev: '1-abc', value1: 7 };
    assert.deepEqual((await run('extract-doc', { docs: [doc] })).rows, [{ _key: 'test7', value1: 7 }]);
    assert.deepEqual((await run('lookup-hash-number', { rows: [{ key: 7, id: 'test7', value: null, doc }] })).rows,
      [{ _key: 'test7', value1: 7 }]);
  });

  test('lookup-key leaves out the keys _all_docs did not find', async () => {
    const { rows, call } = await run('lookup-key', { rows: [
      { id: 'test1', key: 'test1', value: { rev: '1-a' }, doc: { _id: 'test1', _rev: '1-a', value1: 1 } },
      { key: 'test99999999', error: 'not_found' },
    ] });
    assert.deepEqual(rows, [{ _key: 'test1', value1: 1 }]);
    assert.equal(call.kind, 'fetch');
    assert.equal(call.args[0].keys.length, LOOKUP_COUNT);
  });

  test('view rows become keys, or [key, count] pairs', async () => {
    const answer = { rows: [{ key: 'test3', value: 10 }] };
    assert.deepEqual((await run('collect-string', answer)).rows, ['test3']);
    assert.deepEqual((await run('collect-count-string', answer)).rows, [['test3', 10]]);
    const { call } = await run('sort-number', { rows: [] });
    assert.deepEqual(call.args, ['aggregates', 'value5', { limit: 1 }]);
  });

  test('extract-* and filter-* read the one projected field; keep the _id as _key; unset the fields as stored', async () => {
    assert.deepEqual((await run('extract-key', { docs: [{ _id: 'test1' }] })).rows, ['test1']);
    assert.deepEqual((await run('extract-number', { docs: [{ value1: 1 }] })).rows, [1]);
    assert.deepEqual((await run('filter-number', { docs: [{ value5: 333 }] })).rows, [333]);
    assert.deepEqual((await run('keep', { docs: [{ _id: 'test1' }] })).rows, [{ _key: 'test1' }]);
    assert.deepEqual((await run('unset', { docs: [{ value1: 1, value8: 'test1' }] })).rows, [{ value1: 1, value8: 'test1' }], 'no _key added');
  });
});
