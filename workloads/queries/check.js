// How a query case's answer is checked: every row of it, against the case's reference (cases.js). A row is
// reduced to a canonical text (a document's fields sorted by name, so field order does not matter but every field,
// its name, its value and its type do); an `any`-order answer must hold the reference's rows as a multiset, an
// `ascending` one the same rows in the same order. The reference of a case and size is kept only as a digest of
// its canonical rows; a wrong answer is explained by computing the reference again.
import { createHash } from 'node:crypto';
import { abbreviate } from '../compare.js';

const MAX_EXAMPLES = 3;
const MAX_ROW_TEXT = 120;

const clip = (text) => (text.length > MAX_ROW_TEXT ? `${text.slice(0, MAX_ROW_TEXT - 1)}…` : text);

// A value JSON writes as itself: a string, a finite number, a boolean, null (JSON would write NaN as null and drop
// an undefined field).
function isPlain(value) {
  const type = typeof value;
  return type === 'string' || type === 'boolean' || value === null || (type === 'number' && Number.isFinite(value));
}

// The fast path of the common case, a flat document whose fields already come in name order (every reference
// document does, and most drivers keep the order they were written in), is JSON.stringify itself.
function isCanonicalFlat(value, names) {
  for (let i = 0; i < names.length; i += 1) {
    if ((i > 0 && names[i - 1] >= names[i]) || !isPlain(value[names[i]])) return false;
  }
  return true;
}

function canonicalValue(value) {
  if (Array.isArray(value)) return value.every(isPlain) ? JSON.stringify(value) : `[${value.map(canonicalValue).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const names = Object.keys(value);
    if (isCanonicalFlat(value, names)) return JSON.stringify(value);
    names.sort();
    return `{${names.map((name) => `${JSON.stringify(name)}:${canonicalValue(value[name])}`).join(',')}}`;
  }
  if (isPlain(value)) return JSON.stringify(value);
  return typeof value === 'bigint' ? `${value}n` : String(value);
}

export const canonicalRow = canonicalValue;

// The canonical rows of an answer in the order the check compares them: sorted for a multiset, as given for an
// ordered answer.
export function canonicalRows(rows, order) {
  const texts = rows.map(canonicalValue);
  return order === 'ascending' ? texts : texts.sort();
}

export function digestOf(texts) {
  const hash = createHash('sha256');
  for (const text of texts) hash.update(text).update('\n');
  return { rows: texts.length, sha256: hash.digest('hex') };
}

// The first differences between two multisets of canonical rows, both sorted: rows missing from the answer
// and rows it has that the reference has not.
function multisetDifferences(expected, got) {
  const missing = [];
  const extra = [];
  let i = 0;
  let j = 0;
  while ((i < expected.length || j < got.length) && (missing.length < MAX_EXAMPLES || extra.length < MAX_EXAMPLES)) {
    if (j >= got.length || (i < expected.length && expected[i] < got[j])) {
      missing.push(expected[i]);
      i += 1;
    } else if (i >= expected.length || got[j] < expected[i]) {
      extra.push(got[j]);
      j += 1;
    } else {
      i += 1;
      j += 1;
    }
  }
  return [
    ...missing.slice(0, MAX_EXAMPLES).map((row) => `missing row ${clip(row)}`),
    ...extra.slice(0, MAX_EXAMPLES).map((row) => `unexpected row ${clip(row)}`),
  ];
}

function orderedDifferences(expected, got) {
  const problems = [];
  for (let i = 0; i < Math.max(expected.length, got.length) && problems.length < MAX_EXAMPLES; i += 1) {
    if (expected[i] !== got[i]) {
      problems.push(`row ${i + 1}: expected ${i < expected.length ? clip(expected[i]) : 'no row'}, got ${i < got.length ? clip(got[i]) : 'no row'}`);
    }
  }
  return problems;
}

// Null when `answer` is right; else one line saying what is wrong. `reference` is the case's digest for this
// size; `expectedRows()` recomputes the reference rows, called only to explain a wrong answer.
export function answerProblem(queryCase, answer, reference, expectedRows) {
  if (!Array.isArray(answer)) return `the answer is not an array of rows: ${abbreviate(answer)}`;
  const got = canonicalRows(answer, queryCase.order);
  const digest = digestOf(got);
  if (digest.rows === reference.rows && digest.sha256 === reference.sha256) return null;
  const expected = canonicalRows(expectedRows(), queryCase.order);
  const details = queryCase.order === 'ascending' ? orderedDifferences(expected, got) : multisetDifferences(expected, got);
  const count = got.length === expected.length ? `${got.length} rows` : `${got.length} rows, expected ${expected.length}`;
  return `${count}${details.length > 0 ? `; ${details.join('; ')}` : ''}`;
}
