// The relation parser on its own (datasets/relation-parser.js): the exact problem it names for each kind of bad
// line, the line it names, the bounds of an id, what skipBad counts, and lines cut across the chunks a file is
// read in. The readers' tests (read-quirks.test.js) cover the same parser through files.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RelationParser } from '../../datasets/relation-parser.js';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { createReadStats, readError } from '../../datasets/read-source.js';

const FILE = 'relations.txt';

// Every pair of `text`, pushed in chunks of `chunk` bytes, then end(); with the stats.
function parse(text, { skipBad = false, chunk = Infinity } = {}) {
  const stats = createReadStats();
  const parser = new RelationParser(FILE, { skipBad, stats });
  const bytes = Buffer.from(text);
  const pairs = [];
  for (let at = 0; at < bytes.length; at += chunk) {
    const count = parser.push(bytes.subarray(at, Math.min(bytes.length, at + chunk)));
    for (let i = 0; i < count; i += 1) pairs.push([parser.from[i], parser.to[i]]);
  }
  parser.end();
  return { pairs, stats };
}

// The problem named for the one bad line of `text` (line 2), as an error and as a skipped line.
function problemOf(text) {
  let thrown;
  try {
    parse(text);
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof BenchError, `no error for ${JSON.stringify(text)}`);
  assert.equal(thrown.code, ErrorCodes.DATASET);
  const { pairs, stats } = parse(text, { skipBad: true });
  assert.equal(stats.skippedLines, 1);
  assert.equal(stats.skipped[0].line, 2);
  assert.equal(thrown.message, `${FILE}:2: ${stats.skipped[0].problem}`);
  return { problem: stats.skipped[0].problem, pairs, stats };
}

test('each kind of bad line is named exactly, with its line; with skipBad the good lines around it are kept', () => {
  const cases = [
    ['1\t2\n\n3\t4\n', 'empty line'],
    ['1\t2\n5\n3\t4\n', 'expected two tab-separated ids, found one'],
    ['1\t2\n5\t6\t7\n3\t4\n', 'expected two tab-separated ids, found more'],
    ['1\t2\n5\t6\t\t\n3\t4\n', 'expected two tab-separated ids, found more'],
    ['1\t2\n5\t\t6\n3\t4\n', 'expected two tab-separated ids, found more'],
    ['1\t2\n5\t\t\n3\t4\n', 'expected two tab-separated ids, found more'],
    ['1\t2\n\t6\n3\t4\n', 'missing source id'],
    ['1\t2\n0\t6\n3\t4\n', 'source id 0; ids start at 1'],
    ['1\t2\n00\t6\n3\t4\n', 'source id 0; ids start at 1'],
    ['1\t2\n5\t\n3\t4\n', 'missing target id'],
    ['1\t2\n5\t0\n3\t4\n', 'target id 0; ids start at 1'],
    ['1\t2\n5\t0\t\n3\t4\n', 'target id 0; ids start at 1'],
    ['1\t2\n2147483648\t6\n3\t4\n', 'id too large (source)'],
    ['1\t2\n5\t2147483648\n3\t4\n', 'id too large (target)'],
    ['1\t2\n5\tx\n3\t4\n', 'unexpected character "x" in an id'],
    ['1\t2\n5 6\n3\t4\n', 'unexpected character " " in an id'],
    ['1\t2\n5\t6#\n3\t4\n', 'unexpected character "#" in an id'],
    ['1\t2\n5\t#\n3\t4\n', 'unexpected character "#" in an id'],
    ['1\t2\n5#\t6\n3\t4\n', 'unexpected character "#" in an id'],
    ['1\t2\n/\t6\n3\t4\n', 'unexpected character "/" in an id'],
    ['1\t2\n:\t6\n3\t4\n', 'unexpected character ":" in an id'],
  ];
  for (const [text, expected] of cases) {
    const { problem, pairs, stats } = problemOf(text);
    assert.equal(problem, expected, JSON.stringify(text));
    assert.deepEqual(pairs, [[1, 2], [3, 4]], JSON.stringify(text));
    assert.equal(stats.rows, 2);
    assert.equal(stats.comments, 0, `a skipped line is not a comment: ${JSON.stringify(text)}`);
  }
});

test('ids: every digit, up to 2^31 - 1; a trailing tab and a "#" line are fine', () => {
  const { pairs, stats } = parse('# a comment\n9\t2147483647\n1234567890\t9876543\t\n2147483647\t1\n#\n');
  assert.deepEqual(pairs, [[9, 2147483647], [1234567890, 9876543], [2147483647, 1]]);
  assert.deepEqual(stats, { rows: 3, repairedLines: 0, skippedLines: 0, skipped: [], comments: 2 });
});

test('without options a bad line throws; a skipped first line is not counted as a comment', () => {
  const parser = new RelationParser(FILE);
  assert.throws(() => parser.push(Buffer.from('x\t1\n')), /relations\.txt:1: unexpected character "x" in an id/);
  const { stats } = parse('x\t1\n1\t2\n', { skipBad: true });
  assert.equal(stats.comments, 0);
  assert.equal(stats.skippedLines, 1);
  // After a comment, a skipped line is not one.
  const after = parse('# c\nx\n1\t2\n', { skipBad: true }).stats;
  assert.equal(after.comments, 1);
  assert.equal(after.skippedLines, 1);
});

test('a comment on the last line without a newline is counted; a truncated last line is an error', () => {
  assert.equal(parse('1\t2\n# end').stats.comments, 1);
  assert.equal(parse('1\t2\n').stats.comments, 0);
  for (const text of ['1\t2\n3', '1\t2\n3\t', '1\t2\n3\t4']) {
    assert.throws(() => parse(text), (error) => error.message === `${FILE}:2: the last line has no newline: the file looks truncated`, text);
  }
  // A bad last line without a newline is named once, for what is wrong with it.
  const { stats } = parse('1\t2\nx', { skipBad: true });
  assert.deepEqual(stats.skipped.map(({ problem }) => problem), ['unexpected character "x" in an id']);
  assert.equal(stats.comments, 0);
});

test('lines cut anywhere across chunks give the same pairs, counts and errors', () => {
  const text = '# c\n12\t34\n5\t6\t\n7890\t1\n#\n22\t33\n';
  const whole = parse(text);
  for (const chunk of [1, 2, 3, 5, 7]) assert.deepEqual(parse(text, { chunk }), whole, `chunks of ${chunk}`);
  for (const chunk of [1, 3]) {
    assert.throws(() => parse('1\t2\n34\t0\n', { chunk }), /:2: target id 0; ids start at 1/);
  }
});

test('readError keeps the original error as the cause, and leaves a BenchError as it is', () => {
  const original = new Error('EACCES: permission denied');
  const wrapped = readError(FILE, original);
  assert.equal(wrapped.code, ErrorCodes.DATASET);
  assert.equal(wrapped.message, `${FILE}: EACCES: permission denied`);
  assert.equal(wrapped.cause, original);
  const bench = new BenchError(ErrorCodes.DATASET, 'x');
  assert.equal(readError(FILE, bench), bench);
});
