// Documents of a set size (the cluster-2015 preset's 864 bytes of JSON): crud's documents filled with words to that
// many bytes, their other fields those of the same seed without a size, and the mixed suite's data, configuration and
// rounds carrying the size.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DOCUMENT_BYTES, crudDocuments } from '../../workloads/crud/documents.js';
import mixed from '../../workloads/mixed/suite.js';
import { WORKLOADS, crossInserts, operationStream } from '../../workloads/mixed/workloads.js';

const bytesOf = (doc) => Buffer.byteLength(JSON.stringify(doc));

test('documents of a size: every one, inserted or replacing, is that many bytes of JSON; the other fields are the seed\'s', () => {
  for (const shape of ['uniform', 'varied']) {
    const plain = crudDocuments({ count: 500, shape, seed: 4 });
    const sized = crudDocuments({ count: 500, shape, seed: 4, bytes: 864 });
    for (const [i, doc] of [...sized.docs, ...sized.updates].entries()) {
      assert.equal(bytesOf(doc), 864, `${shape} document ${i}`);
      assert.match(doc.text, /^[a-z ]*$/);
    }
    const withoutText = ({ text, ...rest }) => rest;
    assert.deepEqual(sized.docs.map(withoutText), plain.docs.map(withoutText), `${shape}: the same fields besides the text`);
    assert.deepEqual(sized.updates.map(withoutText), plain.updates.map(withoutText));
    assert.notDeepEqual(sized.docs[0].text, sized.updates[0].text, 'another text for the replacing version');
    assert.deepEqual(crudDocuments({ count: 7, shape, seed: 4, bytes: 864 }).docs, sized.docs.slice(0, 7), 'a smaller count is a prefix');
  }
  // Uniform documents keep one shape: the same names in the same order, `text` last.
  const { docs } = crudDocuments({ count: 50, shape: 'uniform', seed: 1, bytes: 2048 });
  assert.ok(docs.every((doc) => Object.keys(doc).join() === '_key,name,email,city,age,score,visits,bio,version,text'));
  assert.ok(docs.every((doc) => bytesOf(doc) === 2048));
  // Smaller than the fields themselves: an empty text, the document as large as its fields.
  const small = crudDocuments({ count: 20, shape: 'uniform', seed: 1, bytes: 10 });
  assert.ok(small.docs.every((doc) => doc.text === '' && bytesOf(doc) > 10));
  assert.throws(() => crudDocuments({ count: 1, shape: 'uniform', seed: 1, bytes: 0 }), /^Error: internal: a document size of 0 bytes$/);
  assert.deepEqual(DOCUMENT_BYTES, { min: 1, max: 16 * 2 ** 20 });
});

test('the mixed suite carries a document size through its data, configuration and rounds, and names it in the data\'s id', async () => {
  const data = await mixed.prepare({ records: 20, ops: [14], shape: 'uniform', seed: 2, docBytes: 864 });
  assert.equal(data.docBytes, 864);
  assert.equal(data.docs.length, 20 + crossInserts(14));
  assert.ok([...data.docs, ...data.updates].every((doc) => bytesOf(doc) === 864));
  assert.deepEqual(mixed.describeData(data), {
    id: 'mixed-uniform-b864-r20-s2', name: 'mixed documents', shape: 'uniform', seed: 2, documents: 20, docBytes: 864, label: '20 uniform documents of 864 bytes of JSON, seed 2',
  });
  const config = mixed.configure({ ...mixed.defaults, concurrency: [2], records: 20, ops: [14], seed: 2, docBytes: 864 });
  assert.equal(config.docBytes, 864);
  assert.equal(mixed.configure({ ...mixed.defaults, concurrency: [2] }).docBytes, undefined, 'no size, no field: configurations as before');
  assert.throws(() => mixed.configure({ ...mixed.defaults, concurrency: [2], docBytes: 0.5 }),
    { code: 'E_USAGE', message: 'the document size must be a whole number of bytes from 1 to 16,777,216, got 0.5' });

  // A round loads the documents of the size; the writes of its stream are of the size, give or take the digits of
  // the version they carry.
  const [round] = mixed.rounds({ config: { ...config, runs: 1 }, workloads: WORKLOADS.slice(1, 2) });
  const inserted = [];
  await round.setup({ createTempCollection: async () => {}, insertDocument: async (collection, doc) => { inserted.push(doc); } });
  assert.deepEqual(inserted, data.docs.slice(0, 20));
  const writes = operationStream(data, { mix: { read: 0 }, ops: 100, records: 20, distribution: 'uniform', stream: 1 });
  assert.ok(writes.every(({ doc }) => Math.abs(bytesOf(doc) - 864) <= 3), 'about 864 bytes each');
});
