// Which import path the social suite takes for a database with an offline importer: `online` when asked, `auto`
// online below OFFLINE_MIN_PROFILES (the importer's start-up costs more than it saves), and otherwise what the
// adapter allows; the result records the path and why it was online. The memory adapter stands in for the
// database here, with an offline importer that always refuses: the decision is the harness's, not the database's.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import memory from '../adapters/memory/description.js';
import { prepareDataset } from '../datasets/dataset.js';
import { OFFLINE_MIN_PROFILES, importDataset } from '../import/import.js';

const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'bench-import-path-'));
after(() => rmSync(cacheDir, { recursive: true, force: true }));
const dataset = await prepareDataset({ scale: 'tiny', cacheDir });

let lastAsked = [];

async function importWith(offline, { profiles = dataset.profiles } = {}) {
  const options = { namespace: `import_path_${Math.random().toString(36).slice(2)}`, database: 'import-path' };
  const adapter = memory.create(options);
  await adapter.connect();
  const asked = [];
  lastAsked = asked;
  adapter.offlineImport = async ({ server }) => {
    asked.push(server);
    return { refused: 'the stand-in never imports offline' };
  };
  try {
    const result = await importDataset({ adapter, description: memory, options, dataset: { ...dataset, profiles }, force: true, offline });
    return { result, asked };
  } finally {
    await adapter.close();
  }
}

test('auto: below the threshold online without asking the adapter, from it on the adapter decides', async () => {
  assert.ok(dataset.profiles < OFFLINE_MIN_PROFILES);
  const small = await importWith('auto');
  assert.equal(small.result.path, 'online');
  assert.match(small.result.onlineBecause, /fewer than 100,000 profiles.*--import-path offline takes it anyway/);
  assert.equal(small.asked.length, 0);
  // A dataset at the threshold (its count stated so) goes to the adapter; the tiny import then fails its count
  // check, after the path was chosen.
  const large = await importWith('auto', { profiles: OFFLINE_MIN_PROFILES }).catch((error) => error);
  assert.match(large.message, /read 1000 rows where the dataset's manifest says 100000/);
  assert.equal(lastAsked.length, 1, 'the adapter was asked');
});

test('offline asks the adapter whatever the size; online never does; either way the path is recorded', async () => {
  const offline = await importWith('offline');
  assert.equal(offline.asked.length, 1);
  assert.equal(offline.result.path, 'online');
  assert.equal(offline.result.onlineBecause, 'the stand-in never imports offline');
  const forced = await importWith(true);
  assert.equal(forced.asked.length, 1, 'true is offline');
  const online = await importWith('online');
  assert.equal(online.asked.length, 0);
  assert.equal(online.result.onlineBecause, 'the online path was asked for');
});
