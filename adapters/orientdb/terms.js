// The durability terms on OrientDB 3.2 (adapters/README.md, "Terms"; README.md, Durability). A commit is
// acknowledged once applied, with its write-ahead-log records queued in the server's memory; a background task
// (CASDiskWriteAheadLog's "WAL Flush Task") writes the queue and fsyncs the WAL every storage.wal.commitTimeout.
// No request and no setting makes a commit wait for that: the relaxed term is how every commit is, the durable one
// is unavailable. The settings it depends on are JVM-wide, read when a storage opens (-D options in ORIENTDB_SETTINGS
// or <properties> of config/orientdb-server-config.xml), so nothing can be set on a running server: terms() only
// reads them back, through the binary protocol's config-get, and applied is always empty.

// What the relaxed term depends on, with OrientDB 3.2's defaults (OGlobalConfiguration). config-get answers with
// the server's effective value; one that differs from the default was set by -D or the server configuration.
// (storage.wal.syncOnPageFlush, tx.commit.synch and tx.log.synch are still listed by OGlobalConfiguration, but
// nothing in 3.2.25 reads them.)
export const TERM_SETTINGS = Object.freeze({
  'storage.useWAL': 'true',
  'storage.wal.commitTimeout': '1000',
  'storage.callFsync': 'true',
});

// The memory term (adapters/README.md, "Terms", Memory): the disk cache, OrientDB's one read cache of every
// storage's pages, sized in megabytes (2^20 bytes) by storage.diskCache.bufferSize, JVM-wide and read when the
// server starts (-D in ORIENTDB_SETTINGS: the server `bench server` runs is started with --cache's, server/orientdb.js).
// The JVM's heap is beside it, not part of it.
export const CACHE_SETTING = 'storage.diskCache.bufferSize';
const MIB = 2 ** 20;

// { bytes, settings } from the value config-get answers for CACHE_SETTING.
export function orientdbCache(value) {
  const bytes = /^\d+$/.test(String(value ?? '')) ? Number(value) * MIB : null;
  return {
    bytes,
    settings: {
      [CACHE_SETTING]: {
        value: value === undefined || value === null ? 'not reported' : `${value} MB`,
        source: 'server (config-get: the disk cache in MB of 2^20 bytes, from -Dstorage.diskCache.bufferSize, else sized by OrientDB at start from the machine\'s memory)',
      },
    },
  };
}

function source(name, value) {
  const normal = TERM_SETTINGS[name];
  return value === normal ? 'server (config-get: OrientDB\'s default)'
    : `server (config-get: set by -D${name} or the server configuration; OrientDB's default is ${normal})`;
}

// `read(keys)`: { key: value } from the server's configuration; `release`: the server's version; `where`: host:port
// for the messages.
export async function orientdbTerms({ read, release, where }, { durability }) {
  const values = await read([...Object.keys(TERM_SETTINGS), CACHE_SETTING]);
  const settings = {
    orientdb: { value: release, source: 'server (config-get network.http.serverInfo)' },
    ...Object.fromEntries(Object.keys(TERM_SETTINGS).map((name) => [name, { value: values[name], source: source(name, values[name]) }])),
    'commit acknowledgement': {
      value: 'before its WAL records are written: they are written and fsynced every storage.wal.commitTimeout',
      source: `OrientDB ${release}: no request or setting makes a commit wait for the WAL`,
    },
  };
  const problems = [];
  // The durable term is unavailable: the harness runs no write under it, and no setting could contradict it more.
  if (durability === 'relaxed') {
    const restart = (name, value) => `start the server with -D${name}=${value} (ORIENTDB_SETTINGS) and without `
      + `a ${name} entry in config/orientdb-server-config.xml`;
    if (values['storage.useWAL'] !== 'true') {
      problems.push(`storage.useWAL is ${values['storage.useWAL']} on ${where} (${settings['storage.useWAL'].source}): `
        + 'relaxed writes need the write-ahead log, without which a crash can leave the database unrecoverable '
        + `(${restart('storage.useWAL', 'true')})`);
    }
    if (values['storage.callFsync'] !== 'true') {
      problems.push(`storage.callFsync is ${values['storage.callFsync']} on ${where} (${settings['storage.callFsync'].source}): `
        + 'relaxed writes need the WAL fsynced every storage.wal.commitTimeout, so that an operating-system crash '
        + `loses only the last moments (${restart('storage.callFsync', 'true')})`);
    }
  }
  return { settings, applied: [], problems, cache: orientdbCache(values[CACHE_SETTING]) };
}
