// A validated end-to-end `bench run` of every workload on the small dataset against each server adapter that
// has a server to talk to (see test/helpers/servers.js). Skips without one, fails instead when BENCH_REQUIRE
// lists the adapter. That `bench run` finds a local server with no flags at all is tested in test/server.test.js.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { adapterIds, loadAdapter } from '../adapters/index.js';
import { WORKLOAD_NAMES } from '../workloads/suite.js';
import { serverTarget } from './helpers/servers.js';

const BIN = fileURLToPath(new URL('../bin/bench.js', import.meta.url));
const NAMESPACE = 'dbshootout_e2e';
const out = mkdtempSync(path.join(os.tmpdir(), 'bench-e2e-'));
after(() => rmSync(out, { recursive: true, force: true }));

function bench(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

for (const id of adapterIds()) {
  const description = await loadAdapter(id);
  if (description.kind !== 'server') continue;
  const { options, skip } = serverTarget(description, { namespace: NAMESPACE });
  if (!skip) after(() => description.testSupport?.dropNamespace?.(options));
  test(`bench run --db ${id} --scale small validates every workload`, { skip, timeout: 600_000 }, async () => {
    // The target's connection as a user would give it: flags, and the password in the adapter's variable.
    const flags = ['host', 'port', 'user', 'database'].filter((name) => options[name] !== null && options[name] !== undefined)
      .flatMap((name) => [`--${name}`, String(options[name])]);
    const env = description.connection.passwordEnv && options.password !== undefined
      ? { [description.connection.passwordEnv]: options.password } : {};
    const { code, stdout, stderr } = await bench(['run', '--db', id, '--scale', 'small', '--runs', '1', '--json',
      '--quiet', '--namespace', NAMESPACE, '--out', out, ...flags], env);
    assert.equal(code, 0, stderr);
    const result = JSON.parse(stdout);
    assert.equal(result.db.id, id);
    assert.equal(result.complete, true);
    assert.equal(result.config.concurrency, 25);
    assert.deepEqual(Object.keys(result.workloads), WORKLOAD_NAMES);
    for (const [name, workload] of Object.entries(result.workloads)) {
      assert.equal(workload.status, 'passed', `${name}: ${JSON.stringify(workload.failures)}`);
    }
  });
}
