// The orientdb adapter's document operations beyond the shared conformance cases: the statement a document
// becomes (no server), and what OrientDB stores: integers as LONG, exactly at both ends of the safe range, a field
// named __proto__, replace semantics. Runs against the local server of `bench server start orientdb`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import orientjs from 'orientjs';
import { credentials } from '../../adapters/orientdb/connection.js';
import orientdb from '../../adapters/orientdb/description.js';
import { content } from '../../adapters/orientdb/documents.js';
import { ErrorCodes } from '../../core/errors.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_orienttest_crud';
const { options, skip } = serverTarget(orientdb, { namespace: NAMESPACE });

describe('orientdb crud statements', () => {
  test('a document becomes a JSON object of parameters, names in the text and values bound', () => {
    assert.deepEqual(content('orientdb', { _key: 'C1', name: 'x', n: -3, constructor: '' }), {
      json: '{"_key": :v0, "name": :v1, "n": :v2, "constructor": :v3}',
      params: { v0: 'C1', v1: 'x', v2: -3, v3: '' },
    });
  });

  test('an integer below -2^52, which orientjs would send wrong, is written as a literal', () => {
    assert.deepEqual(content('orientdb', { _key: 'C1', low: Number.MIN_SAFE_INTEGER, edge: -(2 ** 52) }), {
      json: `{"_key": :v0, "low": ${Number.MIN_SAFE_INTEGER}, "edge": :v2}`,
      params: { v0: 'C1', v2: -(2 ** 52) },
    });
  });

  test('a field name that is not 1 to 40 letters, digits and _ never reaches the statement', () => {
    for (const name of ['', 'a b', 'a"b', 'a\\b', 'a}', 'ä', 'x'.repeat(41), '@rid']) {
      assert.throws(() => content('orientdb', { _key: 'C1', [name]: 1 }),
        (error) => error.code === ErrorCodes.USAGE, JSON.stringify(name));
    }
    assert.doesNotThrow(() => content('orientdb', JSON.parse(`{"__proto__": 1, "${'x'.repeat(40)}": 2}`)));
  });
});

describe('orientdb crud operations', { skip }, () => {
  let db;
  let client;
  let session;
  const query = async (sql, params) => session.query(sql, { params }).all();

  before(async () => {
    db = orientdb.create(options);
    await db.connect();
    await db.resetNamespace();
    await db.createTempCollection('crud');
    client = await orientjs.OrientDBClient.connect({
      host: options.host, port: options.port, logger: { debug() {}, log() {}, error() {} },
    });
    session = await client.session({ name: NAMESPACE, ...credentials(options), pushNotification: false });
  });

  after(async () => {
    await session?.close();
    await client?.close();
    await db?.close();
    await orientdb.testSupport.dropNamespace(options);
  });

  test('integers are stored as LONG, exactly at both ends of the safe range; __proto__ is a field', async () => {
    const doc = JSON.parse(`{"_key": "C1", "low": ${Number.MIN_SAFE_INTEGER}, "high": ${Number.MAX_SAFE_INTEGER},
      "near": ${-(2 ** 52) - 1}, "zero": 0, "__proto__": "p"}`);
    await db.insertDocument('crud', doc, { durable: false });
    assert.deepEqual(await db.getDocument('crud', 'C1'), doc);
    const [types] = await query("SELECT low.type() AS low, high.type() AS high, near.type() AS near, zero.type() AS zero, "
      + "`__proto__`.type() AS proto FROM Tmp_crud WHERE _key = 'C1'");
    assert.deepEqual({ ...types }, { low: 'LONG', high: 'LONG', near: 'LONG', zero: 'LONG', proto: 'STRING' });
    const [{ exact }] = await query(`SELECT count(*) AS exact FROM Tmp_crud WHERE low = ${Number.MIN_SAFE_INTEGER}`);
    assert.equal(exact, 1, 'the server holds the very integer, not one rounded on the way');
  });

  test('an update replaces the record: its fields are exactly the new version\'s, with their new types', async () => {
    await db.insertDocument('crud', { _key: 'C2', a: 'text', b: 5, gone: 'x' }, { durable: true });
    await db.updateDocument('crud', 'C2', { _key: 'C2', a: 7, b: 'five', added: '' }, { durable: true });
    const [row] = await query("SELECT @this.toJSON('') AS json, a.type() AS a, b.type() AS b FROM Tmp_crud WHERE _key = 'C2'");
    assert.deepEqual(JSON.parse(row.json), { _key: 'C2', a: 7, b: 'five', added: '' });
    assert.deepEqual([row.a, row.b], ['LONG', 'STRING']);
    assert.deepEqual(await db.readCollection('crud').then((docs) => docs.find(({ _key }) => _key === 'C2')),
      { _key: 'C2', a: 7, b: 'five', added: '' });
  });
});
