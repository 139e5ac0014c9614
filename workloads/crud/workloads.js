// The crud suite's workloads as data: four phases over one temporary collection, in this order within a round
// (one document count at one concurrency level): insert every document, get each, update each (replace), delete
// each, one request per operation. Each phase is timed on its own and validated after its clock stopped; the
// result of each is defined in workloads/README.md.
import { mapLimit } from 'async';
import { abbreviate, collectionDifferences, documentDifference } from '../compare.js';

export const COLLECTION = 'crud';
// The untimed gets that prove every deleted key is gone run this many at a time.
const CHECK_CONCURRENCY = 16;

const keysOf = (docs) => docs.map((doc) => doc._key);
const written = (ctx, { ops }) => ctx.docs.slice(0, ops);
const replaced = (ctx, { ops }) => ctx.updates.slice(0, ops);

async function collectionCheck(adapter, expected) {
  return collectionDifferences(expected, await adapter.readCollection(COLLECTION));
}

async function deletedCheck(adapter, keys) {
  const stored = await adapter.readCollection(COLLECTION);
  const failures = [];
  if (!Array.isArray(stored) || stored.length > 0) {
    failures.push({ input: `${keys.length} deletes`, problem: `the collection still holds ${abbreviate(stored)}` });
  }
  const answers = await mapLimit(keys, CHECK_CONCURRENCY, async (key) => adapter.getDocument(COLLECTION, key));
  answers.forEach((got, i) => {
    if (got !== null) failures.push({ input: keys[i], problem: `a get after the delete returned ${abbreviate(got)}` });
  });
  return failures;
}

export const WORKLOADS = [
  {
    name: 'insert',
    operation: 'insertDocument',
    compared: true,
    description: 'insert each document, one request each, into an empty collection',
    durability: 'run',
    inputs: written,
    call: (adapter, doc, { durable }) => adapter.insertDocument(COLLECTION, doc, { durable }),
    check: (ctx, inputs, answers, adapter) => collectionCheck(adapter, inputs),
  },
  {
    name: 'get',
    operation: 'getDocument',
    compared: true,
    description: 'get each inserted document by key',
    inputs: (ctx, params) => keysOf(written(ctx, params)),
    call: (adapter, key) => adapter.getDocument(COLLECTION, key),
    check(ctx, inputs, answers) {
      const failures = [];
      answers.forEach((got, i) => {
        const problem = documentDifference(ctx.docs[i], got);
        if (problem) failures.push({ input: inputs[i], problem });
      });
      return failures;
    },
  },
  {
    name: 'update',
    operation: 'updateDocument',
    compared: true,
    description: 'replace each document by a new version (fields it lacks are gone)',
    durability: 'run',
    inputs: replaced,
    call: (adapter, doc, { durable }) => adapter.updateDocument(COLLECTION, doc._key, doc, { durable }),
    check: (ctx, inputs, answers, adapter) => collectionCheck(adapter, inputs),
  },
  {
    name: 'delete',
    operation: 'deleteDocument',
    compared: true,
    description: 'delete each document by key',
    durability: 'run',
    inputs: (ctx, params) => keysOf(written(ctx, params)),
    call: (adapter, key, { durable }) => adapter.deleteDocument(COLLECTION, key, { durable }),
    check: (ctx, inputs, answers, adapter) => deletedCheck(adapter, inputs),
  },
];
