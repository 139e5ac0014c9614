// `bench data fetch pokec` against a local HTTP server that serves small gzip files, honours Range requests
// and can break a transfer off in the middle.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { FETCH_MANIFEST, POKEC_FILES, fetchPokec, pokecBaseUrl, pokecDir } from '../../datasets/fetch.js';

async function tempDir(t) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'db-shootout-fetch-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

// Random bytes do not compress, so the gzip files are about as long as their content.
function gzipFixture(bytes) {
  const content = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i += 1) content[i] = (i * 2654435761) >>> 24;
  return gzipSync(content, { level: 0 });
}

const FILES = {
  [POKEC_FILES[0]]: gzipFixture(300_000),
  [POKEC_FILES[1]]: gzipFixture(120_000),
};

// Serves FILES under /data/; `cutAfter` bytes into a response the socket is destroyed (once per file, when set).
async function startServer(t, { files = FILES, cutAfter = null } = {}) {
  const log = [];
  const cut = new Set();
  const server = http.createServer((request, response) => {
    const name = decodeURIComponent(new URL(request.url, 'http://x').pathname.replace(/^\/data\//, ''));
    const body = files[name];
    if (!body) {
      response.writeHead(404).end();
      return;
    }
    const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const part = body.subarray(start);
    log.push({ name, start, bytes: part.length });
    const headers = { 'content-length': part.length, 'content-type': 'application/gzip' };
    if (range) headers['content-range'] = `bytes ${start}-${body.length - 1}/${body.length}`;
    response.writeHead(range ? 206 : 200, headers);
    if (cutAfter !== null && !cut.has(name)) {
      cut.add(name);
      response.write(part.subarray(0, cutAfter), () => setTimeout(() => response.socket.destroy(), 20));
      log.at(-1).bytes = cutAfter;
      return;
    }
    response.end(part);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return { baseUrl: `http://127.0.0.1:${server.address().port}/data/`, log };
}

test('the files are downloaded into <cache>/datasets/pokec with their sizes and sha256 in a manifest', async (t) => {
  const cacheDir = await tempDir(t);
  const { baseUrl, log } = await startServer(t);
  const result = await fetchPokec({ cacheDir, baseUrl });
  const dir = pokecDir(cacheDir);
  assert.equal(result.dir, dir);
  assert.deepEqual((await readdir(dir)).sort(), [...POKEC_FILES, FETCH_MANIFEST].sort());
  const manifest = JSON.parse(await readFile(path.join(dir, FETCH_MANIFEST), 'utf8'));
  for (const name of POKEC_FILES) {
    assert.deepEqual(await readFile(path.join(dir, name)), FILES[name]);
    assert.equal(manifest.files[name].sha256, sha256(FILES[name]));
    assert.equal(manifest.files[name].bytes, FILES[name].length);
    assert.equal(manifest.files[name].url, `${baseUrl}${name}`);
  }
  assert.deepEqual(result.files.map((file) => file.downloaded), [true, true]);

  const again = await fetchPokec({ cacheDir, baseUrl });
  assert.deepEqual(again.files.map((file) => file.downloaded), [false, false]);
  assert.equal(log.length, 2, 'files already there and matching their checksums are not downloaded again');
});

test('an interrupted download resumes from its .part file with a Range request', async (t) => {
  const cacheDir = await tempDir(t);
  const { baseUrl, log } = await startServer(t, { cutAfter: 100_000 });
  const name = POKEC_FILES[0];
  await assert.rejects(fetchPokec({ cacheDir, baseUrl, files: [name] }), (error) => {
    assert.equal(error.code, 'E_DATASET');
    assert.match(error.message, /cannot download .*soc-pokec-profiles\.txt\.gz: the transfer broke off after \d+ bytes.*run the same command again to resume/);
    return true;
  });
  const part = path.join(pokecDir(cacheDir), `${name}.part`);
  const kept = (await stat(part)).size;
  assert.ok(kept > 0 && kept < FILES[name].length, `${kept} bytes kept`);

  const result = await fetchPokec({ cacheDir, baseUrl, files: [name] });
  assert.deepEqual(await readFile(path.join(pokecDir(cacheDir), name)), FILES[name]);
  assert.equal(log[1].start, kept, 'the second request starts where the first left off');
  assert.equal(result.files[0].transferred, FILES[name].length - kept);
  assert.ok(result.files[0].transferred < FILES[name].length);
  await assert.rejects(stat(part), { code: 'ENOENT' });
});

test('a checksum mismatch is a clear error and leaves no file behind', async (t) => {
  const cacheDir = await tempDir(t);
  const { baseUrl } = await startServer(t);
  const name = POKEC_FILES[1];
  const wrong = '0'.repeat(64);
  await assert.rejects(fetchPokec({ cacheDir, baseUrl, files: [name], expected: { [name]: wrong } }), (error) => {
    assert.equal(error.code, 'E_DATASET');
    assert.match(error.message, new RegExp(`its sha256 is ${sha256(FILES[name])}, expected ${wrong}; the file was deleted`));
    return true;
  });
  assert.deepEqual(await readdir(pokecDir(cacheDir)), []);
});

test('a download that is not a valid gzip file is rejected and deleted', async (t) => {
  const cacheDir = await tempDir(t);
  const name = POKEC_FILES[1];
  const { baseUrl } = await startServer(t, { files: { [name]: FILES[name].subarray(0, 5000) } });
  await assert.rejects(fetchPokec({ cacheDir, baseUrl, files: [name] }), /not a complete gzip file/);
  assert.deepEqual(await readdir(pokecDir(cacheDir)), []);
});

test('a file that changed since its download is caught by the recorded checksum', async (t) => {
  const cacheDir = await tempDir(t);
  const { baseUrl } = await startServer(t);
  const name = POKEC_FILES[1];
  await fetchPokec({ cacheDir, baseUrl, files: [name] });
  const file = path.join(pokecDir(cacheDir), name);
  await writeFile(file, gzipFixture(1000));
  await assert.rejects(fetchPokec({ cacheDir, baseUrl, files: [name] }), /its sha256 is .*, expected/);
  await assert.rejects(stat(file), { code: 'ENOENT' });
  await fetchPokec({ cacheDir, baseUrl, files: [name] });
  assert.deepEqual(await readFile(file), FILES[name]);
});

test('without a network the download fails at once with "no network?"', async (t) => {
  const cacheDir = await tempDir(t);
  // A port that was just free: connection refused.
  const probe = http.createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  const begin = performance.now();
  await assert.rejects(fetchPokec({ cacheDir, baseUrl: `http://127.0.0.1:${port}/data/` }), (error) => {
    assert.equal(error.code, 'E_DATASET');
    assert.match(error.message, /^cannot download http:\/\/127\.0\.0\.1:\d+\/data\/soc-pokec-profiles\.txt\.gz: .*ECONNREFUSED.*\(no network\?\)$/);
    return true;
  });
  assert.ok(performance.now() - begin < 3000);
  await assert.rejects(fetchPokec({ cacheDir, baseUrl: 'http://no-such-host.invalid/data/' }), /\(no network\?\)$/);
});

test('a server that never answers is given up after the connect timeout', async (t) => {
  const cacheDir = await tempDir(t);
  const silent = http.createServer(() => {});
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  t.after(() => { silent.closeAllConnections(); silent.close(); });
  await assert.rejects(
    fetchPokec({ cacheDir, baseUrl: `http://127.0.0.1:${silent.address().port}/`, connectTimeoutMs: 300 }),
    /no answer within 0\.3 s \(no network\?\)$/,
  );
});

test('BENCH_POKEC_URL replaces SNAP\'s base URL', () => {
  assert.equal(pokecBaseUrl({}), 'https://snap.stanford.edu/data/');
  assert.equal(pokecBaseUrl({ BENCH_POKEC_URL: 'http://mirror.example/pokec' }), 'http://mirror.example/pokec/');
});
