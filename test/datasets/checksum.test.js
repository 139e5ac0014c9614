// A dataset file changed after its dataset was prepared, one byte with its size kept, as the real command
// meets it: the import that reads it fails with exit code 1 and says what to do, and a later run does not take
// the unfinished import for a finished one. Kept apart from test/import.test.js, which spawns no CLI.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { spawnBench } from '../helpers/cli.js';

function sha256Of(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

test('a dataset file changed with its size kept fails the import with exit 1, and is never taken as imported', async (t) => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'bench-import-cli-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const env = { BENCH_CACHE_DIR: path.join(work, 'cache') };
  const bench = (args) => spawnBench([...args, '--scale', 'tiny', '--out', path.join(work, 'results')], { cwd: work, env });

  const imported = await bench(['import', '--json']);
  assert.equal(imported.code, 0, imported.stderr);
  const dir = path.join(work, 'cache', 'datasets', 'synthetic-tiny-s1');
  const profiles = path.join(dir, 'soc-pokec-profiles.txt');
  const relations = path.join(dir, 'soc-pokec-relationships.txt');
  assert.deepEqual(JSON.parse(imported.stdout).dataset.sha256, { profiles: sha256Of(profiles), relations: sha256Of(relations) });

  // The first profile's `public` (0 or 1) flipped: the file still parses, with the same size and counts.
  const bytes = readFileSync(profiles);
  const at = bytes.indexOf(0x09) + 1;
  bytes[at] = bytes[at] === 0x30 ? 0x31 : 0x30;
  const before = sha256Of(profiles);
  writeFileSync(profiles, bytes);
  const after = sha256Of(profiles);

  const failed = await bench(['run', '--runs', '1', '--workload', 'aggregation', '--reimport']);
  assert.equal(failed.code, 1, failed.stderr);
  // A long error is one short line with its detail on indented lines below: read as one text.
  const message = failed.stderr.replace(/\n\s+/g, ' ');
  assert.ok(message.includes(`${profiles}: the file read hashes to sha256 ${after}, but the dataset's manifest records ${before}`),
    failed.stderr);
  assert.ok(message.includes(`delete ${dir} to prepare the dataset again`), failed.stderr);

  const again = await bench(['run', '--runs', '1', '--workload', 'aggregation']);
  assert.equal(again.code, 1, 'the unfinished import is not reused');
  assert.match(again.stderr, /not reusing the data in the namespace \(its last import did not finish\); importing again/);
  assert.ok(again.stderr.includes(after), again.stderr);
});
