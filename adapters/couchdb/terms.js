// The durability terms of a CouchDB API server (adapters/README.md, "Terms"). No request chooses how durable a write
// is: the server does, whole (scope 'server'), and the two servers this adapter serves differ. Apache CouchDB 3
// commits every write with fsync before it answers (delayed_commits is gone since 3.0): durable, never relaxed.
// PouchDB Server writes LevelDB without fsync (its LevelDB adapter asks for no sync, LevelDB's default): relaxed,
// never durable. So the description declares what each term needs, and terms() names the server it reached and
// reports the term that server cannot give. readTermAnswers() asks the server, couchTerms() turns its answers into
// settings and problems (pure, for the tests).
import { PASSWORD_ENV } from './connection.js';

// Which server answered GET /: CouchDB's welcome has `couchdb`, PouchDB Server's `express-pouchdb`.
export function serverKind(welcome) {
  if (Object.hasOwn(welcome, 'couchdb')) return 'couchdb';
  if (Object.hasOwn(welcome, 'express-pouchdb')) return 'pouchdb-server';
  return 'other';
}

// The configuration section each server lets an admin read, where its term is decided or undone.
export const CONFIG_PATHS = Object.freeze({
  couchdb: '_node/_local/_config/couchdb',
  'pouchdb-server': '_config/pouchdb_server',
});

// PouchDB Server's options (pouchdb_server section of /_config) that put the documents elsewhere than in LevelDB
// on disk, and what each means.
const POUCHDB_ELSEWHERE = Object.freeze({
  in_memory: ['true', 'documents live in memory only (MemDOWN) and reach no disk', 'without --in-memory'],
  sqlite: ['true', 'documents are stored through SQLite (node-websql), not LevelDB, so how a write is flushed is not what this adapter declares', 'without --sqlite'],
  level_backend: [null, 'documents are stored through another LevelDOWN backend than LevelDB, so how a write is flushed is not what this adapter declares', 'without --level-backend'],
  proxy: [null, 'requests are forwarded to another server', 'without --proxy'],
});

// The server's welcome document and the configuration section of its kind, or `{ refused }` with the reason when
// the server answered with an error (401 without an admin's credentials); a failure to reach it throws.
export async function readTermAnswers(client) {
  const welcome = await client.relax({ path: '' });
  const path = CONFIG_PATHS[serverKind(welcome)];
  if (!path) return { welcome, config: null };
  try {
    return { welcome, config: { path, values: await client.relax({ path }) } };
  } catch (error) {
    if (!error.statusCode) throw error;
    return { welcome, config: { path, refused: `HTTP ${error.statusCode} (${error.reason ?? error.message})` } };
  }
}

// The server as it names itself: PouchDB Server is never called CouchDB.
export function serverLabel(welcome) {
  switch (serverKind(welcome)) {
    case 'couchdb': return `Apache CouchDB ${welcome.version}`;
    case 'pouchdb-server': return `PouchDB Server ${welcome.vendor?.version ?? welcome.version}`;
    default: return `${Object.keys(welcome).find((key) => /^Welcome/.test(welcome[key])) ?? 'an unknown server'} ${welcome.version}`;
  }
}

const majorOf = (version) => Number.parseInt(String(version), 10);
// Where a setting came from, inside a sentence's parentheses: "GET /_config/pouchdb_server", not "server (GET ...)".
const said = ({ source }) => source.replace(/^server \((.*)\)$/, '$1');

// { settings, problems } of the term `durability` from the server's answers; `where` is host:port.
export function couchTerms({ welcome, config }, { durability, where }) {
  const kind = serverKind(welcome);
  const label = serverLabel(welcome);
  const at = `${label} at ${where}`;
  const settings = {
    server: {
      value: kind === 'pouchdb-server'
        ? `${label} (express-pouchdb ${welcome.version} on ${(welcome['pouchdb-adapters'] ?? []).join(', ') || 'no adapter named'})`
        : label,
      source: 'server (GET /: its welcome document, vendor and version)',
    },
  };
  const configured = (key) => {
    if (config.refused) return { value: 'unreadable', source: `server refused GET /${config.path}: ${config.refused}` };
    const value = config.values?.[key];
    return { value: value === undefined ? 'not set' : String(value), source: `server (GET /${config.path})` };
  };
  const problems = [];

  if (kind === 'couchdb') {
    const major = majorOf(welcome.version);
    const delayed = configured('delayed_commits');
    if (major >= 3) {
      settings['couchdb/delayed_commits'] = { ...delayed, source: `${delayed.source}; ignored since CouchDB 3.0` };
      settings['commit (writes)'] = {
        value: 'fsync before the answer', source: `${label} (every write is a full commit since 3.0; no setting changes it)`,
      };
      if (durability === 'relaxed') {
        problems.push(`${at} commits every write with fsync before it answers (delayed_commits is gone since 3.0 and `
          + 'nothing else turns the flush off): Apache CouchDB 3 has no relaxed term');
      }
    } else {
      // Before 3.0, [couchdb] delayed_commits decided it: true answered before the commit's fsync, false after.
      settings['couchdb/delayed_commits'] = delayed;
      const needed = durability === 'durable' ? 'false' : 'true';
      if (delayed.value !== needed) {
        const how = delayed.value === 'unreadable' ? `give an admin's credentials (${PASSWORD_ENV}) to read it` : `set it to ${needed}`;
        problems.push(`[couchdb] delayed_commits is ${delayed.value} on ${at} (${said(delayed)}): ${durability} `
          + `writes need ${needed} before CouchDB 3.0 (${how}, in the server's local.ini or PUT /${config.path}/delayed_commits)`);
      }
    }
  } else if (kind === 'pouchdb-server') {
    for (const [key, [bad, meaning, remedy]] of Object.entries(POUCHDB_ELSEWHERE)) {
      const setting = configured(key);
      settings[`pouchdb_server/${key}`] = setting;
      const set = bad === null ? !['not set', 'unreadable', '', 'false'].includes(setting.value) : setting.value === bad;
      if (set) {
        problems.push(`pouchdb_server/${key} is ${setting.value} on ${at} (${said(setting)}): ${meaning}, so no write `
          + `is ${durability} there (start PouchDB Server ${remedy})`);
      }
    }
    settings['LevelDB sync (writes)'] = {
      value: 'false', source: 'not readable from the server: the LevelDB adapter of PouchDB Server 4.2.0 (the release '
        + '`bench server` installs) passes no sync option, and LevelDB\'s default is false; no setting changes it',
    };
    if (durability === 'durable') {
      problems.push(`${at} writes LevelDB without fsync (its LevelDB adapter asks for no sync, LevelDB's default, and `
        + 'no setting of PouchDB Server changes it): PouchDB Server has no durable term');
    }
  } else {
    problems.push(`${at} is neither Apache CouchDB nor PouchDB Server: when it flushes a write to disk is unknown, so `
      + `no ${durability} term can be claimed for it`);
  }
  settings['batch (writes)'] = { value: 'not sent (no batch=ok): each write is answered once the server has stored it', source: 'set by the adapter on each write' };
  return { settings, problems };
}

// The memory term (adapters/README.md, "Terms", Memory): neither server has a data cache that a setting sizes, so
// there is none to read back (bytes null, and --cache refuses the run) and settings say why, for the server reached.
// PouchDB Server opens one LevelDB per database through leveldown with leveldown's own block cache (8 MiB each, its
// default), which no option of PouchDB Server changes; Apache CouchDB keeps no cache of its files' data and reads
// them through the operating system's page cache.
export function couchCache({ welcome }) {
  const label = serverLabel(welcome);
  const reasons = {
    'pouchdb-server': `${label} opens each database's LevelDB through leveldown, whose block cache is 8 MiB per `
      + 'database (leveldown\'s default cacheSize) and which no option of PouchDB Server sizes',
    couchdb: `${label} keeps no cache of its files' data: it reads them through the operating system's page cache, `
      + 'which no CouchDB setting sizes',
  };
  return {
    bytes: null,
    settings: {
      'data cache': {
        value: 'none configurable',
        source: reasons[serverKind(welcome)] ?? `${label} is neither Apache CouchDB nor PouchDB Server: its cache is unknown`,
      },
    },
  };
}
