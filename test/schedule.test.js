// Which test files may run side by side (test/schedule.js), and how a run of several at once adds up their
// results (test/jobs.js).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { adapterIds, loadAdapter } from '../adapters/index.js';
import { repeatedFailures, summedCounts } from './jobs.js';
import { CACHE, SERVERS, fileNeeds, nextFile, startOrder } from './schedule.js';

describe('what a test file needs', () => {
  test('nothing shared, when it names no server and keeps a cache of its own', () => {
    assert.deepEqual(fileNeeds('test/stats.test.js', "import { median } from '../results/stats.js';"), []);
    assert.deepEqual(fileNeeds('test/x.test.js', "spawnBench(['run'], { env: { BENCH_CACHE_DIR: dir } })"), []);
  });

  test('its folder\'s server, and every server or adapter it names, FerretDB with the PostgreSQL under it', () => {
    assert.deepEqual(fileNeeds('test/neo4j/graph.test.js', ''), ['neo4j']);
    assert.deepEqual(fileNeeds('test/mysql/graph.test.js', ''), ['mariadb']);
    assert.deepEqual(fileNeeds('test/couchdb/e2e.test.js', "env: { BENCH_CACHE_DIR: x }"), ['pouchdb']);
    assert.deepEqual(fileNeeds('test/a.test.js', "run(['--db', 'postgresql_tabular'])"), ['postgresql']);
    assert.deepEqual(fileNeeds('test/a.test.js', "const ids = ['ferretdb', 'orientdb']"), ['ferretdb', 'orientdb', 'postgresql']);
    assert.deepEqual(fileNeeds('test/a.test.js', 'mysqladmin'), [], 'a longer word is not the name');
  });

  test('every server when it finds its servers through helpers/servers.js without naming one', () => {
    assert.deepEqual(fileNeeds('test/conformance.test.js', "import { serverTarget } from './helpers/servers.js';"), [...SERVERS].sort());
    assert.deepEqual(fileNeeds('test/orientdb/x.test.js', "import { serverTarget } from '../helpers/servers.js';"), ['orientdb']);
  });

  test('every server when it loops over every adapter to find its server, whatever one it also names', () => {
    const loop = "import { serverTarget } from './helpers/servers.js';\nconst LEFT_OUT = { ferretdb: [] };\n"
      + 'for (const id of adapterIds()) serverTarget(await loadAdapter(id));';
    assert.deepEqual(fileNeeds('test/a.test.js', loop), [...SERVERS].sort());
    // The two files that run `bench run` on every server adapter, each naming one of them too (CI20 ran the first
    // beside test/neo4j/connection.test.js, whose count of the harness's Neo4j connections it then broke).
    for (const file of ['test/e2e-servers.test.js', 'test/e2e-terms.test.js']) {
      const needs = fileNeeds(file, readFileSync(file, 'utf8'));
      for (const server of SERVERS) assert.ok(needs.includes(server), `${file} needs ${server}`);
    }
  });

  test('the shared cache when it reads it, or runs the CLI without a cache of its own', () => {
    assert.deepEqual(fileNeeds('test/a.test.js', 'const dir = defaultCacheDir();'), [CACHE]);
    assert.deepEqual(fileNeeds('test/a.test.js', "import { spawnBench } from './helpers/cli.js';"), [CACHE]);
  });

  test('a declaration on a line of its own overrides what the source suggests, and is checked', () => {
    assert.deepEqual(fileNeeds('test/a.test.js', "// test-needs: none\nconst db = 'postgresql';"), []);
    assert.deepEqual(fileNeeds('test/a.test.js', '// test-needs: cache, neo4j, cache'), ['cache', 'neo4j']);
    assert.throws(() => fileNeeds('test/a.test.js', '// test-needs: mongodb'), /test\/a\.test\.js: test-needs names mongodb; known: postgresql, /);
  });
});

// test/conformance.test.js declares that it needs no server: every adapter of a local server family has its
// conformance tests in a file of its own, which needs that server.
test('each adapter of a local server family has a conformance file of its own, needing its server', async () => {
  for (const id of adapterIds()) {
    const { server } = await loadAdapter(id);
    if (!SERVERS.includes(server)) continue;
    const file = `test/conformance/${id}.test.js`;
    assert.ok(existsSync(new URL(`./conformance/${id}.test.js`, import.meta.url)), `${file} exists`);
    assert.ok(fileNeeds(file, readFileSync(new URL(`./conformance/${id}.test.js`, import.meta.url), 'utf8')).includes(server), `${file} needs ${server}`);
  }
});

describe('the order and the choice of the next file', () => {
  const needs = new Map([
    ['test/a.test.js', []], ['test/all.test.js', ['neo4j', 'postgresql']], ['test/pg.test.js', ['postgresql']],
    ['test/neo.test.js', ['neo4j']], ['test/b.test.js', []],
  ]);

  test('those that need the most start first; those that need nothing shared fill in last', () => {
    assert.deepEqual(startOrder(needs), ['test/all.test.js', 'test/neo.test.js', 'test/pg.test.js', 'test/a.test.js', 'test/b.test.js']);
  });

  test('the next file is the first that needs nothing a running file holds', () => {
    const pending = startOrder(needs);
    assert.equal(nextFile(pending, needs, new Set()), 'test/all.test.js');
    assert.equal(nextFile(pending, needs, new Set(['postgresql'])), 'test/neo.test.js');
    assert.equal(nextFile(pending, needs, new Set(['postgresql', 'neo4j'])), 'test/a.test.js');
    assert.equal(nextFile(['test/pg.test.js'], needs, new Set(['postgresql'])), null);
  });
});

describe('the results of files run side by side', () => {
  const output = (pass, fail) => `TAP version 13\nok 1 - x\n# tests ${pass + fail}\n# suites 0\n# pass ${pass}\n# fail ${fail}\n`
    + '# cancelled 0\n# skipped 1\n# todo 0\n# duration_ms 12\n';

  test('the counts are summed over the files, a file\'s last count line counting', () => {
    const nested = `    # pass 99\n${output(2, 0)}`;
    assert.deepEqual(summedCounts([output(3, 1), nested, 'no counts: it was killed']),
      { tests: 6, pass: 5, fail: 1, cancelled: 0, skipped: 2, todo: 0 });
  });

  test('a file\'s repeated failures are taken from its end, without their heading', () => {
    const failed = `${output(0, 1)}\n# 1 failed test, repeated here:\n\n# 1. fails\n#    test/a.test.js:5\n#    AssertionError\n`;
    assert.equal(repeatedFailures(failed), '# 1. fails\n#    test/a.test.js:5\n#    AssertionError');
    assert.equal(repeatedFailures(output(1, 0)), '');
  });
});
