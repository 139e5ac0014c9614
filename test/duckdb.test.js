// DuckDB's adapter beyond the shared conformance suite: the recursive shortest-path statement against a plain
// breadth-first search on random graphs, the database file (data kept across instances, files that cannot be
// opened), and namespaces side by side in one file.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import duckdb from '../adapters/duckdb/description.js';
import { ErrorCodes } from '../core/errors.js';
import { assertNeighbourSets, assertPathCases, mulberry32, pathCases, randomGraph, searchPaths } from './helpers/graphs.js';

// From sparse (paths up to ~15 hops, many unreachable pairs) to dense (short paths with many alternatives).
const GRAPHS = [
  { nodes: 80, edges: 120, seed: 1 },
  { nodes: 80, edges: 200, seed: 2 },
  { nodes: 200, edges: 1600, seed: 3 },
];
const PAIRS_PER_GRAPH = 300;
const MAX_DEPTH_LIMIT = 16;
const CONCURRENCY = 4;

for (const spec of GRAPHS) {
  describe(`duckdb graph operations on a random graph of ${spec.nodes} nodes and ${spec.edges} relations`, () => {
    const graph = randomGraph(spec, mulberry32);
    let dir;
    let db;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'db-shootout-duckdb-'));
      db = duckdb.create({ namespace: 'dbshootout', database: join(dir, 'graph.duckdb'), concurrency: CONCURRENCY });
      await db.connect();
      await db.resetNamespace();
      await db.importProfiles(Array.from({ length: spec.nodes }, (_, i) => ({ _key: `P${i + 1}`, AGE: i % 7 })));
      await db.importRelations(graph.relations);
      await db.createIndexes();
    });

    after(async () => {
      await db?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test('shortestPath is minimal, follows relations, and respects maxDepth, with searches running at once', async () => {
      const cases = pathCases(graph, PAIRS_PER_GRAPH, MAX_DEPTH_LIMIT);
      assertPathCases(cases, await searchPaths(db, cases, CONCURRENCY), graph.out);
    });

    test('neighbors and neighbors2 match the adjacency lists', async () => {
      await assertNeighbourSets(db, graph);
    });
  });
}

describe('duckdb database file', () => {
  let dir;
  let adapters;

  async function open(options) {
    const adapter = duckdb.create({ namespace: 'dbshootout', concurrency: 2, ...options });
    adapters.push(adapter);
    await adapter.connect();
    return adapter;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'db-shootout-duckdb-'));
    adapters = [];
  });

  afterEach(async () => {
    for (const adapter of adapters) await adapter.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('keeps its data in <dataDir>/duckdb/bench.duckdb, read back by the next instance', async () => {
    const first = await open({ dataDir: dir });
    await first.resetNamespace();
    await first.importProfiles([{ _key: 'P1', AGE: 26, region: 'žilinský kraj' }]);
    await first.importRelations([{ _from: 'P1', _to: 'P1' }]);
    await first.createIndexes();
    await first.writeMarker({ dataset: 'one' });
    await first.close();

    const second = await open({ database: join(dir, 'duckdb', 'bench.duckdb') });
    assert.deepEqual(await second.inspectNamespace(), { state: 'owned', marker: { dataset: 'one' } });
    assert.deepEqual(await second.counts(), { profiles: 1, relations: 1 });
    assert.deepEqual(await second.singleRead('P1'), { _key: 'P1', AGE: 26, region: 'žilinský kraj' });
  });

  for (const [what, make] of [
    ['a directory', (path) => mkdirSync(path)],
    ['a file that is not a DuckDB database', (path) => writeFileSync(path, 'not a database\n'.repeat(1000))],
  ]) {
    test(`connect() rejects ${what} with E_CONNECT naming the file`, async () => {
      const file = join(dir, 'bad.duckdb');
      make(file);
      const adapter = duckdb.create({ namespace: 'dbshootout', database: file, concurrency: 1 });
      await assert.rejects(adapter.connect(), (error) => {
        assert.equal(error.code, ErrorCodes.CONNECT);
        assert.ok(error.message.includes(file), error.message);
        return true;
      });
      await adapter.close();
    });
  }

  test('resetNamespace and dropNamespace leave other namespaces and other tables of the file alone', async () => {
    const file = join(dir, 'shared.duckdb');
    const other = await open({ database: file, namespace: 'dbshootout_v2' });
    await other.resetNamespace();
    await other.importProfiles([{ _key: 'P1', AGE: 1 }]);
    await other.close();
    const instance = await DuckDBInstance.create(file);
    const connection = await instance.connect();
    await connection.run("CREATE TABLE dbshootout_notes (note VARCHAR); INSERT INTO dbshootout_notes VALUES ('mine')");
    connection.disconnectSync();
    instance.closeSync();

    const db = await open({ database: file });
    await db.resetNamespace();
    await db.createTempCollection('scratch');
    await db.close();
    await duckdb.testSupport.dropNamespace({ database: file, namespace: 'dbshootout' });

    const check = await DuckDBInstance.create(file);
    const checkConnection = await check.connect();
    const reader = await checkConnection.runAndReadAll(
      "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' ORDER BY table_name",
    );
    checkConnection.disconnectSync();
    check.closeSync();
    assert.deepEqual(reader.getRowsJS().map(([name]) => name),
      ['dbshootout_notes', 'dbshootout_v2_marker', 'dbshootout_v2_profiles', 'dbshootout_v2_relations']);
  });
});
