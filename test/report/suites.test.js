// Results of different suites are never reported or compared together, whatever the flags; a report names the
// suite of its results (a document from before suites is the social suite's).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildComparison } from '../../results/compare.js';
import { buildReport } from '../../results/report/index.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/results/', import.meta.url));

function load(dir, prefix) {
  const name = readdirSync(path.join(FIXTURES, dir)).find((file) => file.startsWith(prefix));
  return { file: path.join(dir, name), result: JSON.parse(readFileSync(path.join(FIXTURES, dir, name), 'utf8')) };
}

const social = load('suite', 'memory-');
const asCrud = (document, file) => ({ file, result: { ...document.result, suite: 'crud' } });

test('a report names its suite; a document without one is the social suite\'s', () => {
  assert.equal(social.result.suite, undefined);
  assert.equal(buildReport([social]).suite, 'social');
  assert.equal(buildReport([asCrud(social, 'crud.json')]).suite, 'crud');
});

test('results of two suites are refused, also with --allow-mixed, naming each suite\'s files', () => {
  for (const allowMixed of [false, true]) {
    assert.throws(() => buildReport([social, asCrud(social, 'crud.json')], { allowMixed }), (error) => {
      assert.equal(error.code, 'E_MIXED_SUITES');
      const [first, ...rest] = error.message.split('\n');
      assert.equal(first, 'the results are of 2 different suites: social, crud');
      assert.ok(rest.includes('  crud:') && rest.includes('    crud.json') && rest.includes(`    ${social.file}`), error.message);
      return true;
    });
  }
});

test('bench compare refuses two sides of different suites', () => {
  assert.throws(() => buildComparison([social], [asCrud(social, 'crud.json')]), { code: 'E_MIXED_SUITES' });
});
