// Neo4j 5.26 Community, the real server, from its Maven Central jars: the server class is in the `neo4j` jar, so
// the runtime dependencies on a class path and a conf/neo4j.conf make a complete server. Java 17 suffices (the
// 2025.x line needs 21).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { copyDependencies } from './maven.js';
import { LOCALHOST, requireFreePort, waitUntilAccepting } from './process.js';

const ARTIFACT = { groupId: 'org.neo4j', artifactId: 'neo4j', version: '5.26.30' };
const MAIN_CLASS = 'org.neo4j.server.CommunityEntryPoint';
const START_TIMEOUT_MS = 120_000;
const JVM_FLAGS = [
  '-Xms1g', '-Xmx2g', '-XX:+UseG1GC',
  '--add-opens=java.base/java.nio=ALL-UNNAMED', '--add-opens=java.base/java.io=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED', '-Dio.netty.tryReflectionSetAccessible=true',
];

// Heap is set by the JVM flags above: server.memory.heap.* is ignored when the entry point is run directly.
function configuration({ home, port, httpPort }) {
  return `server.default_listen_address=${LOCALHOST}
server.bolt.listen_address=${LOCALHOST}:${port}
server.http.listen_address=${LOCALHOST}:${httpPort}
server.https.enabled=false
server.directories.data=${path.join(home, 'data')}
server.directories.logs=${path.join(home, 'logs')}
dbms.security.auth_enabled=false
server.memory.pagecache.size=1g
# without these three a SIGTERM stop takes 10-12 s instead of 0.3 s
internal.dbms.bolt.netty_server_shutdown_quiet_period=0
internal.dbms.bolt.netty_server_shutdown_timeout=1
internal.server.bolt.connection_shutdown_wait_time=1s
`;
}

const libDir = (dir) => path.join(dir, 'lib');

export default {
  family: 'neo4j',
  name: 'Neo4j',
  defaultPort: 57687,
  adapters: ['neo4j'],

  async version(dir) {
    const lib = libDir(dir);
    return existsSync(lib) && readdirSync(lib).includes(`neo4j-${ARTIFACT.version}.jar`)
      ? `Neo4j ${ARTIFACT.version} Community` : null;
  },

  async install(dir, log) {
    log(`fetching org.neo4j:neo4j:${ARTIFACT.version} and its dependencies from Maven Central into ${libDir(dir)}`);
    await copyDependencies(ARTIFACT, libDir(dir));
  },

  async start({ dir, port }) {
    const home = path.join(dir, 'home');
    mkdirSync(path.join(home, 'conf'), { recursive: true });
    // The HTTP connector is not used, but it must not collide: it keeps Neo4j's default distance (7687, 7474).
    const httpPort = port - 213;
    await requireFreePort(httpPort, 'Neo4j (HTTP connector)');
    writeFileSync(path.join(home, 'conf', 'neo4j.conf'), configuration({ home, port, httpPort }));
    // Neo4j writes its own log below its home; the JVM's output (a crash before logging starts) goes beside it.
    const logFile = path.join(home, 'logs', 'neo4j.log');
    const log = openSync(path.join(dir, 'neo4j.out'), 'a');
    const child = spawn('java', [...JVM_FLAGS, '-cp', `${libDir(dir)}/*`, MAIN_CLASS, `--home-dir=${home}`, `--config-dir=${path.join(home, 'conf')}`],
      { detached: true, stdio: ['ignore', log, log] });
    closeSync(log);
    child.unref();
    await waitUntilAccepting({ port, pid: child.pid, timeoutMs: START_TIMEOUT_MS, logFile, family: 'Neo4j' });
    return {
      host: LOCALHOST, port, otherPorts: [httpPort], user: null, database: null, pid: child.pid, dataDir: path.join(home, 'data'), logFile, program: 'java',
    };
  },

  async requestStop(state) {
    process.kill(state.pid, 'SIGTERM');
  },
};
