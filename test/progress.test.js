// Progress on stderr: the text of bars, lines and spinners (ETA only when it can be estimated, elapsed time
// otherwise), spinners over time with an injected clock on a terminal and as start and end lines elsewhere, and
// what generation and the import report through it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { after, test } from 'node:test';
import memory from '../adapters/memory/description.js';
import { barStatus, createProgress, endLine, formatDuration, progressLine, spinnerText, timing } from '../cli/progress.js';
import { writeDataset } from '../datasets/dataset.js';
import { POKEC_FILES, fetchPokec } from '../datasets/fetch.js';
import { generate } from '../datasets/generate.js';
import { importDataset } from '../import/import.js';
import { defaultCacheDir } from '../core/paths.js';
import { serverFamily } from '../server/index.js';
import { removeServerFiles, serverDir } from '../server/state.js';
import { spawnBench } from './helpers/cli.js';
import { freePort } from './helpers/net.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-progress-'));
after(() => rmSync(work, { recursive: true, force: true }));

// What cli-progress's ETA turns into when no rate is known ("INF" and "NULL" padded to two characters), and
// what arithmetic on an unknown total gives.
const NONSENSE = /NFs|LLs|INF|NULL|NaN|Infinity|undefined/;

// What a terminal shows after `text`: each line, the cursor's last. Carriage returns and \x1b[1G move to the
// start of the line, \x1b[K clears right of the cursor, \x1b[2K the whole line; other codes (cursor shown or
// hidden, saved or restored, line wrapping) move nothing here.
// eslint-disable-next-line no-control-regex
const CONTROL = /(\x1b\[[0-9;?]*[A-Za-z]|\x1b[78]|\r|\n)/;

function screen(text) {
  const lines = [''];
  let column = 0;
  const replaceLast = (line) => { lines[lines.length - 1] = line; };
  for (const token of text.split(CONTROL)) {
    const line = lines.at(-1);
    if (token === '\n') {
      lines.push('');
      column = 0;
    } else if (token === '\r' || token === '\x1b[1G') {
      column = 0;
    } else if (token === '\x1b[K' || token === '\x1b[0K') {
      replaceLast(line.slice(0, column));
    } else if (token === '\x1b[2K') {
      replaceLast('');
    } else if (token && !token.startsWith('\x1b')) {
      replaceLast(line.slice(0, column).padEnd(column) + token + line.slice(column + token.length));
      column += token.length;
    }
  }
  return lines;
}

// A stream that records what is written to it; a terminal when `isTTY`.
function recordingStream(isTTY) {
  const chunks = [];
  return {
    chunks,
    isTTY,
    columns: 120,
    write(chunk) {
      chunks.push(String(chunk));
      return true;
    },
    get screen() {
      return screen(chunks.join(''));
    },
  };
}

function clock(start = 0) {
  let ms = start;
  return { now: () => ms, set: (seconds) => { ms = start + seconds * 1000; } };
}

async function until(condition, what) {
  for (let waited = 0; waited < 2000; waited += 20) {
    if (condition()) return;
    await sleep(20);
  }
  assert.fail(`timed out waiting for ${what}`);
}

test('durations read as seconds, minutes and hours, and "?" for what is no duration', () => {
  assert.equal(formatDuration(0), '0 s');
  assert.equal(formatDuration(59.4), '59 s');
  assert.equal(formatDuration(59.6), '1 min 00 s');
  assert.equal(formatDuration(713.497), '11 min 53 s');
  assert.equal(formatDuration(7500), '2 h 05 min');
  for (const nothing of [Infinity, -Infinity, NaN, -1, undefined]) assert.equal(formatDuration(nothing), '?');
});

test('a step that did not finish ends on the count it reached and how it ended, never on its total', () => {
  assert.equal(endLine('get n=2000 c=1', 2000, 0.5), 'get n=2000 c=1: 2000 in 0.50 s');
  assert.equal(endLine('get n=2000 c=1', 712, 0.5, 'interrupted: 712 of 2000 done, not recorded'), 'get n=2000 c=1: 712 in 0.50 s (interrupted: 712 of 2000 done, not recorded)');
  const lines = [];
  const progress = createProgress({ stream: { isTTY: false, write: (text) => lines.push(text) } });
  progress.bar('get', 2000).stop(712, 'interrupted: 712 of 2000 done, not recorded');
  progress.bar('update', 2000).stop();
  assert.match(lines[0], /^get: 712 in [\d.]+ s \(interrupted: 712 of 2000 done, not recorded\)\n$/);
  assert.match(lines[1], /^update: 2000 in [\d.]+ s\n$/);
});

test('a progress line gives the count, the rate and the time left', () => {
  assert.equal(progressLine('import relations', 1_200_000, 30_622_564, 29.1),
    'import relations: 1,200,000/30,622,564 (3.9%), 41,237/s, ETA 11 min 53 s');
  assert.equal(progressLine('x', 5, 10, 5), 'x: 5/10 (50.0%), 1/s, ETA 5 s');
});

test('no ETA where none can be estimated: one step, an unknown total, nothing done yet; the time so far instead', () => {
  assert.equal(timing(0, 1, 12.7), '12 s elapsed');
  assert.equal(timing(1, 1, 12.7), '12 s elapsed');
  assert.equal(timing(500, null, 3), '3 s elapsed');
  assert.equal(timing(500, undefined, 3), '3 s elapsed');
  assert.equal(timing(500, NaN, 3), '3 s elapsed');
  assert.equal(timing(0, 10, 75), '1 min 15 s elapsed');
  assert.equal(timing(5, 10, 0), '0 s elapsed');
  assert.equal(timing(12, 10, 3), '3 s elapsed');
  assert.equal(timing(5, 10, 5), 'ETA 5 s');
  assert.equal(progressLine('x', 0, 10, 10), 'x: 0/10 (0.0%), 0/s, 10 s elapsed');
  assert.equal(progressLine('relations', 1_200_000, null, 3), 'relations: 1,200,000, 400,000/s, 3 s elapsed');
  assert.equal(barStatus(0, 1, 4), '0% | 0/1 | 0/s | 4 s elapsed');
  assert.equal(barStatus(1_200_000, 30_622_564, 29.1), '3% | 1,200,000/30,622,564 | 41,237/s | ETA 11 min 53 s');
  for (const [done, total, seconds] of [[0, 1, 0], [0, 0, 0], [3, null, 0], [0, 10, 0], [0, undefined, 5], [1, 1, 1e9]]) {
    assert.doesNotMatch(progressLine('x', done, total, seconds), NONSENSE);
    assert.doesNotMatch(timing(done, total, seconds), NONSENSE);
  }
});

test('a spinner line names the work, the count so far when there is one, and the time so far', () => {
  assert.equal(spinnerText('creating indexes', 0.4), '- creating indexes … 0 s');
  assert.equal(spinnerText('creating indexes', 12.9, { frame: 1 }), '\\ creating indexes … 12 s');
  assert.equal(spinnerText('creating indexes', 75, { frame: 2 }), '| creating indexes … 1 min 15 s');
  assert.equal(spinnerText('relations', 3, { frame: 7, done: 1_200_000 }), '/ relations … 1,200,000 so far, 3 s');
});

test('on a terminal a step of one is a spinner whose time moves with the clock, and one line when it ends', async (t) => {
  const stream = recordingStream(true);
  const time = clock(1000);
  const progress = createProgress({ stream, now: time.now });
  const step = progress.bar('PostgreSQL: creating indexes', 1);
  t.after(() => step.stop());
  assert.equal(stream.screen.at(-1), '- PostgreSQL: creating indexes … 0 s');
  time.set(12.3);
  await until(() => stream.screen.at(-1).endsWith('… 12 s'), 'the spinner at 12 s');
  assert.match(stream.screen.at(-1), /^[\\|/-] PostgreSQL: creating indexes … 12 s$/);
  const frames = new Set();
  await until(() => frames.add(stream.screen.at(-1)[0]).size > 1, 'the spinner to turn');
  time.set(75);
  await until(() => stream.screen.at(-1).endsWith('… 1 min 15 s'), 'the spinner at 75 s');
  step.stop();
  assert.deepEqual(stream.screen, ['PostgreSQL: creating indexes: 75.00 s', '']);
  const drawn = stream.chunks.length;
  await sleep(500);
  assert.equal(stream.chunks.length, drawn, 'nothing drawn after the end');
  assert.doesNotMatch(stream.chunks.join(''), NONSENSE);
  assert.doesNotMatch(stream.chunks.join(''), /ETA|░/, 'no bar');
});

test('on a terminal a bar shows the time so far until a rate is known, never cli-progress\'s INF or NULL', async (t) => {
  const stream = recordingStream(true);
  const time = clock();
  const progress = createProgress({ stream, now: time.now });
  const bar = progress.bar('import relations into SQLite', 10);
  // A bar left drawing on a failed assertion would keep the test process alive.
  t.after(() => bar.stop());
  time.set(2);
  bar.update(0);
  await sleep(250);
  assert.match(stream.screen.at(-1), /^import relations into SQLite +\[.{24}\] 0% \| 0\/10 \| 0\/s \| 2 s elapsed$/);
  time.set(4);
  bar.update(5);
  await until(() => stream.screen.at(-1).endsWith('ETA 4 s'), 'the ETA');
  assert.match(stream.screen.at(-1), /50% \| 5\/10 \| 1\/s \| ETA 4 s$/);
  bar.stop();
  assert.deepEqual(stream.screen, ['import relations into SQLite: 10 in 4.00 s', '']);
  assert.doesNotMatch(stream.chunks.join(''), NONSENSE);
});

test('a count of an unknown total is drawn as it is counted, even when a synchronous loop leaves the timer no turn', (t) => {
  const stream = recordingStream(true);
  const time = clock();
  const progress = createProgress({ stream, now: time.now });
  const step = progress.bar('dataset full: relations', null);
  t.after(() => step.stop());
  assert.equal(stream.screen.at(-1), '- dataset full: relations … 0 so far, 0 s');
  time.set(3);
  step.update(1_200_000);
  assert.equal(stream.screen.at(-1), '\\ dataset full: relations … 1,200,000 so far, 3 s');
  time.set(3.1);
  step.update(1_300_000);
  assert.equal(stream.screen.at(-1), '\\ dataset full: relations … 1,200,000 so far, 3 s', 'at most one draw per 200 ms');
  time.set(8);
  step.stop(30_622_564);
  assert.deepEqual(stream.screen, ['dataset full: relations: 30622564 in 8.00 s', '']);
});

test('a bar, a nested spinner or a message takes the spinner\'s line, which comes back after them', (t) => {
  const stream = recordingStream(true);
  const time = clock();
  const progress = createProgress({ stream, now: time.now });
  const flush = progress.bar('OrientDB: finishing the relations', 1);
  time.set(1);
  progress.log('a message');
  assert.deepEqual(stream.screen, ['a message', '\\ OrientDB: finishing the relations … 1 s']);
  const bar = progress.bar('write the relations vertex by vertex (OrientDB)', 4);
  t.after(() => bar.stop());
  assert.match(stream.screen.at(-1), /^write the relations vertex by vertex \(OrientDB\) +\[/);
  time.set(9);
  bar.stop(4);
  assert.deepEqual(stream.screen.slice(1),
    ['write the relations vertex by vertex (OrientDB): 4 in 8.00 s', '| OrientDB: finishing the relations … 9 s']);
  const inner = progress.bar('inner', 1);
  assert.equal(stream.screen.at(-1), '- inner … 0 s');
  time.set(10);
  inner.stop();
  assert.deepEqual(stream.screen.slice(2), ['inner: 1.00 s', '/ OrientDB: finishing the relations … 10 s']);
  flush.stop();
  assert.deepEqual(stream.screen.slice(3), ['OrientDB: finishing the relations: 10.00 s', '']);
});

test('elsewhere a step without a count prints a line when it starts and one when it ends, and nothing between', async () => {
  const stream = recordingStream(false);
  const time = clock();
  const progress = createProgress({ stream, now: time.now });
  const step = progress.bar('Neo4j: clearing the namespace', 1);
  time.set(52);
  await sleep(450);
  step.update(0);
  step.stop();
  assert.equal(stream.chunks.join(''), 'Neo4j: clearing the namespace …\nNeo4j: clearing the namespace: 52.00 s\n');
  const counted = progress.bar('dataset full: relations', null);
  time.set(63);
  counted.update(1_200_000);
  counted.stop(30_622_564);
  assert.deepEqual(stream.chunks.slice(2), ['dataset full: relations …\n', 'dataset full: relations: 1,200,000, 109,091/s, 11 s elapsed\n',
    'dataset full: relations: 30622564 in 11.00 s\n']);
});

test('--quiet shows nothing, on a terminal or not', async () => {
  for (const isTTY of [true, false]) {
    const stream = recordingStream(isTTY);
    const progress = createProgress({ stream, quiet: true });
    progress.log('a message');
    assert.equal(progress.bar('creating indexes', 1), null);
    assert.equal(progress.bar('import', 10), null);
    const onProgress = progress.phases('dataset tiny');
    onProgress({ phase: 'relations', done: 0, total: null });
    onProgress({ phase: 'relations', done: 5, total: 5 });
    await sleep(250);
    assert.deepEqual(stream.chunks, []);
  }
});

test('generation counts profiles, then the relations drawn (a total known at the end) and the relations written', async () => {
  const events = [];
  const { profiles, relations } = await generate({ dir: path.join(work, 'generated'), scale: 'tiny', seed: 1, onProgress: (event) => events.push(event) });
  assert.equal(profiles, 1000);
  assert.ok(relations > 10 * profiles, `${relations} relations`);
  const of = (phase) => events.filter((event) => event.phase === phase);
  assert.ok(of('profiles').every(({ total }) => total === profiles));
  assert.deepEqual(of('profiles').at(-1), { phase: 'profiles', done: profiles, total: profiles });
  assert.ok(of('relations').slice(0, -1).every(({ total }) => total === null), 'no total while drawing');
  assert.deepEqual(of('relations').at(-1), { phase: 'relations', done: relations, total: relations });
  assert.ok(of('writing relations').every(({ total }) => total === relations));
  assert.deepEqual(of('writing relations').at(-1), { phase: 'writing relations', done: relations, total: relations });
  for (const phase of ['profiles', 'relations', 'writing relations']) {
    const done = of(phase).map((event) => event.done);
    assert.deepEqual(done, [...done].sort((a, b) => a - b), `${phase} counts up`);
  }
});

test('bench generate\'s lines say what each phase counted, with its total, and every phase ends', async () => {
  const stream = recordingStream(false);
  const progress = createProgress({ stream });
  const dataset = await writeDataset({ dir: path.join(work, 'written'), scale: 'tiny', seed: 1, onProgress: progress.phases('dataset tiny') });
  const lines = stream.chunks.join('').trimEnd().split('\n');
  const { relations } = dataset;
  assert.match(lines[0], /^dataset tiny: profiles: 1000 in \d+\.\d\d s$/);
  assert.equal(lines[1], 'dataset tiny: relations …');
  assert.match(lines[2], new RegExp(`^dataset tiny: relations: ${relations} in \\d+\\.\\d\\d s$`));
  assert.match(lines[3], new RegExp(`^dataset tiny: writing relations: ${relations} in \\d+\\.\\d\\d s$`));
  assert.equal(lines.at(-2), 'dataset tiny: checksums …');
  assert.match(lines.at(-1), /^dataset tiny: checksums: \d+\.\d\d s$/, 'the last phase ends too');
  const started = lines.filter((line) => line.endsWith(' …')).map((line) => line.slice(0, -2));
  const ended = lines.filter((line) => !line.endsWith(' …')).map((line) => line.replace(/: (?:\d+ in )?[\d.]+ s$/, ''));
  assert.deepEqual(ended.filter((label) => started.includes(label)), started, 'every phase that starts ends');
});

test('the import shows the time of its steps without a count, and a flush\'s own bar inside its step', async () => {
  const dataset = await writeDataset({ dir: path.join(work, 'import'), scale: 'tiny', seed: 1 });
  const store = memory.create({ namespace: `progress_test_${process.pid}`, concurrency: 1 });
  const adapter = new Proxy(store, {
    get(target, name) {
      if (name === 'flushProfiles') return async () => {};
      if (name === 'flushRelations') {
        return async ({ bar } = {}) => {
          const shown = bar?.('write relations', 10);
          shown?.update(5);
          shown?.stop(10);
        };
      }
      const value = target[name];
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  await adapter.connect();
  const stream = recordingStream(false);
  await importDataset({ adapter, description: memory, options: {}, dataset, progress: createProgress({ stream }) });
  await adapter.close();
  const lines = stream.chunks.join('').trimEnd().split('\n')
    .map((line) => line.replace(/\d+\.\d\d s$/, 'T s').replace(memory.name, 'DB'));
  assert.deepEqual(lines, [
    'DB: clearing the namespace …', 'DB: clearing the namespace: T s',
    'import profiles into DB: 1000 in T s',
    'DB: finishing the profiles …', 'DB: finishing the profiles: T s',
    `import relations into DB: ${dataset.relations} in T s`,
    'DB: finishing the relations …', 'write relations (DB): 10 in T s', 'DB: finishing the relations: T s',
    'DB: creating indexes …', 'DB: creating indexes: T s',
    'DB: counting …', 'DB: counting: T s',
  ]);
});

test('a download whose server announces no length counts its MB, with no total and no ETA', async (t) => {
  const [name] = POKEC_FILES;
  const body = gzipSync(Buffer.alloc(300_000, 1));
  // No content-length: the body goes out in chunks.
  const server = http.createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/gzip' });
    response.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => new Promise((resolve) => server.close(resolve)));
  const stream = recordingStream(false);
  await fetchPokec({
    cacheDir: path.join(work, 'fetch'), baseUrl: `http://127.0.0.1:${server.address().port}/`, files: [name],
    progress: createProgress({ stream }),
  });
  const lines = stream.chunks.join('').trimEnd().split('\n');
  assert.equal(lines[0], `download ${name} (MB) …`);
  assert.match(lines[1], new RegExp(`^download ${name.replaceAll('.', '\\.')} \\(MB\\): 1 in \\d+\\.\\d\\d s$`));
});

const postgresql = serverFamily('postgresql');
const installed = await postgresql.version(serverDir(defaultCacheDir(), 'postgresql'));

test('bench server start and stop show the time they take on stderr, and nothing with --quiet', { skip: installed ? false : 'PostgreSQL is not installed' }, async (t) => {
  // A cache and a port of its own: it never meets the server someone else started.
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'bench-progress-server-'));
  const bench = (...args) => spawnBench(['server', ...args, 'postgresql', '--cache-dir', cacheDir]);
  // Stopped, then its files outside the cache removed (as root, PostgreSQL's data goes to /tmp/db-shootout-<hash>).
  t.after(async () => {
    await bench('stop');
    removeServerFiles(postgresql, { cacheDir });
    rmSync(cacheDir, { recursive: true, force: true });
  });
  const started = await bench('start', '--port', String(await freePort()));
  assert.equal(started.code, 0, started.stderr);
  assert.match(started.stdout, /^PostgreSQL started: /);
  assert.match(started.stderr, /^starting PostgreSQL …\nstarting PostgreSQL: \d+\.\d\d s\n$/);
  const stopped = await bench('stop', '--quiet');
  assert.equal(stopped.code, 0, stopped.stderr);
  assert.match(stopped.stdout, /^PostgreSQL stopped /);
  assert.equal(stopped.stderr, '');
});
