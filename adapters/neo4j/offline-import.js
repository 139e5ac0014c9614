// The offline import: the dataset written as CSV files, `neo4j-admin database import full` (the importer in the
// server's own jars) writing a whole new store from them, and the server's database replaced by that store.
// Neo4j Community holds one user database, so replacing it replaces everything in it: this path is taken only for
// the server that `bench server` runs, and only while the database holds nothing outside the namespace.
//
// The importer writes into a data directory of its own beside the server's, while the server still runs; the
// server is stopped only for the swap of the two directories and its start (replace-database.js). Until then the
// old database is untouched.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { logTail } from '../../server/process.js';
import { runningServer } from '../../server/state.js';
import { createCsvWriter } from './offline-csv.js';

const REPLACE_SCRIPT = fileURLToPath(new URL('./replace-database.js', import.meta.url));
// How long the database may take to answer after the server accepts connections again.
const ONLINE_TIMEOUT_MS = 120_000;
const POLL_MS = 500;
const ADMIN_TOOL = 'org.neo4j.cli.AdminTool';

// Names shown of each kind found outside the namespace; a shared database may hold dozens.
const NAMES_SHOWN = 5;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function listNames(names) {
  const more = names.length - NAMES_SHOWN;
  return `${names.slice(0, NAMES_SHOWN).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

// What the database holds outside the namespace, described, or null when nothing. Labels and relationship types
// in use come from the token lists; a node without any label only from a scan of the nodes.
async function outsideNamespace(run, names) {
  const labels = (await run('CALL db.labels() YIELD label RETURN label'))
    .map((record) => record.get(0)).filter((label) => !names.ownsLabel(label));
  const types = (await run('CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType'))
    .map((record) => record.get(0)).filter((type) => !names.ownsType(type));
  const [unlabelled] = (await run('MATCH (n) WHERE size(labels(n)) = 0 RETURN count(n)')).map((record) => record.get(0));
  // The two token lookup indexes every store has (the importer makes them again).
  const schema = (await run("SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP' RETURN name"))
    .map((record) => record.get(0)).filter((name) => !names.ownsSchemaName(name));
  const found = [
    labels.length > 0 && `nodes labelled ${listNames(labels)}`,
    types.length > 0 && `relationships of type ${listNames(types)}`,
    unlabelled > 0 && `${unlabelled} node${unlabelled === 1 ? '' : 's'} without a label`,
    schema.length > 0 && `index${schema.length === 1 ? '' : 'es'} ${listNames(schema)}`,
  ].filter(Boolean);
  return found.length > 0 ? found.join(', ') : null;
}

// Why the offline path may not be taken for `server` (as cli/options.js serverProcess gives it), or null.
async function refusal({ server, run, names, database }) {
  if (!server) return 'the server is not one that `bench server` runs here (or --host/--port name another)';
  if (server.source !== 'bench server') return `the server is named by ${server.source}, not run by \`bench server\``;
  if (server.family !== 'neo4j' || !runningServer(server.cacheDir, 'neo4j')) return 'no Neo4j server that `bench server` runs';
  const outside = await outsideNamespace(run, names);
  return outside && `database "${database}" holds ${outside}, outside namespace "${names.namespace}"`;
}

function importerArguments({ csv, database, staging }) {
  return ['database', 'import', 'full', ...csv.arguments(),
    // Any bad entry (a relation to a missing profile, a repeated key) fails the import, as it fails the online one.
    '--bad-tolerance=0', '--skip-bad-relationships=false', '--skip-duplicate-nodes=false',
    `--multiline-fields=${csv.multiline}`, '--overwrite-destination=true',
    `--report-file=${path.join(staging, 'import.report')}`, database];
}

// Runs the importer with the server's JDK and jars into the staging data directory. Its output goes to a log
// file, whose end a failure shows.
async function runImporter({ state, csv, database, staging }) {
  const home = path.join(staging, 'home');
  mkdirSync(path.join(home, 'conf'), { recursive: true });
  writeFileSync(path.join(home, 'conf', 'neo4j.conf'),
    `server.directories.data=${path.join(staging, 'data')}\nserver.directories.logs=${path.join(staging, 'logs')}\n`);
  const logFile = path.join(staging, 'neo4j-admin.log');
  const log = openSync(logFile, 'w');
  const child = spawn(path.join(state.java.home, 'bin', 'java'),
    ['-cp', `${path.join(state.dir, 'lib')}/*`, ADMIN_TOOL, ...importerArguments({ csv, database, staging })],
    { env: { ...process.env, NEO4J_HOME: home, NEO4J_CONF: path.join(home, 'conf') }, stdio: ['ignore', log, log] });
  closeSync(log);
  const [code, signal] = await once(child, 'exit');
  if (code !== 0) {
    // The JVM exits with 128 + the signal's number when a signal (Ctrl-C) ends it.
    const ended = signal ?? Object.keys(os.constants.signals).find((name) => os.constants.signals[name] === code - 128);
    throw new BenchError(ErrorCodes.IMPORT, `neo4j: neo4j-admin database import full ${ended ? `was ended by ${ended}` : `failed (exit code ${code})`}; `
      + `the server's database is untouched. The end of ${logFile}:\n${await logTail(logFile)}`);
  }
}

// Stops the server, swaps the databases and starts it again, in a detached process (replace-database.js).
async function replaceDatabase({ state, server, database, staging }) {
  const job = path.join(staging, 'replace.json');
  const outcome = path.join(staging, 'replace-outcome.json');
  writeFileSync(job, JSON.stringify({
    cacheDir: server.cacheDir, pid: state.pid, port: state.port, release: state.release, javaHome: state.java.home,
    cacheBytes: state.cacheBytes ?? null, dataDir: state.dataDir, database, staging,
    started: path.join(staging, 'replace-started.json'), outcome,
  }));
  const logFile = path.join(staging, 'replace.log');
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [REPLACE_SCRIPT, job], { detached: true, stdio: ['ignore', log, log] });
  closeSync(log);
  await once(child, 'exit');
  let result;
  try {
    result = JSON.parse(readFileSync(outcome, 'utf8'));
  } catch {
    throw new BenchError(ErrorCodes.IMPORT, `neo4j: replacing database "${database}" ended without an outcome; `
      + `check \`npx bench server status neo4j\`. The end of ${logFile}:\n${await logTail(logFile)}`);
  }
  if (!result.replaced) {
    throw new BenchError(ErrorCodes.IMPORT, `neo4j: replacing database "${database}" with the imported one failed: ${result.error} `
      + `(see ${logFile} and \`npx bench server status neo4j\`)`);
  }
}

// The database answers once it is online again; the driver replaces the connections the stop closed.
async function waitUntilOnline(run, database) {
  const deadline = performance.now() + ONLINE_TIMEOUT_MS;
  for (;;) {
    try {
      await run('RETURN 1');
      return;
    } catch (error) {
      if (performance.now() > deadline) {
        throw new BenchError(ErrorCodes.IMPORT, `neo4j: database "${database}" did not answer within ${ONLINE_TIMEOUT_MS / 1000} s `
          + `after it was replaced: ${error.message}`, { cause: error });
      }
      await sleep(POLL_MS);
    }
  }
}

// `{ refused: reason }` when the offline path may not be taken, else `{ importer }`: `importProfiles(docs)` and
// `importRelations(edges)` write the CSV files, `load()` imports them and replaces the database (whose marker is
// then `marker`, as written now) and resolves with the time of each step, `discard()` removes the staging
// directory, all of it after a load that succeeded, all but the logs that an error names otherwise.
export async function openOfflineImport({ server, run, names, database, marker, onReplaced }) {
  const refused = await refusal({ server, run, names, database });
  if (refused) return { refused };
  const state = runningServer(server.cacheDir, 'neo4j');
  // Beside the data directory, on the same file system, so the swap is a rename. What an interrupted import left
  // there is removed first.
  const staging = path.join(path.dirname(state.dataDir), 'offline-import');
  rmSync(staging, { recursive: true, force: true });
  const csvDir = path.join(staging, 'csv');
  mkdirSync(csvDir, { recursive: true });
  const csv = createCsvWriter(csvDir, names);
  await csv.writeMarker(marker);
  let loaded = false;
  return {
    importer: {
      importProfiles: (docs) => csv.writeProfiles(docs),
      importRelations: (edges) => csv.writeRelations(edges),
      // Resolves with the importer's time and the replacement's (the server's stop and start included).
      async load() {
        await csv.close();
        const begin = performance.now();
        await runImporter({ state, csv, database, staging });
        const imported = performance.now();
        // The database may have gained someone else's data while the importer ran.
        const outside = await outsideNamespace(run, names);
        if (outside) {
          throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, `neo4j: database "${database}" came to hold ${outside} during `
            + `the offline import; not replacing it (the data of namespace "${names.namespace}" is left as an unfinished import)`);
        }
        await replaceDatabase({ state, server, database, staging });
        onReplaced();
        await waitUntilOnline(run, database);
        loaded = true;
        return { importerMs: Math.round(imported - begin), replaceMs: Math.round(performance.now() - imported) };
      },
      async discard() {
        await csv.close().catch(() => {});
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
