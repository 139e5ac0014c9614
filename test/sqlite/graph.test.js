// SQLite's graph suite beyond the shared conformance cases: the bulk load at batch lengths around its statement
// size, the plan of every statement (an index search, never a scan of the edge table), a batch upsert that fails
// writing nothing, the size on disk of one collection, and the namespace's reset and drop removing the edges.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import sqlite from '../../adapters/sqlite/description.js';
import { ROWS, graphStatements } from '../../adapters/sqlite/graph.js';
import { namespaceTables } from '../../adapters/sqlite/schema.js';
import { distinctEdges } from '../helpers/edge-lists.js';
import { assertUpsertAllOrNone } from '../helpers/edge-table.js';

const NAMESPACE = 'dbshootout';
const TABLE = namespaceTables(NAMESPACE).temp('g_edges');

async function load(graph, name, list, lengths) {
  await graph.create(name);
  let from = 0;
  for (const length of lengths) {
    await graph.importEdges(name, list.batch(from, from + length));
    from += length;
  }
  await graph.index(name);
}

describe('sqlite graph suite', () => {
  let dir;
  let file;
  let db;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'db-shootout-sqlite-graph-'));
    file = join(dir, 'bench.sqlite');
    db = sqlite.create({ namespace: NAMESPACE, database: file, concurrency: 1 });
    await db.connect();
    await db.resetNamespace();
  });

  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('batches of any length load whole: full statements of ROWS edges, then the rest one by one', async () => {
    const lengths = [1, ROWS - 1, ROWS, ROWS + 1, 2 * ROWS + 7];
    const list = distinctEdges(lengths.reduce((sum, length) => sum + length, 0));
    await load(db.graph, 'edges', list, lengths);
    assert.equal(await db.graph.count('edges'), list.edges.length);
    for (const edge of list.edges) assert.deepEqual(await db.graph.findEdge('edges', edge.source, edge.target), edge);
  });

  // The upserts are left out: an INSERT's plan shows no search, its conflict check being a lookup in the key.
  test('every statement that reads edges searches the primary key or the target index, never scanning the table', () => {
    const statements = graphStatements(TABLE);
    const args = {
      findEdge: [1, 2], edgesOf: [{ vertex: 1 }], inEdges: [1], friends: [{ vertex: 1 }], countFriends: [{ vertex: 1 }],
      countFollowers: [1], removeEdge: [1, 2], removeEdges: ['[]'],
    };
    const other = new Database(file, { readonly: true });
    try {
      for (const [name, values] of Object.entries(args)) {
        const plan = other.prepare(`EXPLAIN QUERY PLAN ${statements[name]}`).all(...values).map(({ detail }) => detail);
        assert.ok(plan.some((detail) => detail.startsWith(`SEARCH ${TABLE} `)), `${name} searches ${TABLE}: ${plan.join('; ')}`);
        assert.ok(!plan.some((detail) => detail.startsWith(`SCAN ${TABLE}`)), `${name} never scans ${TABLE}: ${plan.join('; ')}`);
        const onTarget = plan.filter((detail) => detail.includes('(target=?)'));
        assert.ok(onTarget.every((detail) => detail.includes(`USING COVERING INDEX ${TABLE}_target`)),
          `${name} reads in-edges from the covering index alone: ${plan.join('; ')}`);
      }
    } finally {
      other.close();
    }
  });

  test('a batch upsert that fails on one edge writes none of them', async () => {
    const [first] = distinctEdges(1).edges;
    const count = await db.graph.count('edges');
    await assertUpsertAllOrNone(db.graph, 'edges', { first, weight: null, refused: /NOT NULL/, count });
  });

  test('diskUsage counts one collection with its index, within the namespace', async () => {
    await load(db.graph, 'small', distinctEdges(100), [100]);
    const large = await db.graph.diskUsage('edges');
    const small = await db.graph.diskUsage('small');
    assert.ok(small > 0 && large > small, `the larger collection takes more pages (${large} > ${small})`);
    assert.ok(large + small <= await db.diskUsage(), 'both are part of the namespace');
    await db.graph.drop('small');
  });

  test('resetNamespace and dropNamespace remove the edge collections with everything else', async () => {
    const tables = () => {
      const other = new Database(file, { readonly: true });
      try {
        return other.prepare("SELECT name FROM sqlite_schema WHERE name LIKE '%g\\_%' ESCAPE '\\'").pluck().all();
      } finally {
        other.close();
      }
    };
    assert.deepEqual(tables(), [TABLE, `${TABLE}_target`]);
    await db.resetNamespace();
    assert.deepEqual(tables(), []);
    assert.equal(await db.graph.count('edges'), 0);
    await load(db.graph, 'edges', distinctEdges(10), [10]);
    await db.close();
    await sqlite.testSupport.dropNamespace({ namespace: NAMESPACE, database: file });
    assert.deepEqual(tables(), []);
    await db.connect();
  });
});
