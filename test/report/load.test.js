// Reading result documents for bench report and bench compare (results/report/load.js): what a document needs,
// each refusal's words, directories read in name order, each file once.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { isReportError, ReportErrorCodes } from '../../results/report/errors.js';
import { loadResults, readResult } from '../../results/report/load.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-report-load-'));
after(() => rmSync(work, { recursive: true, force: true }));

const minimal = (extra = {}) => ({ schema: 'db-shootout/result@1', db: { id: 'sqlite' }, dataset: { id: 'synthetic-tiny-s1-g1' }, workloads: {}, ...extra });
function write(name, content) {
  const file = path.join(work, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

test('a document needs the schema, a db.id, a dataset.id (or a crash test\'s durability section) and a workloads object', async () => {
  const refused = async (name, content, problem) => {
    const file = write(name, content);
    await assert.rejects(readResult(file), (error) => {
      assert.equal(error.code, ReportErrorCodes.NOT_A_RESULT);
      assert.equal(error.message, `${file} is not a db-shootout/result@1 result document: ${problem}`);
      assert.ok(isReportError(error));
      return true;
    });
  };
  await refused('null.json', 'null', 'not a JSON object');
  await refused('number.json', '42', 'not a JSON object');
  await refused('no-schema.json', { db: { id: 'x' } }, 'schema is null, expected "db-shootout/result@1"');
  await refused('no-db.json', minimal({ db: { id: 7 } }), 'no db.id');
  await refused('no-db-at-all.json', minimal({ db: undefined }), 'no db.id');
  await refused('no-dataset.json', minimal({ dataset: {} }), 'no dataset.id');
  await refused('durability-null.json', minimal({ dataset: undefined, durability: null }), 'no dataset.id');
  await refused('durability-text.json', minimal({ dataset: undefined, durability: 'yes' }), 'no dataset.id');
  await refused('no-workloads.json', minimal({ workloads: undefined }), 'no workloads object');
  await refused('null-workloads.json', minimal({ workloads: null }), 'no workloads object');
  await refused('text-workloads.json', minimal({ workloads: 'none' }), 'no workloads object');

  const crash = write('crash.json', minimal({ dataset: undefined, durability: { singleWrite: {} } }));
  assert.deepEqual(await readResult(crash), { file: crash, result: JSON.parse(JSON.stringify(minimal({ dataset: undefined, durability: { singleWrite: {} } }))) });
  const plain = write('plain.json', minimal());
  assert.deepEqual(await readResult(plain), { file: plain, result: minimal() });
});

test('directories are read in name order, their *.json only; a file named twice is read once, as first written', async () => {
  const dir = path.join(work, 'dir');
  // Written in neither name order nor its reverse, so that the order the file system lists them in is not the names'.
  write('dir/c0.json', minimal({ db: { id: 'c0' } }));
  write('dir/b.json', minimal({ db: { id: 'b' } }));
  write('dir/d0.json', minimal({ db: { id: 'd0' } }));
  write('dir/a.json', minimal({ db: { id: 'a' } }));
  write('dir/c.txt', 'not read');
  mkdirSync(path.join(dir, 'sub.json.d'));
  const extra = write('extra.json', minimal({ db: { id: 'extra' } }));
  const loaded = await loadResults([dir, path.join(dir, 'a.json'), extra, `${work}/./extra.json`]);
  assert.deepEqual(loaded.map(({ file, result }) => [file, result.db.id]), [
    [path.join(dir, 'a.json'), 'a'], [path.join(dir, 'b.json'), 'b'], [path.join(dir, 'c0.json'), 'c0'], [path.join(dir, 'd0.json'), 'd0'], [extra, 'extra'],
  ]);
});

test('nothing named, an empty directory, a path that is not there: each refused in words', async () => {
  await assert.rejects(loadResults([]), { code: ReportErrorCodes.NO_RESULTS, message: 'name at least one result file or directory' });
  const empty = path.join(work, 'empty');
  mkdirSync(empty);
  write('empty/notes.txt', 'x');
  await assert.rejects(loadResults([empty]), { code: ReportErrorCodes.NO_RESULTS, message: `${empty}: the directory holds no *.json result file` });
  const missing = path.join(work, 'missing');
  await assert.rejects(loadResults([missing]), { code: ReportErrorCodes.NOT_A_RESULT, message: `${missing}: cannot read it: no such file or directory (ENOENT)` });
  await assert.rejects(readResult(missing), { code: ReportErrorCodes.NOT_A_RESULT, message: `${missing}: cannot read it: no such file or directory (ENOENT)` });
  assert.equal(isReportError(new Error('x')), false);
  for (const code of ['E_NOT_A_RESULT', 'E_NO_RESULTS', 'E_MIXED_DATASETS', 'E_MIXED_SUITES', 'E_BASELINE', 'E_UNKNOWN_DATASET', 'E_MIXED_DATABASES']) {
    assert.ok(isReportError(Object.assign(new Error('x'), { code })), code);
  }
  assert.deepEqual(Object.values(ReportErrorCodes).sort(), ['E_BASELINE', 'E_MIXED_DATABASES', 'E_MIXED_DATASETS', 'E_MIXED_SUITES', 'E_NOT_A_RESULT', 'E_NO_RESULTS', 'E_UNKNOWN_DATASET']);
  assert.equal(isReportError(null), false);
});

test('name order is JavaScript\'s: a name beyond the Basic Multilingual Plane before one in the private use area', async () => {
  // UTF-8 bytes (the file system's order) put U+E000 first; UTF-16 code units (a JavaScript sort) put U+1F600 first.
  const dir = path.join(work, 'unicode');
  write('unicode/\uE000.json', minimal({ db: { id: 'private' } }));
  write('unicode/\u{1F600}.json', minimal({ db: { id: 'emoji' } }));
  assert.deepEqual((await loadResults([dir])).map(({ result }) => result.db.id), ['emoji', 'private']);
});
