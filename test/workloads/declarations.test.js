// What each workload declares and the edges of the comparisons that its checks rely on: which workloads are
// compared, descriptions a report prints, the inputs a run takes, the warm-up's own step, a path of no hops, and
// the comparison functions' messages and limits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import crud from '../../workloads/crud/suite.js';
import { crudDocuments } from '../../workloads/crud/documents.js';
import { COLLECTION, WORKLOADS as CRUD } from '../../workloads/crud/workloads.js';
import { abbreviate, collectionDifferences, histogramDifference, keySetDifference } from '../../workloads/compare.js';
import { WORKLOADS as SOCIAL, WORKLOAD_NAMES } from '../../workloads/social/workloads.js';
import { makeContext } from './context.js';

const social = Object.fromEntries(SOCIAL.map((workload) => [workload.name, workload]));

test('every workload is compared but the warm-up, and each has a description of its own', () => {
  assert.deepEqual(WORKLOAD_NAMES, SOCIAL.map((workload) => workload.name));
  assert.deepEqual(SOCIAL.filter((workload) => !workload.compared).map((workload) => workload.name), ['warmup']);
  assert.ok(CRUD.every((workload) => workload.compared === true));
  for (const workload of [...SOCIAL, ...CRUD]) {
    assert.equal(typeof workload.description, 'string');
    assert.ok(workload.description.length > 10, workload.name);
  }
  assert.equal(new Set([...SOCIAL, ...CRUD].map((workload) => workload.description)).size, SOCIAL.length + CRUD.length);
  assert.match(social.shortestPath.description, /at most 15 hops/);
});

test('the warm-up runs the adapter\'s own warm-up first; the writes take as many inputs as the scale says', async () => {
  let warmed = 0;
  await social.warmup.setup({ warmup: async () => { warmed += 1; } });
  assert.equal(warmed, 1);
  const ctx = makeContext();
  ctx.dataset.sizes = { writes: 2, writesSync: 1 };
  assert.deepEqual(social.singleWrite.inputs(ctx).map((doc) => doc._key), ['W1', 'W2']);
  assert.deepEqual(social.singleWriteSync.inputs(ctx).map((doc) => doc._key), ['W1']);
  assert.deepEqual(social.singleWrite.profileIds(ctx.dataset), [3, 1]);
});

test('a path of no hops (a start that is its own end) is the one key, not null', async () => {
  const ctx = makeContext();
  ctx.dataset.reference = { ...ctx.dataset.reference, pathLengths: [0] };
  assert.deepEqual(await social.shortestPath.check(ctx, [['P1', 'P1']], [['P1']]), []);
  assert.equal((await social.shortestPath.check(ctx, [['P1', 'P1']], [null])).length, 1);
});

test('the crud phases take the first `ops` documents, in the collection named crud', async () => {
  assert.equal(COLLECTION, 'crud');
  const data = await crud.prepare({ ops: [10], shape: 'uniform', seed: 1 });
  const byName = Object.fromEntries(CRUD.map((workload) => [workload.name, workload]));
  assert.deepEqual(byName.insert.inputs(data, { ops: 4 }), data.docs.slice(0, 4));
  assert.deepEqual(byName.update.inputs(data, { ops: 4 }), data.updates.slice(0, 4));
  assert.deepEqual(byName.get.inputs(data, { ops: 2 }), ['C1', 'C2']);
  const left = { readCollection: async () => [data.docs[0]], getDocument: async (collection, key) => (key === 'C2' ? data.docs[1] : null) };
  const failures = await byName.delete.check(data, ['C1', 'C2'], [], left);
  assert.deepEqual(failures.map((f) => f.input), ['2 deletes', 'C2']);
  assert.match(failures[0].problem, /^the collection still holds \[\{"_key":"C1"/);
  assert.match(failures[1].problem, /^a get after the delete returned \{"_key":"C2"/);
  const { docs } = crudDocuments({ count: 1, shape: 'uniform', seed: 1 });
  assert.deepEqual(docs[0], data.docs[0]);
});

test('a histogram missing a bucket, or with another count, differs', () => {
  assert.match(histogramDifference({ 18: 5, 20: 3 }, { 18: 5 }), /^AGE 20: expected 3, got no bucket$/);
  assert.match(histogramDifference({ 18: 5 }, { 18: 6 }), /^AGE 18: expected 5, got 6$/);
  assert.equal(histogramDifference({ 18: 5 }, { 18: 5 }), null);
  assert.match(histogramDifference({ 18: 5 }, { 18: 5, 99: undefined }), /^AGE 99: expected no bucket, got undefined$/);
});

test('a collection read back with no document object where one should be is a failure, not a crash', () => {
  const expected = [{ _key: 'C1', a: 1 }];
  for (const stored of [[undefined], [null], ['C1'], [5]]) {
    const failures = collectionDifferences(expected, stored);
    assert.ok(failures.some((f) => f.input === undefined && /not written/.test(f.problem)), JSON.stringify(stored));
  }
});

test('messages: at most 5 missing and extra keys, texts cut at 160 characters, any value described', () => {
  const extra = ['P10', 'P11', 'P12', 'P13', 'P14', 'P15', 'P16'];
  const message = keySetDifference(['P1'], ['P1', ...extra]);
  assert.equal(message, '1 keys expected, 8 returned; missing [], extra ["P10","P11","P12","P13","P14"]');
  const exact = 'x'.repeat(158);
  assert.equal(abbreviate(exact), JSON.stringify(exact), 'a text of exactly 160 characters is kept whole');
  assert.equal(abbreviate(`${exact}y`).length, 160);
  assert.ok(abbreviate(`${exact}y`).endsWith('…'));
  const bare = Object.create(null);
  bare.self = bare;
  assert.equal(abbreviate(bare), '[object Object]');
});
