// `bench run --db mysql --driver mariadb` as users run it: the result records the MariaDB connector, with its
// version and what stays on mysql2, and every workload of the social and crud suites validates through it.
// Skips without a local MariaDB, fails instead when BENCH_REQUIRE lists mysql.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import mysql from '../../adapters/mysql/description.js';
import { IMPORT_DRIVER } from '../../adapters/mysql/mariadb-driver.js';
import { packageVersion } from '../../core/environment.js';
import { WORKLOAD_NAMES } from '../../workloads/social/workloads.js';
import { spawnBench } from '../helpers/cli.js';
import { serverTarget } from '../helpers/servers.js';

const NAMESPACE = 'dbshootout_test_driver';
// A whole run, import included.
const TIMEOUT_MS = 300_000;
const { options, skip } = serverTarget(mysql, { namespace: NAMESPACE });
const out = mkdtempSync(path.join(os.tmpdir(), 'bench-mysql-driver-'));
after(() => rmSync(out, { recursive: true, force: true }));

// The local server's connection as a user would give it.
const flags = skip ? [] : ['host', 'port', 'user'].flatMap((name) => [`--${name}`, String(options[name])]);
const env = skip || options.password === undefined ? {} : { BENCH_MYSQL_PASSWORD: options.password };
const run = (args) => spawnBench(['run', '--db', 'mysql', '--json', '--quiet', '--namespace', NAMESPACE, '--out', out,
  ...flags, ...args], { env, timeoutMs: TIMEOUT_MS });

// Every workload passed, but singleWriteSync under the relaxed term the server runs: MariaDB's term is the whole
// server's, so a relaxed run has no durable write (its reason says so).
function assertPassed(result) {
  assert.equal(result.complete, true);
  for (const [name, workload] of Object.entries(result.workloads)) {
    if (name === 'singleWriteSync') {
      assert.equal(workload.status, 'unsupported');
      assert.match(workload.reason, /sets durability for the whole server, and this run's term is relaxed/);
      continue;
    }
    assert.equal(workload.status, 'passed', `${name}: ${JSON.stringify(workload.failures)}`);
  }
}

describe('bench run --db mysql --driver mariadb', { skip, timeout: 3 * TIMEOUT_MS }, () => {
  after(() => mysql.testSupport.dropNamespace(options));

  test('records the driver and validates every social workload on --scale tiny', { timeout: TIMEOUT_MS }, async () => {
    const { code, stdout, stderr } = await run(['--driver', 'mariadb', '--scale', 'tiny', '--runs', '1']);
    assert.equal(code, 0, stderr);
    const result = JSON.parse(stdout);
    assert.deepEqual(result.db.driver, { name: 'mariadb', version: packageVersion('mariadb') });
    assert.match(result.db.driver.version, /^\d+\.\d+\.\d+/);
    assert.equal(result.db.settings.import_driver, IMPORT_DRIVER);
    assert.deepEqual(Object.keys(result.workloads), WORKLOAD_NAMES);
    assertPassed(result);
  });

  test('validates the crud suite\'s document operations', { timeout: TIMEOUT_MS }, async () => {
    const { code, stdout, stderr } = await run(['--driver', 'mariadb', '--suite', 'crud', '--ops', '500', '--runs', '1']);
    assert.equal(code, 0, stderr);
    const result = JSON.parse(stdout);
    assert.equal(result.db.driver.name, 'mariadb');
    assert.ok(Object.keys(result.workloads).length > 0);
    assertPassed(result);
  });

  test('without --driver, mysql2 is recorded and nothing is said of mariadb', { timeout: TIMEOUT_MS }, async () => {
    const { code, stdout, stderr } = await run(['--suite', 'crud', '--ops', '50', '--runs', '1']);
    assert.equal(code, 0, stderr);
    const result = JSON.parse(stdout);
    assert.deepEqual(result.db.driver, { name: 'mysql2', version: packageVersion('mysql2') });
    assert.equal(result.db.settings.import_driver, undefined);
  });
});

test('--driver on mysql takes only mysql2 or mariadb (exit code 2)', { timeout: 60_000 }, async () => {
  const { code, stderr } = await spawnBench(['run', '--db', 'mysql', '--driver', 'postgres', '--scale', 'tiny',
    '--out', out]);
  assert.equal(code, 2, stderr);
  assert.match(stderr, /unknown driver "postgres" for MySQL\/MariaDB; valid drivers: mysql2, mariadb/);
});

test('--driver mariadb on a database without it is a usage error (exit code 2)', { timeout: 60_000 }, async () => {
  const { code, stderr } = await spawnBench(['run', '--db', 'postgresql', '--driver', 'mariadb', '--scale', 'tiny',
    '--out', out]);
  assert.equal(code, 2, stderr);
  assert.match(stderr, /unknown driver "mariadb" for PostgreSQL; valid drivers: pg, postgres/);
});
