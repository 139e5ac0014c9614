// Neo4j and OrientDB releases side by side: version strings, each release's directory (and the install made
// before releases had directories of their own), the JDK chosen for a release against a directory tree laid out
// here as /usr/lib/jvm is, the errors of the command line, and a fetch that fails for real. Then one real
// test: a second installed release starts and its adapter reads the release back from the server. It looks for
// that release in BENCH_VERSIONS_CACHE (else the default cache), and skips with the reason when none is there.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { loadAdapter } from '../adapters/index.js';
import { installedLine } from '../cli/server.js';
import { ErrorCodes } from '../core/errors.js';
import { COMPARE_FORMATS } from '../results/compare-format.js';
import { defaultCacheDir } from '../core/paths.js';
import { chooseJava, installedJdks, javaMajor } from '../server/java.js';
import { installServer, serverFamily, serverReleases, startServer, stopServer } from '../server/index.js';
import { run } from '../server/process.js';
import { isAlive, runningServer, serverDir, stateFile } from '../server/state.js';
import { compareVersions, installedReleases, parseVersion, releaseDir, releaseOf } from '../server/versions.js';
import { spawnBench } from './helpers/cli.js';
import { SERVER_CONNECT_TIMEOUT_MS } from './helpers/limits.js';
import { freePort } from './helpers/net.js';

const neo4j = serverFamily('neo4j');
const orientdb = serverFamily('orientdb');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-versions-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let made = 0;
const freshDir = (name) => {
  made += 1;
  const dir = path.join(scratch, `${name}-${made}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

function touch(file, text = '') {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

// A Neo4j release as the install leaves it: its jars in <dir>/lib, the server's among them.
const neo4jAt = (dir, release) => {
  touch(path.join(dir, 'lib', `neo4j-${release}.jar`));
  touch(path.join(dir, 'lib', `neo4j-kernel-${release}.jar`));
};
// An OrientDB release as its tarball unpacks.
const orientdbAt = (dir, release) => touch(path.join(dir, `orientdb-community-${release}`, 'bin', 'server.sh'));

// A JDK as the Debian and Temurin packages lay one out: bin/java and a release file.
function jdk(root, name, javaVersion) {
  touch(path.join(root, name, 'bin', 'java'));
  if (javaVersion) touch(path.join(root, name, 'release'), `IMPLEMENTOR="x"\nJAVA_VERSION="${javaVersion}"\nJAVA_VERSION_DATE="2025-04-15"\n`);
  return path.join(root, name);
}

describe('version strings', () => {
  test('numbers with dots and an optional qualifier are releases; anything else is refused as usage', () => {
    assert.deepEqual(parseVersion('5.26.30'), { text: '5.26.30', numbers: [5, 26, 30], qualifier: null });
    assert.deepEqual(parseVersion('2025.10.1'), { text: '2025.10.1', numbers: [2025, 10, 1], qualifier: null });
    assert.deepEqual(parseVersion('3.1.0-beta1'), { text: '3.1.0-beta1', numbers: [3, 1, 0], qualifier: 'beta1' });
    for (const bad of ['', '5', '5.x', 'latest', '../5.1', '5.1/..', '5.1.0;rm', ' 5.1.0', '5.1.0-', 'v5.1.0', '5.1.0.1.2']) {
      assert.throws(() => parseVersion(bad), { code: ErrorCodes.USAGE, message: `malformed version "${bad}": expected numbers with dots, as 5.26.30 or 2025.10.1, with an optional qualifier (3.1.0-beta1)` });
    }
  });

  test('releases sort by their numbers, a qualified one before its release', () => {
    const sorted = ['2025.10.1', '5.26.30', '5.9.0', '5.24.2', '3.1.0', '3.1.0-beta1', '5.26.3'].sort(compareVersions);
    assert.deepEqual(sorted, ['3.1.0-beta1', '3.1.0', '5.9.0', '5.24.2', '5.26.3', '5.26.30', '2025.10.1']);
    assert.equal(compareVersions('3.1', '3.1.0'), 0);
    assert.equal(compareVersions('3.1.0-alpha', '3.1.0-beta'), -1);
  });

  test('the release: --version, else the default; one the family cannot run, or --version for a packaged server, is usage', () => {
    assert.equal(releaseOf(neo4j, undefined), '5.26.30');
    assert.equal(releaseOf(orientdb, undefined), '3.2.25');
    assert.equal(releaseOf(neo4j, '2025.10.1'), '2025.10.1');
    assert.equal(releaseOf(neo4j, undefined, '5.24.2'), '5.24.2', 'the fallback when --version is absent');
    assert.throws(() => releaseOf(neo4j, '4.4.30'), { code: ErrorCodes.USAGE, message: /^Neo4j 4\.4\.30 is not supported: bench server runs Neo4j 5 and the releases after it/ });
    assert.throws(() => releaseOf(orientdb, '2.2.37'), { code: ErrorCodes.USAGE, message: /^OrientDB 2\.2\.37 is not supported: bench server runs OrientDB 3\.x/ });
    assert.throws(() => releaseOf(serverFamily('postgresql'), '16'), { code: ErrorCodes.USAGE, message: /^--version does not apply to PostgreSQL/ });
    assert.equal(releaseOf(serverFamily('mariadb'), undefined), null);
  });

  test('the Java a release needs: Neo4j 5 17, the calendar releases 21, OrientDB 3 8', () => {
    assert.deepEqual([neo4j.javaFor('5.26.30'), neo4j.javaFor('5.1.0'), neo4j.javaFor('2025.01.0'), neo4j.javaFor('2026.08.1')], [17, 17, 21, 21]);
    assert.equal(orientdb.javaFor('3.0.44'), 8);
  });
});

describe('directories of releases', () => {
  test('a release goes to <cache>/servers/<family>/<version>; the install made before versions stays where it is', async () => {
    const cacheDir = freshDir('cache');
    const family = serverDir(cacheDir, 'neo4j');
    assert.equal(releaseDir(neo4j, cacheDir, '5.24.2'), path.join(family, '5.24.2'));
    assert.equal(releaseDir(neo4j, cacheDir, '5.26.30'), path.join(family, '5.26.30'), 'nothing installed yet');
    neo4jAt(family, '5.26.30');
    assert.equal(releaseDir(neo4j, cacheDir, '5.26.30'), family, 'found in the family directory, not installed again');
    assert.equal(releaseDir(neo4j, cacheDir, '5.24.2'), path.join(family, '5.24.2'));
    assert.equal(releaseDir(serverFamily('postgresql'), cacheDir, null), serverDir(cacheDir, 'postgresql'));
    assert.equal(await neo4j.version(family), 'Neo4j 5.26.30 Community');
    assert.equal(await neo4j.version(family, '5.24.2'), null);
  });

  test('the installed releases, oldest first, the default marked; a directory without the server jar is no release', () => {
    const cacheDir = freshDir('cache');
    const family = serverDir(cacheDir, 'neo4j');
    neo4jAt(family, '5.26.30');
    neo4jAt(path.join(family, '2025.10.1'), '2025.10.1');
    neo4jAt(path.join(family, '5.24.2'), '5.24.2');
    // A failed or interrupted install, a stray directory, and files of the legacy install.
    touch(path.join(family, '5.20.0', 'pom.xml'));
    neo4jAt(path.join(family, 'backup'), '5.1.0');
    touch(path.join(family, 'home', 'conf', 'neo4j.conf'));
    assert.deepEqual(installedReleases(neo4j, cacheDir), [
      { release: '5.24.2', dir: path.join(family, '5.24.2'), isDefault: false },
      { release: '5.26.30', dir: family, isDefault: true },
      { release: '2025.10.1', dir: path.join(family, '2025.10.1'), isDefault: false },
    ]);
    assert.equal(installedLine(neo4j, serverReleases(neo4j, { cacheDir })),
      `Neo4j installed: 5.24.2 in ${path.join(family, '5.24.2')}, 5.26.30 (default) in ${family}, 2025.10.1 in ${path.join(family, '2025.10.1')}`);
    assert.equal(installedLine(neo4j, []), 'Neo4j installed: none (default 5.26.30: npx bench server install neo4j)');
    assert.equal(installedLine(serverFamily('pouchdb'), []), null);
  });

  test('OrientDB: a release is its unpacked orientdb-community-<version>, legacy or in its own directory', () => {
    const cacheDir = freshDir('cache');
    const family = serverDir(cacheDir, 'orientdb');
    orientdbAt(family, '3.2.25');
    orientdbAt(path.join(family, '3.2.8'), '3.2.8');
    touch(path.join(family, '3.1.0', 'orientdb-community-3.1.0', 'readme.txt'));
    assert.deepEqual(installedReleases(orientdb, cacheDir).map(({ release, dir }) => [release, dir]),
      [['3.2.8', path.join(family, '3.2.8')], ['3.2.25', family]]);
    assert.equal(releaseDir(orientdb, cacheDir, '3.1.0'), path.join(family, '3.1.0'));
  });
});

describe('the JDK for a release', () => {
  test('major versions from JAVA_VERSION, Java 8 and older written 1.x', () => {
    assert.deepEqual(['17.0.15', '25.0.3', '1.8.0_402', '21', '11.0.2+9', 'x', ''].map(javaMajor), [17, 25, 8, 21, 11, null, null]);
  });

  const root = freshDir('jvm');
  const java17 = jdk(root, 'java-17-openjdk-amd64', '17.0.15');
  const java25 = jdk(root, 'temurin-25-jdk-amd64', '25.0.3');
  const java8 = jdk(root, 'java-8-openjdk-amd64', '1.8.0_402');
  // Debian's alias of a JDK, and a directory that holds no java (openjdk-17 holds only docs).
  symlinkSync(java17, path.join(root, 'java-1.17.0-openjdk-amd64'));
  mkdirSync(path.join(root, 'openjdk-17'));

  test('the JDKs under the root, each once, the lowest first; the one `java` on PATH belongs to as well', () => {
    assert.deepEqual(installedJdks({ root, pathEnv: '' }), [
      { home: java8, major: 8 }, { home: java17, major: 17 }, { home: java25, major: 25 },
    ]);
    const elsewhere = jdk(freshDir('opt'), 'jdk-21', '21.0.4');
    const bin = freshDir('bin');
    symlinkSync(path.join(elsewhere, 'bin', 'java'), path.join(bin, 'java'));
    assert.deepEqual(installedJdks({ root, pathEnv: `/nonexistent${path.delimiter}${bin}` }).map((found) => found.major), [8, 17, 21, 25]);
    assert.deepEqual(installedJdks({ root: path.join(root, 'absent'), pathEnv: '' }), []);
  });

  test('the lowest JDK the release needs', () => {
    assert.deepEqual(chooseJava({ needs: 17, who: 'Neo4j 5.26.30', root, pathEnv: '' }), { home: java17, major: 17 });
    assert.deepEqual(chooseJava({ needs: 21, who: 'Neo4j 2025.10.1', root, pathEnv: '' }), { home: java25, major: 25 });
    assert.deepEqual(chooseJava({ needs: 8, who: 'OrientDB 3.2.25', root, pathEnv: '' }), { home: java8, major: 8 });
  });

  test('none new enough: the error names what is needed, what was found, and how to name another', () => {
    assert.throws(() => chooseJava({ needs: 30, who: 'Neo4j 2030.01.0', root, pathEnv: '' }), {
      code: ErrorCodes.USAGE,
      message: `Neo4j 2030.01.0 needs Java 30 or newer; found: Java 8 (${java8}), Java 17 (${java17}), Java 25 (${java25}). `
        + 'Install a JDK of 30 or later, or name one with --java-home or BENCH_JAVA_HOME',
    });
    const empty = freshDir('jvm-empty');
    assert.throws(() => chooseJava({ needs: 21, who: 'Neo4j 2025.10.1', root: empty, pathEnv: '' }),
      { message: `Neo4j 2025.10.1 needs Java 21 or newer; found: none in ${empty} or on PATH. Install a JDK of 21 or later, or name one with --java-home or BENCH_JAVA_HOME` });
  });

  test('an override is taken as it is, unless it holds no java or says it is too old', () => {
    assert.deepEqual(chooseJava({ needs: 17, who: 'Neo4j 5.26.30', override: java25, root, pathEnv: '' }), { home: java25, major: 25 });
    const unlabelled = jdk(freshDir('opt'), 'jdk', null);
    assert.deepEqual(chooseJava({ needs: 21, who: 'Neo4j 2025.10.1', override: unlabelled, root, pathEnv: '' }), { home: unlabelled, major: null });
    assert.throws(() => chooseJava({ needs: 21, who: 'Neo4j 2025.10.1', override: java17, root, pathEnv: '' }),
      { code: ErrorCodes.USAGE, message: `Neo4j 2025.10.1 needs Java 21 or newer; ${java17} (--java-home or BENCH_JAVA_HOME) is Java 17` });
    assert.throws(() => chooseJava({ needs: 17, who: 'Neo4j 5.26.30', override: path.join(root, 'openjdk-17'), root, pathEnv: '' }),
      { code: ErrorCodes.USAGE, message: `${path.join(root, 'openjdk-17')} (--java-home or BENCH_JAVA_HOME) holds no bin/java` });
  });
});

describe('starting one release while another runs', () => {
  // A live process stands for the running server: what is checked is the state file and the pid in it.
  test('another release is refused, the same one is found running; a crashed one is started again by default', async (t) => {
    const cacheDir = freshDir('cache');
    const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
    t.after(() => holder.kill('SIGKILL'));
    mkdirSync(serverDir(cacheDir, 'neo4j'), { recursive: true });
    const state = { family: 'neo4j', version: 'Neo4j 5.24.2 Community', release: '5.24.2', host: '127.0.0.1', port: 57700, pid: holder.pid, program: 'sleep' };
    writeFileSync(stateFile(cacheDir, 'neo4j'), JSON.stringify(state));
    await assert.rejects(startServer(neo4j, { cacheDir, version: '2025.10.1', port: await freePort() }), {
      code: ErrorCodes.USAGE,
      message: `Neo4j 5.24.2 Community is running (pid ${holder.pid}, port 57700); stop it first with \`npx bench server stop neo4j --cache-dir ${cacheDir}\`, or start Neo4j 2025.10.1 beside it with another --cache-dir and --port`,
    });
    assert.equal((await startServer(neo4j, { cacheDir, version: '5.24.2' })).alreadyRunning, true);
    assert.equal((await startServer(neo4j, { cacheDir })).alreadyRunning, true, 'no --version: whichever runs');
    await assert.rejects(startServer(neo4j, { cacheDir, version: '5.x' }), { code: ErrorCodes.USAGE, message: /^malformed version "5\.x"/ });

    holder.kill('SIGKILL');
    await new Promise((resolve) => { holder.once('exit', resolve); });
    assert.equal(runningServer(cacheDir, 'neo4j'), null);
    await assert.rejects(startServer(neo4j, { cacheDir, port: await freePort() }), {
      code: ErrorCodes.USAGE, message: `Neo4j 5.24.2 is not installed; run \`npx bench server install neo4j --version 5.24.2 --cache-dir ${cacheDir}\``,
    });
  });
});

describe('bench server on the command line', () => {
  test('a malformed version, a version for a packaged server or for stop: exit 2, nothing done', async () => {
    const cacheDir = freshDir('cache');
    for (const [args, message] of [
      [['install', 'neo4j', '--version', '5.x'], 'error: malformed version "5.x"'],
      [['start', 'orientdb', '--version', ''], 'error: --version needs a value'],
      [['start', 'postgresql', '--version', '16'], 'error: --version does not apply to PostgreSQL'],
      [['install', 'neo4j', '--version', '4.4.30'], 'error: Neo4j 4.4.30 is not supported'],
      [['stop', 'neo4j', '--version', '5.24.2'], 'error: --version applies to install and start'],
      [['install', 'neo4j,orientdb', '--version', '5.24.2'], 'error: --version names one version, but 2 servers were named'],
      [['status', 'neo4j', '--java-home', '/usr'], 'error: --java-home applies to start'],
      [['start', 'neo4j', '--activity'], 'error: --activity applies to status'],
    ]) {
      const { code, stderr } = await spawnBench(['server', ...args, '--cache-dir', cacheDir, '--quiet']);
      assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
      assert.ok(stderr.startsWith(message), `${args.join(' ')}: ${stderr}`);
    }
    assert.equal(existsSync(serverDir(cacheDir, 'neo4j')), false);
  });

  test('status names the releases installed and the default among them', async () => {
    const cacheDir = freshDir('cache');
    neo4jAt(serverDir(cacheDir, 'neo4j'), '5.26.30');
    neo4jAt(path.join(serverDir(cacheDir, 'neo4j'), '5.24.2'), '5.24.2');
    const { code, stdout } = await spawnBench(['server', 'status', 'neo4j,orientdb', '--cache-dir', cacheDir]);
    assert.equal(code, 1, 'nothing runs');
    assert.deepEqual(stdout.trim().split('\n'), [
      'Neo4j is not running',
      `Neo4j installed: 5.24.2 in ${path.join(serverDir(cacheDir, 'neo4j'), '5.24.2')}, 5.26.30 (default) in ${serverDir(cacheDir, 'neo4j')}`,
      'OrientDB is not running',
      'OrientDB installed: none (default 3.2.25: npx bench server install orientdb)',
    ]);
  });
});

describe('bench compare of two releases', () => {
  const side = (label, versions, database = 'neo4j') => ({
    label, files: [`${label}.json`], database, versions, dataset: 'queries-10k', harness: ['0.1.0'], config: [{ concurrency: 1, runs: 5 }],
  });
  const comparison = (a, b) => ({
    statistics: { speedup: 'median(a) / median(b)', interval: { method: 'percentile bootstrap', seed: 1 } },
    a, b,
    workloads: [{ name: 'min-number', compared: true, a: { status: 'passed', medianMs: 20 }, b: { status: 'passed', medianMs: 10 }, speedup: 2, ci: { low: 1.5, high: 2.5 }, changePct: -50, verdict: 'faster' }],
    summary: { geometricMeanSpeedup: 2, compared: 1, faster: 1, slower: 0, notSignificant: 0, notComparable: [] },
    gate: null,
    warnings: [],
  });
  const headerOf = (text) => text.split('\n').find((line) => line.startsWith('workload') || line.startsWith('| workload'));

  test('one database in two releases: the time columns name each side\'s release', () => {
    const both = comparison(side('a', ['5.26.30']), side('b', ['2025.10.1']));
    assert.match(headerOf(COMPARE_FORMATS.table(both)), /^workload +a: neo4j 5\.26\.30, median ms +b: neo4j 2025\.10\.1, median ms +speedup/);
    assert.equal(headerOf(COMPARE_FORMATS.markdown(both)),
      '| workload | a: neo4j 5.26.30, median ms | b: neo4j 2025.10.1, median ms | speedup | 95% CI | b time vs a | verdict |');
  });

  test('the same release, several on one side, no version or two databases: the plain columns', () => {
    for (const [a, b] of [
      [side('a', ['5.26.30']), side('b', ['5.26.30'])],
      [side('a', ['5.26.30']), side('b', ['5.26.30', '2025.10.1'])],
      [side('a', [null]), side('b', ['2025.10.1'])],
      [side('a', ['16.4'], 'postgresql'), side('b', ['2025.10.1'])],
    ]) {
      assert.match(headerOf(COMPARE_FORMATS.table(comparison(a, b))), /^workload +a median ms +b median ms +speedup/);
    }
  });
});

const hasMaven = await run('mvn', ['--version']).then(() => true, () => false);

test('a release Maven Central does not serve: exit 1, the coordinates and the command tried named, no directory left', {
  skip: hasMaven ? false : 'Maven (mvn) is not installed',
  timeout: 5 * 60_000,
}, async () => {
  const cacheDir = freshDir('cache');
  const { code, stderr } = await spawnBench(['server', 'install', 'orientdb', '--version', '3.2.9999', '--cache-dir', cacheDir]);
  assert.equal(code, 1, stderr);
  assert.match(stderr, /^error: cannot fetch com\.orientechnologies:orientdb-community:3\.2\.9999:tar\.gz from Maven Central$/m);
  assert.match(stderr, /^ {2}tried: mvn -B -q -U org\.apache\.maven\.plugins:maven-dependency-plugin:3\.6\.1:get -Dartifact=com\.orientechnologies:orientdb-community:3\.2\.9999:tar\.gz/m);
  assert.match(stderr, /3\.2\.9999/);
  assert.equal(existsSync(path.join(serverDir(cacheDir, 'orientdb'), '3.2.9999')), false);
  await assert.rejects(installServer(orientdb, { cacheDir, log: () => {}, version: '3.2.9999' }), { code: ErrorCodes.CONNECT });
});

// The real servers: the newest release of each family installed beside the default one.
const versionsCache = process.env.BENCH_VERSIONS_CACHE ? path.resolve(process.env.BENCH_VERSIONS_CACHE) : defaultCacheDir();

for (const server of [neo4j, orientdb]) {
  const second = installedReleases(server, versionsCache).filter((found) => !found.isDefault).at(-1);
  const running = runningServer(versionsCache, server.family);
  const skip = !second
    ? `no ${server.name} release other than ${server.defaultVersion} is installed in ${versionsCache} (npx bench server install ${server.family} --version <v>; BENCH_VERSIONS_CACHE names another cache)`
    : running ? `a ${server.name} (${running.version}) runs in ${versionsCache}, and one runs per cache: set BENCH_VERSIONS_CACHE to a cache where none runs` : false;

  test(`${server.name}: a second installed release starts, answers with its version and stops`, { skip, timeout: 5 * 60_000 }, async (t) => {
    const port = await freePort();
    const state = await startServer(server, { cacheDir: versionsCache, version: second.release, port });
    t.after(() => stopServer(server, { cacheDir: versionsCache }));
    assert.deepEqual([state.release, state.dir, state.port, state.version], [second.release, second.dir, port, `${server.name} ${second.release} Community`]);
    assert.ok(state.java.major >= server.javaFor(second.release), `Java ${state.java.major} from ${state.java.home}`);
    const description = await loadAdapter(server.adapters[0]);
    const adapter = description.create({
      ...description.connection.defaults, host: state.host, port: state.port, user: state.user ?? description.connection.defaults.user,
      namespace: 'dbshootout_test', concurrency: 2, connectTimeoutMs: SERVER_CONNECT_TIMEOUT_MS, dataDir: versionsCache,
    });
    try {
      await adapter.connect();
      assert.equal(await adapter.serverVersion(), second.release);
    } finally {
      await adapter.close();
    }
    const stopped = await stopServer(server, { cacheDir: versionsCache });
    assert.equal(stopped.pid, state.pid);
    assert.equal(isAlive(state.pid), false);
  });
}
