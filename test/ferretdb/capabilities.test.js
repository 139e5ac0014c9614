// The capability probe's decisions (adapters/mongodb/capabilities.js) and the harness's narrowing of `supports`
// (adapters/server-supports.js), from answers as a server gives them: no server needed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MongoServerError } from 'mongodb';
import { FEATURES, capabilityDecision, judge } from '../../adapters/mongodb/capabilities.js';
import mongodb from '../../adapters/mongodb/description.js';
import { UPDATE_POOL_DEFECT, backendOf, ferretVersion, versionDefects } from '../../adapters/ferretdb/adapter.js';
import { BATCH_SIZE, UNDO_BATCH_SIZE } from '../../workloads/graph/operations.js';
import ferretdb from '../../adapters/ferretdb/description.js';
import { narrowSupports, serverSupports } from '../../adapters/server-supports.js';

const feature = (name) => FEATURES.find((candidate) => candidate.name === name);
const refusal = (message) => new MongoServerError({ message, code: 238, codeName: 'NotImplemented' });
const allOk = () => Object.fromEntries(FEATURES.map(({ name }) => [name, { ok: true }]));

describe('judge: one probe\'s outcome', () => {
  test('the documented answer passes, whatever the order of its fields', () => {
    const lookup = feature('$lookup');
    const [expected] = lookup.expect;
    const reordered = Object.fromEntries(Object.entries(expected).reverse());
    assert.deepEqual(judge(lookup, { answer: [reordered] }), { ok: true });
  });

  test('a refusal is a missing feature, with the server\'s words and code name', () => {
    const outcome = judge(feature('$lookup'), { error: refusal('`aggregate` stage "$lookup" is not implemented yet') });
    assert.equal(outcome.ok, false);
    assert.match(outcome.reason, /refuses the \$lookup stage .*: `aggregate` stage "\$lookup" is not implemented yet \(NotImplemented\)$/);
  });

  test('an answer other than the documented one is a missing feature too, both answers named', () => {
    // FerretDB 1.24 gave $addFields' field path back as the string "$n".
    const addFields = feature('$addFields of a field path');
    const outcome = judge(addFields, { answer: [{ ...addFields.expect[0], copy: '$n' }] });
    assert.equal(outcome.ok, false);
    assert.match(outcome.reason, /answers the \$addFields stage with a field path as the value wrongly: .*gave .*"copy":"\$n".* instead of .*"copy":1/);
  });

  test('a number for a string, a missing row or an extra one is wrong', () => {
    const sum = feature('$sum of a field');
    assert.equal(judge(sum, { answer: [{ _id: null, count: 2, total: '3' }] }).ok, false);
    assert.equal(judge(sum, { answer: [] }).ok, false);
    assert.equal(judge(sum, { answer: [...sum.expect, ...sum.expect] }).ok, false);
  });

  test('an index the server builds is there; one it refuses is not', () => {
    const hashed = feature('hashed index');
    assert.deepEqual(judge(hashed, {}), { ok: true });
    assert.equal(judge(hashed, { error: refusal('can\'t find index with key: { s: "hashed" }') }).ok, false);
  });
});

describe('capabilityDecision: what the outcomes mean for the adapter', () => {
  test('a server that passes every probe lacks nothing (MongoDB)', () => {
    assert.deepEqual(capabilityDecision(allOk()), { unsupported: {}, parts: {} });
  });

  test('each operation built on a missing feature is unsupported with that feature\'s reason', () => {
    const outcomes = { ...allOk(), '$min and $max in $group': { ok: false, reason: 'no $min' } };
    const { unsupported, parts } = capabilityDecision(outcomes);
    assert.deepEqual(unsupported, { 'min-number': 'no $min', 'min-string': 'no $min', 'max-number': 'no $min', 'max-string': 'no $min' });
    assert.deepEqual(parts, {});
  });

  test('an operation lacking several features names every reason', () => {
    const outcomes = { ...allOk(), $lookup: { ok: false, reason: 'no lookup' }, $replaceWith: { ok: false, reason: 'no replaceWith' } };
    assert.equal(capabilityDecision(outcomes).unsupported.neighborsData, 'no lookup; no replaceWith');
  });

  test('a missing feature of a part that is no operation leaves the operations alone and names the part', () => {
    const outcomes = { ...allOk(), $bsonSize: { ok: false, reason: 'no bsonSize' }, 'hashed index': { ok: false, reason: 'no hashed' } };
    assert.deepEqual(capabilityDecision(outcomes), { unsupported: {}, parts: { warmup: 'no bsonSize', equalityIndex: 'no hashed' } });
  });

  test('every operation a probe can take away is one the MongoDB adapter declares', () => {
    for (const { name, operations = [] } of FEATURES) {
      for (const operation of operations) assert.ok(mongodb.supports.includes(operation), `${name}: ${operation}`);
    }
  });
});

describe('serverSupports: the description as the server answers it', () => {
  test('the operations a server lacks leave supports for unsupported, with their reasons', () => {
    const narrowed = narrowSupports(ferretdb, { concat: 'no $concat', neighbors2: 'no $lookup', notAnOperation: 'ignored' });
    assert.equal(narrowed.supports.includes('concat'), false);
    assert.equal(narrowed.supports.includes('neighbors2'), false);
    assert.equal(narrowed.supports.length, ferretdb.supports.length - 2);
    assert.deepEqual(narrowed.unsupported, { concat: 'no $concat', neighbors2: 'no $lookup' });
    assert.equal(narrowed.create, ferretdb.create);
    assert.equal(narrowed.id, 'ferretdb');
  });

  test('a server that lacks nothing, or an adapter that cannot tell, keeps the description as declared', async () => {
    assert.equal(narrowSupports(ferretdb, {}), ferretdb);
    assert.equal(await serverSupports(ferretdb, {}), ferretdb);
    assert.equal(await serverSupports(ferretdb, { unsupportedOperations: async () => ({}) }), ferretdb);
  });

  test('the ferretdb description declares what the MongoDB adapter does: nothing keyed on the name', () => {
    assert.deepEqual(ferretdb.supports, mongodb.supports);
    assert.equal(ferretdb.unsupported, mongodb.unsupported);
    assert.equal(ferretdb.server, 'ferretdb');
  });
});

describe('the FerretDB version string', () => {
  test('names FerretDB, its version and the backend its explain shows, never MongoDB\'s version alone', () => {
    const postgresql = { Plan: { 'Node Type': 'Seq Scan', 'Relation Name': 'a_e40c292c' } };
    const sqlite = { Plan: ['id=2 parent=0 notused=0 detail=SCAN a_e40c292c'] };
    assert.equal(backendOf(postgresql), 'PostgreSQL');
    assert.equal(backendOf(sqlite), 'SQLite');
    assert.equal(backendOf({}), 'a backend it does not name');
    assert.equal(ferretVersion({ version: '7.0.42', ferretdbVersion: 'v1.24.2' }, 'PostgreSQL'),
      '1.24.2 (MongoDB wire protocol on PostgreSQL)', 'after the name FerretDB, as every result shows name and version');
    assert.match(ferretVersion({ version: '7.0.14' }, 'a backend it does not name'), /^\(not FerretDB: .*MongoDB 7\.0\.14\)/);
  });
});

describe('the defect declared by version: FerretDB 1.x\'s update of many matching statements', () => {
  test('every 1.x release lacks upsertEdges with the defect as the reason; 2.x and a server that is not FerretDB do not', () => {
    for (const version of ['v1.14.0', 'v1.24.2', '1.20.1']) {
      assert.deepEqual(versionDefects({ version: '7.0.42', ferretdbVersion: version }), { upsertEdges: UPDATE_POOL_DEFECT }, version);
    }
    for (const buildInfo of [{ version: '7.0.42', ferretdbVersion: 'v2.7.0' }, { version: '7.0.14' }, { version: '1.8.0' }, {}]) {
      assert.deepEqual(versionDefects(buildInfo), {}, JSON.stringify(buildInfo));
    }
    assert.match(UPDATE_POOL_DEFECT, /msg_update\.go/);
  });

  test('the graph suite\'s untimed undo stays far below the pool FerretDB holds (50): the timed batch alone is left out', () => {
    assert.ok(UNDO_BATCH_SIZE < 50 && UNDO_BATCH_SIZE > 1);
    assert.equal(BATCH_SIZE, 500);
  });
});
