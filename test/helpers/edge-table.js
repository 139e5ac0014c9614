// The graph suite's edge table in a SQL database, as the adapters' own graph tests load it and check what the
// conformance cases do not look at: MySQL's and PostgreSQL's (test/mysql/graph.test.js,
// test/postgresql/graph.test.js) share their load and writes; DuckDB's and SQLite's the failing batch upsert.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { edgeList } from './edge-lists.js';

const CONCURRENCY = 4;

// A batch upsert of `first` with a new weight, a new pair, and a last pair with `weight` (which the database
// refuses with an error matching `refused`) writes none of them: `first` keeps its weight, the new pair stays
// absent and the collection keeps its `count` edges.
export async function assertUpsertAllOrNone(graph, collection, { first, weight, refused, count }) {
  const batch = [{ ...first, weight: first.weight + 1 }, { source: 90001, target: 90002, weight: 3 },
    { source: 90003, target: 90004, weight }];
  await assert.rejects(graph.upsertEdges(collection, batch), refused);
  assert.deepEqual(await graph.findEdge(collection, first.source, first.target), first);
  assert.equal(await graph.findEdge(collection, 90001, 90002), null);
  assert.equal(await graph.count(collection), count);
}

// Within a describe: before its tests, an adapter of `description` on a fresh namespace of `options`, with the
// batch `edges` imported into `collection` and indexed; after them, the adapter closed and the namespace dropped.
// `table.db` is that adapter while the tests run.
export function edgeTable(description, options, { collection, edges }) {
  const table = { db: null, description, options, collection, edges };
  before(async () => {
    table.db = description.create({ ...options, concurrency: CONCURRENCY });
    await table.db.connect();
    await table.db.resetNamespace();
    await table.db.graph.create(collection);
    await table.db.graph.importEdges(collection, edges);
    await table.db.graph.index(collection);
  });
  after(async () => {
    await table.db?.close();
    await description.testSupport.dropNamespace(options);
  });
  return table;
}

// The writes both servers answer alike, on the edge table `table` of edgeTable(): a batch upsert with one edge the server refuses (`weight`, named
// `refusedWeight` in the test's title; the error matches `refused`) writes nothing; empty batches write nothing;
// close() during an import (`load`: the statements the import sends) leaves the collection it filled empty.
export function edgeTableWrites(table, { refusedWeight, weight, refused, load }) {
  const { description, options, collection, edges } = table;

  test(`upsertEdges is all or none: a batch with ${refusedWeight} changes nothing`, async () => {
    const first = { source: edges.source[0], target: edges.target[0], weight: edges.weight[0] };
    await assertUpsertAllOrNone(table.db.graph, collection, { first, weight, refused, count: edges.length });
  });

  test('empty batches write nothing and succeed', async () => {
    await table.db.graph.upsertEdges(collection, []);
    await table.db.graph.removeEdges(collection, []);
    assert.equal(await table.db.graph.count(collection), edges.length);
  });

  test(`close() during an import rolls its ${load} back: the collection stays empty`, async () => {
    const other = description.create({ ...options, concurrency: CONCURRENCY });
    await other.connect();
    await other.graph.create('given_up');
    await other.graph.importEdges('given_up', edgeList(1000, 10));
    await other.close();
    assert.equal(await table.db.graph.count('given_up'), 0);
    await table.db.graph.drop('given_up');
  });
}
