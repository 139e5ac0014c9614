// Profile and relation lines (datasets/profile-lines.js, read.js readRelationLines): each line is exactly the COPY
// line PostgreSQL's document model writes for the document readProfiles makes, `copyLine([key,
// JSON.stringify(doc)])`, whatever the line holds; anything the fast path does not take goes through the
// parser's own path with the same errors and statistics; relation lines are `P<from>\tP<to>\n` for every pair
// readRelations gives.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { splitLines } from '../../adapters/bulk-load.js';
import { copyLine } from '../../adapters/postgresql/copy.js';
import { INTEGER_COLUMNS, PROFILE_COLUMNS } from '../../datasets/columns.js';
import { ProfileLineParser, readProfileLines } from '../../datasets/profile-lines.js';
import { createReadStats, readProfiles, readRelationLines, readRelations } from '../../datasets/read.js';
import { profileFile, profileLine } from '../helpers/profile-files.js';

async function collect(reader) {
  const all = [];
  for await (const batch of reader) all.push(batch);
  return all;
}

// What the lines must be: the document model's COPY line of each document readProfiles makes.
async function expectedLines(file, options = {}) {
  let text = '';
  for (const batch of await collect(readProfiles(file, options))) {
    for (const doc of batch) text += copyLine([doc._key, JSON.stringify(doc)]);
  }
  return text;
}

async function linesOf(file, options = {}) {
  const batches = await collect(readProfileLines(file, options));
  return { text: Buffer.concat(batches.map(({ bytes }) => bytes)).toString('utf8'), count: batches.reduce((sum, { count }) => sum + count, 0) };
}

// Values that need every kind of escape or fall outside the fast path: quotes, backslashes, each control
// character JSON escapes short or as \u00XX, a carriage return, non-ASCII text, DEL, a field reading "nul",
// "nulls" or "null" with one letter changed, integers with a sign, leading zeros, "-0", 15 and 16 digits, and lines whose only "null" fields are text.
const AWKWARD = [
  { region: 'say "hi"', hobbies: 'C:\\path\\to', pets: 'a\\"b' },
  { region: 'bell\u0007 back\u0008 feed\u000c ret\r unit\u001f nul\u0000', music: 'čítanie, 日本, 😀, \u007f' },
  { region: 'nul', hobbies: 'nulls', pets: 'NULL', music: 'null ' },
  { region: 'xull', hobbies: 'nxll', pets: 'nuxl', music: 'nulx' },
  { AGE: '-0', completion_percentage: '007', public: '0', gender: '-12', region: 'back\\slash "q" tab\\t' },
  { AGE: '123456789012345', completion_percentage: '1234567890123456', public: '-999999999999999', gender: '99999999999999999999' },
  { AGE: '0', region: '' },
  // Every integer column a plain integer, so that only the text columns can be "null".
  { public: '1', completion_percentage: '50', gender: '0', AGE: '30', region: 'plain' },
  { public: '0', completion_percentage: '100', gender: '1', AGE: '-5', hobbies: 'say "x" \\ \u0001', music: 'nul' },
];

test('every line is the COPY line of the document readProfiles makes, escapes and integers included', async (t) => {
  let content = '';
  for (let id = 1; id <= 3000; id += 1) {
    content += profileLine(id, { ...AWKWARD[id % AWKWARD.length], ...(id % 11 === 0 ? { hobbies: `hobby ${id}` } : {}) });
  }
  const file = await profileFile(t, content);
  const stats = createReadStats();
  const { text, count } = await linesOf(file, { stats });
  assert.equal(count, 3000);
  assert.equal(stats.rows, 3000);
  const expected = await expectedLines(file);
  assert.equal(text.length, expected.length);
  assert.deepEqual(text.split('\n'), expected.split('\n'));
});

test('lines cut across chunks and lines with invalid UTF-8 take the parser\'s path, with the same result', async (t) => {
  // About 3 MiB: lines cross the 1 MiB chunks; one line holds a byte that is not UTF-8, and is counted as repaired.
  const parts = [];
  for (let id = 1; id <= 6000; id += 1) parts.push(Buffer.from(profileLine(id, { region: 'x'.repeat(400 + (id % 97)), AGE: String(id % 80) })));
  const inRegion = parts[4321].indexOf('xxxx');
  parts[4321] = Buffer.concat([parts[4321].subarray(0, inRegion), Buffer.from([0xff]), parts[4321].subarray(inRegion)]);
  const file = await profileFile(t, Buffer.concat(parts));
  const stats = createReadStats();
  const { text, count } = await linesOf(file, { stats });
  const reference = createReadStats();
  assert.equal(text, await expectedLines(file, { stats: reference }));
  assert.equal(count, 6000);
  assert.equal(stats.repairedLines, 1);
  assert.deepEqual(stats, reference);
});

for (const [problem, content, line] of [
  ['a missing column', profileLine(1) + profileLine(2).replace('\tnull\t\n', '\t\n'), 2],
  ['a non-integer AGE', profileLine(1) + profileLine(2, { AGE: '2O' }), 2],
  ['a user_id with a leading zero', profileLine(1) + profileLine('02'), 2],
  ['a user_id with a letter', profileLine(1) + profileLine('1a2'), 2],
  ['a negative user_id', profileLine(1) + profileLine('-3'), 2],
  ['a user_id with the character after 9', profileLine(1) + profileLine('1:'), 2],
  ['a user_id with the character before 0', profileLine(1) + profileLine('1/'), 2],
  ['an empty user_id', profileLine(1) + profileLine(''), 2],
  ['a line of digits alone', `${profileLine(1)}123\n`, 2],
  ['a user_id above 2^31 - 1', profileLine(1) + profileLine('2147483648'), 2],
  ['the id of an earlier line', profileLine(1) + profileLine(2) + profileLine(1), 3],
  ['no trailing tab', profileLine(1) + profileLine(2).replace(/\t\n$/, '\n'), 2],
  ['an empty line', `${profileLine(1)}\n${profileLine(2)}`, 2],
]) {
  test(`a profile file with ${problem}: readProfiles' error, or with skipBad its count`, async (t) => {
    const file = await profileFile(t, content);
    let expected;
    await collect(readProfiles(file)).catch((error) => { expected = error; });
    assert.ok(expected, 'readProfiles refuses it');
    assert.ok(expected.message.startsWith(`${file}:${line}: `));
    await assert.rejects(collect(readProfileLines(file)), (error) => error.code === 'E_DATASET' && error.message === expected.message);

    const stats = createReadStats();
    const reference = createReadStats();
    const { text } = await linesOf(file, { skipBad: true, stats });
    assert.equal(text, await expectedLines(file, { skipBad: true, stats: reference }));
    assert.deepEqual(stats, reference);
    assert.equal(stats.skippedLines, 1);
  });
}

test('relation lines are P<from>\\tP<to>\\n for every pair readRelations gives; a bad line is its error', async (t) => {
  let content = '';
  for (let i = 1; i <= 50_000; i += 1) content += `${i}\t${(i * 7919) % 2_147_483_647 || 1}\n`;
  content += '2147483647\t1\n9\t10\t\n';
  const file = await profileFile(t, content);
  const stats = createReadStats();
  const batches = await collect(readRelationLines(file, { stats }));
  let expected = '';
  for (const batch of await collect(readRelations(file))) for (const { _from, _to } of batch) expected += `${_from}\t${_to}\n`;
  assert.equal(Buffer.concat(batches.map(({ bytes }) => bytes)).toString('utf8'), expected);
  assert.equal(batches.reduce((sum, { count }) => sum + count, 0), 50_002);
  assert.ok(batches.every(({ count }) => count > 0), 'no empty batch, not even after the end of the file');
  assert.equal(stats.rows, 50_002);

  const bad = await profileFile(t, '1\t2\n1\tx\n');
  await assert.rejects(collect(readRelationLines(bad)), (error) => error.code === 'E_DATASET' && error.message.startsWith(`${bad}:2: `));
});

test('COPY lines cut into parts: each ends a line, together they are the whole, fewer parts for fewer lines', () => {
  const text = Buffer.from('P1\ta\nP2\tbb\nP3\tccc\nP4\td\nP5\te\n');
  for (const parts of [1, 2, 3, 5]) {
    const pieces = splitLines(new Uint8Array(text), parts);
    assert.equal(pieces.length, parts);
    assert.equal(Buffer.concat(pieces).toString(), text.toString());
    for (const piece of pieces) assert.equal(piece.at(-1), 0x0a);
    for (const piece of pieces) assert.equal(piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength, true, 'owns its buffer');
  }
  assert.equal(splitLines(new Uint8Array(Buffer.from('P1\ta\n')), 2).length, 1);
  assert.deepEqual(splitLines(new Uint8Array(0), 2), []);
});

test('more lines at once than the output first holds: it grows, and keeps every line written before', async (t) => {
  // About 6 MiB of lines pushed whole, a control character in each (seven bytes of output apiece) and a repeated
  // id near the end (the parser's path, after the growth).
  let content = '';
  for (let id = 1; id <= 5000; id += 1) content += profileLine(id, { region: `r\u0001${'x'.repeat(900 + (id % 50))}`, AGE: String(id % 90) });
  content += profileLine(17, { region: 'again' });
  const file = await profileFile(t, content);
  const parser = new ProfileLineParser(file, { skipBad: true });
  parser.push(Buffer.from(content));
  parser.end();
  const { bytes, count } = parser.take();
  assert.equal(count, 5000);
  assert.ok(bytes.length > 4 * 2 ** 20, `${bytes.length} bytes`);
  assert.equal(Buffer.from(bytes).toString('utf8'), await expectedLines(file, { skipBad: true }));
  assert.equal(parser.stats.skippedLines, 1);
  // Taken: nothing left until more is pushed.
  assert.deepEqual(parser.take(), { bytes: new Uint8Array(0), count: 0 });
});

test('lines that write far more than they read, past where the output ends: room is made before each is written', async (t) => {
  // Every text column empty and every integer 0: some 70 bytes read and 1,150 written (each column's name), 4.6 MB
  // in all, past the 4 MiB the output starts with; then one line of 1.5 million control characters (10.5 MB
  // written), past twice the room there is.
  const wide = Object.fromEntries(PROFILE_COLUMNS.slice(1).map((column) => [column, INTEGER_COLUMNS.has(column) ? '0' : '']));
  let content = '';
  for (let id = 1; id <= 4000; id += 1) content += profileLine(id, wide);
  content += profileLine(4001, { region: '\u0001'.repeat(1_500_000) });
  const file = await profileFile(t, content);
  const parser = new ProfileLineParser(file);
  parser.push(Buffer.from(content));
  parser.end();
  const { bytes, count } = parser.take();
  assert.deepEqual([count, parser.fastLines], [4001, 4001]);
  assert.ok(bytes.length > 14_000_000, `${bytes.length} bytes`);
  assert.ok(Buffer.from(bytes).equals(Buffer.from(await expectedLines(file))), 'every line as the document model writes it');
});

test('a batch per chunk that completes a line, never an empty one; the file\'s bytes to a hash in the same pass', async (t) => {
  const content = profileLine(1) + profileLine(2, { region: 'y'.repeat(3 * 2 ** 20) }) + profileLine(3);
  const file = await profileFile(t, content);
  const hash = createHash('sha256');
  const batches = await collect(readProfileLines(file, { hash }));
  assert.ok(batches.every((batch) => batch.count > 0), JSON.stringify(batches.map((batch) => batch.count)));
  assert.equal(batches.reduce((sum, batch) => sum + batch.count, 0), 3);
  // The first chunk completes the first line: its batch comes before the long line is read.
  assert.deepEqual(batches.map((batch) => batch.count), [1, 2]);
  assert.equal(hash.digest('hex'), createHash('sha256').update(await readFile(file)).digest('hex'));
  // A file whose last line has no newline: its batch comes after the end.
  const unended = await profileFile(t, profileLine(5).slice(0, -1), 'unended.txt');
  assert.deepEqual((await collect(readProfileLines(unended))).map((batch) => batch.count), [1]);
  // An empty file: no batch.
  assert.deepEqual(await collect(readProfileLines(await profileFile(t, '', 'empty.txt'))), []);
});

test('relation lines: a chunk of many more pairs than the first gets room for all of them', async (t) => {
  // The first mebibyte read: 100 pairs and comment lines; the second: pairs of ten-digit ids only (about 47,000).
  let head = '';
  for (let i = 1; i <= 100; i += 1) head += `${i}\t${i + 1}\n`;
  head += '#'.repeat(79) + '\n';
  while (head.length < 2 ** 20) head += `# ${'c'.repeat(77)}\n`;
  let tail = '';
  for (let i = 0; tail.length < 2 ** 20; i += 1) tail += `${1_000_000_000 + i}\t${2_000_000_000 + i}\n`;
  const file = await profileFile(t, head + tail);
  const batches = await collect(readRelationLines(file));
  let expected = '';
  for (const batch of await collect(readRelations(file))) for (const { _from, _to } of batch) expected += `${_from}\t${_to}\n`;
  assert.ok(batches[0].count < 200 && batches[1].count > 40_000, JSON.stringify(batches.map(({ count }) => count)));
  assert.equal(Buffer.concat(batches.map(({ bytes }) => bytes)).toString('latin1'), expected);
});

// Which path each line takes. A fast path that refused a line it can write would write the same bytes through the
// parser's path, only slower: `fastLines` tells the two apart. [lines the fast path wrote, lines written].
test('the fast path writes every line it can take whole, and leaves to the parser only the lines it must', () => {
  const paths = (...lines) => {
    const parser = new ProfileLineParser('profiles.txt', { skipBad: true });
    parser.push(Buffer.from(lines.join('')));
    parser.end();
    return [parser.fastLines, parser.take().count];
  };
  const line = (values) => profileLine(3, values);
  const fast = {
    'every column "null"': [profileLine(1)],
    'the largest id': [profileLine(2 ** 31 - 1)],
    'integers with a sign, 0, 1 and 15 digits': [line({ AGE: '-12', public: '0', gender: '1', completion_percentage: '123456789012345' })],
    'a negative integer of 15 digits': [line({ AGE: '-999999999999999' })],
    'text to escape, an empty field, non-ASCII': [line({ region: 'say "hi" C:\\x \u0001\u0008\r 日本 😀 \u007f', music: '' })],
    'text that only starts or ends like "null"': [line({ region: 'nul', hobbies: 'nulls', pets: 'NULL', music: 'xull', body: 'nxll', eye_color: 'nuxl', hair_color: 'nulx' })],
  };
  for (const [label, lines] of Object.entries(fast)) assert.deepEqual(paths(...lines), [1, 1], label);
  // Integers JSON writes otherwise than the file (7, 0, a rounded number) and a line without its newline: the
  // parser's path writes them.
  for (const [label, lines] of Object.entries({
    'a leading zero': [line({ AGE: '007' })],
    '-0': [line({ AGE: '-0' })],
    '16 digits': [line({ AGE: '1234567890123456' })],
    'the last line without a newline': [line({}).slice(0, -1)],
  })) assert.deepEqual(paths(...lines), [0, 1], label);
  // Lines the parser refuses (skipped here): the fast path must not write them.
  for (const [label, lines] of Object.entries({
    'an id past 2^31 - 1': [profileLine(2 ** 31)],
    'id 0': [`0${profileLine(7).slice(1)}`],
    'an id with a letter': [`7a${profileLine(7).slice(1)}`],
    'an empty id': [profileLine(7).slice(1)],
    'an integer with a plus': [line({ AGE: '+5' })],
    'a lone minus': [line({ AGE: '-' })],
    'an empty integer': [line({ AGE: '' })],
    'no trailing tab': [`${line({}).slice(0, -2)}\n`],
    'a column too many': [`${line({}).slice(0, -1)}x\t\n`],
  })) assert.deepEqual(paths(...lines), [0, 0], label);
  assert.deepEqual(paths(profileLine(5), profileLine(5)), [1, 1], 'the id of an earlier line: the parser refuses it');
  // Ids of every digit, told apart from the ones before them (17 is not 7, 30 not 3).
  const ids = [...Array.from({ length: 40 }, (_, i) => i + 1), 1_234_567_890, 987_654_321];
  assert.deepEqual(paths(...ids.map((id) => profileLine(id))), [ids.length, ids.length]);
});
