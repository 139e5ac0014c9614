// Every database that runs here, under both durability terms, through the real CLI: the crud suite's writes
// (small sizes) under the term asked for, read back and recorded, or unsupported with the reason where the database
// cannot give the term, or the run refused where the server holds the other one. A local server is the harness's
// own (no --host, no --port), so a server-wide term is set on it; one named by BENCH_<ID>_URL is not.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { adapterIds, loadAdapter } from '../adapters/index.js';
import { DEFAULT_DURABILITY, DURABILITY_TERMS, declaredTerm } from '../core/terms.js';
import { spawnBench } from './helpers/cli.js';
import { connectionFlags, serverTarget, urlEnv } from './helpers/servers.js';

const NAMESPACE = 'dbshootout_e2e_terms';
const TIMEOUT_MS = 180_000;
const out = mkdtempSync(path.join(os.tmpdir(), 'bench-e2e-terms-'));
after(() => rmSync(out, { recursive: true, force: true }));

for (const id of adapterIds()) {
  const description = await loadAdapter(id);
  if (!description.supports.includes('insertDocument')) continue;
  const target = description.kind === 'server' ? serverTarget(description, { namespace: NAMESPACE }) : { options: null, skip: false };
  const { options, skip } = target;
  if (!skip && description.kind === 'server') after(() => description.testSupport?.dropNamespace?.(options));
  const named = description.kind === 'server' && process.env[urlEnv(description)];
  // A server-wide term set on the harness's own server stays set: the default term last, and set back after, so
  // that the tests after these find the server as it starts (MariaDB under the relaxed term).
  if (!skip && !named && description.terms.durability.scope === 'server') {
    after(async () => {
      const adapter = description.create({ ...options, concurrency: 1 });
      await adapter.connect();
      try {
        await adapter.terms({ durability: DEFAULT_DURABILITY, owned: true });
      } finally {
        await adapter.close();
      }
    });
  }
  for (const term of [...DURABILITY_TERMS].sort((a, b) => (a === DEFAULT_DURABILITY) - (b === DEFAULT_DURABILITY))) {
    test(`bench run --db ${id} --suite crud --durability ${term}: every write under the term, or unsupported with the reason`, { skip, timeout: TIMEOUT_MS }, async () => {
      const { flags, env } = named ? connectionFlags(description, options) : { flags: [], env: {} };
      const { code, stdout, stderr } = await spawnBench(['run', '--db', id, '--suite', 'crud', '--runs', '1', '--ops', '30', '--concurrency', '1,4',
        '--durability', term, '--namespace', NAMESPACE, '--json', '--quiet', '--out', out, ...flags], { env, timeoutMs: TIMEOUT_MS });
      const declared = declaredTerm(description, term);
      if (code === 1 && description.terms.durability.scope === 'server' && declared.how && /does not run under the/.test(stderr)) {
        // A server that holds the other term and cannot be set (PouchDB Server has no durable term): refused, named.
        assert.match(stderr, new RegExp(`does not run under the ${term} durability term this run asks for`));
        assert.notEqual(id, 'mysql', 'the harness sets MariaDB\'s term on its own server');
        return;
      }
      assert.equal(code, 0, stderr);
      const result = JSON.parse(stdout);
      assert.equal(result.terms.durability.term, term);
      assert.equal(result.terms.durability.source, '--durability');
      assert.equal(result.terms.durability.verified, true, JSON.stringify(result.terms.durability.problems));
      for (const [name, entry] of Object.entries(result.workloads)) {
        if (declared.unavailable) {
          assert.equal(entry.status, 'unsupported', name);
          assert.match(entry.reason, new RegExp(`cannot write under the ${term} durability term|the insert it works on cannot run`), name);
        } else {
          assert.equal(entry.status, 'passed', `${name}: ${JSON.stringify(entry.failures)}`);
          if (!name.startsWith('get')) {
            assert.equal(entry.durability, term, name);
            assert.equal(entry.params.durable, term === 'durable', name);
          }
        }
      }
    });
  }
}
