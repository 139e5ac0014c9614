// The quirks of SNAP's real Pokec files, on small files in their format: trailing tabs, "null", invalid UTF-8,
// gzip, malformed lines (an error by default, counted and skipped with skipBad), and the hand-written profile
// reader held against the csv-parse one.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { PROFILE_COLUMNS } from '../../datasets/columns.js';
import { generate, PROFILES_FILE } from '../../datasets/generate.js';
import { createReadStats, loadRelationIds, readProfiles, readRelations } from '../../datasets/read.js';
import { readProfilesCsv } from '../../datasets/read-csv.js';

async function tempDir(t) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'db-shootout-quirks-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function fixture(t, name, content) {
  const file = path.join(await tempDir(t), name);
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
  await writeFile(file, name.endsWith('.gz') ? gzipSync(bytes) : bytes);
  return file;
}

async function collect(batches) {
  const all = [];
  for await (const batch of batches) all.push(...batch);
  return all;
}

// A profile line as bytes; a value may be a Buffer, for bytes that are not valid UTF-8.
function profileLine(id, values = {}) {
  const fields = PROFILE_COLUMNS.map((column) => values[column] ?? 'null');
  fields[0] = String(id);
  const parts = fields.flatMap((field) => [Buffer.isBuffer(field) ? field : Buffer.from(field), Buffer.from('\t')]);
  return Buffer.concat([...parts, Buffer.from('\n')]);
}

const REPLACEMENT = '\uFFFD';
// A lone continuation byte, a lead byte cut short by the tab, an overlong "/", and a valid "č" around them.
const INVALID = {
  pets: Buffer.from([0x70, 0x65, 0x73, 0x80]),
  hobbies: Buffer.from([0x76, 0x61, 0xc5]),
  music: Buffer.from([0x61, 0xc0, 0xaf, 0x62, 0xc4, 0x8d]),
};

const QUIRKS = Buffer.concat([
  profileLine(1, { public: '1', completion_percentage: '14', gender: '1', AGE: '26', region: 'zilinsky kraj, zilina' }),
  profileLine(2, { public: '0', completion_percentage: '0', gender: 'null', AGE: '0', ...INVALID }),
  profileLine(3, { public: '1', completion_percentage: '100', AGE: '19', body: '', pets: 'pes "Azor"<br />mačka' }),
]);

test('trailing tabs, "null" and invalid UTF-8: repaired to U+FFFD and counted, never an error', async (t) => {
  const stats = createReadStats();
  const [first, second, third] = await collect(readProfiles(await fixture(t, 'p.txt', QUIRKS), { stats }));
  assert.deepEqual(first, { _key: 'P1', public: 1, completion_percentage: 14, gender: 1, region: 'zilinsky kraj, zilina', AGE: 26 });
  assert.deepEqual(Object.keys(first), ['_key', 'public', 'completion_percentage', 'gender', 'region', 'AGE']);
  assert.equal('gender' in second, false);
  assert.equal(second.pets, `pes${REPLACEMENT}`);
  assert.equal(second.hobbies, `va${REPLACEMENT}`);
  assert.equal(second.music, `a${REPLACEMENT}${REPLACEMENT}bč`);
  assert.equal(third.body, '', 'an empty field is an empty string, not a missing one');
  assert.equal(third.pets, 'pes "Azor"<br />mačka');
  assert.deepEqual(stats, { rows: 3, repairedLines: 1, skippedLines: 0, skipped: [], comments: 0 });
});

test('a .gz file reads the same documents and statistics as the plain file', async (t) => {
  const plainStats = createReadStats();
  const gzipStats = createReadStats();
  const plain = await collect(readProfiles(await fixture(t, 'p.txt', QUIRKS), { stats: plainStats }));
  const gzipped = await collect(readProfiles(await fixture(t, 'p.txt.gz', QUIRKS), { stats: gzipStats }));
  assert.deepEqual(gzipped, plain);
  assert.deepEqual(gzipStats, plainStats);
});

test('the hand-written reader gives the csv-parse reader\'s documents, byte for byte, repairs included', async (t) => {
  const file = await fixture(t, 'p.txt.gz', QUIRKS);
  assert.equal(JSON.stringify(await collect(readProfiles(file))), JSON.stringify(await collect(readProfilesCsv(file))));
});

test('on a generated dataset both readers give the same documents in the same batches', async (t) => {
  const dir = await tempDir(t);
  await generate({ dir, scale: 'tiny', seed: 5 });
  const file = path.join(dir, PROFILES_FILE);
  const fast = [];
  for await (const batch of readProfiles(file, { batchSize: 300 })) fast.push(JSON.stringify(batch));
  const csv = [];
  for await (const batch of readProfilesCsv(file, { batchSize: 300 })) csv.push(JSON.stringify(batch));
  assert.equal(fast.length, 4);
  assert.deepEqual(fast, csv);
});

test('lines and invalid UTF-8 that straddle read chunks are handled like any other', async (t) => {
  // About 2.5 MB, so the 1 MB read chunks end inside lines, some of them inside an invalid sequence.
  const lines = [];
  for (let id = 1; id <= 1200; id += 1) {
    lines.push(profileLine(id, { AGE: String(id % 90), more: `${'x'.repeat(2000)}\u010d`, pets: INVALID.pets }));
  }
  const content = Buffer.concat(lines);
  const stats = createReadStats();
  const docs = await collect(readProfiles(await fixture(t, 'big.txt', content), { stats }));
  assert.equal(docs.length, 1200);
  assert.ok(docs.every((doc, i) => doc._key === `P${i + 1}` && doc.pets === `pes${REPLACEMENT}` && doc.more.endsWith('xč')));
  assert.equal(stats.repairedLines, 1200);
  assert.equal(JSON.stringify(docs), JSON.stringify(await collect(readProfilesCsv(await fixture(t, 'big.txt', content)))));
});

const GOOD = [1, 2, 3, 4].map((id) => profileLine(id, { AGE: '20' }));
const BAD_PROFILES = [
  ['a missing column', Buffer.from(profileLine(9).toString().replace('\tnull\t\n', '\t\n')), /found 58 columns and a trailing tab/],
  ['an extra column', Buffer.from(profileLine(9).toString().replace('\t\n', '\tnull\t\n')), /found 60 columns and a trailing tab/],
  ['a non-numeric user_id', profileLine('x9'), /user_id is not a positive integer: "x9"/],
  ['a user_id of 0', profileLine(0), /user_id is not a positive integer: "0"/],
  ['a user_id too large for the graph', profileLine(2 ** 31), /user_id is larger than 2147483647/],
  ['a non-integer AGE', profileLine(9, { AGE: '2O' }), /AGE is not an integer: "2O"/],
  ['a repeated user_id', profileLine(2), /user_id 2 appears on an earlier line too/],
  ['an empty line', Buffer.from('\n'), /empty line/],
];

for (const [problem, line, message] of BAD_PROFILES) {
  test(`a profile line with ${problem} is an error naming file and line, or skipped and counted with skipBad`, async (t) => {
    const file = await fixture(t, 'p.txt.gz', Buffer.concat([GOOD[0], GOOD[1], line, GOOD[2], GOOD[3]]));
    await assert.rejects(collect(readProfiles(file)), (error) => {
      assert.equal(error.code, 'E_DATASET');
      assert.ok(error.message.startsWith(`${file}:3: `), error.message);
      assert.match(error.message, message);
      return true;
    });
    const stats = createReadStats();
    const docs = await collect(readProfiles(file, { skipBad: true, stats }));
    assert.deepEqual(docs.map((doc) => doc._key), ['P1', 'P2', 'P3', 'P4']);
    assert.equal(stats.rows, 4);
    assert.equal(stats.skippedLines, 1);
    assert.equal(stats.skipped[0].line, 3);
    assert.match(stats.skipped[0].problem, message);
  });
}

test('skipBad keeps the first ten skipped lines as examples and counts them all', async (t) => {
  const lines = [GOOD[0]];
  for (let i = 0; i < 25; i += 1) lines.push(profileLine(`bad${i}`));
  lines.push(GOOD[1]);
  const stats = createReadStats();
  const docs = await collect(readProfiles(await fixture(t, 'p.txt', Buffer.concat(lines)), { skipBad: true, stats }));
  assert.equal(docs.length, 2);
  assert.equal(stats.skippedLines, 25);
  assert.deepEqual(stats.skipped.map(({ line }) => line), [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
});

test('a relation line with a trailing tab is accepted, and "#" comment lines are counted and skipped', async (t) => {
  const stats = createReadStats();
  const file = await fixture(t, 'r.txt.gz', '# Directed graph\n1\t2\t\n2\t1\n#\n3\t1\t\n');
  const ids = await loadRelationIds(file, { stats });
  assert.deepEqual([...ids.from], [1, 2, 3]);
  assert.deepEqual([...ids.to], [2, 1, 1]);
  assert.deepEqual(stats, { rows: 3, repairedLines: 0, skippedLines: 0, skipped: [], comments: 2 });
});

const BAD_RELATIONS = [
  ['a non-numeric target', '5\tx\n'],
  ['a single id', '5\n'],
  ['three ids', '5\t6\t7\n'],
  ['a negative id', '-5\t6\n'],
  ['a space instead of a tab', '5 6\n'],
  ['an id too large', '5\t99999999999\n'],
  ['id 0', '0\t6\n'],
];

for (const [problem, line] of BAD_RELATIONS) {
  test(`a relation line with ${problem} is an error naming file and line, or skipped and counted with skipBad`, async (t) => {
    const file = await fixture(t, 'r.txt', `1\t2\n2\t1\n${line}3\t1\n`);
    await assert.rejects(loadRelationIds(file), (error) => {
      assert.equal(error.code, 'E_DATASET');
      assert.ok(error.message.startsWith(`${file}:3: `), error.message);
      return true;
    });
    const stats = createReadStats();
    const batches = [];
    for await (const batch of readRelations(file, { skipBad: true, stats })) batches.push(...batch);
    assert.deepEqual(batches, [{ _from: 'P1', _to: 'P2' }, { _from: 'P2', _to: 'P1' }, { _from: 'P3', _to: 'P1' }]);
    assert.equal(stats.rows, 3);
    assert.equal(stats.skippedLines, 1);
    assert.equal(stats.skipped[0].line, 3);
  });
}

test('with skipBad a truncated last relation line is counted, not an error', async (t) => {
  const stats = createReadStats();
  const ids = await loadRelationIds(await fixture(t, 'r.txt', '1\t2\n2\t1\n3\t'), { skipBad: true, stats });
  assert.equal(ids.count, 2);
  assert.equal(stats.skippedLines, 1);
  assert.match(stats.skipped[0].problem, /truncated/);
});

test('only a field that is exactly "null" is missing: "nullable", "null " or "nullx" are values', async (t) => {
  const values = { region: 'nullable', body: 'null ', pets: 'nullx', hobbies: 'Null', music: ' null', more: 'null' };
  const file = await fixture(t, 'p.txt', Buffer.concat([profileLine(1, values), profileLine(2, { AGE: 'nullx' })]));
  await assert.rejects(collect(readProfiles(file)), /p\.txt:2: AGE is not an integer: "nullx"/);
  const stats = createReadStats();
  const [doc] = await collect(readProfiles(file, { skipBad: true, stats }));
  const { more, ...present } = values;
  assert.deepEqual(doc, { _key: 'P1', ...Object.fromEntries(PROFILE_COLUMNS.filter((c) => c in present).map((c) => [c, present[c]])) });
  assert.equal('more' in doc, false);
  assert.equal(stats.skippedLines, 1);
  const csvFile = await fixture(t, 'p.txt', profileLine(1, values));
  assert.equal(JSON.stringify(await collect(readProfilesCsv(csvFile))), JSON.stringify([doc]));
});

test('invalid UTF-8 on a last line without a newline is repaired and counted', async (t) => {
  const last = profileLine(2, { pets: INVALID.pets });
  const content = Buffer.concat([GOOD[0], last.subarray(0, last.length - 1)]);
  const stats = createReadStats();
  const docs = await collect(readProfiles(await fixture(t, 'p.txt', content), { stats }));
  assert.deepEqual(docs.map((doc) => doc.pets), [undefined, `pes${REPLACEMENT}`]);
  assert.deepEqual(stats, { rows: 2, repairedLines: 1, skippedLines: 0, skipped: [], comments: 0 });
});

test('a hash given to a reader receives the file\'s bytes as stored, gzip\'d ones too, in the same pass', async (t) => {
  const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
  const relationsText = Buffer.from('1\t2\n2\t1\n3\t1\n');
  // Big enough for several read chunks, so that every chunk must reach the hash.
  const lines = [];
  for (let id = 1; id <= 1500; id += 1) lines.push(profileLine(id, { more: 'x'.repeat(2000) }));
  const profiles = Buffer.concat(lines);
  for (const name of ['p.txt', 'p.txt.gz']) {
    const file = await fixture(t, name, profiles);
    const hash = createHash('sha256');
    assert.equal((await collect(readProfiles(file, { hash }))).length, 1500);
    assert.equal(hash.digest('hex'), sha256(await readFile(file)), name);
  }
  for (const name of ['r.txt', 'r.txt.gz']) {
    const file = await fixture(t, name, relationsText);
    const hash = createHash('sha256');
    assert.equal((await collect(readRelations(file, { hash }))).length, 3);
    assert.equal(hash.digest('hex'), sha256(await readFile(file)), name);
    const idsHash = createHash('sha256');
    await loadRelationIds(file, { hash: idsHash });
    assert.equal(idsHash.digest('hex'), sha256(await readFile(file)), name);
  }
});
