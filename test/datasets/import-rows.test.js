// readImportRows: the profile file read, parsed and formatted on a thread of its own gives the rows the format
// makes of readProfiles' batches, the same statistics and the file's sha256; a malformed line is the error
// readProfiles raises; a caller that stops early ends the thread.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { copyLine } from '../../adapters/postgresql/copy.js';
import { documentModel, profileCopyTexts } from '../../adapters/postgresql/document-model.js';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { readImportRows } from '../../datasets/import-rows.js';
import { createReadStats, readProfiles, readRelations } from '../../datasets/read.js';
import { profileFile, profileLine } from '../helpers/profile-files.js';

const SQLITE_ROWS = { module: new URL('../../adapters/sqlite/import-rows.js', import.meta.url).href, name: 'profileValues', input: 'lines', options: null };
// A format that takes the documents: PostgreSQL's document model, one stream.
const DOCUMENT_COPY = { module: new URL('../../adapters/postgresql/document-model.js', import.meta.url).href, name: 'profileCopyTexts', options: { parts: 1 } };
const decode = (bytes) => new TextDecoder().decode(bytes);

// `count` profiles with a varied subset of fields, a backslash, a tab-free quote and non-ASCII text among them.
function profiles(count) {
  let text = '';
  for (let id = 1; id <= count; id += 1) {
    text += profileLine(id, {
      public: String(id % 2), AGE: id % 7 === 0 ? 'null' : String(id % 90), region: id % 3 === 0 ? 'kraj \\ "mesto"' : 'žilina',
      ...(id % 5 === 0 ? { hobbies: `hobby ${id}` } : {}),
    });
  }
  return text;
}

async function collect(reader) {
  const batches = [];
  for await (const batch of reader) batches.push(batch);
  return batches;
}

test('rows are the format applied to readProfiles\' batches, with its statistics and the sha256 of the file', async (t) => {
  const content = profiles(2500);
  const file = await profileFile(t, content);
  const expected = (await collect(readProfiles(file, { batchSize: 1000 }))).map((docs) => profileCopyTexts(docs, { parts: 1 }).map(decode));

  const stats = createReadStats();
  const digest = {};
  const batches = await collect(readImportRows(file, { batchSize: 1000, stats, digest, format: DOCUMENT_COPY }));
  assert.deepEqual(batches.map((batch) => batch.count), [1000, 1000, 500]);
  assert.deepEqual(batches.map((batch) => batch.rows.map(decode)), expected);
  assert.equal(stats.rows, 2500);
  assert.equal(digest.sha256, createHash('sha256').update(await readFile(file)).digest('hex'));
});

test('SQLite\'s rows from profile lines: each key and JSON.stringify of its document, backslashes and all', async (t) => {
  const file = await profileFile(t, profiles(2500));
  const expected = (await collect(readProfiles(file))).flat().flatMap((doc) => [doc._key, JSON.stringify(doc)]);
  const batches = await collect(readImportRows(file, { format: SQLITE_ROWS }));
  assert.deepEqual(batches.flatMap((batch) => batch.rows), expected);
  assert.ok(expected.some((value) => value.includes('\\\\')), 'some documents hold an escaped backslash');
  assert.equal(batches.reduce((sum, batch) => sum + batch.count, 0), 2500);
});

test('relations: COPY lines of every pair, in parts, with the file\'s sha256', async (t) => {
  let content = '';
  for (let i = 1; i <= 30_000; i += 1) content += `${i}\t${(i % 977) + 1}\n`;
  const file = await profileFile(t, content);
  const digest = {};
  const format = { module: new URL('../../adapters/bulk-load.js', import.meta.url).href, name: 'lineParts', input: 'lines', options: { parts: 2 } };
  const batches = await collect(readImportRows(file, { role: 'relations', digest, format }));
  assert.ok(batches.every((batch) => batch.rows.length === 2));
  let expected = '';
  for (const batch of await collect(readRelations(file))) for (const { _from, _to } of batch) expected += `${_from}\t${_to}\n`;
  assert.equal(batches.flatMap((batch) => batch.rows.map(decode)).join(''), expected);
  assert.equal(batches.reduce((sum, batch) => sum + batch.count, 0), 30_000);
  assert.equal(digest.sha256, createHash('sha256').update(content).digest('hex'));
});

test('byte arrays arrive whole: PostgreSQL\'s COPY text of each stream, in the order of the documents', async (t) => {
  const file = await profileFile(t, profiles(301));
  const docs = (await collect(readProfiles(file, { batchSize: 301 })))[0];
  const format = { module: new URL('../../adapters/postgresql/document-model.js', import.meta.url).href, name: 'profileCopyTexts', options: { parts: 2 } };
  const [batch] = await collect(readImportRows(file, { batchSize: 301, format }));
  assert.equal(batch.count, 301);
  const decoded = batch.rows.map((bytes) => new TextDecoder().decode(bytes));
  assert.deepEqual(decoded, [docs.slice(0, 151), docs.slice(151)].map((part) => part.map((doc) => copyLine(documentModel.rowValues(doc))).join('')));
  assert.deepEqual(profileCopyTexts(docs, { parts: 2 }).map((bytes) => new TextDecoder().decode(bytes)), decoded);
});

test('a malformed line is readProfiles\' error; with skipBad it is counted and skipped', async (t) => {
  const file = await profileFile(t, profiles(3) + profileLine(4).replace('\tnull\t\n', '\t\n') + profiles(0));
  let expected;
  try {
    await collect(readProfiles(file));
  } catch (error) {
    expected = error;
  }
  assert.ok(expected instanceof BenchError);
  await assert.rejects(collect(readImportRows(file, { format: SQLITE_ROWS })),
    (error) => error instanceof BenchError && error.code === ErrorCodes.DATASET && error.message === expected.message);

  const stats = createReadStats();
  const batches = await collect(readImportRows(file, { skipBad: true, stats, format: SQLITE_ROWS }));
  assert.equal(batches.reduce((sum, batch) => sum + batch.count, 0), 3);
  assert.equal(stats.rows, 3);
  assert.equal(stats.skippedLines, 1);
  assert.deepEqual(stats.skipped.map(({ line }) => line), [4]);
});

test('a caller that stops early ends the thread; a format the module does not export is an error', async (t) => {
  const file = await profileFile(t, profiles(5000));
  const counts = [];
  for await (const batch of readImportRows(file, { batchSize: 100, format: DOCUMENT_COPY })) {
    counts.push(batch.count);
    if (counts.length === 2) break;
  }
  assert.deepEqual(counts, [100, 100]);

  await assert.rejects(collect(readImportRows(file, { format: { ...SQLITE_ROWS, name: 'noSuchRows' } })),
    (error) => error instanceof BenchError && error.code === ErrorCodes.DATASET && /has no function noSuchRows/.test(error.message));
});
