// The graph suite's edge datasets: every source normalised into edges.tsv (sorted, each pair once, no
// self-loop), weights derived or read, the prepared directory reused, and cit-Patents fetched like Pokec.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { EDGE_DATASETS, derivedWeight, parseFloor, prepareEdges } from '../../datasets/edges.js';
import { CIT_PATENTS_GZ, FETCH_MANIFEST, POKEC_PROFILES_GZ, POKEC_RELATIONS_GZ, SNAP_DATASET_NAMES, fetchSnap, pokecDir, snapBaseUrl, snapDir } from '../../datasets/fetch.js';
import { PROFILES_FILE, RELATIONS_FILE, generate } from '../../datasets/generate.js';
import { BenchError, ErrorCodes } from '../../core/errors.js';

const BIN = fileURLToPath(new URL('../../bin/bench.js', import.meta.url));
const SEED = 1;

async function tempDir(t) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'db-shootout-edges-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

// What edges.tsv must hold for edge lines `lines` ([source, target] or [source, target, weight]), computed
// the plain way: self-loops out, the first of each pair kept, sorted by source then target.
function expectedEdges(lines, seed = SEED) {
  const kept = new Map();
  for (const [s, t, w] of lines) {
    const key = `${s},${t}`;
    if (s !== t && !kept.has(key)) kept.set(key, [s, t, w ?? derivedWeight(s, t, seed)]);
  }
  return [...kept.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

const tsv = (edges) => edges.map((edge) => `${edge.join('\t')}\n`).join('');

// A random edge list with duplicates (of other weights), self-loops and one vertex of very high degree.
function randomLines(count, { weights = false, maxId = 500 } = {}) {
  let state = 12345;
  const next = (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return 1 + (state % n);
  };
  const lines = [];
  for (let i = 0; i < count; i += 1) {
    const s = i % 10 === 0 ? 7 : next(maxId);
    const line = [s, next(maxId)];
    if (weights) line.push(next(1_000_000) - 1);
    lines.push(line);
  }
  return lines;
}

async function edgesOf(dataset) {
  const text = await readFile(dataset.file, 'utf8');
  return text.split('\n').slice(0, -1).map((line) => line.split('\t').map(Number));
}

test('derivedWeight is deterministic, 1..1000, and depends on the pair, its direction and the seed', () => {
  const seen = new Set();
  for (let s = 1; s <= 300; s += 1) {
    for (let t = 1; t <= 100; t += 1) {
      const weight = derivedWeight(s, t, SEED);
      assert.ok(Number.isInteger(weight) && weight >= 1 && weight <= 1000, `${s} -> ${t}: ${weight}`);
      assert.equal(derivedWeight(s, t, SEED), weight);
      seen.add(weight);
    }
  }
  assert.equal(seen.size, 1000, 'every weight occurs among 30,000 pairs');
  const pairs = Array.from({ length: 100 }, (_, i) => [i + 1, 2 * i + 3]);
  const differ = (f) => pairs.filter(([s, t]) => derivedWeight(s, t, SEED) !== f(s, t)).length;
  assert.ok(differ((s, t) => derivedWeight(t, s, SEED)) > 90, 'the reverse edge has its own weight');
  assert.ok(differ((s, t) => derivedWeight(s, t, 2)) > 90, 'another seed gives other weights');
  assert.equal(derivedWeight(2147483647, 2147483646, 2147483647), derivedWeight(2147483647, 2147483646, 2147483647));
});

test('file: with two columns: sorted, each pair once, self-loops out, weights derived, all counted', async (t) => {
  const cacheDir = await tempDir(t);
  const file = path.join(cacheDir, 'messy.txt');
  const lines = [[5, 1], [2, 9], [5, 1], [3, 3], [2, 4], [9, 2], [2, 9], [7, 7], [1, 5]];
  const text = `# FromNodeId\tToNodeId\n${lines.map(([s, t], i) => `${s}${[' ', ',', '\t'][i % 3]}${t}${i % 2 ? '\r' : ''}\n`).join('')}`;
  await writeFile(file, text);
  const dataset = await prepareEdges({ dataset: `file:${file}`, cacheDir, seed: SEED });
  const expected = expectedEdges(lines);
  assert.equal(await readFile(dataset.file, 'utf8'), tsv(expected));
  assert.equal(dataset.dir, path.join(cacheDir, 'datasets', `graph-file-${sha256(text).slice(0, 8)}-s${SEED}`));
  assert.equal(dataset.name, 'file');
  assert.equal(dataset.edges, 5);
  assert.equal(dataset.vertices, 5);
  assert.equal(dataset.maxId, 9);
  assert.equal(dataset.weights, 'derived');
  assert.deepEqual(dataset.source, { path: file, sha256: sha256(text) });
  assert.deepEqual(dataset.readStats, {
    rows: 9, repairedLines: 0, skippedLines: 0, skipped: [], comments: 1, duplicates: 2, selfLoops: 2,
  });
  const tsvBytes = await readFile(dataset.file);
  assert.equal(dataset.bytes, tsvBytes.length);
  assert.equal(dataset.sha256, sha256(tsvBytes));
  const manifest = JSON.parse(await readFile(path.join(dataset.dir, 'manifest.json'), 'utf8'));
  assert.deepEqual(manifest.files.edges, { name: 'edges.tsv', bytes: tsvBytes.length, sha256: sha256(tsvBytes) });
  assert.deepEqual(manifest.source, { file, sha256: sha256(text) });
  assert.equal(manifest.id, dataset.id);
});

test('file: with three columns keeps the weights, of a repeated pair the first in the file', async (t) => {
  const cacheDir = await tempDir(t);
  const file = path.join(cacheDir, 'weighted.csv');
  const lines = [[3, 1, 10], [1, 9, 4], [1, 2, 0], [3, 1, 99], [1, 1, 5], [2, 3, 2147483647], [1, 2, 7]];
  await writeFile(file, lines.map((line) => `${line.join(',')}\n`).join(''));
  const dataset = await prepareEdges({ dataset: `file:${file}`, cacheDir });
  assert.deepEqual(await edgesOf(dataset), [[1, 2, 0], [1, 9, 4], [2, 3, 2147483647], [3, 1, 10]]);
  assert.equal(dataset.weights, 'file');
  assert.equal(dataset.readStats.duplicates, 2);
  assert.equal(dataset.readStats.selfLoops, 1);
});

test('many edges, rows long and short, weighted or not, match the plain computation; a .gz file reads the same', async (t) => {
  const cacheDir = await tempDir(t);
  for (const weights of [false, true]) {
    const lines = randomLines(60_000, { weights });
    const text = tsv(lines);
    const plain = path.join(cacheDir, `random-${weights}.tsv`);
    await writeFile(plain, text);
    await writeFile(`${plain}.gz`, gzipSync(text));
    const dataset = await prepareEdges({ dataset: `file:${plain}`, cacheDir });
    const expected = expectedEdges(lines);
    assert.deepEqual(await edgesOf(dataset), expected);
    assert.equal(dataset.readStats.duplicates + dataset.readStats.selfLoops + expected.length, lines.length);
    assert.ok(expected.filter(([s]) => s === 7).length > 400, 'vertex 7 has a long row');
    const gz = await prepareEdges({ dataset: `file:${plain}.gz`, cacheDir });
    assert.notEqual(gz.dir, dataset.dir);
    assert.equal(gz.sha256, dataset.sha256, 'the .gz file gives the same edges.tsv');
  }
});

test('ids spread up to 2^31-1 are sorted through their ranks', async (t) => {
  const cacheDir = await tempDir(t);
  const file = path.join(cacheDir, 'sparse.txt');
  const big = 2147483647;
  const lines = [[big, 5], [1_000_000_007, big], [5, big], [big, 5], [5, 1_000_000_007], [42, 42], [5, 3]];
  await writeFile(file, tsv(lines));
  const dataset = await prepareEdges({ dataset: `file:${file}`, cacheDir });
  assert.deepEqual(await edgesOf(dataset), expectedEdges(lines));
  assert.equal(dataset.maxId, big);
  assert.equal(dataset.vertices, 4);
});

// An edge dataset prepared from `count` random weighted lines, and its edges as edges.tsv holds them.
async function randomDataset(t, count) {
  const cacheDir = await tempDir(t);
  const file = path.join(cacheDir, 'random.tsv');
  await writeFile(file, tsv(randomLines(count, { weights: true })));
  const dataset = await prepareEdges({ dataset: `file:${file}`, cacheDir });
  return { dataset, lines: await edgesOf(dataset) };
}

test('loadEdges and readBatches give exactly the edges of edges.tsv, and parseFloor counts them', async (t) => {
  const { dataset, lines } = await randomDataset(t, 5000);
  const all = await dataset.loadEdges();
  assert.equal(all.length, lines.length);
  assert.deepEqual(Array.from({ length: all.length }, (_, i) => [all.source[i], all.target[i], all.weight[i]]), lines);

  const digest = {};
  const batched = [];
  const lengths = [];
  for await (const batch of dataset.readBatches({ batchSize: 777, digest })) {
    lengths.push(batch.length);
    assert.equal(batch.source.length, batch.length);
    for (let i = 0; i < batch.length; i += 1) batched.push([batch.source[i], batch.target[i], batch.weight[i]]);
  }
  assert.deepEqual(batched, lines);
  assert.ok(lengths.slice(0, -1).every((length) => length === 777));
  assert.equal(digest.sha256, dataset.sha256, 'the digest of the bytes as read');

  const floor = await parseFloor(dataset);
  assert.equal(floor.edges, lines.length);
  assert.ok(floor.ms > 0 && floor.edgesPerSec > 0);
  assert.deepEqual(floor.passMs, [floor.ms]);
  // Several passes: the fastest is the floor, every pass counted whole.
  const warm = await parseFloor(dataset, { passes: 3 });
  assert.equal(warm.edges, lines.length);
  assert.equal(warm.passMs.length, 3);
  assert.equal(warm.ms, Math.min(...warm.passMs));
});

test('readBatches: a caller that stops early ends the reader; a file that turns bad on the way is a dataset error naming it', async (t) => {
  const { dataset, lines } = await randomDataset(t, 3000);
  const taken = [];
  for await (const batch of dataset.readBatches({ batchSize: 100 })) {
    taken.push([batch.source[0], batch.target[0], batch.weight[0]]);
    if (taken.length === 2) break;
  }
  assert.deepEqual(taken, [lines[0], lines[100]]);

  // The same size, with a letter where an id was: the prepared file changed behind the manifest.
  const text = await readFile(dataset.file, 'utf8');
  await writeFile(dataset.file, `${text.slice(0, 2000)}x${text.slice(2001)}`);
  const bad = (async () => {
    let edges = 0;
    for await (const batch of dataset.readBatches({ batchSize: 100, digest: {} })) edges += batch.length;
    return edges;
  })();
  await assert.rejects(bad, (error) => error instanceof BenchError && error.code === ErrorCodes.DATASET
    && error.message.includes(dataset.file));
});

test('a prepared directory is reused; a changed edges.tsv is an error; a changed source is prepared again', async (t) => {
  const cacheDir = await tempDir(t);
  const file = path.join(cacheDir, 'edges.txt');
  await writeFile(file, '1\t2\n2\t3\n');
  const first = await prepareEdges({ dataset: `file:${file}`, cacheDir });
  const written = (await stat(first.file)).mtimeMs;
  const again = await prepareEdges({ dataset: `file:${file}`, cacheDir });
  assert.equal(again.id, first.id);
  assert.equal((await stat(again.file)).mtimeMs, written, 'edges.tsv was not written again');

  // The same directory with a manifest recording another source: prepared again in place.
  const manifestFile = path.join(first.dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
  await writeFile(manifestFile, JSON.stringify({ ...manifest, source: { ...manifest.source, sha256: '0'.repeat(64) } }));
  const redone = await prepareEdges({ dataset: `file:${file}`, cacheDir });
  assert.equal(redone.dir, first.dir);
  assert.equal(JSON.parse(await readFile(manifestFile, 'utf8')).source.sha256, first.source.sha256);

  await writeFile(first.file, '1\t2\t3\n');
  await assert.rejects(prepareEdges({ dataset: `file:${file}`, cacheDir }), (error) => {
    assert.equal(error.code, 'E_DATASET');
    assert.match(error.message, /edges\.tsv has 6 bytes where the edge dataset's manifest records \d+: .*delete .* to prepare it again/);
    return true;
  });

  await writeFile(file, '1\t2\n2\t3\n3\t1\n');
  const changed = await prepareEdges({ dataset: `file:${file}`, cacheDir });
  assert.notEqual(changed.dir, first.dir);
  assert.equal(changed.edges, 3);
});

test('a malformed line stops the preparation with file and line; with skipBad it is counted and skipped', async (t) => {
  const cacheDir = await tempDir(t);
  const file = path.join(cacheDir, 'bad.txt');
  await writeFile(file, '1\t2\n2\tx\n3\t-4\n3\t1\n');
  await assert.rejects(prepareEdges({ dataset: `file:${file}`, cacheDir }), (error) => {
    assert.equal(error.code, 'E_DATASET');
    assert.equal(error.message, `${file}:2: non-numeric target id: unexpected "x"`);
    return true;
  });
  assert.equal((await readdir(path.join(cacheDir, 'datasets'))).length, 1);
  const dataset = await prepareEdges({ dataset: `file:${file}`, cacheDir, skipBad: true });
  assert.match(dataset.dir, /-skip-bad$/);
  assert.match(dataset.id, /-skip-bad-/);
  assert.equal(dataset.edges, 2);
  assert.equal(dataset.readStats.skippedLines, 2);
  assert.deepEqual(dataset.readStats.skipped, [
    { line: 2, problem: 'non-numeric target id: unexpected "x"' },
    { line: 3, problem: 'negative target id; ids start at 1' },
  ]);
});

test('a missing file, an empty file and a file of self-loops are clear errors', async (t) => {
  const cacheDir = await tempDir(t);
  const missing = path.join(cacheDir, 'nothing.txt');
  await assert.rejects(prepareEdges({ dataset: `file:${missing}`, cacheDir }), (error) => {
    assert.equal(error.code, 'E_DATASET');
    assert.equal(error.message, `cannot read the edge file ${missing}: no such file`);
    return true;
  });
  const empty = path.join(cacheDir, 'empty.txt');
  await writeFile(empty, '');
  await assert.rejects(prepareEdges({ dataset: `file:${empty}`, cacheDir }), { code: 'E_DATASET', message: `${empty}: holds no edge` });
  const loops = path.join(cacheDir, 'loops.txt');
  await writeFile(loops, '1\t1\n2\t2\n');
  await assert.rejects(prepareEdges({ dataset: `file:${loops}`, cacheDir }), {
    code: 'E_DATASET', message: `${loops}: holds no edge (2 self-loops, which are left out)`,
  });
  await assert.rejects(prepareEdges({ dataset: 'karate', cacheDir }), (error) => {
    assert.equal(error.code, 'E_USAGE');
    assert.match(error.message, /valid: synthetic, pokec, cit-patents, file:<path>/);
    return true;
  });
  assert.deepEqual(EDGE_DATASETS, ['synthetic', 'pokec', 'cit-patents']);
});

test('synthetic: the relations of the synthetic dataset with derived weights', async (t) => {
  const cacheDir = await tempDir(t);
  const phases = [];
  const onProgress = (report) => phases.push(report);
  const dataset = await prepareEdges({ dataset: 'synthetic', scale: 'tiny', seed: 3, cacheDir, onProgress });
  assert.equal(dataset.dir, path.join(cacheDir, 'datasets', 'graph-synthetic-tiny-s3'));
  const edgePhases = phases.filter(({ phase }) => /edge/.test(phase));
  assert.deepEqual([...new Set(edgePhases.map(({ phase }) => phase))], ['reading the edge file (bytes)', 'sorting edges', 'writing edges']);
  assert.deepEqual(edgePhases.at(-1), { phase: 'writing edges', done: dataset.edges, total: dataset.edges });
  const read = edgePhases.filter(({ phase }) => phase === 'reading the edge file (bytes)').at(-1);
  assert.equal(read.done, read.total, 'every byte of the source read');
  const relations = (await readFile(path.join(cacheDir, 'datasets', 'synthetic-tiny-s3', RELATIONS_FILE), 'utf8'))
    .split('\n').slice(0, -1).map((line) => line.split('\t').map(Number));
  assert.deepEqual(await edgesOf(dataset), expectedEdges(relations, 3));
  assert.equal(dataset.scale, 'tiny');
  assert.equal(dataset.seed, 3);
  assert.equal(dataset.vertices, 1000);
});

test('pokec: the distinct relations of the real layout', async (t) => {
  const cacheDir = await tempDir(t);
  const generated = path.join(cacheDir, 'generated');
  await generate({ dir: generated, scale: 'tiny', seed: 9 });
  const relations = await readFile(path.join(generated, RELATIONS_FILE));
  await mkdir(pokecDir(cacheDir), { recursive: true });
  await writeFile(path.join(pokecDir(cacheDir), POKEC_PROFILES_GZ), gzipSync(await readFile(path.join(generated, PROFILES_FILE))));
  await writeFile(path.join(pokecDir(cacheDir), POKEC_RELATIONS_GZ), gzipSync(Buffer.concat([relations, relations])));
  const dataset = await prepareEdges({ dataset: 'pokec', scale: 'tiny', cacheDir });
  const lines = relations.toString().split('\n').slice(0, -1).map((line) => line.split('\t').map(Number));
  assert.deepEqual(await edgesOf(dataset), expectedEdges(lines));
  const distinct = path.join(cacheDir, 'datasets', 'pokec-tiny-s1', 'soc-pokec-relationships.distinct.txt');
  assert.equal(dataset.source.path, distinct);
  assert.equal(dataset.dir, path.join(cacheDir, 'datasets', `graph-pokec-s1-${sha256(await readFile(distinct)).slice(0, 8)}`));
});

// cit-Patents as SNAP publishes it: four comment lines, then "from<TAB>to" lines.
const CIT_PATENTS = gzipSync([
  '# Directed graph (each unordered pair of nodes is saved once): cit-Patents.txt \n',
  '# Citation network of patents\n',
  '# Nodes: 4 Edges: 5\n',
  '# FromNodeId\tToNodeId\n',
  '3858241\t956203\n3858241\t1324234\n3858241\t3398406\n3858242\t1515701\n956203\t3858242\n',
].join(''));

async function snapServer(t) {
  const requests = [];
  const server = http.createServer((request, response) => {
    requests.push(request.url);
    if (request.url !== `/snap/${CIT_PATENTS_GZ}`) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-length': CIT_PATENTS.length }).end(CIT_PATENTS);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return { baseUrl: `http://127.0.0.1:${server.address().port}/snap/`, requests };
}

test('cit-patents: without the download a clear error names the fetch command; once fetched it is prepared', async (t) => {
  const cacheDir = await tempDir(t);
  await assert.rejects(prepareEdges({ dataset: 'cit-patents', cacheDir }), (error) => {
    assert.equal(error.code, 'E_DATASET');
    assert.match(error.message, /cit-Patents\.txt\.gz is missing\): run `bench data fetch cit-patents`/);
    return true;
  });
  const { baseUrl, requests } = await snapServer(t);
  const fetched = await fetchSnap({ dataset: 'cit-patents', cacheDir, baseUrl });
  assert.equal(fetched.dir, snapDir(cacheDir, 'cit-patents'));
  assert.deepEqual(await readdir(fetched.dir), [FETCH_MANIFEST, CIT_PATENTS_GZ].sort());
  assert.deepEqual(fetched.files.map((file) => file.record.sha256), [sha256(CIT_PATENTS)]);
  const again = await fetchSnap({ dataset: 'cit-patents', cacheDir, baseUrl });
  assert.deepEqual(again.files.map((file) => file.downloaded), [false]);
  assert.equal(requests.length, 1);

  const dataset = await prepareEdges({ dataset: 'cit-patents', cacheDir });
  assert.equal(dataset.dir, path.join(cacheDir, 'datasets', `graph-cit-patents-s1-${sha256(CIT_PATENTS).slice(0, 8)}`));
  assert.equal(dataset.edges, 5);
  assert.equal(dataset.vertices, 6);
  assert.equal(dataset.readStats.comments, 4);
  assert.deepEqual((await edgesOf(dataset)).map(([s, t2]) => [s, t2]), [
    [956203, 3858242], [3858241, 956203], [3858241, 1324234], [3858241, 3398406], [3858242, 1515701],
  ]);
});

test('BENCH_SNAP_URL replaces the base URL of every SNAP dataset; BENCH_POKEC_URL still wins for Pokec', () => {
  assert.deepEqual(SNAP_DATASET_NAMES, ['pokec', 'cit-patents']);
  assert.equal(snapBaseUrl('cit-patents', {}), 'https://snap.stanford.edu/data/');
  assert.equal(snapBaseUrl('cit-patents', { BENCH_SNAP_URL: 'http://mirror.example/snap' }), 'http://mirror.example/snap/');
  assert.equal(snapBaseUrl('pokec', { BENCH_SNAP_URL: 'http://mirror.example/snap' }), 'http://mirror.example/snap/');
  assert.equal(snapBaseUrl('pokec', { BENCH_SNAP_URL: 'http://a.example/', BENCH_POKEC_URL: 'http://b.example/' }), 'http://b.example/');
  assert.equal(snapBaseUrl('cit-patents', { BENCH_POKEC_URL: 'http://b.example/' }), 'https://snap.stanford.edu/data/');
});

function bench(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`bench ${args.join(' ')} timed out\n${stderr}`)); }, 60_000);
    child.on('exit', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

test('bench data fetch cit-patents downloads from BENCH_SNAP_URL; an unknown dataset lists both', async (t) => {
  const cacheDir = await tempDir(t);
  const { baseUrl } = await snapServer(t);
  const { code, stdout, stderr } = await bench(['data', 'fetch', 'cit-patents', '--cache-dir', cacheDir, '--quiet'], { BENCH_SNAP_URL: baseUrl });
  assert.equal(code, 0, stderr);
  assert.match(stdout, new RegExp(`^cit-Patents\\.txt\\.gz: ${CIT_PATENTS.length} bytes, sha256 ${sha256(CIT_PATENTS)}$`, 'm'));
  assert.match(stdout, /run `bench run --suite graph --dataset cit-patents`/);
  assert.deepEqual(await readFile(path.join(snapDir(cacheDir, 'cit-patents'), CIT_PATENTS_GZ)), CIT_PATENTS);

  const unknown = await bench(['data', 'fetch', 'karate', '--cache-dir', cacheDir]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^error: bench data: "karate" is not a dataset it knows: pokec or cit-patents$/m);
  const help = await bench(['data', '--help']);
  assert.match(help.stdout, /"pokec", "cit-patents"/);

  const offline = await bench(['data', 'fetch', 'cit-patents', '--cache-dir', path.join(cacheDir, 'empty'), '--quiet'], { BENCH_SNAP_URL: 'http://no-such-host.invalid/snap/' });
  assert.equal(offline.code, 1);
  assert.match(offline.stderr, /^error: cannot download http:\/\/no-such-host\.invalid\/snap\/cit-Patents\.txt\.gz: .*\(no network\?\)$/m);
});
