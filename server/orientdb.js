// OrientDB Community from its Maven Central distribution tarball (com.orientechnologies:orientdb-community:<version>,
// 3.2.25 unless --version names another 3.x release). The server is configured by editing its
// XML listeners to 127.0.0.1 and our ports; its root password comes from BENCH_ORIENTDB_PASSWORD, or the
// documented local-only default, and is never written anywhere by the harness.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchError, ErrorCodes, usageError } from '../core/errors.js';
import { chooseJava } from './java.js';
import { fetchArtifact } from './maven.js';
import { LOCALHOST, requireFreePort, run, waitUntilAccepting, waitUntilLogged } from './process.js';
import { parseVersion } from './versions.js';

// Rows OrientDB may sort in its heap in one query: enough for the queries suite's largest collection (1M).
export const MAX_HEAP_SORT_ROWS = 2_000_000;

const ARTIFACT = { groupId: 'com.orientechnologies', artifactId: 'orientdb-community', packaging: 'tar.gz' };
const DEFAULT_VERSION = '3.2.25';
// Every 3.x release runs on Java 8 or newer.
const JAVA_NEEDED = 8;
export const LOCAL_ROOT_PASSWORD = 'dbshootout';
const START_TIMEOUT_MS = 120_000;
// The disk cache, in MB of 2^20 bytes (storage.diskCache.bufferSize), when --cache gives none.
const DISK_CACHE_MB = 1024;
// What the server logs once its start-up is over, root created.
const ACTIVE = /OrientDB Server is active/;

// The tarball unpacks into orientdb-community-<version>/.
const DISTRIBUTION = /^orientdb-community-(\d.*)$/;
const home = (dir, release) => path.join(dir, `orientdb-community-${release}`);

// The offline importer (adapters/orientdb/offline-import.js): a Java program compiled against the release's own
// jars, so that the database it writes is the one this server reads. Java 11 APIs; the server's Java runs it.
const IMPORTER_SOURCE = fileURLToPath(new URL('../adapters/orientdb/java/OfflineImport.java', import.meta.url));
export const IMPORTER_CLASS = 'OfflineImport';
export const IMPORTER_JAVA = 11;

// { classpath } of the compiled importer of the release in `dir`, compiled now with `javaHome`'s javac when it
// is missing or older than its source.
export async function importerClasspath({ dir, release, javaHome }) {
  const root = home(dir, release);
  // Apart from the import's staging directory (offline-import), which each import clears.
  const classes = path.join(root, 'offline-importer');
  const compiled = path.join(classes, `${IMPORTER_CLASS}.class`);
  if (!existsSync(compiled) || statSync(compiled).mtimeMs < statSync(IMPORTER_SOURCE).mtimeMs) {
    const javac = path.join(javaHome, 'bin', 'javac');
    if (!existsSync(javac)) throw new BenchError(ErrorCodes.USAGE, `${javaHome} has no javac to compile ${IMPORTER_SOURCE} with (a JRE, not a JDK)`);
    mkdirSync(classes, { recursive: true });
    await run(javac, ['--release', String(IMPORTER_JAVA), '-nowarn', '-d', classes, '-cp', `${path.join(root, 'lib')}/*`, IMPORTER_SOURCE]);
  }
  return `${path.join(root, 'lib')}/*${path.delimiter}${classes}`;
}

function listen(config, protocol, port) {
  const pattern = new RegExp(`(<listener[^>]*protocol="${protocol}"[^>]*?)ip-address="[^"]*"([^>]*?)port-range="[^"]*"`);
  if (!pattern.test(config)) throw new BenchError(ErrorCodes.USAGE, `OrientDB's server configuration has no ${protocol} listener to bind`);
  return config.replace(pattern, `$1ip-address="${LOCALHOST}"$2port-range="${port}"`);
}

export default {
  family: 'orientdb',
  name: 'OrientDB',
  defaultPort: 52424,
  adapters: ['orientdb'],
  defaultVersion: DEFAULT_VERSION,
  // What --cache sets (start's cacheBytes).
  cacheSetting: 'storage.diskCache.bufferSize',

  // 2.x configures its server and storage otherwise, and the adapter's driver speaks the 3.x protocol.
  checkVersion(release) {
    if (parseVersion(release).numbers[0] !== 3) {
      throw usageError(`OrientDB ${release} is not supported: bench server runs OrientDB 3.x (3.0 to 3.2)`);
    }
  },

  javaFor: () => JAVA_NEEDED,

  // The releases unpacked in dir.
  installedIn(dir) {
    if (!existsSync(dir)) return [];
    return readdirSync(dir).map((name) => DISTRIBUTION.exec(name)?.[1])
      .filter((release) => release && existsSync(path.join(home(dir, release), 'bin', 'server.sh')));
  },

  async version(dir, release = DEFAULT_VERSION) {
    return this.installedIn(dir).includes(release) ? `OrientDB ${release} Community` : null;
  },

  async install(dir, log, release = DEFAULT_VERSION) {
    log(`fetching ${ARTIFACT.groupId}:${ARTIFACT.artifactId}:${release}:tar.gz from Maven Central`);
    const tarball = await fetchArtifact({ ...ARTIFACT, version: release });
    mkdirSync(dir, { recursive: true });
    await run('tar', ['xzf', tarball, '-C', dir]);
    // The server runs without it: an import then tries again with the server's JDK, or takes the online path.
    try {
      const java = chooseJava({ needs: IMPORTER_JAVA, who: `the offline importer of OrientDB ${release}` });
      log(`compiling the offline importer with ${java.home}`);
      await importerClasspath({ dir, release, javaHome: java.home });
    } catch (error) {
      log(`the offline importer was not compiled: ${error.message.split('\n')[0]}`);
    }
  },

  // `cacheBytes` (bench run --cache): the disk cache, in whole MB, instead of DISK_CACHE_MB. It is off the heap, which
  // stays as it is.
  async start({ dir, port, release = DEFAULT_VERSION, java, cacheBytes = null }) {
    const diskCacheMb = cacheBytes ? Math.max(1, Math.round(cacheBytes / 2 ** 20)) : DISK_CACHE_MB;
    const root = home(dir, release);
    // The HTTP listener is not used, but it must not collide: it keeps OrientDB's default distance (2424, 2480).
    const httpPort = port + 56;
    await requireFreePort(httpPort, 'OrientDB (HTTP listener)');
    const configFile = path.join(root, 'config', 'orientdb-server-config.xml');
    writeFileSync(configFile, listen(listen(readFileSync(configFile, 'utf8'), 'binary', port), 'http', httpPort));
    const logFile = path.join(dir, 'orientdb.log');
    const logStart = existsSync(logFile) ? statSync(logFile).size : 0;
    const log = openSync(logFile, 'a');
    const child = spawn(path.join(root, 'bin', 'server.sh'), [], {
      detached: true,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        ORIENTDB_HOME: root,
        // server.sh runs $JAVA_HOME/bin/java.
        JAVA_HOME: java.home,
        ORIENTDB_ROOT_PASSWORD: process.env.BENCH_ORIENTDB_PASSWORD ?? LOCAL_ROOT_PASSWORD,
        ORIENTDB_OPTS_MEMORY: '-Xms1g -Xmx2g',
        // Java 8 knows no modules and refuses --add-opens.
        JAVA_OPTS: java.major !== null && java.major < 9 ? '' : '--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED',
        // The queries suite sorts 1M rows of unindexed fields: OrientDB refuses an in-heap ORDER BY of more than
        // 500,000 by default.
        ORIENTDB_SETTINGS: `-Dstorage.diskCache.bufferSize=${diskCacheMb} -Dprofiler.enabled=false -Dcom.sun.xml.bind.v2.bytecode.ClassTailor.noOptimize=true `
          + `-Dquery.maxHeapElementsAllowedPerOp=${MAX_HEAP_SORT_ROWS}`,
      },
    });
    closeSync(log);
    child.unref();
    // server.sh execs java, so the child's pid is the server's.
    const deadline = performance.now() + START_TIMEOUT_MS;
    await waitUntilAccepting({ port, pid: child.pid, timeoutMs: START_TIMEOUT_MS, logFile, family: 'OrientDB' });
    // The binary listener opens before the server creates root on its first start: until it logs that it is
    // active, root's password is refused.
    await waitUntilLogged({
      logFile, from: logStart, pattern: ACTIVE, pid: child.pid, timeoutMs: Math.max(0, deadline - performance.now()), family: 'OrientDB', what: 'that it is active',
    });
    return {
      host: LOCALHOST, port, otherPorts: [httpPort], user: 'root', database: null, pid: child.pid, dataDir: path.join(root, 'databases'), logFile, program: 'java',
    };
  },

  async requestStop(state) {
    process.kill(state.pid, 'SIGTERM');
  },
};
