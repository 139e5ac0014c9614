// The shared conformance suite against every adapter whose database is available here. In-process ones
// always run; a server adapter runs when its server is up, skips with the reason otherwise, and fails
// instead of skipping when BENCH_REQUIRE lists it (CI sets that).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { loadAdapter } from '../adapters/index.js';
import { conformanceCases } from './conformance/suite.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-conformance-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const baseOptions = {
  host: null, port: null, user: null, database: null, password: undefined,
  namespace: 'dbshootout_conformance', concurrency: 25, connectTimeoutMs: 5000, dataDir,
};

for (const id of ['memory', 'sqlite']) {
  const description = await loadAdapter(id);
  const options = { ...baseOptions, ...description.connection.defaults };
  describe(`conformance: ${id}`, () => {
    for (const { name, run, skip } of conformanceCases(description)) {
      test(name, { skip }, () => run({ options }));
    }
  });
}
