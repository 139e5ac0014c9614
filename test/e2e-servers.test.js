// A validated end-to-end `bench run` of every workload on the tiny dataset against each server adapter that
// has a server to talk to (see test/helpers/servers.js). Skips without one, fails instead when BENCH_REQUIRE
// lists the adapter. That `bench run` finds a local server with no flags at all is tested in test/server.test.js.
// `tiny` draws every kind of parameter the larger scales draw; runs at scale are benchmarks/' business.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { adapterIds, loadAdapter } from '../adapters/index.js';
import { serverSupportsAt } from '../adapters/server-supports.js';
import { isSupported } from '../workloads/index.js';
import { WORKLOADS, WORKLOAD_NAMES } from '../workloads/social/workloads.js';
import { expectedStatus, termFor } from './helpers/terms.js';
import { spawnBench } from './helpers/cli.js';
import { connectionFlags, serverTarget } from './helpers/servers.js';

const NAMESPACE = 'dbshootout_e2e';
// A whole run, import included.
const TIMEOUT_MS = 600_000;
const STALL_S = 300;
// Workloads left out of a database's run here, for CI's time, each with why; the conformance suite runs them on its
// fixture, and `bench check` runs them whole. FerretDB 1.x scans the relations for every level of a path search.
const LEFT_OUT = { ferretdb: { workloads: ['shortestPath', 'hardPath'], why: 'minutes on tiny: each level of the search scans the relations' } };
const out = mkdtempSync(path.join(os.tmpdir(), 'bench-e2e-'));
after(() => rmSync(out, { recursive: true, force: true }));

for (const id of adapterIds()) {
  const description = await loadAdapter(id);
  if (description.kind !== 'server') continue;
  // An adapter of the crud suite alone (couchdb) has no workload here; test/<id>/ runs its suite end to end.
  if (!description.supports.includes('singleRead')) continue;
  const { options, skip } = serverTarget(description, { namespace: NAMESPACE });
  if (!skip) after(() => description.testSupport?.dropNamespace?.(options));
  test(`bench run --db ${id} --scale tiny validates every workload`, { skip, timeout: TIMEOUT_MS }, async () => {
    // The target's connection as a user would give it: flags, and the password in the adapter's variable.
    const { flags, env } = connectionFlags(description, options);
    // Under the default durability term where the database offers it, else under the one it offers.
    const term = termFor(description);
    // A stall is a hang only after STALL_S: FerretDB answers its first shortest paths after a minute or more, at
    // concurrency 25 on a loaded machine, each level a scan of the relations (adapters/ferretdb/README.md).
    const names = WORKLOAD_NAMES.filter((name) => !LEFT_OUT[id]?.workloads.includes(name));
    const { code, stdout, stderr } = await spawnBench(['run', '--db', id, '--scale', 'tiny', '--runs', '1', '--json',
      '--quiet', '--namespace', NAMESPACE, '--out', out, '--durability', term, '--stall-timeout', String(STALL_S),
      '--workload', names.join(','), ...flags], { env, timeoutMs: TIMEOUT_MS });
    assert.equal(code, 0, stderr);
    const result = JSON.parse(stdout);
    assert.equal(result.db.id, id);
    assert.equal(result.complete, true);
    assert.equal(result.config.concurrency, 25);
    assert.deepEqual(Object.keys(result.workloads), names);
    assert.equal(result.terms.durability.term, term);
    assert.equal(result.terms.durability.verified, true, JSON.stringify(result.terms.durability.problems));
    // What the server lacks of `supports` (FerretDB's operators) is unsupported, with its reason; all else passes.
    const answered = await serverSupportsAt(description, options);
    for (const workload of WORKLOADS.filter(({ name }) => names.includes(name))) {
      const entry = result.workloads[workload.name];
      const expected = isSupported(answered, workload) ? expectedStatus(description, workload, term) : 'unsupported';
      assert.equal(entry.status, expected, `${workload.name}: ${JSON.stringify(entry.failures ?? entry.reason)}`);
      if (!isSupported(answered, workload)) assert.equal(entry.reason, answered.unsupported[workload.operation]);
    }
  });
}
