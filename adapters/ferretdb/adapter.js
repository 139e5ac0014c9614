// The MongoDB adapter's code against FerretDB: everything but what names the server. FerretDB answers buildInfo
// with the MongoDB version it emulates (7.0.42) and its own under ferretdbVersion; its backend it names nowhere but
// in explain, whose queryPlanner is the backend's own plan: PostgreSQL's EXPLAIN (a "Node Type") or SQLite's
// EXPLAIN QUERY PLAN rows ("id=.. parent=.. notused=.. detail=.."). The capability probe's scratch collection is
// where it is asked (../mongodb/capabilities.js).
import pg from 'pg';
import { runningServer } from '../../server/state.js';
import { MongoAdapter } from '../mongodb/adapter.js';

// What the durability term depends on, and the cache, read from the backend PostgreSQL.
const BACKEND_SETTINGS = ['synchronous_commit', 'fsync', 'shared_buffers', 'block_size'];

// The local PostgreSQL this FerretDB keeps its data in, when `bench server` runs both in the options' cache directory
// and the FerretDB it runs is the one connected to (its port): { host, port, user, database }, else null.
export function localBackend(options) {
  if (!options.dataDir) return null;
  const ferret = runningServer(options.dataDir, 'ferretdb');
  if (!ferret?.backendServer || ferret.port !== options.port) return null;
  const postgresql = runningServer(options.dataDir, 'postgresql');
  if (!postgresql || postgresql.port !== ferret.backendServer.port) return null;
  return { host: postgresql.host, port: postgresql.port, user: postgresql.user, database: ferret.backendServer.database };
}

// The settings as a session on FerretDB's database gets them (a database- or role-level setting included), on a
// connection of its own.
async function backendSettings(target) {
  const client = new pg.Client({ ...target, connectionTimeoutMillis: 10_000, application_name: 'db-shootout' });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT name, setting, source FROM pg_settings WHERE name = ANY($1::text[])', [BACKEND_SETTINGS]);
    return Object.fromEntries(rows.map((row) => [row.name, row]));
  } finally {
    await client.end();
  }
}

export function backendOf(queryPlanner) {
  const plan = queryPlanner?.Plan;
  if (plan && !Array.isArray(plan) && typeof plan['Node Type'] === 'string') return 'PostgreSQL';
  if (Array.isArray(plan) && plan.length > 0 && plan.every((row) => typeof row === 'string' && /\bdetail=/.test(row))) return 'SQLite';
  return 'a backend it does not name';
}

// The version as results show it after the name (`FerretDB 1.24.2 (MongoDB wire protocol on PostgreSQL)`): FerretDB's
// own, never the MongoDB version it emulates; a server without ferretdbVersion says it is not FerretDB.
// FerretDB's own version from a buildInfo answer, without its `v` (`1.24.2`), or null for a server that is not FerretDB.
function ownVersion(buildInfo) {
  return typeof buildInfo?.ferretdbVersion === 'string' ? buildInfo.ferretdbVersion.replace(/^v/, '') : null;
}

export function ferretVersion(buildInfo, backend) {
  const own = ownVersion(buildInfo);
  const name = own ?? `(not FerretDB: its buildInfo has no ferretdbVersion; MongoDB ${buildInfo.version})`;
  return `${name} (MongoDB wire protocol on ${backend})`;
}

// The one thing declared by version rather than found by the capability probe, because no probe can find it without
// wedging the server: every FerretDB 1.x release (1.14 to 1.24.2 read, and 1.x ends there; 2.x is another module)
// runs an `update` command's statements in one loop whose per-statement query is closed by a `defer` inside it
// (internal/handler/msg_update.go; internal/handlers/sqlite/ in 1.14), so each statement whose filter matches a
// document keeps a backend connection until the whole command returns. Past the pool's size (pool_max_conns, 50 by
// default) the next statement waits for a connection none will give back: the command never answers, and FerretDB
// answers no other client until it is restarted. `upsertEdges` sends 500 upserts in one command, about half of
// existing edges. (The graph suite's untimed undo sends at most UNDO_BATCH_SIZE per command, one at a time.)
export const UPDATE_POOL_DEFECT = 'FerretDB 1.x keeps one of its backend connections (50 by default) per statement of an '
  + '`update` command whose filter matches a document, until the whole command returns (internal/handler/msg_update.go: '
  + 'the per-statement query is closed by a defer inside the loop), so an upsert of 500 edges in one request, about '
  + 'half of them existing, never answers and leaves FerretDB answering no client until it is restarted; declared by '
  + 'FerretDB\'s version (buildInfo\'s ferretdbVersion), as no probe finds it without wedging the server';

// The operations a FerretDB of this buildInfo answer cannot run whatever the probe finds: { [operation]: reason }.
export function versionDefects(buildInfo) {
  const own = ownVersion(buildInfo);
  return own !== null && /^1\./.test(own) ? { upsertEdges: UPDATE_POOL_DEFECT } : {};
}

export class FerretAdapter extends MongoAdapter {
  #options;

  constructor(options) {
    super(options);
    this.#options = options;
  }

  // What the probe finds (../mongodb/capabilities.js), and the defect of its release no probe can find safely.
  async unsupportedOperations() {
    const [probed, buildInfo] = await Promise.all([super.unsupportedOperations(), this.buildInfo()]);
    return { ...probed, ...versionDefects(buildInfo) };
  }

  async serverVersion() {
    const [buildInfo, { queryPlanner }] = await Promise.all([this.buildInfo(), this.capabilities()]);
    return ferretVersion(buildInfo, backendOf(queryPlanner));
  }

  // FerretDB 1.x ignores every write concern (its handlers mark writeConcern ignored): each write is a transaction of
  // its backend, acknowledged once that commits. What the term depends on is the backend's: on the local PostgreSQL
  // `bench server` runs it is read from there (synchronous_commit and fsync as FerretDB's sessions get them, and
  // shared_buffers, the cache); a backend the harness does not run cannot be read through the wire protocol, and the
  // result says so. MongoDB's journal and WiredTiger settings do not exist there, so none is read.
  async terms({ durability }) {
    const { queryPlanner } = await this.capabilities();
    const backend = backendOf(queryPlanner);
    const settings = {
      backend: { value: backend, source: 'server (explain: the backend\'s own query plan)' },
      writeConcern: { value: 'ignored', source: 'FerretDB 1.x (every write commits a backend transaction)' },
    };
    const problems = [];
    let cache = { bytes: null, settings: { cache: { value: 'not read', source: 'the backend\'s, not readable through FerretDB' } } };
    const target = backend === 'PostgreSQL' ? localBackend(this.#options) : null;
    if (target) {
      const read = await backendSettings(target);
      const where = `the local PostgreSQL on port ${target.port}, database ${target.database}`;
      for (const name of ['synchronous_commit', 'fsync']) {
        settings[`${name} (backend)`] = { value: read[name]?.setting ?? 'not found', source: `${where} (${read[name]?.source ?? '?'})` };
      }
      if (durability === 'durable') {
        for (const name of ['synchronous_commit', 'fsync']) {
          if (read[name]?.setting !== 'on') {
            problems.push(`${name} is ${read[name]?.setting} on ${where}: FerretDB's writes are durable only with ${name}=on `
              + `(ALTER DATABASE ${target.database} SET ${name} = on, or in postgresql.conf for fsync)`);
          }
        }
      }
      cache = {
        bytes: Number(read.shared_buffers.setting) * Number(read.block_size.setting),
        settings: { 'shared_buffers (backend)': { value: `${read.shared_buffers.setting} x ${read.block_size.setting} B`, source: `${where} (${read.shared_buffers.source})` } },
      };
    } else if (backend === 'SQLite') {
      settings['backend commit'] = { value: 'WAL, synchronous=FULL', source: 'FerretDB\'s SQLite defaults (journal_mode=wal; synchronous left at SQLite\'s FULL), not readable through FerretDB' };
    } else {
      settings['backend commit'] = { value: 'not read', source: 'a backend `bench server` does not run here: its settings are not readable through FerretDB' };
    }
    return { settings, applied: [], problems, cache };
  }
}
