// Conformance cases of the document operations the crud and mixed suites call (insertDocument, getDocument,
// updateDocument, deleteDocument, and the mixed suite's scanDocuments): round trips of schema-free documents, replace semantics, the rejections
// the contract asks for, the durable mode, and concurrent writers. Each case runs in a temporary collection of
// its own, dropped at its end. suite.js includes them; it passes in its helpers.
import assert from 'node:assert/strict';
import { collectionDifferences, documentDifference } from '../../workloads/compare.js';

const LONGEST_FIELD_NAME = `f${'x'.repeat(38)}9`;

// Built with fromEntries, so `__proto__` is an own field, as JSON.parse makes it, not the prototype.
const document = (entries) => Object.fromEntries(entries);

// Every document has the same field names and types, as with --shape uniform.
function uniformDocument(n) {
  return document([['_key', `C${n}`], ['name', `name ${n}`], ['city', 'Žilina'], ['score', n * 7 - 50],
    ['active', n % 2], ['tag', n % 3 === 0 ? '' : `t${n % 3}`]]);
}

// Names, number (1 to 12) and types of the fields change from one document to the next, as with --shape varied.
function variedDocument(n) {
  const names = ['a', 'Name2', 'x_y_z', 'count', 'COUNT', 'v9', 'long_field_name_with_digits_0123456789',
    'b', 'c_', 'Zz', 'q1', 'w'];
  const fields = [['_key', `C${n}`]];
  for (let i = 0; i < 1 + (n % 12); i += 1) {
    const name = names[(n + i * 5) % names.length];
    fields.push([name, (n + i) % 2 === 0 ? `${name}:${n}:${i} ľudová 𝄞` : (n - 6) * (i + 1)]);
  }
  return document(fields);
}

// The documents that break naive mappings: text that is not ASCII or looks like a number, empty strings, zero,
// negative and the largest safe integers, names of inherited properties, the longest field name.
const EDGE_DOCUMENTS = [
  document([['_key', 'C9001'], ['text', 'šport, čítanie kníh 漢字 emoji 😀 𝄞 <br /> "quoted" \\ back\nnew line\ttab']]),
  document([['_key', 'C9002'], ['empty', ''], ['zero', 0], ['negative', -42], ['digits', '42'], ['spaces', '  ']]),
  document([['_key', 'C9003'], ['largest', Number.MAX_SAFE_INTEGER], ['smallest', -Number.MAX_SAFE_INTEGER]]),
  document([['_key', 'C9004'], ['constructor', 'c'], ['toString', 5], ['__proto__', 'p'], ['hasOwnProperty', ''],
    ['valueOf', -1]]),
  document([['_key', 'C9005'], [LONGEST_FIELD_NAME, 'forty characters'], ['x', 1]]),
  document([['_key', 'C9006'], ['only', 'one field']]),
];

const SAMPLE = [
  ...Array.from({ length: 20 }, (_, i) => uniformDocument(i + 1)),
  ...Array.from({ length: 24 }, (_, i) => variedDocument(i + 101)),
  ...EDGE_DOCUMENTS,
];

// Runs work(0) ... work(count - 1) with at most `concurrency` calls in flight, as the runner does.
async function inParallel(count, concurrency, work) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next;
      next += 1;
      await work(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

export function crudCases(description, { withAdapter, assertNoDifference }) {
  const cases = [];
  const add = (name, needs, run) => {
    const missing = needs.find((operation) => !description.supports.includes(operation));
    cases.push({ name, run, skip: missing ? `${missing} is not supported` : false });
  };

  // A fresh temporary collection for the case, dropped at its end whatever happened.
  const withCollection = (name, body) => async ({ options }) => withAdapter(description, options, async (adapter) => {
    const collection = `conformance_crud_${name}`;
    await adapter.createTempCollection(collection);
    try {
      await body(adapter, collection, options);
    } finally {
      await adapter.dropTempCollection(collection);
    }
  });

  // The check the suite makes after its clock stopped: exactly these documents, each once and equal.
  const assertCollection = async (adapter, collection, documents, context) => {
    const failures = collectionDifferences(documents, await adapter.readCollection(collection));
    const shown = failures.slice(0, 3).map(({ input, problem }) => `${input}: ${problem}`).join('; ');
    assert.equal(failures.length, 0, `${context}: ${failures.length} differences in readCollection, ${shown}`);
  };

  add('insertDocument stores documents of any shape exactly, as readCollection shows', ['insertDocument'],
    withCollection('insert', async (adapter, collection) => {
      for (const doc of SAMPLE) {
        assert.equal(await adapter.insertDocument(collection, doc, { durable: false }), undefined,
          `insertDocument(${doc._key}) resolves with nothing`);
      }
      await assertCollection(adapter, collection, SAMPLE, 'after the inserts');
    }));

  add('getDocument returns each document as written, and null for a missing key', ['insertDocument', 'getDocument'],
    withCollection('get', async (adapter, collection) => {
      for (const doc of SAMPLE) await adapter.insertDocument(collection, doc, { durable: false });
      for (const doc of SAMPLE) {
        assertNoDifference(documentDifference(doc, await adapter.getDocument(collection, doc._key)), doc._key);
      }
      assert.equal(await adapter.getDocument(collection, 'C999999'), null);
      assert.equal(await adapter.getDocument(collection, 'c1'), null, 'keys compare exactly (C1 is not c1)');
    }));

  add('updateDocument replaces the whole document', ['insertDocument', 'getDocument', 'updateDocument'],
    withCollection('update', async (adapter, collection) => {
      const first = document([['_key', 'C1'], ['kept', 'old'], ['removed', 'gone soon'], ['changes', 'text'],
        ['number', 3]]);
      const second = document([['_key', 'C1'], ['kept', 'new'], ['changes', 12], ['number', 'three'],
        ['added', ''], ['constructor', 0]]);
      const other = uniformDocument(2);
      await adapter.insertDocument(collection, first, { durable: false });
      await adapter.insertDocument(collection, other, { durable: false });
      assert.equal(await adapter.updateDocument(collection, 'C1', second, { durable: false }), undefined,
        'updateDocument resolves with nothing');
      const stored = await adapter.getDocument(collection, 'C1');
      assertNoDifference(documentDifference(second, stored),
        'a removed field is gone, a new one appears, string -> integer and integer -> string are kept');
      // An update that changes nothing still finds its document (a count of changed rows would say 0).
      await adapter.updateDocument(collection, 'C1', second, { durable: false });
      await assertCollection(adapter, collection, [second, other], 'after the updates');
    }));

  add('deleteDocument removes the document and only that one', ['insertDocument', 'getDocument', 'deleteDocument'],
    withCollection('delete', async (adapter, collection) => {
      const documents = [1, 2, 3].map(uniformDocument);
      for (const doc of documents) await adapter.insertDocument(collection, doc, { durable: false });
      assert.equal(await adapter.deleteDocument(collection, 'C2', { durable: false }), undefined,
        'deleteDocument resolves with nothing');
      assert.equal(await adapter.getDocument(collection, 'C2'), null);
      await assertCollection(adapter, collection, [documents[0], documents[2]], 'after the delete');
      // The key is free again.
      await adapter.insertDocument(collection, documents[1], { durable: false });
      assertNoDifference(documentDifference(documents[1], await adapter.getDocument(collection, 'C2')), 'C2 again');
    }));

  add('scanDocuments returns the documents from a key on, in key order, at most the limit', ['insertDocument', 'scanDocuments', 'deleteDocument'],
    withCollection('scan', async (adapter, collection) => {
      // Inserted out of order, so that an answer in insertion order shows; C10 sorts before C2, as YCSB's string keys.
      const documents = [5, 12, 1, 3, 10, 2, 11, 4, 100, 20].map((n) => (n % 2 === 0 ? uniformDocument(n) : variedDocument(n)));
      for (const doc of documents) await adapter.insertDocument(collection, doc, { durable: false });
      const ordered = [...documents].sort((a, b) => (a._key < b._key ? -1 : 1));
      const expectScan = async (fromKey, limit, context) => {
        const got = await adapter.scanDocuments(collection, fromKey, limit);
        assert.ok(Array.isArray(got), `${context}: an array, not ${JSON.stringify(got)}`);
        const expected = ordered.filter((doc) => doc._key >= fromKey).slice(0, limit);
        assert.deepEqual(got.map((doc) => doc?._key), expected.map((doc) => doc._key), context);
        expected.forEach((doc, i) => assertNoDifference(documentDifference(doc, got[i]), `${context}: ${doc._key}`));
      };
      await expectScan('C1', 100, 'every document from the first key');
      await expectScan('C11', 3, 'from C11: C11, C12, C2');
      await expectScan('C13', 2, 'from a key that does not exist: the next ones, C2 and C20');
      await expectScan('C3', 1, 'a limit of one');
      await expectScan('C6', 10, 'fewer than the limit left');
      await expectScan('D', 10, 'past the last key: none');
      await expectScan('A', 4, 'from before the first key');
      await adapter.deleteDocument(collection, 'C2', { durable: false });
      ordered.splice(ordered.findIndex((doc) => doc._key === 'C2'), 1);
      await expectScan('C12', 3, 'a deleted key is gone from the scan');
    }));

  add('a duplicate insert rejects and leaves the stored document', ['insertDocument', 'getDocument'],
    withCollection('duplicate', async (adapter, collection) => {
      const original = uniformDocument(1);
      await adapter.insertDocument(collection, original, { durable: false });
      for (const durable of [false, true]) {
        await assert.rejects(adapter.insertDocument(collection, variedDocument(1), { durable }),
          (error) => error instanceof Error, `a duplicate insert (durable: ${durable}) rejects with an Error`);
      }
      assertNoDifference(documentDifference(original, await adapter.getDocument(collection, 'C1')), 'C1');
    }));

  add('update or delete of a missing key rejects and stores nothing',
    ['insertDocument', 'getDocument', 'updateDocument', 'deleteDocument'],
    withCollection('missing', async (adapter, collection) => {
      const doc = uniformDocument(1);
      await adapter.insertDocument(collection, doc, { durable: false });
      for (const durable of [false, true]) {
        await assert.rejects(adapter.updateDocument(collection, 'C404', uniformDocument(404), { durable }),
          (error) => error instanceof Error, `updateDocument of a missing key (durable: ${durable}) rejects`);
        await assert.rejects(adapter.deleteDocument(collection, 'C404', { durable }),
          (error) => error instanceof Error, `deleteDocument of a missing key (durable: ${durable}) rejects`);
      }
      assert.equal(await adapter.getDocument(collection, 'C404'), null, 'an update is no upsert');
      await adapter.deleteDocument(collection, 'C1', { durable: false });
      await assert.rejects(adapter.deleteDocument(collection, 'C1', { durable: false }),
        (error) => error instanceof Error, 'deleting a deleted key rejects');
      await assertCollection(adapter, collection, [], 'after the rejected writes');
    }));

  add('{ durable: true } inserts, replaces and deletes', ['insertDocument', 'getDocument', 'updateDocument', 'deleteDocument'],
    withCollection('durable', async (adapter, collection) => {
      const documents = SAMPLE.slice(0, 10);
      for (const doc of documents) {
        assert.equal(await adapter.insertDocument(collection, doc, { durable: true }), undefined);
      }
      const replaced = variedDocument(7);
      replaced._key = documents[0]._key;
      assert.equal(await adapter.updateDocument(collection, replaced._key, replaced, { durable: true }), undefined);
      assert.equal(await adapter.deleteDocument(collection, documents[1]._key, { durable: true }), undefined);
      assertNoDifference(documentDifference(replaced, await adapter.getDocument(collection, replaced._key)), 'replaced');
      assert.equal(await adapter.getDocument(collection, documents[1]._key), null);
      await assertCollection(adapter, collection, [replaced, ...documents.slice(2)], 'after the durable writes');
    }));

  add('concurrent inserts at the run concurrency all land', ['insertDocument'],
    withCollection('concurrent_inserts', async (adapter, collection, options) => {
      const documents = Array.from({ length: 20 * options.concurrency },
        (_, i) => (i % 2 === 0 ? uniformDocument(i + 1) : variedDocument(i + 1)));
      await inParallel(documents.length, options.concurrency,
        (i) => adapter.insertDocument(collection, documents[i], { durable: i % 10 === 0 }));
      assert.equal(await adapter.countDocuments(collection), documents.length);
      await assertCollection(adapter, collection, documents, 'after the concurrent inserts');
    }));

  add('concurrent updates of one key leave one of the written versions; reads see whole versions',
    ['insertDocument', 'getDocument', 'updateDocument'],
    withCollection('concurrent_updates', async (adapter, collection, options) => {
      const versions = Array.from({ length: 4 * options.concurrency }, (_, i) => ({ ...variedDocument(i + 1), _key: 'C1' }));
      const written = versions.filter((_, i) => i % 4 !== 3);
      await adapter.insertDocument(collection, versions[0], { durable: false });
      const isVersion = (doc) => written.some((version) => documentDifference(version, doc) === null);
      const reads = [];
      await inParallel(versions.length, options.concurrency, async (i) => {
        if (i % 4 === 3) reads.push(await adapter.getDocument(collection, 'C1'));
        else await adapter.updateDocument(collection, 'C1', versions[i], { durable: false });
      });
      for (const doc of reads) assert.ok(isVersion(doc), `a read saw a written version, not ${JSON.stringify(doc)}`);
      const final = await adapter.getDocument(collection, 'C1');
      assert.ok(isVersion(final), `the document is one of the written versions, not ${JSON.stringify(final)}`);
      await assertCollection(adapter, collection, [final], 'after the concurrent updates');
    }));

  return cases;
}
