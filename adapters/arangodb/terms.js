// The durability terms on ArangoDB (adapters/README.md, "Terms"). Each timed write says its waitForSync (the
// document API's query parameter, the AQL writes' OPTIONS), so the term is chosen per request (scope 'session'):
// relaxed false, acknowledged once RocksDB has the write in its write-ahead log, which a background thread fsyncs
// every --rocksdb.sync-interval; durable true, the log fsynced before the answer. Every collection is created with
// waitForSync false, because a collection's true makes every write to it sync whatever the request asks: that, on
// a collection the timed writes use, is what can contradict the relaxed term. readTermAnswers() asks the server,
// arangoTerms() turns its answers into settings and problems (pure, for the tests).
import { ARANGO_ERRORS, isArangoErrorNumber } from './connection.js';
import { GRAPH_PREFIX, TEMP_PREFIX } from './model.js';

// The startup options the terms depend on, as GET /_admin/options names them.
export const TERM_OPTIONS = Object.freeze(['rocksdb.sync-interval', 'database.wait-for-sync']);

// The collections the timed writes go to: the temporary ones (singleWrite, crud) and the graph suite's.
export const timedWriteCollection = (name) => name.startsWith(TEMP_PREFIX) || name.startsWith(GRAPH_PREFIX);

// A request's answer, or `{ refused }` with the server's reason when it answered with an error (403 for
// /_admin/options without the privilege, or with --server.options-api disabled); a failure to reach it throws.
async function answerOf(request) {
  try {
    return { value: await request };
  } catch (error) {
    if (typeof error.code !== 'number') throw error;
    return { refused: `HTTP ${error.code} (${error.message})` };
  }
}

// `home`: the arangojs Database of the login database; `namespace`: that of the namespace's database.
export async function readTermAnswers({ home, namespace }) {
  const engine = await answerOf(home.engine());
  const options = await answerOf(home.request({ pathname: '/_admin/options' }));
  let collections = null;
  try {
    const names = (await namespace.listCollections(true)).map(({ name }) => name).filter(timedWriteCollection).sort();
    collections = [];
    for (const name of names) {
      collections.push({ name, waitForSync: (await namespace.collection(name).properties()).waitForSync });
    }
  } catch (error) {
    // No namespace database yet: the harness creates it, and every collection, with waitForSync false.
    if (!isArangoErrorNumber(error, ARANGO_ERRORS.databaseNotFound)) throw error;
  }
  return { engine, options, collections };
}

const names = (list) => list.map(({ name }) => name).join(', ');

// { settings, problems } of the term `durability` from the server's answers; `where` is host:port, `database` the
// namespace's database.
export function arangoTerms({ engine, options, collections }, { durability, where, database }) {
  const settings = {
    'storage engine': engine.value
      ? { value: engine.value.name, source: 'server (GET /_api/engine)' }
      : { value: 'unreadable', source: `server refused GET /_api/engine: ${engine.refused}` },
  };
  for (const name of TERM_OPTIONS) {
    if (options.refused) {
      settings[name] = { value: 'unreadable', source: `server refused GET /_admin/options: ${options.refused}` };
    } else if (Object.hasOwn(options.value, name)) {
      settings[name] = { value: String(options.value[name]), source: 'server (GET /_admin/options: its startup options)' };
    } else {
      settings[name] = { value: 'not reported', source: 'server (GET /_admin/options names no such option)' };
    }
  }
  const synced = (collections ?? []).filter(({ waitForSync }) => waitForSync === true);
  const unsynced = (collections ?? []).filter(({ waitForSync }) => waitForSync !== true);
  let value;
  if (collections === null) value = `none yet (database "${database}" does not exist)`;
  else if (collections.length === 0) value = `none yet in database "${database}"`;
  else {
    value = [synced.length > 0 ? `true on ${names(synced)}` : null, unsynced.length > 0 ? `false on ${names(unsynced)}` : null]
      .filter(Boolean).join('; ');
  }
  settings['waitForSync (collections of the timed writes)'] = { value, source: 'server (GET /_api/collection/<name>/properties)' };
  settings['waitForSync (collections the adapter creates)'] = { value: 'false', source: 'set by the adapter when it creates a collection' };
  settings['waitForSync (timed writes)'] = { value: String(durability === 'durable'), source: 'set by the adapter on each write' };

  const problems = durability === 'relaxed' ? synced.map(({ name }) => `collection ${name} of database "${database}" on `
    + `${where} has waitForSync true (its properties): every write to it is fsynced whatever the request asks, so `
    + `relaxed writes need false (PUT /_api/collection/${name}/properties with {"waitForSync": false}, or drop it for `
    + 'the harness to create anew)') : [];
  return { settings, problems };
}

// The memory term (adapters/README.md, "Terms", Memory): RocksDB's block cache, which holds the blocks of the
// collections' and indexes' SST files, sized by --rocksdb.block-cache-size (in bytes; by default a share of the
// machine's memory) and read back from GET /_admin/options, the effective startup options, where the server lets
// the user read them. ArangoDB's own in-memory cache of edge and document lookups (--cache.size) is recorded beside
// it, not counted. Nothing is set: no ArangoDB server runs under the harness here.
export const CACHE_OPTION = 'rocksdb.block-cache-size';
const OTHER_CACHE_OPTION = 'cache.size';

// { bytes, settings } from readTermAnswers()'s answer to /_admin/options; bytes null when it was refused or names
// no block cache.
export function arangoCache({ options }) {
  const read = (name, note) => {
    if (options.refused) return { value: 'unreadable', source: `server refused GET /_admin/options: ${options.refused}` };
    if (!Object.hasOwn(options.value, name)) return { value: 'not reported', source: 'server (GET /_admin/options names no such option)' };
    return { value: String(options.value[name]), source: `server (GET /_admin/options: its startup options)${note}` };
  };
  const reported = String(options.value?.[CACHE_OPTION] ?? '');
  return {
    bytes: /^\d+$/.test(reported) ? Number(reported) : null,
    settings: {
      [CACHE_OPTION]: read(CACHE_OPTION, ''),
      [OTHER_CACHE_OPTION]: read(OTHER_CACHE_OPTION, '; ArangoDB\'s in-memory cache of edge and document lookups, beside the block cache and not counted in the term'),
    },
  };
}
