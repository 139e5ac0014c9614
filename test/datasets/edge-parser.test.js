// The edge-list parser: separators, comments, two or three columns, and an error naming file and line for
// every kind of malformed input (or, with skipBad, a counted and skipped line).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EdgeParser } from '../../datasets/edge-parser.js';
import { createReadStats } from '../../datasets/read-source.js';

const FILE = 'edges.txt';

// Every edge of `text`, pushed in chunks of `chunk` bytes (all at once by default).
function parse(text, { chunk = Infinity, skipBad = false } = {}) {
  const stats = createReadStats();
  const parser = new EdgeParser(FILE, { skipBad, stats });
  const edges = [];
  const bytes = Buffer.from(text, 'latin1');
  for (let at = 0; at < bytes.length; at += Math.min(chunk, bytes.length)) {
    const count = parser.push(bytes.subarray(at, at + chunk));
    for (let i = 0; i < count; i += 1) {
      edges.push(parser.columns === 3 ? [parser.source[i], parser.target[i], parser.weight[i]] : [parser.source[i], parser.target[i]]);
    }
  }
  parser.end();
  return { edges, stats, columns: parser.columns };
}

test('tab, comma and runs of spaces separate columns, "\\r\\n" ends a line as "\\n" does', () => {
  const text = '1\t2\n3,4\r\n5   6\n7 8\r\n9\t10\t\n11 12  \n';
  const expected = [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10], [11, 12]];
  assert.deepEqual(parse(text).edges, expected);
  assert.equal(parse(text).columns, 2);
  assert.deepEqual(parse(text, { chunk: 1 }).edges, expected, 'the same one byte at a time');
});

test('three columns give weights, 0 and 2^31-1 included', () => {
  const { edges, columns, stats } = parse('1\t2\t0\n3,4,2147483647\n2147483647 1 7\n');
  assert.equal(columns, 3);
  assert.deepEqual(edges, [[1, 2, 0], [3, 4, 2147483647], [2147483647, 1, 7]]);
  assert.equal(stats.rows, 3);
});

test('lines starting with "#" or "%" are comments, counted, wherever they are', () => {
  const text = '# FromNodeId\tToNodeId\n%%MatrixMarket\n1\t2\n# middle\n3\t4\n% last, without a newline';
  const { edges, stats } = parse(text);
  assert.deepEqual(edges, [[1, 2], [3, 4]]);
  assert.equal(stats.comments, 4);
  assert.deepEqual(parse(text, { chunk: 3 }).edges, edges);
});

// Each malformed input, the line it names and the problem stated.
const BAD = [
  ['a missing column', '1\t2\n3\n', 2, 'missing target id: the line has one column'],
  ['an empty target column', '1,2\n3,\n', 2, 'missing target id: the line ends with a comma'],
  ['an empty weight column', '1,2,3\n3,4,\n', 2, 'missing weight: the line ends with a comma'],
  ['an empty column between two', '1\t\t2\n', 1, 'missing target id: an empty column'],
  ['a line starting with a separator', '1\t2\n\t3\t4\n', 2, 'missing source id: the line starts with a tab'],
  ['an empty line', '1\t2\n\n3\t4\n', 2, 'empty line'],
  ['a non-numeric source id', '1\t2\nx7\t3\n', 2, 'non-numeric source id: unexpected "x"'],
  ['a non-numeric target id', '1\t2\n7\t3a\n', 2, 'non-numeric target id: unexpected "a"'],
  ['a negative id', '1\t2\n7\t-3\n', 2, 'negative target id; ids start at 1'],
  ['source id 0', '1\t2\n0\t3\n', 2, 'source id 0; ids start at 1'],
  ['target id 0', '1\t2\n3\t0\n', 2, 'target id 0; ids start at 1'],
  ['an id too large', '1\t2\n2147483648\t3\n', 2, 'source id too large (over 2147483647)'],
  ['a negative weight', '1\t2\t3\n4\t5\t-1\n', 2, 'negative weight; weights are 0..2147483647'],
  ['a non-numeric weight', '1\t2\t3\n4\t5\t1.5\n', 2, 'non-numeric weight: unexpected "."'],
  ['a weight too large', '1\t2\t3\n4\t5\t99999999999\n', 2, 'weight too large (over 2147483647)'],
  ['too many columns', '1\t2\t3\n4\t5\t6\t7\n', 2, 'too many columns: expected two or three'],
  ['a trailing comma after three columns', '1,2,3,\n', 1, 'too many columns: expected two or three, found a comma after the third'],
  ['two columns after three', '# header\n1\t2\t3\n4\t5\n', 3, 'expected 3 columns like line 2, found 2'],
  ['three columns after two', '1\t2\n4\t5\t6\n', 2, 'expected 2 columns like line 1, found 3'],
  ['two separator kinds on a line', '1\t2\n4,5\t6\n', 2, 'a tab after a comma: one separator kind per line'],
  ['a carriage return inside a line', '1\t2\n4\r5\n', 2, 'a carriage return inside a line'],
  ['a last line without newline', '1\t2\n3\t4', 2, 'the last line has no newline: the file looks truncated'],
];

for (const [kind, text, line, problem] of BAD) {
  test(`${kind} is an error naming file and line`, () => {
    assert.throws(() => parse(text), (error) => {
      assert.equal(error.code, 'E_DATASET');
      assert.equal(error.message, `${FILE}:${line}: ${problem}`);
      return true;
    });
  });
}

test('with skipBad every malformed line is counted and skipped, the first ten kept as examples', () => {
  const bad = ['3', '3,', '1\t\t2', '\t3\t4', '', 'x7\t3\t1', '7\t-3\t1', '0\t3\t1', '2147483648\t3\t1',
    '4\t5\t-1', '4\t5\t1.5', '4\t5\t6\t7', '4\t5', '4,5\t6', '4\r5'];
  const text = `1\t2\t5\n${bad.map((line) => `${line}\n`).join('')}1\t2\t5\n`;
  const { edges, stats } = parse(text, { skipBad: true });
  assert.deepEqual(edges, [[1, 2, 5], [1, 2, 5]]);
  assert.equal(stats.rows, 2);
  assert.equal(stats.skippedLines, bad.length);
  assert.equal(stats.skipped.length, 10);
  assert.deepEqual(stats.skipped[0], { line: 2, problem: 'missing target id: the line has one column' });
  assert.deepEqual(stats.skipped[4], { line: 6, problem: 'empty line' });
  assert.deepEqual(parse(text, { skipBad: true, chunk: 2 }).stats, stats, 'the same two bytes at a time');
});

test('a truncated last line with skipBad is skipped too', () => {
  const { edges, stats } = parse('1\t2\n3\t', { skipBad: true });
  assert.deepEqual(edges, [[1, 2]]);
  assert.deepEqual(stats.skipped, [{ line: 2, problem: 'the last line has no newline: the file looks truncated' }]);
});

test('a file without an edge is an error, even with skipBad', () => {
  for (const text of ['', '# only a comment\n', 'x\ty\n']) {
    assert.throws(() => parse(text, { skipBad: true }), (error) => {
      assert.equal(error.code, 'E_DATASET');
      assert.equal(error.message, `${FILE}: holds no edge`);
      return true;
    });
  }
});

test('any input gives the same edges, counts and problems whole or split anywhere into chunks', () => {
  const pieces = ['1', '2', '0', '9', '\t', ',', ' ', '\n', '\r', '#', '%', '-', 'x', '3\t4\n', '5,6,7\n', '2147483647', '2147483648'];
  let state = 7;
  const next = (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % n;
  };
  const outcome = (text, chunk) => {
    try {
      const { edges, stats } = parse(text, { chunk, skipBad: true });
      return { edges, stats };
    } catch (error) {
      return error.message;
    }
  };
  for (let round = 0; round < 3000; round += 1) {
    const text = Array.from({ length: next(30) }, () => pieces[next(pieces.length)]).join('');
    assert.deepEqual(outcome(text, 1 + next(8)), outcome(text, Infinity), JSON.stringify(text));
  }
});
