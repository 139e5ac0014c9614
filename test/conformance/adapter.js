// The shared conformance suite (./suite.js) as the tests of one adapter: an embedded one in a data directory of the
// file's own, a server adapter against the local server `bench server start` runs (or BENCH_<ID>_URL), skipping
// with the reason when there is none and failing instead when BENCH_REQUIRE lists it (CI sets that).
// test/conformance.test.js runs it for every registered adapter without a file of its own here; each adapter with
// a local server family has one (test/conformance/<id>.test.js), so that `BENCH_TEST_JOBS` can run it beside the
// tests of the other servers.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { loadAdapter } from '../../adapters/index.js';
import { serverSupportsAt } from '../../adapters/server-supports.js';
import { serverTarget, urlEnv } from '../helpers/servers.js';
import { conformanceCases } from './suite.js';

export const NAMESPACE = 'dbshootout_conformance';
// A case touches a server, or starts a process of its own: none may hang the file.
const CASE_TIMEOUT_MS = 300_000;

// A data directory of the test file's own, removed when the file ends.
export function testDataDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-conformance-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function embeddedTarget(description, dataDir) {
  return {
    options: {
      host: null, port: null, user: null, password: undefined, ...description.connection.defaults,
      namespace: NAMESPACE, concurrency: 25, connectTimeoutMs: 5000, dataDir,
    },
  };
}

// The description as the server answers it (adapters/server-supports.js): the cases of an operation it lacks skip
// with its reason. A server that cannot be reached keeps the declared one; the connect case then says why.
async function asServerAnswers(description, options) {
  if (!options || description.kind !== 'server') return description;
  try {
    return await serverSupportsAt(description, options);
  } catch {
    return description;
  }
}

// Declares the conformance tests of the adapter `id`; embedded ones keep their files in `dataDir`.
export async function conformanceTests(id, dataDir = testDataDir()) {
  const declared = await loadAdapter(id);
  const { options, skip } = declared.kind === 'server'
    ? serverTarget(declared, { namespace: NAMESPACE })
    : embeddedTarget(declared, dataDir);
  const description = await asServerAnswers(declared, options);
  describe(`conformance: ${id}`, { skip }, () => {
    // A server keeps what the suite created; the suite's namespaces are its own to remove, once one of its cases
    // ran (a --test-name-pattern that selects none of them leaves another run's namespaces alone).
    let ran = false;
    after(() => (ran ? description.testSupport?.dropNamespace?.(options) : undefined));
    for (const { name, run, skip: caseSkip } of conformanceCases(description)) {
      test(name, { skip: caseSkip, timeout: CASE_TIMEOUT_MS }, () => {
        ran = true;
        // The local server `bench server` runs is the harness's own; one named by BENCH_<ID>_URL is not.
        return run({ options, owned: description.kind === 'server' && !process.env[urlEnv(description)] });
      });
    }
  });
}
