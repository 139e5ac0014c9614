// The arangodb adapter's graph suite without a server: the AQL of every operation and its bind parameters, the
// import rows, the indexes, and what the adapter sends, recorded by an HTTP stub (canned answers, not ArangoDB).
// What a server answers is checked by the conformance suite, which needs one (BENCH_ARANGODB_URL).
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';
import arangodb from '../../adapters/arangodb/description.js';
import {
  DURABLE_WRITES, IMPORT_HEADER, INDEXES, QUERIES, edgeKey, graphQuery, importRows,
} from '../../adapters/arangodb/graph.js';
import { graphCollectionName, isOwnCollection, strangers } from '../../adapters/arangodb/model.js';
import { GRAPH_OPERATIONS } from '../../workloads/graph/operations.js';

const BIND_VARS = {
  findEdge: { source: 1, target: 2 },
  edgesOf: { vertex: 1 },
  inEdges: { vertex: 1 },
  friends: { vertex: 1 },
  countFriends: { vertex: 1 },
  countFollowers: { vertex: 1 },
  upsertEdge: { edge: { _key: '1-2', source: 1, target: 2, weight: 3 } },
  upsertEdges: { edges: [] },
  removeEdge: { key: '1-2' },
  removeEdges: { keys: [] },
};

const batch = (edges) => ({
  length: edges.length,
  source: Int32Array.from(edges, ([source]) => source),
  target: Int32Array.from(edges, ([, target]) => target),
  weight: Int32Array.from(edges, ([, , weight]) => weight),
});

describe('arangodb graph suite: the AQL', () => {
  test('every graph operation is supported, each with a query of its own on @@c', () => {
    assert.deepEqual(GRAPH_OPERATIONS.filter((operation) => !arangodb.supports.includes(operation)), []);
    assert.deepEqual(Object.keys(QUERIES).sort(), [...GRAPH_OPERATIONS, 'scan'].sort(), 'and scan, which reads the whole collection back for the check');
    for (const [operation, query] of Object.entries(QUERIES)) assert.match(query, /IN(TO)? @@c\b/, operation);
  });

  test('scan pages through the whole collection by key, each edge once, as [key, source, target, weight]', () => {
    const { query, bindVars } = graphQuery('scan', 'g_edges', { after: '', limit: 10000 });
    assert.equal(query, 'FOR e IN @@c FILTER e._key > @after SORT e._key LIMIT @limit RETURN [e._key, e.source, e.target, e.weight]');
    assert.deepEqual(bindVars, { '@c': 'g_edges', after: '', limit: 10000 });
  });

  test('every bind parameter a query names is bound, and nothing else; no value is written into the text', () => {
    for (const operation of GRAPH_OPERATIONS) {
      const { query, bindVars } = graphQuery(operation, 'g_edges', BIND_VARS[operation]);
      const named = new Set([...query.matchAll(/@(@?\w+)/g)].map(([, parameter]) => parameter));
      assert.deepEqual([...named].sort(), Object.keys(bindVars).sort(), operation);
      assert.equal(bindVars['@c'], 'g_edges', operation);
      assert.doesNotMatch(query.replace('LIMIT 1 ', ''), /\d/, `${operation}: no number in the text but findEdge's LIMIT 1`);
    }
  });

  test('the reads that touch a vertex look up both ends through the two indexes; the counts are the server\'s', () => {
    for (const operation of ['edgesOf', 'friends', 'countFriends']) {
      assert.match(QUERIES[operation], /FILTER o\.source == @vertex/, operation);
      assert.match(QUERIES[operation], /FILTER i\.target == @vertex/, operation);
    }
    assert.match(QUERIES.friends, /UNION_DISTINCT\(/, 'each friend once');
    for (const operation of ['countFriends', 'countFollowers']) {
      assert.match(QUERIES[operation], /RETURN \{ count: LENGTH\(weights\), weight: SUM\(weights\) \}$/, operation);
    }
  });

  test('an upsert replaces the document of the pair\'s key; a removal by key ignores an absent pair', () => {
    assert.match(QUERIES.upsertEdge, /^INSERT @edge INTO @@c OPTIONS \{ overwriteMode: 'replace', waitForSync: false \}$/);
    assert.match(QUERIES.upsertEdges, /^FOR edge IN @edges INSERT edge INTO @@c OPTIONS \{ overwriteMode: 'replace', waitForSync: false \}$/);
    assert.match(QUERIES.removeEdge, /^REMOVE @key IN @@c OPTIONS \{ ignoreErrors: true, waitForSync: false \}$/);
    assert.match(QUERIES.removeEdges, /^FOR key IN @keys REMOVE key IN @@c OPTIONS \{ ignoreErrors: true, waitForSync: false \}$/);
  });

  test('each write has a durable form, the same query with waitForSync: true, which graphQuery picks for durable', () => {
    assert.deepEqual(Object.keys(DURABLE_WRITES).sort(), ['removeEdge', 'removeEdges', 'upsertEdge', 'upsertEdges']);
    for (const [operation, query] of Object.entries(DURABLE_WRITES)) {
      assert.equal(query, QUERIES[operation].replace('waitForSync: false', 'waitForSync: true'), operation);
      assert.equal(graphQuery(operation, 'g_edges', BIND_VARS[operation], true).query, query, operation);
      assert.equal(graphQuery(operation, 'g_edges', BIND_VARS[operation], false).query, QUERIES[operation], operation);
    }
    assert.equal(graphQuery('findEdge', 'g_edges', BIND_VARS.findEdge, true).query, QUERIES.findEdge, 'a read has no durable form');
  });
});

describe('arangodb graph suite: keys, import rows, indexes and names', () => {
  test('the key of a pair is unique to it, and allowed as a document key', () => {
    assert.notEqual(edgeKey(1, 23), edgeKey(12, 3));
    assert.notEqual(edgeKey(1, 2), edgeKey(2, 1));
    assert.match(edgeKey(2 ** 31 - 1, 1), /^[0-9]+-[0-9]+$/);
  });

  test('the import rows are the header, then one row of values per edge of the batch', () => {
    const edges = [[1, 2, 5], [1, 23, 0], [12, 3, 2 ** 31 - 1]];
    const rows = importRows(batch(edges));
    assert.deepEqual(rows[0], IMPORT_HEADER);
    assert.deepEqual(rows.slice(1), edges.map(([s, t, w]) => [edgeKey(s, t), s, t, w]));
    assert.ok(rows.slice(1).flat().every((value) => typeof value === 'string' || typeof value === 'number'));
  });

  test('a unique index on [source, target] and one on [target, source], each storing the weight', () => {
    assert.deepEqual(INDEXES.map(({ fields }) => fields), [['source', 'target'], ['target', 'source']]);
    assert.deepEqual(INDEXES.map(({ unique }) => unique === true), [true, false]);
    for (const index of INDEXES) {
      assert.equal(index.type, 'persistent');
      assert.deepEqual(index.storedValues, ['weight'], 'the reads need no document');
    }
  });

  test('edge collections are the namespace\'s own, so a reset drops them, and their names are checked', () => {
    assert.equal(graphCollectionName('edges'), 'g_edges');
    assert.ok(isOwnCollection(graphCollectionName('conformance_edges')));
    assert.deepEqual(strangers({ collections: ['g_edges'], views: [], graphs: [] }), []);
    assert.throws(() => graphCollectionName('edges/x'), /edge collection name "edges\/x" is not allowed/);
  });
});

// Answers /_api/cursor with `result`, /_api/import with `created` (by default the number of documents sent) and
// everything else with canned JSON; records each request with its raw body. Not a database.
async function recordingStub({ result = [], created } = {}) {
  const requests = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => {
      requests.push({ method: request.method, url: request.url, body });
      let answer = { error: false, code: 200, server: 'arango', version: '3.12.4', id: 'g_edges/1', isNewlyCreated: true };
      if (request.url.includes('/_api/cursor')) {
        answer = { error: false, code: 201, result, hasMore: false, cached: false, extra: {} };
      } else if (request.url.includes('/_api/import')) {
        const documents = body.split('\r\n').filter(Boolean).length - 1;
        answer = { error: false, created: created ?? documents, errors: 0, empty: 0, updated: 0, ignored: 0, details: ['a detail'] };
      }
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

async function withStub(stubOptions, body) {
  const stub = await recordingStub(stubOptions);
  const adapter = arangodb.create({
    host: '127.0.0.1', port: stub.port, user: 'root', password: undefined, database: '_system', namespace: 'dbshootout',
    concurrency: 1, connectTimeoutMs: 5000,
  });
  try {
    await adapter.connect();
    const before = stub.requests.length;
    await body(adapter, () => stub.requests.slice(before));
  } finally {
    await adapter.close();
    await stub.close();
  }
}

describe('arangodb graph suite: what the adapter sends', () => {
  test('a batch is one import request into g_<name>, all or nothing, in the header-and-values form', async () => {
    await withStub({}, async (adapter, sent) => {
      await adapter.graph.importEdges('edges', batch([[1, 2, 5], [3, 1, 7]]));
      const [request] = sent();
      assert.equal(sent().length, 1);
      const url = new URL(request.url, 'http://stub');
      assert.equal(url.pathname, '/_db/dbshootout/_api/import');
      assert.equal(url.searchParams.get('collection'), 'g_edges');
      assert.equal(url.searchParams.get('type'), '', 'the header-and-values form');
      assert.equal(url.searchParams.get('complete'), 'true');
      const lines = request.body.split('\r\n').filter(Boolean).map((line) => JSON.parse(line));
      assert.deepEqual(lines, [[...IMPORT_HEADER], ['1-2', 1, 2, 5], ['3-1', 3, 1, 7]]);
    });
  });

  test('an import the server answers with fewer documents created rejects, naming the collection', async () => {
    await withStub({ created: 1 }, async (adapter) => {
      await assert.rejects(adapter.graph.importEdges('edges', batch([[1, 2, 5], [3, 1, 7]])),
        /importing 2 edges into "g_edges" created 1, with 0 errors: a detail/);
    });
  });

  test('index() creates the two indexes on g_<name>, one after the other', async () => {
    await withStub({}, async (adapter, sent) => {
      await adapter.graph.index('edges');
      const created = sent().filter(({ url }) => url.startsWith('/_db/dbshootout/_api/index'));
      assert.ok(created.every(({ method, url }) => method === 'POST' && url.endsWith('?collection=g_edges')));
      assert.deepEqual(created.map(({ body }) => JSON.parse(body)), INDEXES.map((index) => ({ ...index })));
    });
  });

  test('every write sends the waitForSync of its { durable } argument, false without one', async () => {
    await withStub({}, async (adapter, sent) => {
      const edge = { source: 1, target: 2, weight: 3 };
      for (const durable of [false, true]) {
        await adapter.graph.upsertEdge('edges', edge, { durable });
        await adapter.graph.upsertEdges('edges', [edge], { durable });
        await adapter.graph.removeEdge('edges', edge, { durable });
        await adapter.graph.removeEdges('edges', [edge], { durable });
      }
      await adapter.graph.removeEdge('edges', edge);
      const queries = sent().map(({ body }) => JSON.parse(body).query);
      const writes = ['upsertEdge', 'upsertEdges', 'removeEdge', 'removeEdges'];
      assert.deepEqual(queries, [...writes.map((w) => QUERIES[w]), ...writes.map((w) => DURABLE_WRITES[w]), QUERIES.removeEdge]);
    });
  });

  test('a batch of upserts is one query binding the documents with their keys', async () => {
    await withStub({}, async (adapter, sent) => {
      await adapter.graph.upsertEdges('edges', [{ source: 1, target: 2, weight: 0 }, { source: 9, target: 4, weight: 8 }]);
      assert.equal(sent().length, 1);
      const { query, bindVars } = JSON.parse(sent()[0].body);
      assert.equal(query, QUERIES.upsertEdges);
      assert.deepEqual(bindVars, { '@c': 'g_edges', edges: [
        { _key: '1-2', source: 1, target: 2, weight: 0 }, { _key: '9-4', source: 9, target: 4, weight: 8 }] });
    });
  });

  test('findEdge resolves null for no row, the counts the server\'s one row', async () => {
    await withStub({ result: [] }, async (adapter) => {
      assert.equal(await adapter.graph.findEdge('edges', 1, 2), null);
    });
    await withStub({ result: [{ count: 2, weight: 2 ** 32 }] }, async (adapter, sent) => {
      assert.deepEqual(await adapter.graph.countFriends('edges', 7), { count: 2, weight: 2 ** 32 });
      assert.deepEqual(JSON.parse(sent()[0].body).bindVars, { '@c': 'g_edges', vertex: 7 });
    });
  });
});
