// The importer's side of the bulk-import contract (adapters/README.md), on the in-process memory store wrapped
// so that every call is recorded: the order of the calls, which phase a flush is timed in, and the progress bar
// a long flushRelations() is given.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import memory from '../adapters/memory/description.js';
import { prepareDataset } from '../datasets/dataset.js';
import { importDataset } from '../import/import.js';

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
