// Downloads SNAP's files into <cache>/datasets/<dataset>/, as `bench data fetch <dataset>` asks: the two Pokec
// files, or cit-Patents for the graph suite. Resumable (an interrupted download stays in a .part file and
// continues with an HTTP Range request), checked (the size the server announced, the gzip stream's own CRC and
// length, and a checksum when one is known), and quick to fail without a network. The sha256 of each file is
// recorded in the directory's manifest, so that a later download of the same file must match it.
// BENCH_SNAP_URL replaces SNAP's base URL for every dataset, BENCH_POKEC_URL for Pokec alone (a mirror, tests).
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { BenchError, ErrorCodes, usageError } from '../core/errors.js';

export const POKEC_BASE_URL = 'https://snap.stanford.edu/data/';
export const POKEC_PROFILES_GZ = 'soc-pokec-profiles.txt.gz';
export const POKEC_RELATIONS_GZ = 'soc-pokec-relationships.txt.gz';
export const POKEC_FILES = Object.freeze([POKEC_PROFILES_GZ, POKEC_RELATIONS_GZ]);
export const CIT_PATENTS_GZ = 'cit-Patents.txt.gz';
// Each dataset's files; the dataset's name is its directory under <cache>/datasets/.
export const SNAP_DATASETS = Object.freeze({
  pokec: POKEC_FILES,
  'cit-patents': Object.freeze([CIT_PATENTS_GZ]),
});
export const SNAP_DATASET_NAMES = Object.freeze(Object.keys(SNAP_DATASETS));
export const FETCH_MANIFEST = 'manifest.json';
const PART = '.part';

// No answer (headers) within this long is no network; a body that sends nothing for STALL_MS is stalled.
const CONNECT_TIMEOUT_MS = 5000;
const STALL_MS = 30000;
const HASH_CHUNK = 1 << 20;

export function snapDir(cacheDir, dataset) {
  return path.join(cacheDir, 'datasets', dataset);
}

export function pokecDir(cacheDir) {
  return snapDir(cacheDir, 'pokec');
}

export function snapBaseUrl(dataset, env = process.env) {
  const base = (dataset === 'pokec' && env.BENCH_POKEC_URL) || env.BENCH_SNAP_URL || POKEC_BASE_URL;
  return base.endsWith('/') ? base : `${base}/`;
}

export function pokecBaseUrl(env = process.env) {
  return snapBaseUrl('pokec', env);
}

export async function readFetchManifest(dir) {
  try {
    return JSON.parse(await readFile(path.join(dir, FETCH_MANIFEST), 'utf8'));
  } catch {
    return { files: {} };
  }
}

async function fileSize(file) {
  return stat(file).then((info) => info.size, () => null);
}

function downloadError(url, problem, cause) {
  return new BenchError(ErrorCodes.DATASET, `cannot download ${url}: ${problem}`, cause && { cause });
}

// The message of a failed fetch: undici hides the reason (DNS, refused, timeout) in `cause`.
function networkError(url, error, timeoutMs) {
  const cause = error.cause ?? error;
  const reason = error.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : cause.message || error.message;
  return downloadError(url, `${reason} (no network?)`, error);
}

// One pass over a downloaded file: its sha256, and a full gunzip, whose CRC and length check catch a
// corrupt or cut download that happened to have the announced size.
export async function inspectFile(file) {
  const hash = createHash('sha256');
  try {
    await pipeline(
      createReadStream(file, { highWaterMark: HASH_CHUNK }),
      async function* hashed(chunks) {
        for await (const chunk of chunks) {
          hash.update(chunk);
          yield chunk;
        }
      },
      createGunzip(),
      new Writable({ write: (chunk, encoding, done) => done() }),
    );
  } catch (error) {
    return { sha256: null, gzipError: error.message };
  }
  return { sha256: hash.digest('hex'), gzipError: null };
}

// The response to a request for `url` from byte `offset` on, with the total size of the file.
async function request(url, offset, connectTimeoutMs) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), connectTimeoutMs);
  let response;
  try {
    response = await fetch(url, { headers: offset > 0 ? { range: `bytes=${offset}-` } : {}, signal: controller.signal });
  } catch (error) {
    throw networkError(url, controller.signal.aborted ? controller.signal.reason : error, connectTimeoutMs);
  } finally {
    clearTimeout(timer);
  }
  if (response.status === 206) {
    const range = /^bytes (\d+)-\d+\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
    if (range && Number(range[1]) === offset) return { response, offset, total: Number(range[2]) };
    await response.body?.cancel();
    throw downloadError(url, `the server answered a resumed download with the range ${response.headers.get('content-range')}`);
  }
  if (response.status === 416 && offset > 0) {
    // The part is as long as the file or longer: start again.
    await response.body?.cancel();
    return request(url, 0, connectTimeoutMs);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw downloadError(url, `HTTP ${response.status} ${response.statusText}`);
  }
  const length = response.headers.get('content-length');
  return { response, offset: 0, total: length === null ? null : Number(length) };
}

// Streams the body into the part file (appending when resumed). An interrupted transfer keeps what arrived.
async function receive(url, part, { response, offset, total }, onBytes) {
  const out = createWriteStream(part, { flags: offset > 0 ? 'a' : 'w' });
  let done = offset;
  let stall;
  const stalled = new AbortController();
  const armStall = () => {
    clearTimeout(stall);
    stall = setTimeout(() => stalled.abort(), STALL_MS);
  };
  try {
    armStall();
    await pipeline(response.body, async function* count(chunks) {
      for await (const chunk of chunks) {
        armStall();
        done += chunk.length;
        onBytes(done, total);
        yield chunk;
      }
    }, out, { signal: stalled.signal });
  } catch (error) {
    const reason = stalled.signal.aborted ? `nothing received for ${STALL_MS / 1000} s` : (error.cause ?? error).message;
    throw downloadError(url, `the transfer broke off after ${done} bytes (${reason}); `
      + 'run the same command again to resume it', error);
  } finally {
    clearTimeout(stall);
  }
  if (total !== null && done !== total) {
    throw downloadError(url, `received ${done} bytes where the server announced ${total}; `
      + 'run the same command again to resume it');
  }
  return done;
}

// Downloads one file unless it is there already; returns its manifest record and whether it was downloaded.
async function fetchFile({ dir, name, baseUrl, expectedSha256, connectTimeoutMs, progress }) {
  const url = new URL(name, baseUrl).href;
  const file = path.join(dir, name);
  const part = file + PART;
  let downloaded = false;
  let transferred = 0;
  if (await fileSize(file) === null) {
    const offset = (await fileSize(part)) ?? 0;
    const answer = await request(url, offset, connectTimeoutMs);
    if (answer.offset > 0) progress?.log(`${name}: resuming after ${answer.offset} bytes`);
    // A server that announces no length leaves the total unknown: the MB so far, and no ETA.
    const bar = progress?.bar(`download ${name} (MB)`, answer.total === null ? null : Math.ceil(answer.total / 1e6));
    const bytes = await receive(url, part, answer, (done) => bar?.update(Math.floor(done / 1e6)));
    bar?.stop(Math.ceil(bytes / 1e6));
    transferred = bytes - answer.offset;
    downloaded = true;
  }
  const checked = downloaded ? part : file;
  const { sha256, gzipError } = await inspectFile(checked);
  const problem = gzipError !== null
    ? `it is not a complete gzip file (${gzipError})`
    : expectedSha256 && sha256 !== expectedSha256 ? `its sha256 is ${sha256}, expected ${expectedSha256}` : null;
  if (problem !== null) {
    await rm(checked, { force: true });
    throw new BenchError(ErrorCodes.DATASET, `${url}: ${problem}; the file was deleted, run the command again to download it anew`);
  }
  if (downloaded) await rename(part, file);
  const bytes = await fileSize(file);
  return { record: { url, bytes, sha256 }, downloaded, transferred };
}

// Fetches the files of SNAP dataset `dataset` (a key of SNAP_DATASETS) into `snapDir(cacheDir, dataset)`.
// `expected` maps a file name to the sha256 it must have; the manifest of an earlier download adds its own.
// Resolves with one entry per file.
export async function fetchSnap({
  dataset, cacheDir, baseUrl = snapBaseUrl(dataset), files = SNAP_DATASETS[dataset], expected = {}, progress,
  connectTimeoutMs = CONNECT_TIMEOUT_MS,
}) {
  if (!Object.hasOwn(SNAP_DATASETS, dataset)) {
    throw usageError(`unknown dataset "${dataset}"; datasets to fetch: ${SNAP_DATASET_NAMES.join(', ')}`);
  }
  const dir = snapDir(cacheDir, dataset);
  await mkdir(dir, { recursive: true });
  const manifest = await readFetchManifest(dir);
  const results = [];
  for (const name of files) {
    const expectedSha256 = expected[name] ?? manifest.files[name]?.sha256 ?? null;
    const result = await fetchFile({ dir, name, baseUrl, expectedSha256, connectTimeoutMs, progress });
    manifest.files[name] = { ...result.record, checkedAt: new Date().toISOString() };
    await writeFile(path.join(dir, FETCH_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    results.push({ name, file: path.join(dir, name), ...result });
  }
  return { dir, files: results };
}

export function fetchPokec(options) {
  return fetchSnap({ ...options, dataset: 'pokec' });
}
