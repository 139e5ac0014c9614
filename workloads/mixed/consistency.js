// The mixed suite's check: every read and each key's final state against the writes that could have produced
// them, given when each operation ran. A pure function of the loaded state, the operation log (each operation
// with its answer, start and end) and the collection read back at the end; the rule is in workloads/README.md.
//
// Per key, the loaded state counts as a write that completed before everything (absence for a key the stream
// inserts). A read is right when it returns the value of a write W of its key that
//   (a) began before the read ended, and
//   (b) was not superseded before the read began: no write of the key began after W completed and completed
//       before the read began.
// That is a write overlapping the read, or one of the last writes completed before it began (several when they
// overlapped each other, since the database may have applied them in either order). The final state must be the
// value of one of the key's last writes: a write after whose completion no write of the key began.
// A scan (the documents from a key on, in key order, at most a limit) is a read of each key it returned, and more:
// its keys ascend from its start key; it holds at most its limit; and it leaves out no key that existed throughout
// it (every value the rule allows a read over the scan's span is a document) up to its last key, or at all when it
// held fewer than its limit. A key that some allowed value makes absent may be there or not.
// Recorded times may only be wider than the real ones (a start read before the request left, an end after its
// answer came back), which can let a wrong answer pass, never fail a right one.
import { lowerBound } from '../../core/sorted.js';
import { abbreviate, documentDifference } from '../compare.js';

export const READ = 'get';
export const INSERT = 'insert';
export const UPDATE = 'update';
export const DELETE = 'delete';
// A read, then a write of the same key (YCSB's read-modify-write): one operation, its answer the read's. Both parts
// count over the operation's whole span (the write began after the read ended; recorded wider, a right answer
// still passes).
export const READ_MODIFY_WRITE = 'read-modify-write';
// The documents from a key on, in the keys' order (JavaScript's < on strings; the harness's keys are ASCII, one
// letter and digits, where every common collation agrees), at most `limit`: YCSB's scan.
export const SCAN = 'scan';

const ABSENT = null;

function isDocument(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const describeWrite = (write) => (write.index < 0 ? 'the loaded state' : `operation ${write.index} (${write.kind})`);
const describeValue = (value) => (value === ABSENT ? 'absence' : abbreviate(value));

// The writes of one key, the loaded state first. Sealed, they are ordered by start and each position knows which
// write, of those starting there or later, completed first: whether a write was superseded before a time is
// then one binary search.
function keyHistory(initial) {
  return { writes: [{ index: -1, kind: 'load', value: initial, start: -Infinity, end: -Infinity }], byVersion: new Map() };
}

function seal(history) {
  history.writes.sort((a, b) => a.start - b.start);
  const { writes } = history;
  const firstEnding = new Int32Array(writes.length + 1);
  firstEnding[writes.length] = -1;
  for (let i = writes.length - 1; i >= 0; i -= 1) {
    const later = firstEnding[i + 1];
    firstEnding[i] = later >= 0 && writes[later].end < writes[i].end ? later : i;
  }
  history.firstEnding = firstEnding;
  history.latestStart = writes[writes.length - 1].start;
}

// Among the writes of the key that began after `time`, the one that completed first; null when there is none.
function firstCompletedAfter(history, time) {
  const { writes, firstEnding } = history;
  let low = 0;
  let high = writes.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (writes[mid].start > time) high = mid;
    else low = mid + 1;
  }
  return low === writes.length ? null : writes[firstEnding[low]];
}

// The writes of the key whose value is `got`: found by the version every write of the stream carries, the
// loaded document by comparison, absence among the loaded state and the deletes.
function writesOf(history, got) {
  if (got === ABSENT) return history.writes.filter((write) => write.value === ABSENT);
  if (!isDocument(got)) return [];
  const candidates = [...(history.byVersion.get(got.version) ?? []), history.writes.find((write) => write.index < 0)];
  return candidates.filter((write) => write.value !== ABSENT && documentDifference(write.value, got) === null);
}

function readProblem(history, got, start, end) {
  const matches = writesOf(history, got);
  if (matches.length === 0) return `returned ${describeValue(got)}, a value never written to this key`;
  for (const write of matches) {
    if (write.start > end) continue;
    const superseding = firstCompletedAfter(history, write.end);
    if (superseding === null || superseding.end >= start) return null;
  }
  const write = matches.find((candidate) => candidate.start <= end);
  if (!write) return `returned the value of ${describeWrite(matches[0])}, which began after the read ended`;
  const superseding = firstCompletedAfter(history, write.end);
  return `returned the stale value of ${describeWrite(write)}: ${describeWrite(superseding)} began after it `
    + `completed and completed before the read began, writing ${describeValue(superseding.value)}`;
}

// Whether the key exists throughout an interval: 'always' when every value a read over it may return is a
// document, 'never' when every one is absence, 'maybe' otherwise.
function presence(history, start, end) {
  let present = false;
  let absent = false;
  for (const write of history.writes) {
    if (write.start > end) break;
    const superseding = firstCompletedAfter(history, write.end);
    if (superseding !== null && superseding.end < start) continue;
    if (write.value === ABSENT) absent = true;
    else present = true;
  }
  if (present && !absent) return 'always';
  return present ? 'maybe' : 'never';
}

// What is wrong with a scan's answer, or null. `keys`: every key of the run (loaded or inserted), sorted.
function scanProblem({ histories, keys }, op, got, start, end) {
  if (!Array.isArray(got)) return `returned ${describeValue(got ?? ABSENT)}, not an array of documents`;
  if (got.length > op.limit) return `returned ${got.length} documents, more than its limit of ${op.limit}`;
  let previous = null;
  const returned = new Set();
  for (const doc of got) {
    const key = isDocument(doc) ? doc._key : undefined;
    if (typeof key !== 'string') return `returned ${describeValue(doc ?? ABSENT)}, not a document with a key`;
    if (key < op.key) return `returned ${key}, before its start key ${op.key}`;
    if (previous !== null && !(previous < key)) return `returned ${key} after ${previous}: the keys do not ascend`;
    previous = key;
    returned.add(key);
    const history = histories.get(key);
    if (!history) return `returned ${key}, a key never written: ${abbreviate(doc)}`;
    const problem = readProblem(history, doc, start, end);
    if (problem) return `${key}: ${problem}`;
  }
  const full = got.length === op.limit;
  for (let i = lowerBound(keys, op.key); i < keys.length; i += 1) {
    const key = keys[i];
    if (full && key > previous) break;
    if (!returned.has(key) && presence(histories.get(key), start, end) === 'always') {
      return `left out ${key}, which existed throughout the scan (${got.length} of at most ${op.limit} returned${previous === null ? '' : `, the last ${previous}`})`;
    }
  }
  return null;
}

function finalProblem(history, stored) {
  const last = history.writes.filter((write) => write.end >= history.latestStart);
  const got = stored ?? ABSENT;
  const allowed = last.some((write) => (write.value === ABSENT ? got === ABSENT
    : got !== ABSENT && documentDifference(write.value, got) === null));
  if (allowed) return null;
  const expected = last.map((write) => `${describeValue(write.value)} (${describeWrite(write)})`).join(' or ');
  return `holds ${describeValue(got)} at the end; one of its last writes left ${expected}`;
}

// `initial`: Map key -> document as loaded. `operations[i]`: { kind, key, doc } (doc for inserts, updates and
// read-modify-writes, each with a `version` no other write of the key has; a scan: { kind, key, limit }, its start
// key); `answers[i]` what it returned (a read-modify-write: what its read returned; a scan: its documents); `starts[i]`, `ends[i]` when it began and ended (one clock). `final`:
// the documents of the collection read back after the last operation. Returns the failures as { input, problem }.
export function consistencyFailures({ initial, operations, answers, starts, ends, final }) {
  const histories = new Map();
  const historyOf = (key) => {
    let history = histories.get(key);
    if (!history) {
      history = keyHistory(initial.get(key) ?? ABSENT);
      histories.set(key, history);
    }
    return history;
  };
  operations.forEach((op, index) => {
    if (op.kind === SCAN) return;
    const history = historyOf(op.key);
    if (op.kind === READ) return;
    // A read-modify-write's write carries its doc, as an update's.
    const value = op.kind === DELETE ? ABSENT : op.doc;
    const write = { index, kind: op.kind, value, start: starts[index], end: ends[index] };
    history.writes.push(write);
    if (value !== ABSENT) {
      const same = history.byVersion.get(value.version);
      if (same) same.push(write);
      else history.byVersion.set(value.version, [write]);
    }
  });
  for (const key of initial.keys()) historyOf(key);
  for (const history of histories.values()) seal(history);

  const failures = [];
  // Every key of the run in order, made once when the run scans.
  let scanned = null;
  operations.forEach((op, index) => {
    if (op.kind === SCAN) {
      scanned ??= { histories, keys: [...histories.keys()].sort() };
      const problem = scanProblem(scanned, op, answers[index], starts[index], ends[index]);
      if (problem) failures.push({ input: `operation ${index} (scan of ${op.limit} from ${op.key})`, problem });
      return;
    }
    if (op.kind !== READ && op.kind !== READ_MODIFY_WRITE) return;
    const problem = readProblem(histories.get(op.key), answers[index], starts[index], ends[index]);
    if (problem) failures.push({ input: `operation ${index} (${op.kind === READ ? 'get' : op.kind} ${op.key})`, problem });
  });

  if (!Array.isArray(final)) {
    failures.push({ input: 'the final collection', problem: `expected an array of documents, got ${abbreviate(final)}` });
    return failures;
  }
  const stored = new Map();
  for (const doc of final) {
    const key = isDocument(doc) && Object.hasOwn(doc, '_key') ? doc._key : undefined;
    if (!histories.has(key)) {
      failures.push({ input: String(key), problem: `a document that was never written: ${abbreviate(doc)}` });
    } else if (stored.has(key)) {
      failures.push({ input: key, problem: 'stored more than once' });
    } else {
      stored.set(key, doc);
    }
  }
  for (const [key, history] of histories) {
    const problem = finalProblem(history, stored.get(key));
    if (problem) failures.push({ input: key, problem });
  }
  return failures;
}
