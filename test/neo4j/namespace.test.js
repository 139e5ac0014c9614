// The namespace of the neo4j adapter: a prefix of labels, of a relationship type and of constraint names in the
// one database. What makes it absent, owned or foreign; that a reset deletes exactly its own nodes,
// relationships and constraints, in batches; and that it never deletes anything someone else attached to them.
// Runs against the local server of `bench server start neo4j` (or BENCH_NEO4J_URL).
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { createDriver } from '../../adapters/neo4j/connection.js';
import neo4j from '../../adapters/neo4j/description.js';
import { ErrorCodes } from '../../core/errors.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_neo4jtest_ns';
// A namespace whose name starts with NAMESPACE's: neither may see or touch the other's objects.
const LONGER = `${NAMESPACE}_longer`;
const { options, skip } = serverTarget(neo4j, { namespace: NAMESPACE });

describe('neo4j namespace', { skip }, () => {
  let admin;

  async function query(text, params) {
    const session = admin.session({ database: options.database });
    try {
      return (await session.run(text, params)).records;
    } finally {
      await session.close();
    }
  }

  async function count(text, params) {
    return (await query(text, params))[0].get(0);
  }

  async function withAdapter(namespace, body) {
    const adapter = neo4j.create({ ...options, namespace });
    await adapter.connect();
    try {
      return await body(adapter);
    } finally {
      await adapter.close();
    }
  }

  async function assertRefused(namespace, pattern) {
    await withAdapter(namespace, async (adapter) => {
      assert.equal((await adapter.inspectNamespace()).state, 'foreign');
      await assert.rejects(adapter.resetNamespace(), (error) => {
        assert.equal(error.code, ErrorCodes.NAMESPACE_FOREIGN);
        assert.match(error.message, pattern);
        return true;
      });
    });
  }

  before(() => {
    admin = createDriver({ ...options, concurrency: 1 });
  });

  // Removes whatever a test planted, through the test's own driver: nothing here relies on the adapter.
  afterEach(async () => {
    await query(`MATCH (n) WHERE any(label IN labels(n) WHERE label STARTS WITH $prefix OR label = 'DbShootoutOther')
                 DETACH DELETE n`, { prefix: `${NAMESPACE}_` });
    for (const record of await query('SHOW CONSTRAINTS YIELD name WHERE name STARTS WITH $prefix RETURN name',
      { prefix: `${NAMESPACE}_` })) {
      await query(`DROP CONSTRAINT \`${record.get(0)}\``);
    }
  });

  after(() => admin?.close());

  test('nothing of the namespace is absent; a reset makes it owned with the marker {}', async () => {
    await withAdapter(NAMESPACE, async (adapter) => {
      assert.deepEqual(await adapter.inspectNamespace(), { state: 'absent', marker: null });
      await adapter.resetNamespace();
      assert.deepEqual(await adapter.inspectNamespace(), { state: 'owned', marker: {} });
      assert.equal(await count(`MATCH (m:${NAMESPACE}_Marker) RETURN count(m)`), 1, 'exactly one marker node');
      await adapter.writeMarker({ dataset: 'x' });
      await adapter.writeMarker({ dataset: 'y' });
      assert.equal(await count(`MATCH (m:${NAMESPACE}_Marker) RETURN count(m)`), 1, 'writeMarker replaces it');
      assert.deepEqual((await adapter.inspectNamespace()).marker, { dataset: 'y' });
    });
  });

  const foreignObjects = [
    ['a profile node', `CREATE (:${NAMESPACE}_Profile {owner: 'someone else'})`, /nodes labelled \w+_Profile/],
    ['a node of a temporary collection', `CREATE (:${NAMESPACE}_tmp_theirs)`, /nodes labelled \w+_tmp_theirs/],
    ['relationships of its type between other nodes',
      `CREATE (:DbShootoutOther)-[:${NAMESPACE}_KNOWS]->(:DbShootoutOther)`, /relationships of type \w+_KNOWS/],
    ['a constraint of its name',
      `CREATE CONSTRAINT ${NAMESPACE}_profile_key FOR (n:DbShootoutOther) REQUIRE n.x IS UNIQUE`,
      /constraint \w+_profile_key/],
    ['a marker node that holds no JSON object', `CREATE (:${NAMESPACE}_Marker {marker: '[1, 2]'})`,
      /_Marker node that is not a db-shootout marker/],
    ['a marker node without a marker', `CREATE (:${NAMESPACE}_Marker {owner: 'someone else'})`,
      /_Marker node that is not a db-shootout marker/],
  ];
  for (const [what, plant, pattern] of foreignObjects) {
    test(`${what} makes the namespace foreign; reset refuses and leaves it intact`, async () => {
      await query(plant);
      const before = await count('MATCH (n) RETURN count(n)');
      await assertRefused(NAMESPACE, pattern);
      assert.equal(await count('MATCH (n) RETURN count(n)'), before, 'nothing was deleted');
    });
  }

  test('a reset refuses to delete profiles someone attached a relationship or a label to', async () => {
    await withAdapter(NAMESPACE, async (adapter) => {
      await adapter.resetNamespace();
      await adapter.importProfiles([{ _key: 'P1' }, { _key: 'P2' }]);
      await adapter.importRelations([{ _from: 'P1', _to: 'P2' }]);
      await adapter.createIndexes();
      await query(`MATCH (p:${NAMESPACE}_Profile {_key: 'P1'}) CREATE (p)-[:LIKES]->(:DbShootoutOther)`);
      await assert.rejects(adapter.resetNamespace(), (error) => {
        assert.equal(error.code, ErrorCodes.NAMESPACE_FOREIGN);
        assert.match(error.message, /LIKES/);
        return true;
      });
      assert.equal(await count('MATCH (:DbShootoutOther)<-[r:LIKES]-() RETURN count(r)'), 1,
        'their relationship is kept');
      await query('MATCH ()-[r:LIKES]->() DELETE r');
      await query(`MATCH (p:${NAMESPACE}_Profile {_key: 'P2'}) SET p:DbShootoutOther`);
      await assert.rejects(adapter.resetNamespace(), /DbShootoutOther/);
      assert.equal(await count('MATCH (n:DbShootoutOther) RETURN count(n)'), 2, 'their labelled node is kept');
    });
  });

  test('a reset deletes everything of the namespace, in batches, and nothing else', async () => {
    // More nodes and relationships than one inner transaction of the delete holds.
    const profiles = 12_000;
    await withAdapter(NAMESPACE, async (adapter) => {
      await adapter.resetNamespace();
      for (let begin = 0; begin < profiles; begin += 3000) {
        await adapter.importProfiles(Array.from({ length: 3000 }, (_, i) => ({ _key: `P${begin + i}`, AGE: i % 50 })));
      }
      await adapter.importRelations(
        Array.from({ length: profiles }, (_, i) => ({ _from: `P${i}`, _to: `P${(i + 1) % profiles}` })));
      await adapter.createIndexes();
      await adapter.createTempCollection('leftover');
      await adapter.singleWrite('leftover', { _key: 'W1' });
      await adapter.writeMarker({ dataset: 'old' });
      await query(`CREATE (:DbShootoutOther {_key: 'P1'})-[:${LONGER}_KNOWS]->(:${LONGER}_Profile {_key: 'P1'})`);

      await adapter.resetNamespace();
      assert.deepEqual(await adapter.inspectNamespace(), { state: 'owned', marker: {} });
      assert.deepEqual(await adapter.counts(), { profiles: 0, relations: 0 });
      assert.equal(await count(`MATCH (n:${NAMESPACE}_tmp_leftover) RETURN count(n)`), 0);
      assert.equal(await count('SHOW CONSTRAINTS YIELD name WHERE name STARTS WITH $prefix RETURN count(*)',
        { prefix: `${NAMESPACE}_` }), 0, 'its constraints are dropped');
      assert.equal(await count(`MATCH (:DbShootoutOther)-[r:${LONGER}_KNOWS]->(:${LONGER}_Profile) RETURN count(r)`), 1,
        'other labels, and a namespace with a longer name, are untouched');
    });
    await withAdapter(LONGER, async (adapter) => {
      assert.equal((await adapter.inspectNamespace()).state, 'foreign', 'the longer namespace sees only its own');
    });
  });

  test('dropNamespace removes the namespace and nothing else', async () => {
    await withAdapter(NAMESPACE, async (adapter) => {
      await adapter.resetNamespace();
      await adapter.importProfiles([{ _key: 'P1' }]);
      await adapter.createIndexes();
    });
    await query("CREATE (:DbShootoutOther {_key: 'P1'})");
    await neo4j.testSupport.dropNamespace(options);
    await withAdapter(NAMESPACE, async (adapter) => {
      assert.deepEqual(await adapter.inspectNamespace(), { state: 'absent', marker: null });
    });
    assert.equal(await count('MATCH (n:DbShootoutOther) RETURN count(n)'), 1);
  });

  test('names that are not identifiers, or that would overlap a shorter namespace, are E_USAGE', () => {
    for (const namespace of ['a-b', '1a', '', 'a`b', 'x_tmp', 'x_tmp_y', 'a'.repeat(64)]) {
      assert.throws(() => neo4j.create({ ...options, namespace }), { code: ErrorCodes.USAGE }, namespace);
    }
    for (const namespace of ['x_tmpfoo', 'tmp', 'x_tm', '_x']) neo4j.create({ ...options, namespace });
  });

  test('temporary collection names must be identifiers', async () => {
    await withAdapter(NAMESPACE, async (adapter) => {
      await assert.rejects(adapter.createTempCollection('a`) DETACH DELETE (n'), { code: ErrorCodes.USAGE });
    });
  });
});
