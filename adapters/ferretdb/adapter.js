// The MongoDB adapter's code against FerretDB: everything but what names the server. FerretDB answers buildInfo
// with the MongoDB version it emulates (7.0.42) and its own under ferretdbVersion; its backend it names nowhere but
// in explain, whose queryPlanner is the backend's own plan: PostgreSQL's EXPLAIN (a "Node Type") or SQLite's
// EXPLAIN QUERY PLAN rows ("id=.. parent=.. notused=.. detail=.."). The capability probe's scratch collection is
// where it is asked (../mongodb/capabilities.js).
import { MongoAdapter } from '../mongodb/adapter.js';

export function backendOf(queryPlanner) {
  const plan = queryPlanner?.Plan;
  if (plan && !Array.isArray(plan) && typeof plan['Node Type'] === 'string') return 'PostgreSQL';
  if (Array.isArray(plan) && plan.length > 0 && plan.every((row) => typeof row === 'string' && /\bdetail=/.test(row))) return 'SQLite';
  return 'a backend it does not name';
}

export function ferretVersion(buildInfo, backend) {
  const own = typeof buildInfo.ferretdbVersion === 'string' ? buildInfo.ferretdbVersion.replace(/^v/, '') : null;
  const name = own ? `FerretDB ${own}` : `a server that is not FerretDB (its buildInfo has no ferretdbVersion; MongoDB ${buildInfo.version})`;
  return `${name} (MongoDB wire protocol on ${backend})`;
}

export class FerretAdapter extends MongoAdapter {
  async serverVersion() {
    const [buildInfo, { queryPlanner }] = await Promise.all([this.buildInfo(), this.capabilities()]);
    return ferretVersion(buildInfo, backendOf(queryPlanner));
  }

  // FerretDB 1.x ignores every write concern (its handlers mark writeConcern ignored): each write is a transaction of
  // its backend, acknowledged once that commits. What the term depends on is the backend's, which the wire protocol
  // does not tell; MongoDB's journal and WiredTiger settings do not exist there, so none is read.
  async terms() {
    const { queryPlanner } = await this.capabilities();
    const backend = backendOf(queryPlanner);
    return {
      settings: {
        backend: { value: backend, source: 'server (explain: the backend\'s own query plan)' },
        writeConcern: { value: 'ignored', source: 'FerretDB 1.x (every write commits a backend transaction)' },
        'backend commit': {
          value: backend === 'SQLite' ? 'WAL, synchronous=FULL' : 'synchronous_commit=on, fsync=on',
          source: backend === 'SQLite' ? 'FerretDB\'s SQLite defaults (journal_mode=wal; synchronous left at SQLite\'s FULL)'
            : 'PostgreSQL\'s defaults, which the local PostgreSQL bench server runs keeps (not readable through FerretDB)',
        },
      },
      applied: [],
      problems: [],
      cache: { bytes: null, settings: { cache: { value: 'not reported', source: 'the backend\'s (PostgreSQL\'s shared_buffers), not readable through FerretDB' } } },
    };
  }
}
