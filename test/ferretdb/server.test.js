// The ferretdb adapter against a FerretDB `bench server start ferretdb` runs (or BENCH_FERRETDB_URL): what the
// capability probe finds there, how the server is named, and the namespace recognised through listCollections.
// Without a server these skip with the reason, unless BENCH_REQUIRE lists ferretdb (CI). The bench server family's
// choices that need no server are checked too.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import ferretdb from '../../adapters/ferretdb/description.js';
import { serverSupports } from '../../adapters/server-supports.js';
import { ErrorCodes } from '../../core/errors.js';
import { serverFamily } from '../../server/index.js';
import { debugPort } from '../../server/ferretdb.js';
import { releaseOf } from '../../server/versions.js';
import { serverTarget } from '../helpers/servers.js';

const TIMEOUT_MS = 120_000;
const { options, skip } = serverTarget(ferretdb, { namespace: 'dbshootout_test_ferretdb' });

describe('ferretdb against its server', { skip }, () => {
  after(() => ferretdb.testSupport.dropNamespace(options));

  async function connected(body) {
    const adapter = ferretdb.create(options);
    await adapter.connect();
    try {
      return await body(adapter);
    } finally {
      await adapter.close();
    }
  }

  test('reports itself as FerretDB on its backend, never as MongoDB', { timeout: TIMEOUT_MS }, async () => {
    const version = await connected((adapter) => adapter.serverVersion());
    assert.match(`${ferretdb.name} ${version}`, /^FerretDB 1\.\d+\.\d+ \(MongoDB wire protocol on (PostgreSQL|SQLite)\)$/);
  });

  test('the probe finds the operators FerretDB 1.x lacks, and plans their operations unsupported', { timeout: TIMEOUT_MS }, async () => {
    const narrowed = await connected((adapter) => serverSupports(ferretdb, adapter));
    for (const operation of ['neighborsData', 'neighbors2', 'neighbors2data', 'concat', 'min-number', 'max-string', 'join-key', 'subquery']) {
      assert.equal(narrowed.supports.includes(operation), false, operation);
      assert.match(narrowed.unsupported[operation], /^the server (refuses|answers)/, operation);
    }
    assert.match(narrowed.unsupported.neighborsData, /\$lookup/);
    // What FerretDB does run stays: the plain reads and writes, the aggregation, the document operations.
    for (const operation of ['singleRead', 'singleWrite', 'aggregation', 'neighbors', 'shortestPath', 'insertDocument', 'filter-number', 'findEdge']) {
      assert.ok(narrowed.supports.includes(operation), operation);
    }
  });

  test('the probe says what it left out of the adapter\'s own parts, and leaves no scratch collection', { timeout: TIMEOUT_MS }, async () => {
    const settings = await connected(async (adapter) => {
      await adapter.resetNamespace();
      return adapter.settings();
    });
    assert.match(settings.warmup, /index scans only.*\$bsonSize/);
    assert.match(settings.queriesEqualityIndex, /^ascending \(B-tree\).*hashed index/);
    const state = await connected(async (adapter) => {
      await adapter.warmup();
      return adapter.inspectNamespace();
    });
    assert.equal(state.state, 'owned');
  });

  test('a namespace it reset is its own, found through listCollections, and its marker round-trips', { timeout: TIMEOUT_MS }, async () => {
    await connected(async (adapter) => {
      await adapter.resetNamespace();
      await adapter.writeMarker({ dataset: 'tiny', n: 3 });
    });
    const { state, marker } = await connected((adapter) => adapter.inspectNamespace());
    assert.equal(state, 'owned');
    assert.deepEqual(marker, { dataset: 'tiny', n: 3 });
  });
});

describe('bench server ferretdb', () => {
  const family = serverFamily('ferretdb');

  test('installs 1.24.2 by default, any other 1.x from 1.14 on with --version, and refuses 2.x', () => {
    assert.equal(releaseOf(family, undefined), '1.24.2');
    assert.equal(releaseOf(family, '1.23.1'), '1.23.1');
    assert.throws(() => releaseOf(family, '2.1.0'), { code: ErrorCodes.USAGE, message: /FerretDB 2\.1\.0 is not supported.*DocumentDB/ });
    assert.throws(() => releaseOf(family, '1.9.0'), { code: ErrorCodes.USAGE });
  });

  test('its debug HTTP listener takes the port after its own, never FerretDB\'s default 8088', () => {
    assert.equal(debugPort(family.defaultPort), family.defaultPort + 1);
    assert.notEqual(debugPort(64117), 8088);
  });

  test('without Go, install says so and how to get it, before it makes anything', { timeout: TIMEOUT_MS }, async () => {
    const saved = process.env.BENCH_GO;
    process.env.BENCH_GO = '/nonexistent/go';
    try {
      await assert.rejects(family.install('/nonexistent/ferretdb', () => {}), { code: ErrorCodes.USAGE, message: /Go is not installed \(no \/nonexistent\/go\); install Go/ });
    } finally {
      if (saved === undefined) delete process.env.BENCH_GO;
      else process.env.BENCH_GO = saved;
    }
  });

  test('runs on postgresql by default, or sqlite', () => {
    assert.deepEqual(family.backends, ['postgresql', 'sqlite']);
    assert.equal(family.backendServer('postgresql'), 'postgresql');
    assert.equal(family.backendServer('sqlite'), null);
  });
});
