import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INTEGER_COLUMNS, PROFILE_COLUMNS, profileId, profileKey, rowToDocument } from '../../datasets/columns.js';

function row(values) {
  return PROFILE_COLUMNS.map((column) => values[column] ?? 'null');
}

test('the schema has the 59 Pokec columns, user_id first and more last', () => {
  assert.equal(PROFILE_COLUMNS.length, 59);
  assert.equal(PROFILE_COLUMNS[0], 'user_id');
  assert.equal(PROFILE_COLUMNS[7], 'AGE');
  assert.equal(PROFILE_COLUMNS.at(-1), 'more');
  assert.equal(new Set(PROFILE_COLUMNS).size, 59);
  assert.deepEqual([...INTEGER_COLUMNS].sort(), ['AGE', 'completion_percentage', 'gender', 'public']);
});

test('profile keys are P followed by the id, and only such keys parse back', () => {
  assert.equal(profileKey(42), 'P42');
  assert.equal(profileId('P42'), 42);
  assert.equal(profileId(profileKey(1632803)), 1632803);
  for (const bad of ['42', 'P', 'P0', 'P01', 'P4x', 'p42', 'P-1', 42, null]) {
    assert.throws(() => profileId(bad), { code: 'E_DATASET' }, String(bad));
  }
});

test('a row becomes a document: nulls absent, integers typed, text kept exactly', () => {
  const fields = row({
    user_id: '17', public: '1', completion_percentage: '64', gender: '0', region: 'zilinsky kraj, zilina',
    last_login: '2012-05-25 11:20:00.0', registration: '2005-04-03 17:38:00.0', AGE: '0',
    hobbies: 'varenie, čítanie kníh, šport', pets: 'pes "Bobík"<br />mačka', more: '007',
  });
  fields.push('');
  assert.deepEqual(rowToDocument(fields), {
    _key: 'P17',
    public: 1,
    completion_percentage: 64,
    gender: 0,
    region: 'zilinsky kraj, zilina',
    last_login: '2012-05-25 11:20:00.0',
    registration: '2005-04-03 17:38:00.0',
    AGE: 0,
    hobbies: 'varenie, čítanie kníh, šport',
    pets: 'pes "Bobík"<br />mačka',
    more: '007',
  });
});

test('a null integer column is absent, not null or zero', () => {
  const doc = rowToDocument(row({ user_id: '5', public: '0', completion_percentage: '0', AGE: '23' }));
  assert.equal('gender' in doc, false);
  assert.equal(doc.public, 0);
  assert.equal(doc.AGE, 23);
  assert.equal(Object.values(doc).includes(null), false);
});

test('a non-integer id or integer column is rejected with the column named', () => {
  assert.throws(() => rowToDocument(row({ user_id: 'x1' })), { code: 'E_DATASET', message: /user_id/ });
  assert.throws(() => rowToDocument(row({ user_id: '3', AGE: '2x' })), { code: 'E_DATASET', message: /AGE.*"2x"/ });
  assert.throws(() => rowToDocument(row({ user_id: '3', gender: '' })), { code: 'E_DATASET', message: /gender/ });
});
