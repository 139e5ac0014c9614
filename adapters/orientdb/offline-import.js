// The offline import: the dataset written as files, a Java program (java/OfflineImport.java, compiled against the
// server's own jars) writing a whole new plocal database from them through OrientDB's embedded engine, without a
// network round trip or a transaction per relation, and the namespace's database replaced by it.
// A namespace is a database of its own on an OrientDB server, so replacing it touches nothing else the server
// holds; the path is taken only for the server that `bench server` runs, whose database directory is at hand.
//
// The new database is written into a staging directory beside the server's databases while the server runs. The
// swap is the server's own drop of the old database, a rename of the new one into its place and the server opening
// it: the server never stops. Until the drop the old database is untouched; an import interrupted after it leaves
// either no database (the namespace is then absent) or the new one with the unfinished marker written into it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync, createWriteStream, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { IMPORTER_CLASS, IMPORTER_JAVA, importerClasspath } from '../../server/orientdb.js';
import { logTail } from '../../server/process.js';
import { runningServer } from '../../server/state.js';

// The importer's heap holds each profile's key and RID and every relation twice (as pairs and as adjacency lists):
// under 1 GB for the full Pokec. Its page cache is off the heap: 4 GB, the engine's default, for a database that
// medium makes 163 MB and full about 16 times that. The parallel collector cost medium's import 3 to 5 % less CPU
// time than G1.
const IMPORTER_HEAP = '-Xmx3g';
const IMPORTER_GC = '-XX:+UseParallelGC';
const IMPORTER_CACHE_MB = 4096;

// Why the offline path may not be taken for `server` (as cli/options.js serverProcess gives it), or null.
function refusal(server) {
  if (!server) return 'the server is not one that `bench server` runs here (or --host/--port name another)';
  if (server.source !== 'bench server') return `the server is named by ${server.source}, not run by \`bench server\``;
  const state = server.family === 'orientdb' && runningServer(server.cacheDir, 'orientdb');
  if (!state) return 'no OrientDB server that `bench server` runs';
  if (state.java.major !== null && state.java.major < IMPORTER_JAVA) {
    return `the server runs on Java ${state.java.major}; the offline importer needs Java ${IMPORTER_JAVA} or newer`;
  }
  return null;
}

// A file written batch by batch; a write error is raised by the next write or by close().
class StagedFile {
  #stream;

  constructor(file) {
    this.#stream = createWriteStream(file);
    this.error = null;
    this.#stream.on('error', (error) => { this.error = error; });
  }

  async write(text) {
    if (this.error) throw this.error;
    if (!this.#stream.write(text)) {
      await new Promise((resolve) => {
        const done = () => {
          this.#stream.off('drain', done);
          this.#stream.off('error', done);
          resolve();
        };
        this.#stream.on('drain', done);
        this.#stream.on('error', done);
      });
    }
    if (this.error) throw this.error;
  }

  async close() {
    if (!this.#stream.closed) {
      this.#stream.end();
      await once(this.#stream, 'close').catch(() => {});
    }
    if (this.error) throw this.error;
  }
}

function exitReason(code, signal) {
  // The JVM exits with 128 + the signal's number when a signal (Ctrl-C) ends it.
  const ended = signal ?? Object.keys(os.constants.signals).find((name) => os.constants.signals[name] === code - 128);
  return ended ? `was ended by ${ended}` : `failed (exit code ${code})`;
}

// Runs the importer with the server's Java; resolves with the times it printed. Its output goes to a log file,
// whose end a failure shows.
async function runImporter({ state, database, staging }) {
  const classpath = await importerClasspath({ dir: state.dir, release: state.release, javaHome: state.java.home });
  const logFile = path.join(staging, 'importer.log');
  const log = openSync(logFile, 'w');
  const out = path.join(staging, 'importer.json');
  const outFd = openSync(out, 'w');
  const child = spawn(path.join(state.java.home, 'bin', 'java'), [
    IMPORTER_HEAP, IMPORTER_GC, `-Dstorage.diskCache.bufferSize=${IMPORTER_CACHE_MB}`, '-Dstorage.useWAL=false', '-Dprofiler.enabled=false',
    '--add-opens=java.base/java.lang=ALL-UNNAMED', '--add-opens=java.base/java.util=ALL-UNNAMED',
    '-cp', classpath, IMPORTER_CLASS, path.join(staging, 'databases'), database, staging,
  ], { stdio: ['ignore', outFd, log] });
  closeSync(log);
  closeSync(outFd);
  const [code, signal] = await once(child, 'exit');
  if (code !== 0) {
    throw new BenchError(ErrorCodes.IMPORT, `orientdb: the offline importer ${exitReason(code, signal)}; database "${database}" `
      + `is untouched. The end of ${logFile}:\n${await logTail(logFile)}`);
  }
  return JSON.parse(readFileSync(out, 'utf8'));
}

// `{ refused: reason }` when the offline path may not be taken, else `{ importer }`: `importProfiles(docs)` and
// `importRelations(edges)` write the files, `load()` writes the new database and has `replace(move)` swap it in
// (which drops the old database, calls `move()` and opens the new one), resolving with the time of each step;
// `discard()` removes the staging directory, all of it after a load that succeeded, all but the logs otherwise.
// `namespaceScript` is the online path's schema script, `marker` the unfinished marker the new database holds.
export function openOfflineImport({ server, database, marker, namespaceScript, replace }) {
  const refused = refusal(server);
  if (refused) return { refused };
  const state = runningServer(server.cacheDir, 'orientdb');
  // Beside the databases directory, on the same file system, so the swap is a rename. What an interrupted import
  // left there is removed first.
  const staging = path.join(path.dirname(state.dataDir), 'offline-import');
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(path.join(staging, 'databases'), { recursive: true });
  writeFileSync(path.join(staging, 'namespace.sql'), namespaceScript);
  writeFileSync(path.join(staging, 'marker.json'), JSON.stringify(marker));
  const profiles = new StagedFile(path.join(staging, 'profiles.jsonl'));
  const relations = new StagedFile(path.join(staging, 'relations.tsv'));
  const closeFiles = () => Promise.all([profiles.close(), relations.close()]);
  let loaded = false;
  return {
    importer: {
      // Documents travel as JSON, the order of their fields kept; the importer takes strings and integers only,
      // which is all a profile holds.
      importProfiles: (docs) => profiles.write(docs.map((doc) => `${JSON.stringify(doc)}\n`).join('')),
      // Profile keys are `P` and digits (datasets/columns.js): nothing to escape.
      async importRelations(edges) {
        let text = '';
        for (const { _from, _to } of edges) text += `${_from}\t${_to}\n`;
        await relations.write(text);
      },
      async load() {
        await closeFiles();
        const begin = performance.now();
        const steps = await runImporter({ state, database, staging });
        const imported = performance.now();
        await replace(() => renameSync(path.join(staging, 'databases', database), path.join(state.dataDir, database)));
        loaded = true;
        return {
          importerMs: Math.round(imported - begin), ...steps, replaceMs: Math.round(performance.now() - imported),
        };
      },
      async discard() {
        await closeFiles().catch(() => {});
        if (loaded) {
          rmSync(staging, { recursive: true, force: true });
          return;
        }
        for (const entry of readdirSync(staging)) {
          if (!entry.endsWith('.log')) rmSync(path.join(staging, entry), { recursive: true, force: true });
        }
      },
    },
  };
}
