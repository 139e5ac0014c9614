// Comparisons between an adapter's answer and the reference. Each returns null when the answer is right,
// otherwise a short description of the first difference, which the report shows as "expected vs got".

const MAX_TEXT = 160;

// Wrong answers can hold anything a driver returns, so this never throws: values JSON cannot write (undefined,
// functions, symbols, BigInts, cycles) are shown as JavaScript would write them.
function describe(value) {
  if (typeof value === 'bigint') return `${value}n`;
  try {
    const text = JSON.stringify(value);
    if (text !== undefined) return text;
  } catch {
    // a cycle or a nested BigInt: described below
  }
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (typeof value === 'object') return Object.prototype.toString.call(value);
  return String(value);
}

export function abbreviate(value) {
  const text = describe(value);
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// Documents are flat: every field value is a string or an integer, so strict equality per field is exact.
// Only own fields count: `field in doc` and `doc[field]` would see inherited names (`constructor`, `toString`,
// `__proto__`, ...) as fields.
export function documentDifference(expected, got) {
  if (!isPlainObject(got)) return `expected a document, got ${abbreviate(got)}`;
  for (const field of Object.keys(expected)) {
    if (!Object.hasOwn(got, field)) return `missing field ${field}: expected ${abbreviate(expected[field])}`;
    if (got[field] !== expected[field]) {
      return `field ${field}: expected ${abbreviate(expected[field])}, got ${abbreviate(got[field])}`;
    }
  }
  for (const field of Object.keys(got)) {
    if (!Object.hasOwn(expected, field)) return `unexpected field ${field}: ${abbreviate(got[field])}`;
  }
  return null;
}

// `expectedKeys` must be sorted. The answer is a set: order is free, duplicates are wrong.
export function keySetDifference(expectedKeys, got) {
  if (!Array.isArray(got)) return `expected an array of keys, got ${abbreviate(got)}`;
  const answer = [...got].sort();
  for (let i = 1; i < answer.length; i += 1) {
    if (answer[i] === answer[i - 1]) return `duplicate key ${abbreviate(answer[i])}`;
  }
  const expectedSet = new Set(expectedKeys);
  const answerSet = new Set(answer);
  const missing = expectedKeys.filter((key) => !answerSet.has(key));
  const extra = answer.filter((key) => !expectedSet.has(key));
  if (missing.length === 0 && extra.length === 0) return null;
  return `${expectedKeys.length} keys expected, ${answer.length} returned; missing ${abbreviate(missing.slice(0, 5))}, extra ${abbreviate(extra.slice(0, 5))}`;
}

const bucket = (histogram, key) => (Object.hasOwn(histogram, key) ? abbreviate(histogram[key]) : 'no bucket');

// Every bucket of either side must be in both with the same count (a number: "5" is wrong).
export function histogramDifference(expected, got) {
  if (!isPlainObject(got)) return `expected an object of counts, got ${abbreviate(got)}`;
  const keys = new Set([...Object.keys(expected), ...Object.keys(got)]);
  for (const key of [...keys].sort((a, b) => Number(a) - Number(b))) {
    const same = Object.hasOwn(expected, key) && Object.hasOwn(got, key) && got[key] === expected[key];
    if (!same) return `AGE ${key}: expected ${bucket(expected, key)}, got ${bucket(got, key)}`;
  }
  return null;
}

// A whole collection read back after the clock stopped against the documents it must hold: exactly their keys,
// each once, each document equal to its counterpart. Returns the failures as { input, problem }. A Map by key
// keeps this linear in the number of documents.
export function collectionDifferences(expected, stored) {
  const all = `${expected.length} documents`;
  if (!Array.isArray(stored)) {
    return [{ input: all, problem: `expected an array of documents, got ${abbreviate(stored)}` }];
  }
  const failures = [];
  if (stored.length !== expected.length) {
    failures.push({ input: all, problem: `the collection holds ${stored.length} documents` });
  }
  const written = new Map(expected.map((doc) => [doc._key, doc]));
  const seen = new Set();
  for (const doc of stored) {
    const key = doc !== null && typeof doc === 'object' && Object.hasOwn(doc, '_key') ? doc._key : undefined;
    if (!written.has(key)) {
      failures.push({ input: key, problem: `a document that was not written: ${abbreviate(doc)}` });
    } else if (seen.has(key)) {
      failures.push({ input: key, problem: 'stored more than once' });
    } else {
      seen.add(key);
      const problem = documentDifference(written.get(key), doc);
      if (problem) failures.push({ input: key, problem });
    }
  }
  for (const [key, doc] of written) {
    if (!seen.has(key)) failures.push({ input: key, problem: `not in the collection; written ${abbreviate(doc)}` });
  }
  return failures;
}
