// The importer's side of the bulk-import contract (adapters/README.md), on the in-process memory store wrapped
// so that every call is recorded: the order of the calls, which phase a flush is timed in, and the progress bar
// a long flushRelations() is given. Then what the importer checks: the files' sha256 and rows against the
// manifest, the counts in the database, and when a namespace's marker lets an import be reused.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import memory from '../adapters/memory/description.js';
import sqlite from '../adapters/sqlite/description.js';
import { BULK_LOAD_MODULE } from '../adapters/bulk-load.js';
import { prepareDataset } from '../datasets/dataset.js';
import { claimNamespace, IMPORT_PATHS, importDataset } from '../import/import.js';
import { formatImport } from '../results/import-summary.js';
import { formatTable } from '../results/table.js';

const FLUSH_MS = 300;
const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
let dataset;

before(async () => {
  dataset = await prepareDataset({ scale: 'tiny', cacheDir });
});

after(() => rmSync(cacheDir, { recursive: true, force: true }));

// The memory store, with optional flushes that wait FLUSH_MS, every call recorded by name.
function recordingAdapter() {
  const store = memory.create({ namespace: `import_test_${process.pid}_${Math.random()}`, concurrency: 1 });
  const calls = [];
  const sleep = () => new Promise((resolve) => setTimeout(resolve, FLUSH_MS));
  const adapter = new Proxy(store, {
    get(target, name) {
      if (name === 'flushProfiles') return async () => { calls.push('flushProfiles'); await sleep(); };
      if (name === 'flushRelations') {
        return async (options) => {
          calls.push('flushRelations');
          const bar = options?.bar?.('write relations', 10);
          bar?.update(5);
          bar?.stop(10);
          await sleep();
        };
      }
      const value = target[name];
      if (typeof value !== 'function') return value;
      return (...args) => {
        if (calls.at(-1) !== name) calls.push(name);
        return value.apply(target, args);
      };
    },
  });
  return { adapter, calls };
}

// What progress the importer shows, as the CLI's progress object receives it.
function recordingProgress() {
  const events = [];
  return {
    events,
    log: (text) => events.push(['log', text]),
    bar(label, total) {
      events.push(['bar', label, total]);
      return { update: (done) => events.push(['update', label, done]), stop: (done) => events.push(['stop', label, done]) };
    },
  };
}

test('the importer calls the bulk contract in order, each flush once, and times each flush in its phase', async () => {
  const { adapter, calls } = recordingAdapter();
  await adapter.connect();
  calls.length = 0;
  const progress = recordingProgress();
  const result = await importDataset({ adapter, description: memory, options: {}, dataset, progress });
  assert.deepEqual(calls, ['inspectNamespace', 'resetNamespace', 'writeMarker', 'importProfiles', 'flushProfiles',
    'importRelations', 'flushRelations', 'createIndexes', 'counts', 'writeMarker']);
  assert.ok(result.profilesMs >= FLUSH_MS, `profiles ${result.profilesMs} ms include flushProfiles`);
  assert.ok(result.relationsMs >= FLUSH_MS, `relations ${result.relationsMs} ms include flushRelations`);
  assert.ok(result.indexesMs < FLUSH_MS, `indexes ${result.indexesMs} ms do not`);
  // The flush's own bar, named after the database.
  const label = `write relations (${memory.name})`;
  assert.deepEqual(progress.events.filter(([, name]) => name === label),
    [['bar', label, 10], ['update', label, 5], ['stop', label, 10]]);
});

test('without progress the flush gets no bar, and the import is the same', async () => {
  const { adapter, calls } = recordingAdapter();
  await adapter.connect();
  const result = await importDataset({ adapter, description: memory, options: {}, dataset });
  assert.equal(result.reused, false);
  assert.equal(calls.filter((name) => name.startsWith('flush')).length, 2);
});

function sha256Of(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

// The memory store under a namespace of its own, so that a test sees only its own imports.
function memoryAdapter(namespace = `import_test_${process.pid}_${Math.random()}`) {
  return memory.create({ namespace, concurrency: 1 });
}

test('the import records the sha256 of the bytes it read, and its marker names the dataset and those checksums', async () => {
  const adapter = memoryAdapter();
  await adapter.connect();
  const result = await importDataset({ adapter, description: memory, options: {}, dataset });
  const read = { profiles: sha256Of(dataset.files.profiles), relations: sha256Of(dataset.files.relations) };
  assert.deepEqual(result.sha256, read);
  const { marker } = await adapter.inspectNamespace();
  assert.deepEqual({ dataset: marker.dataset, name: marker.name, scale: marker.scale, seed: marker.seed, sha256: marker.sha256 },
    { dataset: dataset.id, name: 'synthetic', scale: 'tiny', seed: 1, sha256: read });
  assert.equal(marker.imported, true);
});

test('a file that does not hash to the manifest\'s sha256 fails the import, and the namespace is not reused after it', async () => {
  const adapter = memoryAdapter();
  await adapter.connect();
  const recorded = 'ab'.repeat(32);
  const changed = { ...dataset, sha256: { ...dataset.sha256, relations: recorded } };
  await assert.rejects(importDataset({ adapter, description: memory, options: {}, dataset: changed }), (error) => {
    assert.equal(error.code, 'E_DATASET');
    assert.ok(error.message.startsWith(`${dataset.files.relations}: `), error.message);
    assert.ok(error.message.includes(sha256Of(dataset.files.relations)), 'the sha256 of the bytes read');
    assert.ok(error.message.includes(recorded), 'the sha256 the manifest records');
    assert.ok(error.message.includes(`delete ${dataset.dir} to prepare the dataset again`), error.message);
    return true;
  });
  assert.equal((await adapter.inspectNamespace()).marker.imported, false, 'the marker does not claim a finished import');
  const progress = recordingProgress();
  const again = await importDataset({ adapter, description: memory, options: {}, dataset: changed, progress })
    .catch((error) => error);
  assert.equal(again.code, 'E_DATASET', 'the next import reads the file again rather than reuse the data');
  assert.match(progress.events.find(([kind]) => kind === 'log')[1], /not reusing the data in the namespace \(its last import did not finish\)/);
});

test('an import is reused only when its marker names the dataset and the manifest\'s checksums', async () => {
  const adapter = memoryAdapter();
  await adapter.connect();
  const first = await importDataset({ adapter, description: memory, options: {}, dataset });
  const reused = await importDataset({ adapter, description: memory, options: {}, dataset });
  assert.equal(reused.reused, true);
  assert.deepEqual(reused.sha256, first.sha256);
  assert.equal(reused.importedAt, first.importedAt);

  const { marker } = await adapter.inspectNamespace();
  const stale = [
    [{ sha256: { ...marker.sha256, profiles: '00'.repeat(32) } }, /checksums differ from the dataset's manifest/],
    [{ sha256: { ...marker.sha256, relations: '00'.repeat(32) } }, /checksums differ from the dataset's manifest/],
    [{ sha256: undefined }, /checksums differ from the dataset's manifest/],
    [{ seed: 2 }, /\(synthetic tiny, seed 2\), not the dataset .* \(synthetic tiny, seed 1\)/],
    [{ dataset: 'synthetic-small-s1-g1' }, /holds the dataset synthetic-small-s1-g1 /],
    [{ imported: false }, /its last import did not finish/],
  ];
  for (const [change, reason] of stale) {
    await adapter.writeMarker({ ...marker, ...change });
    const progress = recordingProgress();
    const result = await importDataset({ adapter, description: memory, options: {}, dataset, progress });
    assert.equal(result.reused, false, JSON.stringify(change));
    assert.match(progress.events.find(([kind]) => kind === 'log')[1], reason);
  }
});

for (const [role, delta, difference] of [
  ['profiles', -1, '1 fewer profile than the dataset'], ['relations', -1, '1 fewer relation than the dataset'],
  ['profiles', 1, '1 more profile than the dataset'], ['relations', 250, '250 more relations than the dataset'],
]) {
  test(`an import that leaves ${difference} in the database fails, saying so`, async () => {
    const adapter = memoryAdapter();
    await adapter.connect();
    const lying = new Proxy(adapter, {
      get(target, name) {
        if (name === 'counts') return async () => ({ ...(await target.counts()), [role]: dataset[role] + delta });
        const value = target[name];
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const held = { profiles: dataset.profiles, relations: dataset.relations, [role]: dataset[role] + delta };
    await assert.rejects(importDataset({ adapter: lying, description: memory, options: {}, dataset }), (error) => {
      assert.equal(error.code, 'E_IMPORT');
      assert.equal(error.message, `In-process memory holds ${held.profiles} profiles and ${held.relations} relations after import; `
        + `the dataset has ${dataset.profiles} and ${dataset.relations}: ${difference}`);
      return true;
    });
    assert.equal((await adapter.inspectNamespace()).marker.imported, false);
  });
}

test('both counts wrong, or one that is no number: the import fails naming each', async () => {
  for (const [counts, difference] of [
    [{ profiles: dataset.profiles + 2, relations: dataset.relations - 3 }, '2 more profiles than the dataset and 3 fewer relations than the dataset'],
    [{ profiles: String(dataset.profiles), relations: dataset.relations }, `profiles: string ${dataset.profiles} is not a count`],
  ]) {
    const adapter = memoryAdapter();
    await adapter.connect();
    const lying = new Proxy(adapter, {
      get(target, name) {
        if (name === 'counts') return async () => counts;
        const value = target[name];
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await assert.rejects(importDataset({ adapter: lying, description: memory, options: {}, dataset }), (error) => {
      assert.equal(error.code, 'E_IMPORT');
      assert.ok(error.message.endsWith(`the dataset has ${dataset.profiles} and ${dataset.relations}: ${difference}`), error.message);
      return true;
    });
  }
});

test('a batch of relations stored twice in SQLite fails the import, saying how many more relations it holds', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-import-sqlite-'));
  const store = sqlite.create({ namespace: 'dbshootout', database: null, dataDir: dir, concurrency: 1 });
  await store.connect();
  try {
    let first = null;
    const twice = new Proxy(store, {
      get(target, name) {
        if (name === 'importRelations') {
          return async (edges) => {
            await target.importRelations(edges);
            if (first === null) {
              first = edges.length;
              await target.importRelations(edges);
            }
          };
        }
        const value = target[name];
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await assert.rejects(importDataset({ adapter: twice, description: sqlite, options: {}, dataset }), (error) => {
      assert.equal(error.code, 'E_IMPORT');
      assert.equal(error.message, `SQLite holds ${dataset.profiles} profiles and ${dataset.relations + first} relations after import; `
        + `the dataset has ${dataset.profiles} and ${dataset.relations}: ${first} more relations than the dataset`);
      return true;
    });
    assert.ok(first > 1 && first < dataset.relations, `a batch of ${first} of ${dataset.relations} relations`);
    assert.equal((await store.inspectNamespace()).marker.imported, false);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

for (const [role, delta] of [['profiles', 1], ['profiles', -1], ['relations', 1], ['relations', -1]]) {
  test(`a ${role} file that yields ${delta > 0 ? 'fewer' : 'more'} rows than the manifest says fails the import`, async () => {
    const adapter = memoryAdapter();
    await adapter.connect();
    const claimed = { ...dataset, [role]: dataset[role] + delta };
    await assert.rejects(importDataset({ adapter, description: memory, options: {}, dataset: claimed }), (error) => {
      assert.equal(error.code, 'E_DATASET');
      assert.equal(error.message,
        `${dataset.files[role]}: read ${dataset[role]} rows where the dataset's manifest says ${dataset[role] + delta}`);
      return true;
    });
  });
}

test('the import summary shows the dataset lines repaired or skipped while reading, only when there were some', () => {
  const stats = (repairedLines, skippedLines) => ({ rows: 5, repairedLines, skippedLines, skipped: [], comments: 0 });
  const result = {
    db: { name: 'Some DB', version: '1' },
    dataset: { name: 'pokec', scale: 'full', profiles: 5, relations: 5, seed: 1, readStats: null },
    import: { ms: 1000, profilesMs: 500, relationsMs: 400, indexesMs: 100, profilesPerSec: 10, relationsPerSec: 12 },
  };
  const readLines = () => formatImport(result).split('\n').filter((line) => /repaired|skipped/.test(line));
  assert.deepEqual(readLines(), []);
  result.dataset.readStats = { profiles: stats(0, 0), relations: stats(0, 0) };
  assert.deepEqual(readLines(), []);
  result.dataset.readStats.profiles = stats(2, 0);
  assert.deepEqual(readLines(), ['dataset files read: profiles 2 lines repaired (invalid UTF-8)']);
});

test('the import summary names the offline path with the importer\'s time, or why the import went online', () => {
  const result = {
    db: { name: 'Neo4j', version: '5.26.30' },
    dataset: { name: 'synthetic', scale: 'small', profiles: 5, relations: 5, seed: 1, readStats: null },
    import: {
      ms: 9000, profilesMs: 500, relationsMs: 400, loadMs: 8000, indexesMs: 100, profilesPerSec: 10, relationsPerSec: 12, path: 'offline',
    },
  };
  const lines = formatImport(result).split('\n');
  assert.equal(lines[1], 'import: 9.0 s offline, counts verified');
  assert.ok(lines.includes('  load           8.0 s  (the importer, the server restarted on its database)'), lines.join('\n'));
  result.import = { ...result.import, path: 'online', loadMs: undefined, onlineBecause: 'database "neo4j" holds nodes labelled X' };
  const online = formatImport(result).split('\n');
  assert.equal(online[1], 'import: 9.0 s, counts verified');
  assert.equal(online[2], '  online: database "neo4j" holds nodes labelled X');
  assert.ok(!online.some((line) => line.startsWith('  load')));
});

test('bench run\'s import line names the offline path with the importer\'s time, or why the import went online', () => {
  const result = {
    db: { name: 'Neo4j', version: '5.26.30', kind: 'server', execution: 'parallel' },
    dataset: { name: 'synthetic', scale: 'small', profiles: 5, relations: 5, seed: 1, readStats: null },
    config: { concurrency: 25, runs: 1 },
    resources: null,
    complete: true,
    workloads: {},
    import: {
      reused: false, ms: 9000, profilesMs: 500, relationsMs: 400, loadMs: 8000, indexesMs: 100, profilesPerSec: 10, relationsPerSec: 12, path: 'offline',
    },
  };
  const importLine = () => formatTable(result).split('\n').find((line) => line.startsWith('import:'));
  assert.match(importLine(), /^import: .* s \(profiles 10\/s, relations 12\/s, indexes .* s; offline: importer and restart 8.* s\)$/);
  result.import = { ...result.import, path: 'online', loadMs: undefined, onlineBecause: 'database "neo4j" holds nodes labelled X' };
  assert.match(importLine(), /indexes .* s; online: database "neo4j" holds nodes labelled X\)$/);
  result.import = { ...result.import, onlineBecause: undefined };
  assert.match(importLine(), /indexes [\d.]+ s\)$/);
});

test('a foreign namespace is refused, by the import and by a suite that only claims it; an absent one is made', async () => {
  const namespace = `import_foreign_${process.pid}`;
  await memory.testSupport.plantForeign({ namespace });
  const options = { namespace };
  const foreign = (error) => {
    assert.equal(error.code, 'E_NAMESPACE_FOREIGN');
    assert.equal(error.message, `In-process memory: namespace "${namespace}" holds objects that db-shootout did not create; `
      + 'it will not touch them. Choose another --namespace, or remove those objects yourself.');
    return true;
  };
  const adapter = memoryAdapter(namespace);
  await adapter.connect();
  await assert.rejects(importDataset({ adapter, description: memory, options, dataset }), foreign);
  await assert.rejects(importDataset({ adapter, description: memory, options, dataset, force: true }), foreign);
  await assert.rejects(claimNamespace({ adapter, description: memory, options }), foreign);
  assert.equal((await adapter.inspectNamespace()).state, 'foreign', 'left as it was');
  await memory.testSupport.dropNamespace({ namespace });

  const fresh = memoryAdapter();
  await fresh.connect();
  assert.equal((await fresh.inspectNamespace()).state, 'absent');
  await claimNamespace({ adapter: fresh, description: memory, options: {} });
  assert.deepEqual(await fresh.inspectNamespace(), { state: 'owned', marker: {} });
});

test('claiming an owned namespace keeps what it holds', async () => {
  const adapter = memoryAdapter();
  await adapter.connect();
  await importDataset({ adapter, description: memory, options: {}, dataset });
  const before = await adapter.inspectNamespace();
  await claimNamespace({ adapter, description: memory, options: {} });
  assert.deepEqual(await adapter.inspectNamespace(), before);
  assert.deepEqual(await adapter.counts(), { profiles: dataset.profiles, relations: dataset.relations });
});

test('--reimport imports an owned namespace again; other counts than the dataset\'s are not reused', async () => {
  const adapter = memoryAdapter();
  await adapter.connect();
  const first = await importDataset({ adapter, description: memory, options: {}, dataset });
  const again = await importDataset({ adapter, description: memory, options: {}, dataset, force: true });
  assert.equal(again.reused, false);
  assert.notEqual(again.importedAt, first.importedAt);
  for (const [counts, difference] of [
    [{ profiles: dataset.profiles - 1, relations: dataset.relations }, '1 fewer profile than the dataset'],
    [{ profiles: dataset.profiles, relations: 0 }, `${dataset.relations} fewer relations than the dataset`],
    [{ profiles: dataset.profiles, relations: dataset.relations + 7 }, '7 more relations than the dataset'],
  ]) {
    // A finished import first, so that the counts alone can stand in the way of its reuse.
    await importDataset({ adapter, description: memory, options: {}, dataset, force: true });
    const lying = new Proxy(adapter, {
      get(target, name) {
        if (name === 'counts') return async () => counts;
        const value = target[name];
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const progress = recordingProgress();
    await importDataset({ adapter: lying, description: memory, options: {}, dataset, progress }).catch(() => {});
    const [, text] = progress.events.find(([kind]) => kind === 'log');
    assert.equal(text, `In-process memory: not reusing the data in the namespace (it holds ${counts.profiles} profiles and `
      + `${counts.relations} relations where the dataset has ${dataset.profiles} and ${dataset.relations}: ${difference}); importing again`);
  }
});

test('the import\'s timings add up, and its rates are rows over their phase\'s seconds', async () => {
  const adapter = memoryAdapter();
  await adapter.connect();
  const progress = recordingProgress();
  const result = await importDataset({ adapter, description: memory, options: {}, dataset, progress });
  const near = (a, b) => assert.ok(Math.abs(a - b) <= 0.01, `${a} vs ${b}`);
  near(result.profilesMs + result.relationsMs + result.indexesMs, result.ms);
  assert.ok(result.profilesMs > 0 && result.relationsMs > 0 && result.indexesMs >= 0);
  assert.ok(Math.abs(result.profilesPerSec - dataset.profiles / (result.profilesMs / 1000)) <= 0.01 * result.profilesPerSec + 1);
  assert.ok(Math.abs(result.relationsPerSec - dataset.relations / (result.relationsMs / 1000)) <= 0.01 * result.relationsPerSec + 1);
  assert.deepEqual(result.read, { profiles: { repairedLines: 0, skippedLines: 0 }, relations: { repairedLines: 0, skippedLines: 0 } });
  const { marker } = await adapter.inspectNamespace();
  assert.equal(marker.harness, 'db-shootout');
  assert.deepEqual(marker.timings, Object.fromEntries(['ms', 'profilesMs', 'relationsMs', 'indexesMs', 'profilesPerSec', 'relationsPerSec', 'read', 'path'].map((k) => [k, result[k]])));
  // An adapter without an offline importer imports online, with no reason to give.
  assert.equal(result.path, 'online');
  assert.equal(result.onlineBecause, undefined);
  const labels = progress.events.filter(([kind]) => kind === 'bar').map(([, label]) => label);
  for (const label of ['import profiles into In-process memory', 'import relations into In-process memory']) assert.ok(labels.includes(label), labels.join('; '));
});

// The memory store as an adapter that takes both files at once (filesTogether), with `hooks` in place of some of
// its bulk calls; every call and a flush's end recorded.
function togetherAdapter(hooks) {
  const store = memory.create({ namespace: `import_test_${process.pid}_${Math.random()}`, concurrency: 1 });
  const calls = [];
  const adapter = new Proxy(store, {
    get(target, name) {
      if (name === 'filesTogether') return async () => true;
      const value = hooks[name] ?? target[name];
      if (typeof value !== 'function') return value;
      return async (...args) => {
        calls.push(name);
        const done = await value.apply(target, args);
        if (name.startsWith('flush')) calls.push(`${name} done`);
        return done;
      };
    },
  });
  return { adapter, calls };
}

test('an adapter that takes the files together gets the profiles while the relations are finishing, each flushed once', async () => {
  let firstProfiles;
  const profilesBegan = new Promise((resolve) => { firstProfiles = resolve; });
  const { adapter, calls } = togetherAdapter({
    importProfiles(batch) {
      firstProfiles();
      return this.importProfiles(batch);
    },
    // Ends only once a profile batch has arrived: one file after the other, it would never end.
    flushProfiles: async () => {},
    flushRelations: () => Promise.race([profilesBegan, new Promise((resolve, reject) => setTimeout(() => reject(new Error('no profile batch while the relations were finishing')), 5000))]),
  });
  await adapter.connect();
  calls.length = 0;
  const result = await importDataset({ adapter, description: memory, options: {}, dataset });
  assert.equal(result.filesTogether, true);
  const first = (name) => calls.indexOf(name);
  assert.ok(calls.lastIndexOf('importRelations') < first('importProfiles'), `the relations are read first: ${calls.join(', ')}`);
  assert.ok(first('importProfiles') < first('flushRelations done'), calls.join(', '));
  for (const name of ['flushProfiles', 'flushProfiles done', 'flushRelations', 'flushRelations done']) {
    assert.equal(calls.filter((call) => call === name).length, 1, `${name} once: ${calls.join(', ')}`);
  }
  assert.deepEqual(await adapter.counts(), { profiles: dataset.profiles, relations: dataset.relations });
  // The two files overlap: the total is the relations' time (from the start) or the profiles' end, and the indexes.
  assert.ok(result.profilesMs < result.ms && result.relationsMs < result.ms);
  assert.ok(Math.abs(result.relationsPerSec - dataset.relations / (result.relationsMs / 1000)) <= 0.01 * result.relationsPerSec + 1);
  assert.ok(Math.abs(result.profilesPerSec - dataset.profiles / (result.profilesMs / 1000)) <= 0.01 * result.profilesPerSec + 1);
  const summary = formatImport({ db: { name: 'In-process memory', version: '1' }, dataset: { ...dataset, readStats: null }, import: result });
  assert.match(summary, /\n {2}profiles loaded while the server finished the relations: the two times overlap\n {2}profiles /);
  assert.doesNotMatch(formatImport({ db: { name: 'x', version: '1' }, dataset: { ...dataset, readStats: null }, import: { ...result, filesTogether: undefined } }), /overlap/);
});

test('taking the files together, relations that fail leave the profiles unread; profiles that fail fail the import once the relations are flushed', async () => {
  const failing = togetherAdapter({
    importRelations() {
      throw new Error('the relations failed');
    },
  });
  await failing.adapter.connect();
  failing.calls.length = 0;
  await assert.rejects(importDataset({ adapter: failing.adapter, description: memory, options: {}, dataset }), /^Error: the relations failed$/);
  assert.deepEqual(failing.calls.filter((name) => name.startsWith('import') || name.startsWith('flush')), ['importRelations']);
  assert.equal((await failing.adapter.inspectNamespace()).marker.imported, false);

  // The profiles fail while the relations are finishing: the flush ends, and the import fails with their error.
  const { adapter, calls } = togetherAdapter({
    importProfiles() {
      throw new Error('the profiles failed');
    },
    flushRelations: () => new Promise((resolve) => setTimeout(resolve, 50)),
  });
  await adapter.connect();
  calls.length = 0;
  await assert.rejects(importDataset({ adapter, description: memory, options: {}, dataset }), /^Error: the profiles failed$/);
  assert.deepEqual(calls.filter((name) => name.startsWith('import') || name.startsWith('flush')),
    ['importRelations', 'importRelations', 'flushRelations', 'importProfiles', 'flushRelations done']);
  assert.equal((await adapter.inspectNamespace()).marker.imported, false);
});

test('the import shows each step as a bar named after the database, in order', async () => {
  const { adapter } = recordingAdapter();
  await adapter.connect();
  const progress = recordingProgress();
  await importDataset({ adapter, description: memory, options: {}, dataset, progress });
  assert.deepEqual(progress.events.filter(([kind]) => kind === 'bar').map(([, label, total]) => [label, total]), [
    ['In-process memory: clearing the namespace', 1],
    ['import profiles into In-process memory', dataset.profiles],
    ['In-process memory: finishing the profiles', 1],
    ['import relations into In-process memory', dataset.relations],
    ['In-process memory: finishing the relations', 1],
    ['write relations (In-process memory)', 10],
    ['In-process memory: creating indexes', 1],
    ['In-process memory: counting', 1],
  ]);
});

test('taking the files together, relations that fail before their last batch leave the profiles file unopened', async () => {
  const { adapter } = togetherAdapter({
    importRelations() {
      throw new Error('the relations failed');
    },
  });
  await adapter.connect();
  const progress = recordingProgress();
  await assert.rejects(importDataset({ adapter, description: memory, options: {}, dataset, progress }), /^Error: the relations failed$/);
  const labels = progress.events.filter(([kind]) => kind === 'bar').map(([, label]) => label);
  assert.ok(labels.includes('import relations into In-process memory'), labels.join('; '));
  assert.ok(!labels.some((label) => label.includes('profiles')), labels.join('; '));
});

test('an offline importer takes the batches into its files, then loads them: its time and steps are recorded apart', async () => {
  const store = memory.create({ namespace: `import_test_${process.pid}_${Math.random()}`, concurrency: 1 });
  const calls = [];
  const steps = { importerMs: 30, replaceMs: 10 };
  const written = { profiles: [], relations: [] };
  const importer = {
    async importProfiles(docs) { written.profiles.push(...docs); },
    async importRelations(edges) { written.relations.push(...edges); },
    // The files into the store, as a database's own importer would, in a time of its own.
    async load() {
      calls.push('load');
      await store.importProfiles(written.profiles);
      await store.importRelations(written.relations);
      await new Promise((resolve) => setTimeout(resolve, 40));
      return steps;
    },
    async discard() { calls.push('discard'); },
  };
  const adapter = new Proxy(store, {
    get(target, name) {
      if (name === 'offlineImport') return async () => ({ importer });
      const value = target[name];
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  await adapter.connect();
  // The database an offline importer replaces exists already (here: the store's namespace, empty).
  await adapter.resetNamespace();
  const progress = recordingProgress();
  const result = await importDataset({ adapter, description: memory, options: {}, dataset, progress, offline: 'offline' });
  assert.equal(result.path, 'offline');
  assert.deepEqual(result.loadSteps, steps);
  assert.ok(result.loadMs >= 40 && result.loadMs < result.ms, `load ${result.loadMs} ms of ${result.ms}`);
  const near = (a, b) => assert.ok(Math.abs(a - b) <= 0.01, `${a} vs ${b}`);
  near(result.profilesMs + result.relationsMs + result.loadMs + result.indexesMs, result.ms);
  assert.deepEqual(calls, ['load', 'discard']);
  assert.deepEqual(await store.counts(), { profiles: dataset.profiles, relations: dataset.relations });
  const labels = progress.events.filter(([kind]) => kind === 'bar').map(([, label]) => label);
  assert.deepEqual(labels, ['write profiles for In-process memory', 'write relations for In-process memory',
    'In-process memory: importing the files offline and replacing the database', 'In-process memory: creating indexes',
    'In-process memory: counting']);
  // Online, no load time and no steps.
  const plain = memoryAdapter();
  await plain.connect();
  const online = await importDataset({ adapter: plain, description: memory, options: {}, dataset, force: true });
  assert.equal(online.loadMs, undefined);
  assert.equal(online.loadSteps, undefined);
});

// The memory store as an adapter with an offline importer: `offlineImport` answers as given (a refusal, or the
// importer below, which writes the batches aside and loads them into the store), every call recorded with its
// arguments.
function offlineAdapter({ refused } = {}) {
  const store = memory.create({ namespace: `import_test_${process.pid}_${Math.random()}`, concurrency: 1 });
  const asked = [];
  const written = { profiles: [], relations: [] };
  const importer = {
    async importProfiles(docs) { written.profiles.push(...docs); },
    async importRelations(edges) { written.relations.push(...edges); },
    async load() {
      await store.importProfiles(written.profiles);
      await store.importRelations(written.relations);
      return { steps: 1 };
    },
    async discard() {},
  };
  const adapter = new Proxy(store, {
    get(target, name) {
      if (name === 'offlineImport') {
        return async (args) => {
          asked.push(args);
          return refused ? { refused } : { importer };
        };
      }
      const value = target[name];
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { adapter, asked };
}

const FEWER_THAN = 'the dataset has fewer than 100,000 profiles, where the offline importer\'s start-up costs more than it saves '
  + '(--import-path offline takes it anyway)';

test('an import into an absent namespace, online without an offline importer, logs nothing', async () => {
  const adapter = memoryAdapter();
  await adapter.connect();
  const progress = recordingProgress();
  const result = await importDataset({ adapter, description: memory, options: {}, dataset, progress });
  assert.equal(result.reused, false);
  assert.deepEqual(progress.events.filter(([kind]) => kind === 'log'), []);
  assert.ok(!('onlineBecause' in result), Object.keys(result).join(', '));
});

test('every step without a count shown as a bar is stopped once its work ends', async () => {
  const { adapter } = recordingAdapter();
  await adapter.connect();
  const progress = recordingProgress();
  await importDataset({ adapter, description: memory, options: {}, dataset, progress });
  const steps = progress.events.filter(([kind, , total]) => kind === 'bar' && total === 1).map(([, label]) => label);
  assert.equal(steps.length, 5, steps.join('; '));
  for (const label of steps) {
    assert.deepEqual(progress.events.filter(([kind, name]) => kind === 'stop' && name === label), [['stop', label, undefined]], label);
  }
});

test('a stale namespace is imported again without a progress object to log the reason to', async () => {
  const adapter = memoryAdapter();
  await adapter.connect();
  await importDataset({ adapter, description: memory, options: {}, dataset });
  const { marker } = await adapter.inspectNamespace();
  await adapter.writeMarker({ ...marker, imported: false });
  const again = await importDataset({ adapter, description: memory, options: {}, dataset });
  assert.equal(again.reused, false);
  assert.equal((await adapter.inspectNamespace()).marker.imported, true);
});

test('an owned namespace whose marker is missing is taken for an unfinished import and imported again', async () => {
  const store = memoryAdapter();
  await store.connect();
  const adapter = new Proxy(store, {
    get(target, name) {
      if (name === 'inspectNamespace') return async () => ({ state: 'owned', marker: null });
      const value = target[name];
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const progress = recordingProgress();
  const result = await importDataset({ adapter, description: memory, options: {}, dataset, progress });
  assert.equal(result.reused, false);
  assert.deepEqual(progress.events.filter(([kind]) => kind === 'log'),
    [['log', 'In-process memory: not reusing the data in the namespace (its last import did not finish); importing again']]);
});

test('a changed file\'s error names both checksums, the hint, and that the next import replaces what was read', async () => {
  const adapter = memoryAdapter();
  await adapter.connect();
  const recorded = 'cd'.repeat(32);
  const changed = { ...dataset, sha256: { ...dataset.sha256, profiles: recorded } };
  await assert.rejects(importDataset({ adapter, description: memory, options: {}, dataset: changed }), (error) => {
    assert.equal(error.code, 'E_DATASET');
    assert.equal(error.message, `${dataset.files.profiles}: the file read hashes to sha256 ${sha256Of(dataset.files.profiles)}, `
      + `but the dataset's manifest records ${recorded}: the file changed after the dataset was prepared; `
      + `${dataset.changedFileHints.profiles}. The data read from it is left in the namespace as an unfinished import, `
      + 'which the next import replaces');
    return true;
  });
});

test('an adapter that declares profileRows and relationRows gets each file as rows made on the reader\'s thread', async () => {
  const store = memoryAdapter();
  await store.connect();
  const format = { module: BULK_LOAD_MODULE, name: 'lineParts', input: 'lines', options: { parts: 1 } };
  const got = { profiles: { lines: [], counts: 0 }, relations: { lines: [], counts: 0 } };
  const take = (role) => async (rows, count) => {
    assert.ok(Array.isArray(rows), `${role}: rows as lineParts makes them`);
    const text = rows.map((part) => Buffer.from(part).toString('utf8')).join('');
    got[role].lines.push(...text.split('\n').filter(Boolean));
    got[role].counts += count;
  };
  const plain = [];
  const adapter = new Proxy(store, {
    get(target, name) {
      if (name === 'profileRows') return async () => format;
      if (name === 'relationRows') return () => format;
      if (name === 'importProfileRows') return take('profiles');
      if (name === 'importRelationRows') return take('relations');
      if (name === 'importProfiles' || name === 'importRelations') return async () => { plain.push(name); };
      if (name === 'counts') return async () => ({ profiles: got.profiles.lines.length, relations: got.relations.lines.length });
      const value = target[name];
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const result = await importDataset({ adapter, description: memory, options: {}, dataset });
  assert.deepEqual(plain, []);
  assert.deepEqual(result.sha256, { profiles: sha256Of(dataset.files.profiles), relations: sha256Of(dataset.files.relations) });
  for (const role of ['profiles', 'relations']) {
    assert.equal(got[role].counts, dataset[role], `${role}: the counts given with the rows`);
    assert.equal(got[role].lines.length, dataset[role], role);
  }
  // Profile lines are `<key>\t<JSON>`, relation lines `<key>\t<key>`.
  assert.match(got.profiles.lines[0], /^[^\t]+\t\{"_key":/);
  assert.match(got.relations.lines[0], /^[^\t]+\t[^\t]+$/);
});

test('an offline importer is not asked for below 100,000 profiles on auto, the default, and the reason is logged and recorded', async () => {
  const { adapter, asked } = offlineAdapter();
  await adapter.connect();
  const progress = recordingProgress();
  const result = await importDataset({ adapter, description: memory, options: {}, dataset, progress });
  assert.deepEqual(asked, []);
  assert.equal(result.path, 'online');
  assert.equal(result.onlineBecause, FEWER_THAN);
  assert.deepEqual(progress.events.filter(([kind]) => kind === 'log'), [['log', `In-process memory: importing online (${FEWER_THAN})`]]);
  assert.equal((await adapter.inspectNamespace()).marker.timings.onlineBecause, FEWER_THAN);
  // Without a progress object the reason is only recorded.
  const quiet = offlineAdapter();
  await quiet.adapter.connect();
  const again = await importDataset({ adapter: quiet.adapter, description: memory, options: {}, dataset, offline: 'auto' });
  assert.equal(again.onlineBecause, FEWER_THAN);
  assert.deepEqual(quiet.asked, []);
});

test('--import-path online (or false) keeps an offline importer unasked, and says so', async () => {
  for (const offline of ['online', false]) {
    const { adapter, asked } = offlineAdapter();
    await adapter.connect();
    const progress = recordingProgress();
    const result = await importDataset({ adapter, description: memory, options: {}, dataset, progress, offline });
    assert.deepEqual(asked, [], String(offline));
    assert.equal(result.path, 'online');
    assert.equal(result.onlineBecause, 'the online path was asked for');
    assert.deepEqual(progress.events.filter(([kind]) => kind === 'log'), [['log', 'In-process memory: importing online (the online path was asked for)']]);
  }
});

test('--import-path offline (or true) asks the offline importer whatever the size, with the server and the unfinished marker', async () => {
  for (const offline of ['offline', true]) {
    const { adapter, asked } = offlineAdapter();
    await adapter.connect();
    await adapter.resetNamespace();
    const server = { pid: 12345 };
    const progress = recordingProgress();
    const result = await importDataset({ adapter, description: memory, options: {}, dataset, progress, offline, server });
    assert.equal(asked.length, 1, String(offline));
    assert.equal(asked[0].server, server);
    assert.deepEqual(asked[0].marker, { harness: 'db-shootout', dataset: dataset.id, name: 'synthetic', scale: 'tiny', seed: 1, imported: false });
    assert.equal(result.path, 'offline');
    assert.ok(!('onlineBecause' in result));
    assert.deepEqual(result.loadSteps, { steps: 1 });
    assert.ok(!progress.events.some(([kind, text]) => kind === 'log' && text.includes('importing online')), JSON.stringify(progress.events));
  }
});

test('an offline importer that refuses leaves the import online with its reason', async () => {
  const { adapter, asked } = offlineAdapter({ refused: 'database "neo4j" holds nodes labelled X' });
  await adapter.connect();
  const progress = recordingProgress();
  const result = await importDataset({ adapter, description: memory, options: {}, dataset, progress, offline: 'offline' });
  assert.equal(asked.length, 1);
  assert.equal(result.path, 'online');
  assert.equal(result.onlineBecause, 'database "neo4j" holds nodes labelled X');
  assert.equal(result.loadMs, undefined);
  assert.deepEqual(progress.events.filter(([kind]) => kind === 'log'), [['log', 'In-process memory: importing online (database "neo4j" holds nodes labelled X)']]);
});

test('auto asks the offline importer from exactly 100,000 profiles up', async () => {
  for (const [profiles, askedFor] of [[99_999, false], [100_000, true]]) {
    const { adapter, asked } = offlineAdapter({ refused: 'refused here' });
    await adapter.connect();
    const progress = recordingProgress();
    // The files hold fewer: the import fails on their rows, after the path is chosen.
    await assert.rejects(importDataset({ adapter, description: memory, options: {}, dataset: { ...dataset, profiles }, progress }), /E_DATASET|rows where/);
    assert.equal(asked.length, askedFor ? 1 : 0, String(profiles));
    const [[, text]] = progress.events.filter(([kind]) => kind === 'log');
    assert.equal(text, `In-process memory: importing online (${askedFor ? 'refused here' : FEWER_THAN})`);
  }
});

test('--import-path takes auto, offline and online, and importDataset takes each as its path', async () => {
  assert.deepEqual(IMPORT_PATHS, ['auto', 'offline', 'online']);
  const taken = {};
  for (const offline of IMPORT_PATHS) {
    const { adapter } = offlineAdapter();
    await adapter.connect();
    await adapter.resetNamespace();
    taken[offline] = (await importDataset({ adapter, description: memory, options: {}, dataset, offline })).path;
  }
  // auto: online below 100,000 profiles.
  assert.deepEqual(taken, { auto: 'online', offline: 'offline', online: 'online' });
});
