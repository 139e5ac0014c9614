// --dataset pokec: tiny files in the real layout (<cache>/datasets/pokec/*.txt.gz) with the real files'
// quirks, prepared into a dataset and run through the real CLI.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import memory from '../../adapters/memory/description.js';
import { importDataset } from '../../import/import.js';
import { WORKLOAD_NAMES } from '../../workloads/social/workloads.js';
import { prepareDataset } from '../../datasets/dataset.js';
import { FETCH_MANIFEST, POKEC_PROFILES_GZ, POKEC_RELATIONS_GZ, pokecDir } from '../../datasets/fetch.js';
import { PROFILES_FILE, RELATIONS_FILE, generate } from '../../datasets/generate.js';
import { hasEdge } from '../../datasets/graph.js';

const BIN = fileURLToPath(new URL('../../bin/bench.js', import.meta.url));
// Missing from the profile file: relations naming it are dropped, and no parameter may draw it.
const MISSING_ID = 7;
const REPAIRED_IDS = [3, 500, 999];
const DUPLICATED_LINES = 25;
const DANGLING = ['2\t5000\n', '5000\t2\n'];

async function tempDir(t) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'db-shootout-pokec-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

// A tiny generated Pokec rewritten into the real layout, gzip'd, with invalid UTF-8 in three profiles, one
// profile missing, duplicated relation lines and relations naming an id that holds no profile.
async function pokecFixture(cacheDir, { extraProfileLine = null } = {}) {
  const source = path.join(cacheDir, 'generated');
  await generate({ dir: source, scale: 'tiny', seed: 9 });
  const profileLines = (await readFile(path.join(source, PROFILES_FILE), 'latin1')).split('\n').slice(0, -1);
  const profiles = [];
  for (const line of profileLines) {
    const id = Number(line.slice(0, line.indexOf('\t')));
    if (id === MISSING_ID) continue;
    const bytes = Buffer.from(`${line}\n`, 'latin1');
    // The invalid byte replaces the "n" of the first "null" text field after the eight structured columns.
    if (REPAIRED_IDS.includes(id)) {
      const tabs = [];
      for (let i = 0; i < bytes.length; i += 1) if (bytes[i] === 0x09) tabs.push(i);
      bytes[tabs[7] + 1] = 0xff;
    }
    profiles.push(bytes);
  }
  if (extraProfileLine) profiles.splice(10, 0, Buffer.from(extraProfileLine));
  const relationLines = (await readFile(path.join(source, RELATIONS_FILE), 'latin1')).split('\n').slice(0, -1);
  const relations = [...relationLines, ...relationLines.slice(100, 100 + DUPLICATED_LINES)].map((line) => `${line}\n`);
  relations.splice(50, 0, ...DANGLING);
  const dir = pokecDir(cacheDir);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, POKEC_PROFILES_GZ), gzipSync(Buffer.concat(profiles)));
  await writeFile(path.join(dir, POKEC_RELATIONS_GZ), gzipSync(relations.join('')));
  await rm(source, { recursive: true });
  const touchingMissing = relationLines.filter((line) => line.split('\t').map(Number).includes(MISSING_ID)).length;
  return { relationLines: relationLines.length, touchingMissing };
}

test('the real files are prepared into a dataset with the same artefacts, and what was dropped is counted', async (t) => {
  const cacheDir = await tempDir(t);
  const { relationLines, touchingMissing } = await pokecFixture(cacheDir);
  const dataset = await prepareDataset({ dataset: 'pokec', scale: 'tiny', seed: 1, cacheDir });
  assert.equal(dataset.name, 'pokec');
  assert.equal(dataset.dir, path.join(cacheDir, 'datasets', 'pokec-tiny-s1'));
  assert.match(dataset.id, /^pokec-tiny-s1-p\d+-[0-9a-f]{16}$/);
  assert.equal(dataset.files.profiles, path.join(pokecDir(cacheDir), POKEC_PROFILES_GZ));
  assert.equal(dataset.profiles, 999);
  assert.equal(dataset.relations, relationLines - touchingMissing);
  assert.deepEqual(dataset.readOptions, { skipBad: false });
  assert.equal(dataset.readStats.profiles.repairedLines, REPAIRED_IDS.length);
  assert.equal(dataset.readStats.profiles.rows, 999);
  assert.equal(dataset.readStats.relations.rows, relationLines + DUPLICATED_LINES + DANGLING.length);
  assert.deepEqual(dataset.readStats.relationsDropped, {
    withoutProfile: touchingMissing + DANGLING.length, duplicates: DUPLICATED_LINES,
  });

  const { params, reference } = dataset;
  const drawn = [...params.readIds, ...params.warmupIds, ...params.writeIds, ...params.pathPairs.flat(), ...params.hardPair];
  assert.ok(!drawn.includes(MISSING_ID));
  assert.equal(Object.values(reference.ageHistogram).reduce((sum, count) => sum + count, 0), 999);
  const g = await dataset.loadGraph();
  params.neighborStarts.forEach((id, i) => {
    for (const neighbor of reference.neighbors[i]) assert.ok(hasEdge(g, id, neighbor));
  });
  const [repaired] = (await dataset.loadProfiles([REPAIRED_IDS[0]])).values();
  assert.equal(repaired.body, '\uFFFDull');
  const lines = (await readFile(dataset.files.relations, 'utf8')).split('\n').length - 1;
  assert.equal(lines, dataset.relations, 'the relation file the databases import holds exactly the dataset\'s relations');

  const events = [];
  const again = await prepareDataset({ dataset: 'pokec', scale: 'tiny', seed: 1, cacheDir, onProgress: (event) => events.push(event) });
  assert.deepEqual(events, [], 'a prepared dataset is reused');
  assert.equal(again.id, dataset.id);
  assert.deepEqual(again.readStats, dataset.readStats);
});

// The gzip header's OS byte: changing it changes the file's sha256, not its size nor what it unpacks to.
const GZIP_OS_BYTE = 9;

test('the import hashes a .gz file as stored, and a download changed since its fetch fails it with the fetch command', async (t) => {
  const cacheDir = await tempDir(t);
  await pokecFixture(cacheDir);
  const sourceDir = pokecDir(cacheDir);
  const stored = async (name) => createHash('sha256').update(await readFile(path.join(sourceDir, name))).digest('hex');
  // As `bench data fetch pokec` records the files it checked.
  const files = {};
  for (const name of [POKEC_PROFILES_GZ, POKEC_RELATIONS_GZ]) {
    const bytes = await readFile(path.join(sourceDir, name));
    files[name] = { url: `https://example.org/${name}`, bytes: bytes.length, sha256: await stored(name) };
  }
  await writeFile(path.join(sourceDir, FETCH_MANIFEST), JSON.stringify({ files }));
  const dataset = await prepareDataset({ dataset: 'pokec', scale: 'tiny', seed: 1, cacheDir });
  const adapter = memory.create({ namespace: `pokec_test_${process.pid}`, concurrency: 1 });
  await adapter.connect();
  const imported = await importDataset({ adapter, description: memory, options: {}, dataset, force: true });
  assert.equal(imported.sha256.profiles, await stored(POKEC_PROFILES_GZ), 'the compressed bytes, as the manifest records');

  const profiles = path.join(sourceDir, POKEC_PROFILES_GZ);
  const bytes = await readFile(profiles);
  bytes[GZIP_OS_BYTE] ^= 1;
  await writeFile(profiles, bytes);
  const changed = await prepareDataset({ dataset: 'pokec', scale: 'tiny', seed: 1, cacheDir });
  assert.equal(changed.id, dataset.id, 'the size matches the fetch record, so the file is not hashed before the import');
  await assert.rejects(importDataset({ adapter, description: memory, options: {}, dataset: changed, force: true }), (error) => {
    assert.equal(error.code, 'E_DATASET');
    assert.ok(error.message.startsWith(`${profiles}: the file read hashes to sha256 ${createHash('sha256').update(bytes).digest('hex')}, `
      + `but the dataset's manifest records ${files[POKEC_PROFILES_GZ].sha256}`), error.message);
    assert.match(error.message, /run `npx bench data fetch pokec`, which deletes a download that no longer matches/);
    return true;
  });
});

test('without the files, --dataset pokec says to run bench data fetch pokec', async (t) => {
  const cacheDir = await tempDir(t);
  await assert.rejects(prepareDataset({ dataset: 'pokec', scale: 'tiny', cacheDir }), (error) => {
    assert.equal(error.code, 'E_DATASET');
    assert.match(error.message, /the real Pokec files are not in .*: run `bench data fetch pokec`/);
    return true;
  });
  await assert.rejects(prepareDataset({ dataset: 'nope', scale: 'tiny', cacheDir }), { code: 'E_USAGE' });
});

test('a malformed line stops the preparation with its file and line, unless skipBad counts and skips it', async (t) => {
  const cacheDir = await tempDir(t);
  await pokecFixture(cacheDir, { extraProfileLine: 'x1\tnull\t\n' });
  const file = path.join(pokecDir(cacheDir), POKEC_PROFILES_GZ);
  await assert.rejects(prepareDataset({ dataset: 'pokec', scale: 'tiny', cacheDir }),
    { code: 'E_DATASET', message: `${file}:11: expected 59 tab-separated columns and a trailing tab, found 2 columns and a trailing tab` });
  const dataset = await prepareDataset({ dataset: 'pokec', scale: 'tiny', cacheDir, skipBad: true });
  assert.equal(dataset.dir, path.join(cacheDir, 'datasets', 'pokec-tiny-s1-skip-bad'));
  assert.equal(dataset.profiles, 999);
  assert.deepEqual(dataset.readOptions, { skipBad: true });
  assert.equal(dataset.readStats.profiles.skippedLines, 1);
  assert.equal(dataset.readStats.profiles.skipped[0].line, 11);
  assert.equal((await dataset.loadProfiles(null)).size, 999);
});

function bench(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`bench ${args.join(' ')} timed out\n${stderr}`)); }, 180_000);
    child.on('exit', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

test('bench run --dataset pokec validates every workload on the real layout', async (t) => {
  const cacheDir = await tempDir(t);
  const { relationLines, touchingMissing } = await pokecFixture(cacheDir);
  const out = path.join(cacheDir, 'results');
  const { code, stdout, stderr } = await bench(['run', '--db', 'sqlite', '--dataset', 'pokec', '--scale', 'tiny',
    '--cache-dir', cacheDir, '--runs', '1', '--json', '--quiet', '--out', out]);
  assert.equal(code, 0, stderr);
  const result = JSON.parse(stdout);
  assert.equal(result.dataset.name, 'pokec');
  assert.equal(result.dataset.profiles, 999);
  assert.equal(result.dataset.relations, relationLines - touchingMissing);
  assert.deepEqual(Object.keys(result.workloads), WORKLOAD_NAMES);
  for (const [name, workload] of Object.entries(result.workloads)) {
    assert.equal(workload.status, 'passed', `${name}: ${JSON.stringify(workload.failures)}`);
  }
  assert.equal((await readdir(out)).length, 1);
});

test('bench import --dataset pokec --skip-bad imports past a malformed line and records what it skipped and repaired', async (t) => {
  const cacheDir = await tempDir(t);
  await pokecFixture(cacheDir, { extraProfileLine: 'x1\tnull\t\n' });
  const out = path.join(cacheDir, 'results');
  const args = ['import', '--db', 'sqlite', '--dataset', 'pokec', '--scale', 'tiny', '--cache-dir', cacheDir, '--json', '--quiet', '--out', out];
  const stopped = await bench(args);
  assert.equal(stopped.code, 1);
  assert.match(stopped.stderr, /soc-pokec-profiles\.txt\.gz:11: expected 59 tab-separated columns/);
  const { code, stdout, stderr } = await bench([...args, '--skip-bad']);
  assert.equal(code, 0, stderr);
  const result = JSON.parse(stdout);
  assert.equal(result.import.reused, false);
  assert.deepEqual(result.import.read, {
    profiles: { repairedLines: REPAIRED_IDS.length, skippedLines: 1 },
    relations: { repairedLines: 0, skippedLines: 0 },
  });
  assert.equal(result.dataset.profiles, 999);
  assert.equal(result.dataset.readStats.profiles.skippedLines, 1);
  assert.equal(result.dataset.readStats.profiles.repairedLines, REPAIRED_IDS.length);
});

test('bench run --dataset pokec without the files exits with 1 and names the fetch command', async (t) => {
  const cacheDir = await tempDir(t);
  const { code, stderr } = await bench(['run', '--dataset', 'pokec', '--cache-dir', cacheDir, '--quiet']);
  assert.equal(code, 1);
  assert.match(stderr.replace(/\n\s+/g, ' '), /^error: the real Pokec files are not in .*run `bench data fetch pokec`/m);
});

test('bench data fetch pokec without a network exits with 1 and says so', async (t) => {
  const cacheDir = await tempDir(t);
  const { code, stderr } = await bench(['data', 'fetch', 'pokec', '--cache-dir', cacheDir, '--quiet'],
    { BENCH_POKEC_URL: 'http://no-such-host.invalid/data/' });
  assert.equal(code, 1);
  assert.match(stderr, /^error: cannot download http:\/\/no-such-host\.invalid\/data\/soc-pokec-profiles\.txt\.gz: .*\(no network\?\)$/m);
});
