// The arangodb adapter's queries suite without a server: the AQL of every case and its bind parameters, the
// indexes, and what the adapter sends for a case, recorded by an HTTP stub (canned answers, not ArangoDB). What a
// server answers is checked by the conformance suite, which needs one (BENCH_ARANGODB_URL).
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';
import arangodb from '../../adapters/arangodb/description.js';
import { INDEXES, caseQuery } from '../../adapters/arangodb/queries.js';
import { isOwnCollection, queryCollectionName } from '../../adapters/arangodb/model.js';
import { CASES, CASE_NAMES, LOOKUP_COUNT } from '../../workloads/queries/cases.js';
import { INDEXES as CONTRACT_INDEXES } from '../../workloads/queries/data.js';

const SIZE = 100_000;
const built = Object.fromEntries(CASES.map((queryCase) => [queryCase.name, {
  queryCase, params: queryCase.params(SIZE), ...caseQuery(queryCase.name, 'q_values100k', queryCase.params(SIZE)),
}]));

// The expression after the query's last RETURN.
const returned = (query) => query.slice(query.lastIndexOf('RETURN ') + 'RETURN '.length).trim();

describe('arangodb queries suite: the AQL', () => {
  test('every case of the suite is supported, each with a query of its own', () => {
    assert.deepEqual([...CASE_NAMES].sort(), arangodb.supports.filter((name) => CASE_NAMES.includes(name)).sort());
    assert.equal(arangodb.unsupported, undefined, 'nothing is left unsupported');
    for (const name of CASE_NAMES) assert.match(built[name].query, /FOR c1? IN @@c/, name);
  });

  test('every bind parameter a query names is bound, and nothing else; the collection is @@c', () => {
    for (const [name, { query, bindVars }] of Object.entries(built)) {
      const named = new Set([...query.matchAll(/@(@?\w+)/g)].map(([, parameter]) => parameter));
      assert.deepEqual([...named].sort(), Object.keys(bindVars).sort(), name);
      assert.equal(bindVars['@c'], 'q_values100k', name);
    }
  });

  test('a lookup is one query with its IN list of 10,000 values bound as one parameter, never written into the text', () => {
    for (const name of CASE_NAMES.filter((caseName) => caseName.startsWith('lookup-'))) {
      const { query, bindVars, params } = built[name];
      assert.equal(bindVars.values.length, LOOKUP_COUNT, name);
      assert.deepEqual(bindVars.values, params.values, name);
      assert.match(query, new RegExp(`FILTER c\\.${params.attribute} IN @values`), name);
      assert.ok(query.length < 200, `${name}: the query text stays short (${query.length} characters)`);
    }
  });

  test('every document a case returns leaves the server without _id and _rev', () => {
    const documentCases = CASES.filter(({ rows }) => rows === 'documents').map(({ name }) => name);
    assert.equal(documentCases.length, 16);
    for (const name of documentCases) {
      const { query, bindVars } = built[name];
      const expression = returned(query);
      if (name === 'keep') {
        assert.equal(expression, 'KEEP(c, @attributes)');
        assert.deepEqual(bindVars.attributes, ['_key'], 'of the script\'s _key, _rev and _id, the one the answers hold');
      } else if (name === 'unset') {
        assert.equal(expression, "UNSET(c, APPEND(@attributes, ['_id', '_rev']))");
        assert.deepEqual(bindVars.attributes, ['_key'], 'the script\'s UNSET(c, \'_key\', \'_rev\', \'_id\')');
      } else {
        assert.match(expression, /UNSET\(c1?, '_id', '_rev'\)/, name);
      }
    }
  });

  test('a join is a self-join on the case\'s attribute returning the left document; join-id joins on _id', () => {
    const joined = { 'join-key': '_key', 'join-id': '_id' };
    for (const { name, params } of CASES.filter((queryCase) => queryCase.name.startsWith('join-'))) {
      const { attribute } = params(1000);
      const on = joined[name] ?? attribute;
      assert.match(built[name].query, new RegExp(`^FOR c1 IN @@c FOR c2 IN @@c FILTER c1\\.${on} == c2\\.${on} RETURN UNSET\\(c1,`), name);
    }
  });

  test('the cases that return no document are the script\'s queries, the attribute written in and the value bound', () => {
    const documentCases = CASES.filter(({ rows }) => rows === 'documents').map(({ name }) => name);
    for (const queryCase of CASES.filter(({ name }) => !documentCases.includes(name))) {
      const { query, bindVars } = built[queryCase.name];
      const script = queryCase.aql.replace(' == 333 ', ' == @value ').replace(' == "test333" ', ' == @value ');
      assert.equal(query, script, queryCase.name);
      if (queryCase.name.startsWith('filter-')) assert.equal(bindVars.value, queryCase.params(SIZE).value);
    }
  });

  test('merge-number and merge-string add testValue, the document\'s own value5 or value6, as the script\'s MERGE', () => {
    assert.equal(built['merge-number'].query, "FOR c IN @@c RETURN MERGE(UNSET(c, '_id', '_rev'), { testValue: c.value5 })");
    assert.equal(built['merge-string'].query, "FOR c IN @@c RETURN MERGE(UNSET(c, '_id', '_rev'), { testValue: c.value6 })");
  });

  test('a case works on the attribute it is given, and an attribute outside the documents is refused', () => {
    assert.match(caseQuery('sort-number', 'q_x', { attribute: 'value7' }).query, /SORT c\.value7 LIMIT 1 RETURN c\.value7/);
    assert.throws(() => caseQuery('extract-number', 'q_x', { attribute: 'value1 RETURN 1' }), /not a field of the query documents/);
    assert.throws(() => caseQuery('no-such-case', 'q_x', {}), /unknown query case no-such-case/);
  });

  test('equality indexes on value1 and value2, sorted ones on value3 and value4, none on value5 to value8', () => {
    const indexed = INDEXES.flatMap(({ fields }) => fields);
    assert.deepEqual(indexed, [...CONTRACT_INDEXES.hash, ...CONTRACT_INDEXES.sorted]);
    for (const { fields, type, cacheEnabled } of INDEXES) {
      assert.equal(type, 'persistent', 'RocksDB\'s one secondary index type');
      assert.equal(cacheEnabled === true, CONTRACT_INDEXES.hash.includes(fields[0]), `${fields[0]}: the hash cache only on the equality indexes`);
    }
  });

  test('query collections are the namespace\'s own, so a reset drops them', () => {
    assert.equal(queryCollectionName('values1m'), 'q_values1m');
    assert.ok(isOwnCollection(queryCollectionName('conformance_values')));
    assert.throws(() => queryCollectionName('values/1k'), /not allowed/);
  });
});

// Answers /_api/cursor with `result` and everything else with canned JSON; records each request. Not a database.
async function recordingStub(result) {
  const requests = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => {
      requests.push({ method: request.method, url: request.url, body: body ? JSON.parse(body) : null });
      const answer = request.url.includes('/_api/cursor')
        ? { error: false, code: 201, result, hasMore: false, cached: false, extra: {} }
        : { error: false, code: 200, server: 'arango', version: '3.12.4', id: 'q_values1k/1', isNewlyCreated: true };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

describe('arangodb queries suite: what the adapter sends', () => {
  const options = {
    host: '127.0.0.1', user: 'root', password: undefined, database: '_system', namespace: 'dbshootout',
    concurrency: 1, connectTimeoutMs: 5000,
  };

  test('a case is one cursor request on q_<name>, and its rows come back as the server gave them', async () => {
    const rows = [{ _key: 'test1', value1: 1 }];
    const stub = await recordingStub(rows);
    const adapter = arangodb.create({ ...options, port: stub.port });
    try {
      await adapter.connect();
      const before = stub.requests.length;
      const params = built['lookup-hash-number'].queryCase.params(1_000);
      assert.deepEqual(await adapter.query('lookup-hash-number', 'values1k', params), rows);
      const sent = stub.requests.slice(before);
      assert.equal(sent.length, 1, 'one request for the whole IN list');
      assert.equal(sent[0].url, '/_db/dbshootout/_api/cursor');
      assert.deepEqual(sent[0].body.bindVars, { '@c': 'q_values1k', values: params.values });
    } finally {
      await adapter.close();
      await stub.close();
    }
  });

  test('indexQueryCollection creates the four indexes on q_<name>', async () => {
    const stub = await recordingStub([]);
    const adapter = arangodb.create({ ...options, port: stub.port });
    try {
      await adapter.connect();
      await adapter.indexQueryCollection('values1k');
      const created = stub.requests.filter(({ url }) => url.startsWith('/_db/dbshootout/_api/index'));
      assert.ok(created.every(({ method, url }) => method === 'POST' && url.endsWith('?collection=q_values1k')));
      assert.deepEqual(created.map(({ body }) => body), INDEXES.map((index) => ({ ...index })));
    } finally {
      await adapter.close();
      await stub.close();
    }
  });
});
