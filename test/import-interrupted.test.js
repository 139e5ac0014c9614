// An import interrupted in the middle of its relations, as Ctrl-C interrupts `bench run` (the adapter is closed
// while a phase is open, the profiles' too where the adapter loads both files at once), then run again: on `small`, against the real PostgreSQL and MySQL servers and SQLite's
// file. The interrupted import is never taken for a finished one; the rerun imports again and ends with the
// dataset's exact counts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import mysql from '../adapters/mysql/description.js';
import postgresql from '../adapters/postgresql/description.js';
import sqlite from '../adapters/sqlite/description.js';
import { prepareDataset } from '../datasets/dataset.js';
import { importDataset } from '../import/import.js';
import { serverTarget } from './helpers/servers.js';

const NAMESPACE = 'dbshootout_test_interrupted';
const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'bench-import-interrupted-'));
let dataset;

before(async () => {
  dataset = await prepareDataset({ scale: 'small', cacheDir });
});

after(() => rmSync(cacheDir, { recursive: true, force: true }));

// The adapter, closed by its second relations batch: the relations phase is open, with a batch already sent.
// The batch comes as relations, or as rows made on the reader's thread where the adapter declares relationRows().
function interruptedOnRelations(adapter) {
  let batches = 0;
  return new Proxy(adapter, {
    get(target, name) {
      if (name === 'importRelations' || name === 'importRelationRows') {
        return async (...batch) => {
          batches += 1;
          if (batches < 2) return target[name](...batch);
          await target.close();
          throw new Error('interrupted');
        };
      }
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const targets = [
  { description: postgresql, ...serverTarget(postgresql, { namespace: NAMESPACE }) },
  { description: mysql, ...serverTarget(mysql, { namespace: NAMESPACE }) },
  { description: sqlite, options: { namespace: NAMESPACE, concurrency: 1, dataDir: cacheDir } },
];

for (const { description, options, skip } of targets) {
  describe(`${description.id}: an interrupted import`, { skip }, () => {
    test('leaves a marker that says so, and a rerun imports the dataset again with its exact counts', async () => {
      const first = description.create(options);
      await first.connect();
      // Loading both files at once, the profiles may still be open when the relations are interrupted.
      const together = (await first.filesTogether?.()) === true;
      try {
        await assert.rejects(
          importDataset({ adapter: interruptedOnRelations(first), description, options, dataset, force: true }),
          /interrupted/);
      } finally {
        await first.close();
      }

      const again = description.create(options);
      await again.connect();
      try {
        const left = await again.inspectNamespace();
        assert.equal(left.state, 'owned');
        assert.equal(left.marker.imported, false, 'the interrupted import is not marked done');
        const counts = await again.counts();
        if (together) assert.ok(counts.profiles <= dataset.profiles, `${counts.profiles} profiles left of ${dataset.profiles}`);
        else assert.equal(counts.profiles, dataset.profiles, 'the profiles phase had been flushed');
        assert.ok(counts.relations < dataset.relations, `${counts.relations} relations left of ${dataset.relations}`);

        const result = await importDataset({ adapter: again, description, options, dataset });
        assert.equal(result.reused, false);
        assert.deepEqual(await again.counts(), { profiles: dataset.profiles, relations: dataset.relations });
        assert.equal((await again.inspectNamespace()).marker.imported, true);
      } finally {
        await again.close();
        await description.testSupport.dropNamespace(options);
      }
    });
  });
}
