// Comparisons between an adapter's answer and the reference. Each returns null when the answer is right,
// otherwise a short description of the first difference, which the report shows as "expected vs got".

const MAX_TEXT = 160;

export function abbreviate(value) {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// Documents are flat: every field value is a string or an integer, so strict equality per field is exact.
export function documentDifference(expected, got) {
  if (!isPlainObject(got)) return `expected a document, got ${abbreviate(got)}`;
  for (const field of Object.keys(expected)) {
    if (got[field] !== expected[field]) {
      return `field ${field}: expected ${abbreviate(expected[field])}, got ${abbreviate(got[field])}`;
    }
  }
  for (const field of Object.keys(got)) {
    if (!(field in expected)) return `unexpected field ${field}: ${abbreviate(got[field])}`;
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

export function histogramDifference(expected, got) {
  if (!isPlainObject(got)) return `expected an object of counts, got ${abbreviate(got)}`;
  const keys = new Set([...Object.keys(expected), ...Object.keys(got)]);
  for (const key of [...keys].sort((a, b) => Number(a) - Number(b))) {
    if (got[key] !== expected[key]) {
      return `AGE ${key}: expected ${abbreviate(expected[key])}, got ${abbreviate(got[key])}`;
    }
  }
  return null;
}
