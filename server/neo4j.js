// Neo4j Community, the real server, from its Maven Central jars (org.neo4j:neo4j:<version>, 5.26.30 unless
// --version names another): the server class is in the `neo4j` jar, so the runtime dependencies on a class path
// and a conf/neo4j.conf make a complete server. Neo4j 5 and the calendar-versioned releases after it (2025.01 on)
// share that entry point and these settings; 5 runs on Java 17, the 2025.x line needs 21.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { usageError } from '../core/errors.js';
import { copyDependencies } from './maven.js';
import { LOCALHOST, requireFreePort, waitUntilAccepting } from './process.js';
import { parseVersion } from './versions.js';

const ARTIFACT = { groupId: 'org.neo4j', artifactId: 'neo4j' };
const DEFAULT_VERSION = '5.26.30';
// The first calendar-versioned release line; it needs Java 21.
const CALENDAR_VERSIONS = 2025;
// The server's entry point, by release: 5.x has the first, the calendar releases the second. The server jar
// says which it holds: a jar's central directory lists its class files by name, uncompressed.
const MAIN_CLASSES = ['org.neo4j.server.CommunityEntryPoint', 'org.neo4j.server.Neo4jCommunity'];
const START_TIMEOUT_MS = 120_000;
const JVM_FLAGS = [
  '-Xms1g', '-Xmx2g', '-XX:+UseG1GC',
  '--add-opens=java.base/java.nio=ALL-UNNAMED', '--add-opens=java.base/java.io=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED', '-Dio.netty.tryReflectionSetAccessible=true',
];

// The page cache when --cache gives none (bench run --cache restarts the server with its size).
const PAGE_CACHE = '1g';

// Heap is set by the JVM flags above: server.memory.heap.* is ignored when the entry point is run directly. The
// page cache lives outside the heap, so a page cache of any size leaves the heap as it is.
function configuration({ home, port, httpPort, pageCache }) {
  return `server.default_listen_address=${LOCALHOST}
server.bolt.listen_address=${LOCALHOST}:${port}
server.http.listen_address=${LOCALHOST}:${httpPort}
server.https.enabled=false
server.directories.data=${path.join(home, 'data')}
server.directories.logs=${path.join(home, 'logs')}
dbms.security.auth_enabled=false
server.memory.pagecache.size=${pageCache}
# without these three a SIGTERM stop takes 10-12 s instead of 0.3 s; they are internal and not in every release
# (5.20 lacks the third), so a setting a release does not know is ignored instead of failing the start
server.config.strict_validation.enabled=false
internal.dbms.bolt.netty_server_shutdown_quiet_period=0
internal.dbms.bolt.netty_server_shutdown_timeout=1
internal.server.bolt.connection_shutdown_wait_time=1s
`;
}

const libDir = (dir) => path.join(dir, 'lib');
// The server jar is neo4j-<version>.jar; every other jar's name goes on with a word (neo4j-kernel-5.26.30.jar).
const SERVER_JAR = /^neo4j-(\d[^/]*)\.jar$/;

function mainClass(dir, release) {
  const jar = path.join(libDir(dir), `neo4j-${release}.jar`);
  const listing = readFileSync(jar);
  const found = MAIN_CLASSES.find((name) => listing.includes(`${name.replaceAll('.', '/')}.class`));
  if (!found) throw usageError(`${jar} holds none of the entry points bench server knows (${MAIN_CLASSES.join(', ')})`);
  return found;
}

export default {
  family: 'neo4j',
  name: 'Neo4j',
  defaultPort: 57687,
  adapters: ['neo4j'],
  defaultVersion: DEFAULT_VERSION,
  // What --cache sets (start's cacheBytes).
  cacheSetting: 'server.memory.pagecache.size',

  // 4.x and older name their settings and directories otherwise (dbms.connector.*).
  checkVersion(release) {
    if (parseVersion(release).numbers[0] < 5) {
      throw usageError(`Neo4j ${release} is not supported: bench server runs Neo4j 5 and the releases after it (5.x, 2025.x and later)`);
    }
  },

  javaFor: (release) => (parseVersion(release).numbers[0] >= CALENDAR_VERSIONS ? 21 : 17),

  // The releases whose jars are in dir/lib.
  installedIn(dir) {
    const lib = libDir(dir);
    return existsSync(lib) ? readdirSync(lib).map((name) => SERVER_JAR.exec(name)?.[1]).filter(Boolean) : [];
  },

  async version(dir, release = DEFAULT_VERSION) {
    return this.installedIn(dir).includes(release) ? `Neo4j ${release} Community` : null;
  },

  async install(dir, log, release = DEFAULT_VERSION) {
    log(`fetching org.neo4j:neo4j:${release} and its dependencies from Maven Central into ${libDir(dir)}`);
    await copyDependencies({ ...ARTIFACT, version: release }, libDir(dir));
  },

  // `cacheBytes` (bench run --cache): the page cache, in bytes, instead of PAGE_CACHE.
  async start({ dir, port, release = DEFAULT_VERSION, java, cacheBytes = null }) {
    const home = path.join(dir, 'home');
    mkdirSync(path.join(home, 'conf'), { recursive: true });
    // The HTTP connector is not used, but it must not collide: it keeps Neo4j's default distance (7687, 7474).
    const httpPort = port - 213;
    await requireFreePort(httpPort, 'Neo4j (HTTP connector)');
    writeFileSync(path.join(home, 'conf', 'neo4j.conf'), configuration({ home, port, httpPort, pageCache: cacheBytes ? String(cacheBytes) : PAGE_CACHE }));
    // Neo4j writes its own log below its home; the JVM's output (a crash before logging starts) goes beside it.
    const logFile = path.join(home, 'logs', 'neo4j.log');
    const output = path.join(dir, 'neo4j.out');
    const log = openSync(output, 'a');
    const child = spawn(path.join(java.home, 'bin', 'java'), [...JVM_FLAGS, '-cp', `${libDir(dir)}/*`, mainClass(dir, release), `--home-dir=${home}`, `--config-dir=${path.join(home, 'conf')}`],
      { detached: true, stdio: ['ignore', log, log] });
    closeSync(log);
    child.unref();
    // A failed start is told in the JVM's output (a setting refused, a Java too old), not in the log.
    await waitUntilAccepting({ port, pid: child.pid, timeoutMs: START_TIMEOUT_MS, logFile: output, family: 'Neo4j' });
    return {
      host: LOCALHOST, port, otherPorts: [httpPort], user: null, database: null, pid: child.pid, dataDir: path.join(home, 'data'), logFile, program: 'java',
    };
  },

  async requestStop(state) {
    process.kill(state.pid, 'SIGTERM');
  },
};
