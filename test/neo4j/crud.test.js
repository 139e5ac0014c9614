// The neo4j adapter's document operations beyond the shared conformance cases: the properties a document
// becomes (no server), and what Neo4j stores after each operation: exactly the document's fields, integers as
// INTEGER, never the property that takes the node's lock. Runs against the local server of
// `bench server start neo4j`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import neo4jDriver from 'neo4j-driver';
import { createDriver } from '../../adapters/neo4j/connection.js';
import neo4j from '../../adapters/neo4j/description.js';
import { toProperties } from '../../adapters/neo4j/documents.js';
import { sorted } from '../helpers/fixture-graph.js';
import { serverTarget } from '../helpers/servers.js';

const { options, skip } = serverTarget(neo4j, { namespace: 'dbshootout_neo4jtest_crud' });

describe('neo4j document properties', () => {
  test('every field becomes an own property, __proto__ too; integers become Neo4j integers', () => {
    const properties = toProperties(JSON.parse('{"_key": "C1", "__proto__": "p", "n": -5, "s": ""}'));
    assert.deepEqual(Object.keys(properties), ['_key', '__proto__', 'n', 's']);
    assert.equal(Object.getPrototypeOf(properties), Object.prototype);
    assert.ok(neo4jDriver.isInt(properties.n));
    assert.equal(properties.n.toNumber(), -5);
  });
});

describe('neo4j crud operations', { skip }, () => {
  let db;
  let admin;
  const label = `${options?.namespace}_tmp_crud`;

  // The node's properties and their Cypher types, through the test's own driver.
  async function stored(key) {
    const session = admin.session({ database: options.database });
    try {
      const { records } = await session.run(`MATCH (d:\`${label}\` {_key: $key})
        RETURN [k IN keys(d) | [k, valueType(d[k])]]`, { key });
      return records.length === 0 ? null : Object.fromEntries(records[0].get(0));
    } finally {
      await session.close();
    }
  }

  const typesOf = (doc) => Object.fromEntries(sorted(Object.keys(doc))
    .map((field) => [field, Number.isInteger(doc[field]) ? 'INTEGER NOT NULL' : 'STRING NOT NULL']));

  before(async () => {
    admin = createDriver({ ...options, concurrency: 1 });
    db = neo4j.create(options);
    await db.connect();
    await db.createTempCollection('crud');
  });

  after(async () => {
    await db?.dropTempCollection('crud');
    await db?.close();
    await neo4j.testSupport.dropNamespace(options);
    await admin?.close();
  });

  test('a node holds exactly the fields of its document, after an insert, a read and an update', async () => {
    const first = JSON.parse(`{"_key": "C1", "__proto__": "p", "low": ${Number.MIN_SAFE_INTEGER}, "text": "x"}`);
    const second = { _key: 'C1', text: 7, added: '' };
    await db.insertDocument('crud', first, { durable: false });
    assert.deepEqual(await stored('C1'), typesOf(first));
    assert.deepEqual(await db.getDocument('crud', 'C1'), first);
    assert.deepEqual(await stored('C1'), typesOf(first), 'the read leaves no lock property behind');
    await db.updateDocument('crud', 'C1', second, { durable: true });
    assert.deepEqual(await stored('C1'), typesOf(second), 'nor does the update');
    assert.deepEqual(await db.getDocument('crud', 'C1'), second);
  });

  test('a read of a missing key, an update and a delete of one, change nothing', async () => {
    assert.equal(await db.getDocument('crud', 'C404'), null);
    await assert.rejects(db.updateDocument('crud', 'C404', { _key: 'C404' }, { durable: false }), /cannot update document "C404"/);
    await assert.rejects(db.deleteDocument('crud', 'C404', { durable: false }), /cannot delete document "C404"/);
    assert.equal(await stored('C404'), null);
  });
});
