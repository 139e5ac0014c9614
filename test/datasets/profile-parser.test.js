// The profile parser on its own (datasets/profile-parser.js), held to its rule: it builds exactly the documents
// of columns.js rowToDocument, and names exactly the problem profileProblem names, for any line; pushed whole or
// cut into chunks anywhere. Also the ids at the edges of what it accepts, repeated ids far apart, and the
// readers' batches (read.js) at exact multiples of the batch size and past the first capacity of loadRelationIds.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { PROFILE_COLUMNS, rowToDocument } from '../../datasets/columns.js';
import { ProfileParser, profileProblem } from '../../datasets/profile-parser.js';
import { createReadStats, loadRelationIds, readProfiles, readRelations } from '../../datasets/read.js';

const FILE = 'profiles.txt';
const AGE = PROFILE_COLUMNS.indexOf('AGE');
const GENDER = PROFILE_COLUMNS.indexOf('gender');
const REGION = PROFILE_COLUMNS.indexOf('region');

// A profile line: every column "null" but the id and those given, and the trailing tab.
function line(id, values = {}) {
  const fields = PROFILE_COLUMNS.map((column, i) => (i === 0 ? String(id) : values[column] ?? 'null'));
  return `${fields.join('\t')}\t`;
}

// Documents and problems of `text`, pushed in chunks of `chunk` bytes, with skipBad.
function parse(text, { chunk = Infinity } = {}) {
  const stats = createReadStats();
  const parser = new ProfileParser(FILE, { skipBad: true, stats });
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += chunk) parser.push(bytes.subarray(at, Math.min(bytes.length, at + chunk)));
  parser.end();
  return { docs: parser.docs, problems: stats.skipped.map(({ line: at, problem }) => `${at}: ${problem}`), stats };
}

// What the rule says of one line: rowToDocument's document, or profileProblem's message.
function expected(text) {
  const fields = text.split('\t');
  const problem = profileProblem(fields);
  return problem === null ? { doc: rowToDocument(fields) } : { problem };
}

const VALUES = ['null', 'nul', 'nulll', 'xull', 'nxll', 'nuxl', 'nulx', 'Null', 'NULL', '', ' null', '0', '-7', '42',
  'x12', '12x', '-', '1-2', '--1', '1.5', 'a\u00e9b', '"q"'];

test('every value in a string and an integer column: the document of rowToDocument, or its problem', () => {
  for (const value of VALUES) {
    for (const column of ['AGE', 'gender', 'region']) {
      const text = line(7, { [column]: value });
      const want = expected(text);
      const { docs, problems } = parse(`${text}\n`);
      if (want.doc) {
        assert.deepEqual(problems, [], `${column}=${JSON.stringify(value)}`);
        assert.deepEqual(docs, [want.doc], `${column}=${JSON.stringify(value)}`);
        assert.deepEqual(Object.keys(docs[0]), Object.keys(want.doc), 'the same fields in the same order');
      } else {
        assert.deepEqual(docs, [], `${column}=${JSON.stringify(value)}`);
        assert.deepEqual(problems, [`1: ${want.problem}`], `${column}=${JSON.stringify(value)}`);
      }
    }
  }
  assert.deepEqual([AGE, GENDER, REGION].every((i) => i > 0), true);
});

test('user ids: positive, no leading zero, digits only, up to 2^31 - 1; the problem named as profileProblem names it', () => {
  const accepted = ['1', '9', '10', '2147483647', '1234567890'];
  for (const id of accepted) assert.deepEqual(parse(`${line(id)}\n`).docs, [{ _key: `P${id}` }], id);
  const refused = {
    0: 'user_id is not a positive integer: "0"',
    '012': 'user_id is not a positive integer: "012"',
    '': 'user_id is not a positive integer: ""',
    '1a2': 'user_id is not a positive integer: "1a2"',
    '-3': 'user_id is not a positive integer: "-3"',
    '/1': 'user_id is not a positive integer: "/1"',
    ':1': 'user_id is not a positive integer: ":1"',
    2147483648: 'user_id is larger than 2147483647',
    99999999999: 'user_id is larger than 2147483647',
  };
  for (const [id, problem] of Object.entries(refused)) {
    assert.deepEqual(parse(`${line(id)}\n`).problems, [`1: ${problem}`], JSON.stringify(id));
  }
});

test('profileProblem: an empty line, too few or too many columns, with and without the trailing tab', () => {
  assert.equal(profileProblem(['']), 'empty line');
  assert.equal(profileProblem(['', 'x']), 'expected 59 tab-separated columns and a trailing tab, found 2 columns without a trailing tab');
  assert.equal(profileProblem(['abc']), 'expected 59 tab-separated columns and a trailing tab, found 1 columns without a trailing tab');
  assert.equal(profileProblem(['1', '']), 'expected 59 tab-separated columns and a trailing tab, found 1 columns and a trailing tab');
  const full = line(5).split('\t');
  assert.equal(profileProblem(full), null);
  assert.equal(profileProblem(full.slice(0, -1)), 'expected 59 tab-separated columns and a trailing tab, found 59 columns without a trailing tab');
  const sixty = [...full.slice(0, -1), 'null'];
  assert.equal(profileProblem(sixty), 'expected 59 tab-separated columns and a trailing tab, found 60 columns without a trailing tab');
  assert.equal(profileProblem([...full, '']), 'expected 59 tab-separated columns and a trailing tab, found 60 columns and a trailing tab');
  for (const text of ['', 'abc', '1\t', line(5).slice(0, -1), `${line(5)}null\t`, `${line(5)}\t`]) {
    assert.deepEqual(parse(`${line(1)}\n${text}\n${line(2)}\n`).problems, [`2: ${profileProblem(text.split('\t'))}`], JSON.stringify(text));
  }
});

test('the same documents and problems whatever the chunks, empty lines and invalid UTF-8 included', () => {
  const text = [line(1, { AGE: '30', region: 'z\u00e1pad' }), '', line(2, { gender: '1' }), line(3, { AGE: 'x' }),
    '', '', line(4), line(1)].join('\n');
  const bytes = Buffer.concat([Buffer.from(`${text}\n`), Buffer.from(line(6, { region: 'a' }).replace('\ta\t', '\ta\xff\t'), 'latin1'), Buffer.from('\n')]);
  const whole = parse(bytes.toString('latin1'));
  const chunked = (chunk) => {
    const stats = createReadStats();
    const parser = new ProfileParser(FILE, { skipBad: true, stats });
    for (let at = 0; at < bytes.length; at += chunk) parser.push(bytes.subarray(at, Math.min(bytes.length, at + chunk)));
    parser.end();
    return { docs: parser.docs, stats };
  };
  const reference = chunked(bytes.length);
  assert.deepEqual(reference.docs.map((doc) => doc._key), ['P1', 'P2', 'P4', 'P6']);
  assert.deepEqual(reference.stats.skipped.map(({ line: at, problem }) => [at, problem]), [
    [2, 'empty line'], [4, 'AGE is not an integer: "x"'], [5, 'empty line'], [6, 'empty line'],
    [8, 'user_id 1 appears on an earlier line too'],
  ]);
  assert.equal(reference.stats.repairedLines, 1);
  assert.equal(reference.docs[3].region, 'a\ufffd');
  for (const chunk of [1, 2, 3, 7, 64, 333]) assert.deepEqual(chunked(chunk), reference, `chunks of ${chunk}`);
  assert.ok(whole.docs.length > 0);
});

test('a repeated id is found however far apart and however large, the seen-set grown past each power of two', () => {
  const ids = [2_097_151, 2_097_152, 4_194_303, 4_194_304, 8_388_608, 2_147_483_647];
  const text = [...ids, ...ids].map((id) => line(id)).join('\n');
  const { docs, problems } = parse(`${text}\n`);
  assert.deepEqual(docs.map((doc) => doc._key), ids.map((id) => `P${id}`));
  assert.deepEqual(problems, ids.map((id, i) => `${ids.length + i + 1}: user_id ${id} appears on an earlier line too`));
  // The first id past the set's first size lands exactly on the next power of two.
  assert.deepEqual(parse(`${line(4_194_304)}\n${line(4_194_304)}\n`).problems, ['2: user_id 4194304 appears on an earlier line too']);
});

test('without options a bad line throws, naming the file and line', () => {
  const parser = new ProfileParser(FILE);
  assert.throws(() => parser.push(Buffer.from(`${line(1)}\n\n`)), /^BenchError: profiles\.txt:2: empty line$/);
});

test('the readers: no empty batch after an exact multiple of the batch size; relation ids past the first capacity', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-parser-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const profiles = path.join(dir, 'profiles.txt');
  await writeFile(profiles, `${Array.from({ length: 6 }, (_, i) => line(i + 1)).join('\n')}\n`);
  const lengths = [];
  for await (const batch of readProfiles(profiles, { batchSize: 3 })) lengths.push(batch.length);
  assert.deepEqual(lengths, [3, 3]);

  const relations = path.join(dir, 'relations.txt');
  const count = (1 << 20) + 300_000;
  const text = Buffer.alloc(count * 12);
  let at = 0;
  for (let i = 1; i <= count; i += 1) at += text.write(`${i}\t${(i % 1000) + 1}\n`, at, 'latin1');
  await writeFile(relations, text.subarray(0, at));
  const ids = await loadRelationIds(relations);
  assert.equal(ids.count, count);
  assert.equal(ids.from.length, count);
  assert.deepEqual([ids.from[0], ids.to[0], ids.from[count - 1], ids.to[count - 1]], [1, 2, count, (count % 1000) + 1]);
  assert.equal(ids.from[(1 << 20)], (1 << 20) + 1, 'the first id past the first capacity');
  let pairs = 0;
  const sizes = [];
  for await (const batch of readRelations(relations, { batchSize: count / 4 })) {
    pairs += batch.length;
    sizes.push(batch.length);
  }
  assert.equal(pairs, count);
  assert.deepEqual(sizes, [count / 4, count / 4, count / 4, count / 4]);
});

test('as JSON text: exactly JSON.stringify of the document, escapes and integers written as numbers included', () => {
  const json = (text) => {
    const stats = createReadStats();
    const parser = new ProfileParser(FILE, { skipBad: true, stats, json: true });
    parser.push(Buffer.from(`${text}\n`));
    parser.end();
    return { docs: parser.docs, key: parser.builder.key, problems: stats.skipped.map(({ problem }) => problem) };
  };
  const texts = ['plain', 'a"b', 'a\\b', 'tab\u0001x', 'x\u001f', ' ', '~\u007f', 'z\u00e1pad', '\u2028', '', '"', '\\', '\u0001', '""'];
  const integers = ['0', '7', '-7', '42', '007', '-0', '-012', '123456789012345', '1234567890123456', '12345678901234567', '-123456789012345', '-1234567890123456'];
  for (const value of [...texts, ...integers]) {
    for (const column of ['region', 'gender', 'AGE']) {
      const text = line(11, { region: 'r', [column]: value });
      const want = expected(text);
      const got = json(text);
      if (want.doc) {
        assert.deepEqual(got.docs, [JSON.stringify(want.doc)], `${column}=${JSON.stringify(value)}`);
        assert.equal(got.key, 'P11');
      } else {
        assert.deepEqual(got.problems, [want.problem], `${column}=${JSON.stringify(value)}`);
      }
    }
  }
  // Every column at once, in file order after the key.
  const all = Object.fromEntries(PROFILE_COLUMNS.slice(1).map((column, i) => [column, String(i + 1)]));
  const text = line(12, all);
  assert.deepEqual(json(text).docs, [JSON.stringify(rowToDocument(text.split('\t')))]);
  assert.ok(json(text).docs[0].startsWith('{"_key":"P12","public":1,'), json(text).docs[0].slice(0, 40));
});
