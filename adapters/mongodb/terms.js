// The durability terms on MongoDB (adapters/README.md, "Terms"). Each timed write names its own write concern, so
// the term is chosen per request (scope 'session'): relaxed { w: 1, j: false }, acknowledged once the node applied
// the write in memory, its journal record flushed by WiredTiger within the journal commit interval; durable
// { w: 1, j: true }, acknowledged once the journal record is flushed to disk. The deployment's default write concern
// (w: "majority" on a replica set since MongoDB 5.0) is never used by a timed write. What the server can contradict:
// a storage engine that keeps nothing on disk (inMemory), or journaling switched off (--nojournal, before 6.1).
// readTermAnswers() asks the server, mongoTerms() turns its answers into settings and problems (pure, for the tests).
// The memory term is WiredTiger's cache, read back by mongoCache() from the same answers.
import { MongoServerError } from 'mongodb';
import { topologyOf } from './settings.js';

// The write concern of each term, as the server receives it (the driver's `journal` is the `j` it sends).
export const WRITE_CONCERNS = Object.freeze({
  relaxed: Object.freeze({ w: 1, j: false }),
  durable: Object.freeze({ w: 1, j: true }),
});

// The driver's options of a write under the term: `durable` true or false.
export function termWrite(durable) {
  const { w, j } = WRITE_CONCERNS[durable ? 'durable' : 'relaxed'];
  return { writeConcern: { w, journal: j } };
}

// WiredTiger's journal commit interval when nothing sets it (storage.journal.commitIntervalMs).
export const DEFAULT_COMMIT_INTERVAL_MS = 100;

// The answers of the commands the terms depend on; a command the server refuses (a user without the
// clusterMonitor role) is named in `refused` with the server's reason; any other error (the connection) throws.
export async function readTermAnswers(admin) {
  const refused = {};
  const probe = async (name, command) => {
    try {
      return await admin.command(command);
    } catch (error) {
      if (!(error instanceof MongoServerError)) throw error;
      refused[name] = error.codeName ?? error.message;
      return undefined;
    }
  };
  return {
    hello: await admin.command({ hello: 1 }),
    // With its wiredTiger section, where the cache's size is (mongoCache).
    serverStatus: await probe('serverStatus', { serverStatus: 1, repl: 0, metrics: 0, locks: 0 }),
    cmdLineOpts: await probe('getCmdLineOpts', { getCmdLineOpts: 1 }),
    journalCommitInterval: await probe('getParameter', { getParameter: 1, journalCommitInterval: 1 }),
    defaultRWConcern: await probe('getDefaultRWConcern', { getDefaultRWConcern: 1 }),
    refused,
  };
}

const unreadable = (command, refused) => ({ value: 'unreadable', source: `server refused ${command}: ${refused}` });
const concernText = ({ w, j }) => `{ w: ${w}, j: ${j} }`;

// { settings, problems } of the term `durability` from the server's answers; `where` is host:port.
export function mongoTerms(answers, { durability, where }) {
  const { hello, serverStatus, cmdLineOpts, journalCommitInterval, defaultRWConcern, refused = {} } = answers;
  const topology = topologyOf(hello);
  const settings = { topology: { value: topology, source: 'server (hello)' } };

  const engine = serverStatus?.storageEngine;
  if (engine) {
    settings['storage.engine'] = {
      value: engine.persistent === false ? `${engine.name} (not persistent)` : engine.name,
      source: 'server (serverStatus.storageEngine)',
    };
  } else if (serverStatus) {
    settings['storage.engine'] = {
      value: 'not reported', source: `server (serverStatus of a ${topology} names no storage engine; the shards' are not read)`,
    };
  } else {
    settings['storage.engine'] = unreadable('serverStatus', refused.serverStatus);
  }

  const journal = cmdLineOpts?.parsed?.storage?.journal ?? {};
  if (journal.enabled !== undefined) {
    settings['storage.journal.enabled'] = { value: String(journal.enabled), source: 'server (getCmdLineOpts: set at startup)' };
  } else if (cmdLineOpts) {
    settings['storage.journal.enabled'] = {
      value: 'true', source: 'server default (not set at startup; journaling is on unless --nojournal, and always since MongoDB 6.1)',
    };
  } else {
    settings['storage.journal.enabled'] = unreadable('getCmdLineOpts', refused.getCmdLineOpts);
  }

  if (journalCommitInterval?.journalCommitInterval !== undefined) {
    settings['storage.journal.commitIntervalMs'] = {
      value: String(journalCommitInterval.journalCommitInterval), source: 'server (getParameter journalCommitInterval)',
    };
  } else if (journal.commitIntervalMs !== undefined) {
    settings['storage.journal.commitIntervalMs'] = { value: String(journal.commitIntervalMs), source: 'server (getCmdLineOpts: set at startup)' };
  } else if (cmdLineOpts) {
    settings['storage.journal.commitIntervalMs'] = { value: String(DEFAULT_COMMIT_INTERVAL_MS), source: 'server default (not set at startup)' };
  } else {
    settings['storage.journal.commitIntervalMs'] = unreadable('getParameter', refused.getParameter);
  }

  settings.defaultWriteConcern = defaultRWConcern
    ? {
      value: JSON.stringify(defaultRWConcern.defaultWriteConcern ?? {}),
      source: `server (getDefaultRWConcern, ${defaultRWConcern.defaultWriteConcernSource ?? 'source not given'}); `
        + 'no timed write uses it, each names its own',
    }
    : unreadable('getDefaultRWConcern', refused.getDefaultRWConcern);

  settings['writeConcern (timed writes)'] = {
    value: concernText(WRITE_CONCERNS[durability]), source: 'set by the adapter on each write',
  };

  const problems = [];
  if (engine?.persistent === false) {
    problems.push(`the storage engine is ${engine.name} on ${where} (serverStatus.storageEngine.persistent is false): `
      + `it keeps no journal and nothing reaches a disk, so no write is ${durability} there (start mongod with `
      + '--storageEngine wiredTiger)');
  }
  if (journal.enabled === false) {
    problems.push(`storage.journal.enabled is false on ${where} (getCmdLineOpts: set at startup): without a journal a `
      + `write reaches disk only at the next checkpoint (storage.syncPeriodSecs), and j: true is refused, so no write is ${durability} `
      + 'there (start mongod without --nojournal, or with storage.journal.enabled: true)');
  }
  return { settings, problems };
}

// The memory term (adapters/README.md, "Terms", Memory): WiredTiger's cache, which holds the collections' and
// indexes' pages, read back from serverStatus's wiredTiger.cache["maximum bytes configured"] with where its size
// came from (storage.wiredTiger.engineConfig.cacheSizeGB, --wiredTigerCacheSizeGB at startup, else WiredTiger's
// default). Nothing is set: no MongoDB server runs under the harness here.
export const CACHE_STATISTIC = 'maximum bytes configured';

// { bytes, settings } from readTermAnswers()'s answers; bytes null when the server refuses serverStatus or reports
// no WiredTiger cache (a mongos, another engine).
export function mongoCache({ hello, serverStatus, cmdLineOpts, refused = {} }) {
  const settings = {};
  let bytes = null;
  const reported = serverStatus?.wiredTiger?.cache?.[CACHE_STATISTIC];
  const name = `wiredTiger.cache.${CACHE_STATISTIC}`;
  if (reported !== undefined && reported !== null && Number.isSafeInteger(Number(reported))) {
    bytes = Number(reported);
    settings[name] = { value: String(bytes), source: 'server (serverStatus.wiredTiger.cache)' };
  } else if (serverStatus) {
    const engine = serverStatus.storageEngine?.name;
    const why = topologyOf(hello) === 'sharded cluster (mongos)' ? 'a mongos has no storage engine; the shards\' caches are not read'
      : `its storage engine is ${engine ?? 'not named'}`;
    settings[name] = { value: 'not reported', source: `server (serverStatus has no wiredTiger.cache: ${why})` };
  } else {
    settings[name] = unreadable('serverStatus', refused.serverStatus);
  }
  const configured = cmdLineOpts?.parsed?.storage?.wiredTiger?.engineConfig?.cacheSizeGB;
  if (configured !== undefined) {
    settings['storage.wiredTiger.engineConfig.cacheSizeGB'] = { value: String(configured), source: 'server (getCmdLineOpts: set at startup)' };
  } else if (cmdLineOpts) {
    settings['storage.wiredTiger.engineConfig.cacheSizeGB'] = {
      value: 'not set', source: 'server default (not set at startup: WiredTiger takes the larger of 50% of (RAM - 1 GB) and 256 MB)',
    };
  } else {
    settings['storage.wiredTiger.engineConfig.cacheSizeGB'] = unreadable('getCmdLineOpts', refused.getCmdLineOpts);
  }
  return { bytes, settings };
}
