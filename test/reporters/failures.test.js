import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const reporter = fileURLToPath(new URL('./failures.js', import.meta.url));

function runWith(source) {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-reporter-'));
  try {
    const file = path.join(dir, 'subject.test.js');
    writeFileSync(file, source);
    const run = spawnSync(process.execPath, ['--test', `--test-reporter=${reporter}`, '--test-reporter-destination=stdout', file],
      // Without the variable that makes a test file run by `node --test` report to its parent instead.
      { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_TEST_CONTEXT: undefined } });
    return { ...run, file };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the failures reporter repeats each failed test at the end: its name, file and line, its error without node\'s own frames', () => {
  const run = runWith([
    "import test from 'node:test';",
    "import assert from 'node:assert/strict';",
    "test('passes', () => {});",
    "test('a group', async (t) => { await t.test('an inner check', () => assert.equal(1, 2)); });",
    "test('a throw', () => { throw new Error('a reason of its own'); });",
    '',
  ].join('\n'));
  assert.equal(run.status, 1);
  const out = run.stdout;
  assert.match(out, /^\n# 2 failed tests, repeated here:\n/);
  assert.ok(out.includes(`# 1. an inner check\n#    ${run.file}:4\n#    AssertionError`), out);
  assert.ok(out.includes('#    1 !== 2'), out);
  assert.ok(out.includes(`# 2. a throw\n#    ${run.file}:5\n#    Error: a reason of its own`), out);
  // The group failed only because its subtest did: it is not repeated.
  assert.ok(!out.includes('a group'), out);
  assert.ok(!out.includes('passes'), out);
  assert.ok(!/\(node:/.test(out), out);
  assert.match(out, /at TestContext\.<anonymous> \(file:\/\/.*subject\.test\.js:5:/);
});

test('the failures reporter says nothing when every test passed; one failure is named in the singular', () => {
  const passing = runWith("import test from 'node:test';\ntest('passes', () => {});\n");
  assert.equal(passing.status, 0);
  assert.equal(passing.stdout, '');
  const one = runWith("import test from 'node:test';\ntest('fails', () => { throw 'not an Error'; });\n");
  assert.equal(one.status, 1);
  assert.match(one.stdout, /^\n# 1 failed test, repeated here:\n\n# 1\. fails\n/);
  assert.ok(one.stdout.includes("#    'not an Error'"), one.stdout);
});

test('npm test runs the failures reporter beside TAP on stdout', { timeout: 60_000 }, () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  assert.equal(pkg.scripts.test, 'node test/run.js');
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const run = spawnSync(process.execPath, ['test/run.js', 'test/fixtures/watchdog/fails.js'],
    { cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_TEST_CONTEXT: undefined } });
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stdout, /^TAP version 13$/m);
  assert.match(run.stdout, /^not ok 1 - fails$/m);
  assert.match(run.stdout, /^# 1 failed test, repeated here:\n\n# 1\. fails\n/m);
});
