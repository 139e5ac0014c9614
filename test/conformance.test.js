// The shared conformance suite against every adapter. In-process ones always run; a server adapter runs
// against the local server `bench server start` runs, skips with the reason when there is none, and fails
// instead of skipping when BENCH_REQUIRE lists it (CI sets that).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { adapterIds, loadAdapter } from '../adapters/index.js';
import { conformanceCases } from './conformance/suite.js';
import { serverTarget } from './helpers/servers.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-conformance-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const NAMESPACE = 'dbshootout_conformance';

function embeddedTarget(description) {
  return {
    options: {
      host: null, port: null, user: null, password: undefined, ...description.connection.defaults,
      namespace: NAMESPACE, concurrency: 25, connectTimeoutMs: 5000, dataDir,
    },
  };
}

for (const id of adapterIds()) {
  const description = await loadAdapter(id);
  const { options, skip } = description.kind === 'server'
    ? serverTarget(description, { namespace: NAMESPACE })
    : embeddedTarget(description);
  describe(`conformance: ${id}`, { skip }, () => {
    // A server keeps what the suite created; the suite's namespaces are its own to remove, once one of its cases
    // ran (a --test-name-pattern that selects none of them leaves another run's namespaces alone).
    let ran = false;
    after(() => (ran ? description.testSupport?.dropNamespace?.(options) : undefined));
    for (const { name, run, skip: caseSkip } of conformanceCases(description)) {
      test(name, { skip: caseSkip }, () => {
        ran = true;
        return run({ options });
      });
    }
  });
}
