// Replaces one database of the Neo4j server that `bench server` runs with the store the offline importer wrote:
// stops the server (the process it recorded), moves the database's store and transaction logs aside, moves the
// new ones in, starts the server again. Run as a detached process of its own (offline-import.js starts it) so
// that an interrupted harness, a second Ctrl-C included, never leaves the server stopped or half swapped: this
// process goes on to the end and writes its outcome as JSON.
//
//   node adapters/neo4j/replace-database.js <job.json>
//
// job.json: { cacheDir, pid, port, release, javaHome, cacheBytes, dataDir, database, staging, started, outcome }; the
// server starts again with the page cache it ran with (cacheBytes, bench run --cache; null for the family's own).
// The process first writes `started` ({ pid }): from then on the replacement goes on whatever happens to the harness
// (a harness killed before that file exists may have died before it started the process, and the server is
// untouched). Each step is said on stdout, which offline-import.js sends to replace.log.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serverFamily, startServer, stopServer } from '../../server/index.js';
import { runningServer } from '../../server/state.js';

const neo4j = serverFamily('neo4j');
const RETRY_MS = 5000;

function locations({ dataDir, database, staging }) {
  const of = (root) => ({
    databases: path.join(root, 'databases', database), transactions: path.join(root, 'transactions', database),
  });
  return { live: of(dataDir), fresh: of(path.join(staging, 'data')), aside: of(path.join(staging, 'replaced')) };
}

// The moves in order; on a failure the ones made are undone, so the old database stays whole.
function swap(job) {
  const { live, fresh, aside } = locations(job);
  const moves = [
    [live.transactions, aside.transactions], [live.databases, aside.databases],
    [fresh.databases, live.databases], [fresh.transactions, live.transactions],
  ];
  const done = [];
  try {
    for (const [from, to] of moves) {
      if (!existsSync(from)) continue;
      mkdirSync(path.dirname(to), { recursive: true });
      renameSync(from, to);
      done.push([from, to]);
    }
  } catch (error) {
    for (const [from, to] of done.reverse()) renameSync(to, from);
    throw error;
  }
}

// A second try after a failed start: a server left stopped is the worst outcome, and one of its ports may have been
// held for a moment by another process's connection while the server was down.
async function startTwice(job) {
  const start = () => startServer(neo4j, {
    cacheDir: job.cacheDir, port: job.port, version: job.release, javaHome: job.javaHome, cacheBytes: job.cacheBytes ?? null,
  });
  try {
    return await start();
  } catch (error) {
    process.stderr.write(`the first start failed, trying again in ${RETRY_MS / 1000} s: ${error.message}\n`);
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    return start();
  }
}

async function replace(job) {
  const running = runningServer(job.cacheDir, 'neo4j');
  if (running?.pid !== job.pid) {
    throw new Error(`the Neo4j server bench server runs is no longer pid ${job.pid}${running ? ` (it is pid ${running.pid})` : ''}; not replacing its database`);
  }
  say(`stopping the server (pid ${job.pid})`);
  await stopServer(neo4j, { cacheDir: job.cacheDir });
  let failure = null;
  try {
    swap(job);
    say(`database "${job.database}" swapped for the imported one`);
  } catch (error) {
    failure = error;
    say(`the swap failed, the old database is back in place: ${error.message}`);
  }
  // Started again whatever happened: with the new database, or with the old one when the swap failed.
  let started;
  try {
    say(`starting the server on port ${job.port}`);
    started = await startTwice(job);
  } catch (error) {
    throw new Error(`${failure ? `the swap failed (${failure.message}, the old database is back in place)` : 'the new database is in place'}, `
      + `but the server did not start again: ${error.message}`);
  }
  if (failure) throw new Error(`the swap failed (${failure.message}); the server runs again on the old database`);
  say(`the server runs again (pid ${started.pid})`);
  return started.pid;
}

const say = (words) => process.stdout.write(`${new Date().toISOString()} ${words}\n`);

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
writeFileSync(job.started, JSON.stringify({ pid: process.pid }));
say(`replacing database "${job.database}" (pid ${process.pid})`);
try {
  const pid = await replace(job);
  writeFileSync(job.outcome, JSON.stringify({ replaced: true, pid }));
} catch (error) {
  writeFileSync(job.outcome, JSON.stringify({ replaced: false, error: error.message }));
  process.exitCode = 1;
}
