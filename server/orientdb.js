// OrientDB 3.2.25 Community from its Maven Central distribution tarball. The server is configured by editing its
// XML listeners to 127.0.0.1 and our ports; its root password comes from BENCH_ORIENTDB_PASSWORD, or the
// documented local-only default, and is never written anywhere by the harness.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { fetchArtifact } from './maven.js';
import { LOCALHOST, requireFreePort, run, waitUntilAccepting } from './process.js';

const ARTIFACT = { groupId: 'com.orientechnologies', artifactId: 'orientdb-community', version: '3.2.25', packaging: 'tar.gz' };
const DISTRIBUTION = `orientdb-community-${ARTIFACT.version}`;
export const LOCAL_ROOT_PASSWORD = 'dbshootout';
const START_TIMEOUT_MS = 120_000;

const home = (dir) => path.join(dir, DISTRIBUTION);

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

  async version(dir) {
    return existsSync(path.join(home(dir), 'bin', 'server.sh')) ? `OrientDB ${ARTIFACT.version} Community` : null;
  },

  async install(dir, log) {
    log(`fetching ${ARTIFACT.groupId}:${ARTIFACT.artifactId}:${ARTIFACT.version}:tar.gz from Maven Central`);
    const tarball = await fetchArtifact(ARTIFACT);
    mkdirSync(dir, { recursive: true });
    await run('tar', ['xzf', tarball, '-C', dir]);
  },

  async start({ dir, port }) {
    const root = home(dir);
    // The HTTP listener is not used, but it must not collide: it keeps OrientDB's default distance (2424, 2480).
    const httpPort = port + 56;
    await requireFreePort(httpPort, 'OrientDB (HTTP listener)');
    const configFile = path.join(root, 'config', 'orientdb-server-config.xml');
    writeFileSync(configFile, listen(listen(readFileSync(configFile, 'utf8'), 'binary', port), 'http', httpPort));
    const logFile = path.join(dir, 'orientdb.log');
    const log = openSync(logFile, 'a');
    const child = spawn(path.join(root, 'bin', 'server.sh'), [], {
      detached: true,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        ORIENTDB_HOME: root,
        ORIENTDB_ROOT_PASSWORD: process.env.BENCH_ORIENTDB_PASSWORD ?? LOCAL_ROOT_PASSWORD,
        ORIENTDB_OPTS_MEMORY: '-Xms1g -Xmx2g',
        JAVA_OPTS: '--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED',
        ORIENTDB_SETTINGS: '-Dstorage.diskCache.bufferSize=1024 -Dprofiler.enabled=false -Dcom.sun.xml.bind.v2.bytecode.ClassTailor.noOptimize=true',
      },
    });
    closeSync(log);
    child.unref();
    // server.sh execs java, so the child's pid is the server's.
    await waitUntilAccepting({ port, pid: child.pid, timeoutMs: START_TIMEOUT_MS, logFile, family: 'OrientDB' });
    return {
      host: LOCALHOST, port, otherPorts: [httpPort], user: 'root', database: null, pid: child.pid, dataDir: path.join(root, 'databases'), logFile, program: 'java',
    };
  },

  async requestStop(state) {
    process.kill(state.pid, 'SIGTERM');
  },
};
