import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { PROFILE_COLUMNS } from '../../datasets/columns.js';
import { loadProfiles, loadRelationIds, readProfiles, readRelations } from '../../datasets/read.js';

async function fixture(t, name, content) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'db-shootout-read-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, name);
  await writeFile(file, name.endsWith('.gz') ? gzipSync(content) : content);
  return file;
}

async function collect(batches) {
  const all = [];
  for await (const batch of batches) all.push(batch);
  return all;
}

function profileLine(id, values = {}) {
  const fields = PROFILE_COLUMNS.map((column) => values[column] ?? 'null');
  fields[0] = String(id);
  return `${fields.join('\t')}\t\n`;
}

const PROFILES = profileLine(1, { public: '1', completion_percentage: '14', gender: '1', AGE: '26', region: 'zilinsky kraj, zilina' })
  + profileLine(2, { public: '0', completion_percentage: '0', AGE: '0', hobbies: 'varenie, čítanie kníh' })
  + profileLine(3, { public: '1', completion_percentage: '100', gender: '0', AGE: '19', pets: 'pes "Azor"<br />mačka' });

test('profiles are read as documents in batches, quotes and diacritics kept literally', async (t) => {
  const file = await fixture(t, 'profiles.txt', PROFILES);
  const batches = await collect(readProfiles(file, { batchSize: 2 }));
  assert.deepEqual(batches.map((batch) => batch.length), [2, 1]);
  const [first, second, third] = batches.flat();
  assert.deepEqual(first, { _key: 'P1', public: 1, completion_percentage: 14, gender: 1, AGE: 26, region: 'zilinsky kraj, zilina' });
  assert.equal(second.hobbies, 'varenie, čítanie kníh');
  assert.equal('gender' in second, false);
  assert.equal(third.pets, 'pes "Azor"<br />mačka');
});

test('a .gz profile file reads the same as the plain one', async (t) => {
  const plain = await collect(readProfiles(await fixture(t, 'profiles.txt', PROFILES)));
  const gzipped = await collect(readProfiles(await fixture(t, 'profiles.txt.gz', PROFILES)));
  assert.deepEqual(gzipped, plain);
});

test('loadProfiles keeps only the requested ids', async (t) => {
  const file = await fixture(t, 'profiles.txt', PROFILES);
  const some = await loadProfiles(file, new Set([1, 3, 99]));
  assert.deepEqual([...some.keys()], [1, 3]);
  assert.equal(some.get(3)._key, 'P3');
  assert.equal((await loadProfiles(file)).size, 3);
});

const PROFILE_ERRORS = [
  ['a missing column', PROFILES + profileLine(4).replace('\tnull\t\n', '\t\n'), 4, /found 58 columns and a trailing tab/],
  ['no trailing tab', profileLine(1) + profileLine(2).replace(/\t\n$/, '\n'), 2, /found 59 columns without a trailing tab/],
  ['a non-integer AGE', profileLine(1) + profileLine(2, { AGE: '2O' }), 2, /AGE/],
  ['a non-integer user_id', profileLine(1) + profileLine('x2'), 2, /user_id/],
  ['an empty line', `${profileLine(1)}\n${profileLine(2)}`, 2, /empty line/],
  ['a truncated last line', PROFILES + profileLine(4).slice(0, 40), 4, /columns/],
];

for (const [problem, content, line, message] of PROFILE_ERRORS) {
  test(`a profile file with ${problem} fails with its file and line`, async (t) => {
    const file = await fixture(t, 'profiles.txt', content);
    await assert.rejects(collect(readProfiles(file)), (error) => {
      assert.equal(error.code, 'E_DATASET');
      assert.ok(error.message.startsWith(`${file}:${line}: `), error.message);
      assert.match(error.message, message);
      return true;
    });
  });
}

const RELATIONS = '1\t2\n1\t3\n2\t1\n3\t1\n';

test('relations are read as key pairs in batches and as id arrays', async (t) => {
  const file = await fixture(t, 'relations.txt', RELATIONS);
  const batches = await collect(readRelations(file, { batchSize: 3 }));
  assert.deepEqual(batches, [
    [{ _from: 'P1', _to: 'P2' }, { _from: 'P1', _to: 'P3' }, { _from: 'P2', _to: 'P1' }],
    [{ _from: 'P3', _to: 'P1' }],
  ]);
  const ids = await loadRelationIds(file);
  assert.equal(ids.count, 4);
  assert.deepEqual([...ids.from], [1, 1, 2, 3]);
  assert.deepEqual([...ids.to], [2, 3, 1, 1]);
});

test('a .gz relation file reads the same as the plain one', async (t) => {
  const plain = await loadRelationIds(await fixture(t, 'relations.txt', RELATIONS));
  const gzipped = await loadRelationIds(await fixture(t, 'relations.txt.gz', RELATIONS));
  assert.deepEqual(gzipped, plain);
  assert.deepEqual(await collect(readRelations(await fixture(t, 'r.txt.gz', RELATIONS))),
    await collect(readRelations(await fixture(t, 'r.txt', RELATIONS))));
});

test('line numbers stay right across read chunks', async (t) => {
  const lines = 400000;
  const file = await fixture(t, 'relations.txt', `${'12\t345\n'.repeat(lines - 1)}12\t3x\n`);
  await assert.rejects(loadRelationIds(file), { code: 'E_DATASET', message: `${file}:${lines}: unexpected character "x" in an id` });
  const ids = await loadRelationIds(await fixture(t, 'many.txt', '12\t345\n'.repeat(lines)));
  assert.equal(ids.count, lines);
  assert.equal(ids.to[lines - 1], 345);
});

const RELATION_ERRORS = [
  ['a non-numeric target', '1\t2\n1\tx\n', 2],
  ['a missing target', '1\t2\n1\t\n', 2],
  ['a single column', '1\t2\n3\n', 2],
  ['three columns', '1\t2\t3\n', 1],
  ['an empty line', '1\t2\n\n2\t1\n', 2],
  ['id 0', '1\t2\n0\t1\n', 2],
  ['a space instead of a tab', '1\t2\n2 1\n', 2],
  ['a truncated last line (source only)', '1\t2\n2\t1\n3', 3],
  ['a truncated last line (no newline)', '1\t2\n2\t1\n3\t1', 3],
];

for (const [problem, content, line] of RELATION_ERRORS) {
  test(`a relation file with ${problem} fails with its file and line`, async (t) => {
    const file = await fixture(t, 'relations.txt', content);
    for (const read of [() => loadRelationIds(file), () => collect(readRelations(file))]) {
      await assert.rejects(read(), (error) => {
        assert.equal(error.code, 'E_DATASET');
        assert.ok(error.message.startsWith(`${file}:${line}: `), error.message);
        return true;
      });
    }
  });
}

test('a missing or truncated file is a dataset error naming it', async (t) => {
  const missing = path.join(os.tmpdir(), 'db-shootout-no-such-file.txt');
  await assert.rejects(loadRelationIds(missing), { code: 'E_DATASET', message: new RegExp(missing) });
  await assert.rejects(loadRelationIds(`${missing}.gz`), { code: 'E_DATASET', message: new RegExp(`${missing}.gz`) });
  await assert.rejects(collect(readProfiles(missing)), { code: 'E_DATASET', message: new RegExp(missing) });
  const gzipped = gzipSync(RELATIONS.repeat(1000));
  const file = await fixture(t, 'cut.txt.gz', '');
  await writeFile(file, gzipped.subarray(0, gzipped.length - 20));
  await assert.rejects(loadRelationIds(file), { code: 'E_DATASET', message: new RegExp(file) });
  await assert.rejects(collect(readProfiles(file)), { code: 'E_DATASET', message: new RegExp(file) });
});

test('loadRelationIds holds the pairs in arrays of its first capacity while they fit, grown by half once past it', async (t) => {
  const lines = (count) => Array.from({ length: count }, (_, i) => `${(i % 9000) + 1}\t${(i % 7000) + 2}\n`).join('');
  // 700,000 pairs in five chunks of a mebibyte: no chunk makes them outgrow 2^20.
  const fits = await loadRelationIds(await fixture(t, 'fits.txt', lines(700_000)));
  assert.equal(fits.count, 700_000);
  assert.deepEqual([fits.from.buffer.byteLength, fits.to.buffer.byteLength], [4 * 2 ** 20, 4 * 2 ** 20]);
  assert.deepEqual([fits.from[699_999], fits.to[699_999]], [(699_999 % 9000) + 1, (699_999 % 7000) + 2]);
  // 1,200,000: grown once, to one and a half times 2^20, the pairs before kept.
  const grown = await loadRelationIds(await fixture(t, 'grown.txt', lines(1_200_000)));
  assert.equal(grown.count, 1_200_000);
  assert.deepEqual([grown.from.buffer.byteLength, grown.to.buffer.byteLength], [4 * 1.5 * 2 ** 20, 4 * 1.5 * 2 ** 20]);
  assert.deepEqual([grown.from[0], grown.to[0], grown.from[1_199_999], grown.to[1_199_999]], [1, 2, (1_199_999 % 9000) + 1, (1_199_999 % 7000) + 2]);
});
