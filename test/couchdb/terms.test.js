// The durability terms of the couchdb adapter (adapters/couchdb/terms.js): what terms() makes of the server's
// answers, for Apache CouchDB and for PouchDB Server, and terms() against the real server the tests find (the local
// PouchDB Server `bench server start pouchdb` runs, or BENCH_COUCHDB_URL's; skipped with the reason without one).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import couchdb from '../../adapters/couchdb/description.js';
import { CONFIG_PATHS, couchTerms, readTermAnswers, serverKind, serverLabel } from '../../adapters/couchdb/terms.js';
import { termObstacle } from '../../core/terms.js';
import { WORKLOADS as CRUD } from '../../workloads/crud/workloads.js';
import { serverTarget } from '../helpers/servers.js';

// Recorded from PouchDB Server 4.2.0 as `bench server start pouchdb` runs it: GET / and GET /_config/pouchdb_server.
const POUCHDB_WELCOME = {
  'express-pouchdb': 'Welcome!', version: '4.2.0', 'pouchdb-adapters': ['leveldb'],
  vendor: { name: 'PouchDB authors', version: '4.2.0' }, uuid: 'def52176-4f78-4bee-8a87-97ecea422a40',
};
const POUCHDB_CONFIG = { in_memory: 'false', sqlite: 'false', 'no-stdout-logs': 'false' };
// Apache CouchDB 3's answers, in the shapes its documentation gives (GET /, GET /_node/_local/_config/couchdb);
// written from the documentation, not recorded: Apache CouchDB cannot be installed on this project's machines.
const COUCHDB_WELCOME = {
  couchdb: 'Welcome', version: '3.3.3', git_sha: '40afbcfc7', uuid: '0bdc0fa8bd1e4b0e9d3c6e1f0b8f5a1c',
  features: ['access-ready', 'partitioned', 'pluggable-storage-engines', 'reshard', 'scheduler'],
  vendor: { name: 'The Apache Software Foundation' },
};
const COUCHDB_CONFIG = { database_dir: './data', default_engine: 'couch', max_dbs_open: '500', single_node: 'true' };
const WHERE = { where: 'db1:5984' };
const pouch = (values = POUCHDB_CONFIG) => ({ welcome: POUCHDB_WELCOME, config: { path: CONFIG_PATHS['pouchdb-server'], values } });
const couch = (welcome = COUCHDB_WELCOME, values = COUCHDB_CONFIG) => ({ welcome, config: { path: CONFIG_PATHS.couchdb, values } });

describe('couchdb durability terms from the server\'s answers', () => {
  test('the description declares both terms, one per server, decided by the server as a whole', () => {
    assert.equal(couchdb.terms.durability.scope, 'server');
    assert.match(couchdb.terms.durability.relaxed.how, /^PouchDB Server on LevelDB: .*without fsync/);
    assert.match(couchdb.terms.durability.durable.how, /^Apache CouchDB 3: every write is a full commit, fsynced before the answer/);
    // The crud suite's writes follow the run's term, which the server must give.
    for (const workload of CRUD.filter(({ durability }) => durability)) {
      assert.equal(termObstacle(couchdb, workload, 'relaxed'), null, workload.name);
      assert.equal(termObstacle(couchdb, workload, 'durable'), null, workload.name);
    }
  });

  test('each server is named as it names itself: PouchDB Server is never called CouchDB', () => {
    assert.equal(serverKind(POUCHDB_WELCOME), 'pouchdb-server');
    assert.equal(serverLabel(POUCHDB_WELCOME), 'PouchDB Server 4.2.0');
    assert.equal(serverKind(COUCHDB_WELCOME), 'couchdb');
    assert.equal(serverLabel(COUCHDB_WELCOME), 'Apache CouchDB 3.3.3');
    assert.equal(serverLabel({ 'other-db': 'Welcome!', version: '1.0' }), 'other-db 1.0');
  });

  test('PouchDB Server on LevelDB gives the relaxed term, and never the durable one', () => {
    const relaxed = couchTerms(pouch(), { durability: 'relaxed', ...WHERE });
    assert.deepEqual(relaxed.problems, []);
    assert.deepEqual(relaxed.settings, {
      server: { value: 'PouchDB Server 4.2.0 (express-pouchdb 4.2.0 on leveldb)', source: 'server (GET /: its welcome document, vendor and version)' },
      'pouchdb_server/in_memory': { value: 'false', source: 'server (GET /_config/pouchdb_server)' },
      'pouchdb_server/sqlite': { value: 'false', source: 'server (GET /_config/pouchdb_server)' },
      'pouchdb_server/level_backend': { value: 'not set', source: 'server (GET /_config/pouchdb_server)' },
      'pouchdb_server/proxy': { value: 'not set', source: 'server (GET /_config/pouchdb_server)' },
      'LevelDB sync (writes)': {
        value: 'false', source: 'not readable from the server: the LevelDB adapter of PouchDB Server 4.2.0 (the release '
          + '`bench server` installs) passes no sync option, and LevelDB\'s default is false; no setting changes it',
      },
      'batch (writes)': { value: 'not sent (no batch=ok): each write is answered once the server has stored it', source: 'set by the adapter on each write' },
    });
    const durable = couchTerms(pouch(), { durability: 'durable', ...WHERE });
    assert.deepEqual(durable.problems, ['PouchDB Server 4.2.0 at db1:5984 writes LevelDB without fsync (its LevelDB '
      + 'adapter asks for no sync, LevelDB\'s default, and no setting of PouchDB Server changes it): PouchDB Server has '
      + 'no durable term']);
    assert.doesNotMatch(durable.problems.join('\n'), /CouchDB/);
  });

  test('a PouchDB Server whose documents are not in LevelDB on disk gives neither term', () => {
    const cases = [
      [{ ...POUCHDB_CONFIG, in_memory: 'true' }, /^pouchdb_server\/in_memory is true on PouchDB Server 4\.2\.0 at db1:5984 \(GET \/_config\/pouchdb_server\): documents live in memory only .*start PouchDB Server without --in-memory\)$/],
      [{ ...POUCHDB_CONFIG, sqlite: 'true' }, /^pouchdb_server\/sqlite is true .*through SQLite .*without --sqlite\)$/],
      [{ ...POUCHDB_CONFIG, level_backend: 'memdown' }, /^pouchdb_server\/level_backend is memdown .*another LevelDOWN backend .*without --level-backend\)$/],
      [{ ...POUCHDB_CONFIG, proxy: 'http://elsewhere:5984/' }, /^pouchdb_server\/proxy is http:\/\/elsewhere:5984\/ .*forwarded to another server.*without --proxy\)$/],
    ];
    for (const [values, problem] of cases) {
      const { problems } = couchTerms(pouch(values), { durability: 'relaxed', ...WHERE });
      assert.equal(problems.length, 1, JSON.stringify(values));
      assert.match(problems[0], problem);
      assert.match(problems[0], /no write is relaxed there/);
    }
  });

  test('a configuration the user may not read is unreadable, with the reason', () => {
    const { settings, problems } = couchTerms({
      welcome: POUCHDB_WELCOME, config: { path: CONFIG_PATHS['pouchdb-server'], refused: 'HTTP 401 (You are not a server admin.)' },
    }, { durability: 'relaxed', ...WHERE });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings['pouchdb_server/in_memory'], { value: 'unreadable', source: 'server refused GET /_config/pouchdb_server: HTTP 401 (You are not a server admin.)' });
  });

  test('Apache CouchDB 3 gives the durable term, and never the relaxed one', () => {
    const durable = couchTerms(couch(), { durability: 'durable', ...WHERE });
    assert.deepEqual(durable.problems, []);
    assert.deepEqual(durable.settings.server, { value: 'Apache CouchDB 3.3.3', source: 'server (GET /: its welcome document, vendor and version)' });
    assert.deepEqual(durable.settings['couchdb/delayed_commits'], {
      value: 'not set', source: 'server (GET /_node/_local/_config/couchdb); ignored since CouchDB 3.0',
    });
    assert.equal(durable.settings['commit (writes)'].value, 'fsync before the answer');
    const relaxed = couchTerms(couch(), { durability: 'relaxed', ...WHERE });
    assert.deepEqual(relaxed.problems, ['Apache CouchDB 3.3.3 at db1:5984 commits every write with fsync before it '
      + 'answers (delayed_commits is gone since 3.0 and nothing else turns the flush off): Apache CouchDB 3 has no '
      + 'relaxed term']);
  });

  test('before 3.0, [couchdb] delayed_commits decides: true is relaxed, false durable, unreadable neither', () => {
    const v2 = { ...COUCHDB_WELCOME, version: '2.3.1' };
    assert.deepEqual(couchTerms(couch(v2, { delayed_commits: 'true' }), { durability: 'relaxed', ...WHERE }).problems, []);
    assert.deepEqual(couchTerms(couch(v2, { delayed_commits: 'false' }), { durability: 'durable', ...WHERE }).problems, []);
    const [problem] = couchTerms(couch(v2, { delayed_commits: 'true' }), { durability: 'durable', ...WHERE }).problems;
    assert.match(problem, /^\[couchdb\] delayed_commits is true on Apache CouchDB 2\.3\.1 at db1:5984 .*durable writes need false before CouchDB 3\.0 \(set it to false/);
    const refused = { welcome: v2, config: { path: CONFIG_PATHS.couchdb, refused: 'HTTP 401 (unauthorized)' } };
    assert.match(couchTerms(refused, { durability: 'relaxed', ...WHERE }).problems[0], /is unreadable on .*give an admin's credentials \(BENCH_COUCHDB_PASSWORD\)/);
  });

  test('a server that is neither gives no term', () => {
    const { problems } = couchTerms({ welcome: { 'other-db': 'Welcome!', version: '1.0' }, config: null }, { durability: 'relaxed', ...WHERE });
    assert.match(problems[0], /^other-db 1\.0 at db1:5984 is neither Apache CouchDB nor PouchDB Server/);
  });

  test('readTermAnswers reads GET / and the configuration section of the server it found; a refusal is named', async () => {
    const paths = [];
    const client = (answers) => ({
      async relax({ path }) {
        paths.push(path);
        const answer = answers[path];
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });
    assert.deepEqual(await readTermAnswers(client({ '': POUCHDB_WELCOME, '_config/pouchdb_server': POUCHDB_CONFIG })), pouch());
    const unauthorized = Object.assign(new Error('You are not a server admin.'), { statusCode: 401, reason: 'You are not a server admin.' });
    assert.deepEqual(await readTermAnswers(client({ '': COUCHDB_WELCOME, '_node/_local/_config/couchdb': unauthorized })), {
      welcome: COUCHDB_WELCOME, config: { path: '_node/_local/_config/couchdb', refused: 'HTTP 401 (You are not a server admin.)' },
    });
    assert.deepEqual(paths, ['', '_config/pouchdb_server', '', '_node/_local/_config/couchdb']);
    await assert.rejects(readTermAnswers(client({ '': COUCHDB_WELCOME, '_node/_local/_config/couchdb': new Error('socket hang up') })), /socket hang up/);
  });
});

const { options, skip } = serverTarget(couchdb, { namespace: 'dbshootout_couch_terms', concurrency: 2 });

describe('couchdb durability terms against the server', { skip, timeout: 60_000 }, () => {
  test('terms() names the server, reads its settings back, and reports the term it cannot give', { timeout: 30_000 }, async () => {
    const adapter = couchdb.create(options);
    await adapter.connect();
    try {
      const relaxed = await adapter.terms({ durability: 'relaxed', owned: false });
      const durable = await adapter.terms({ durability: 'durable', owned: false });
      assert.deepEqual(relaxed.applied, []);
      assert.deepEqual(durable.settings, relaxed.settings, 'the same settings whatever the term');
      for (const { value, source } of Object.values(relaxed.settings)) {
        assert.equal(typeof value, 'string');
        assert.equal(typeof source, 'string');
      }
      const where = `${options.host}:${options.port}`;
      if (relaxed.settings.server.value.startsWith('PouchDB Server')) {
        assert.match(relaxed.settings.server.value, /^PouchDB Server \d+\.\d+\.\d+ \(express-pouchdb \d+\.\d+\.\d+ on leveldb\)$/);
        assert.deepEqual(relaxed.settings['pouchdb_server/in_memory'], { value: 'false', source: 'server (GET /_config/pouchdb_server)' });
        assert.deepEqual(relaxed.settings['pouchdb_server/sqlite'], { value: 'false', source: 'server (GET /_config/pouchdb_server)' });
        assert.deepEqual(relaxed.problems, []);
        assert.equal(durable.problems.length, 1);
        assert.match(durable.problems[0], new RegExp(`^PouchDB Server [\\d.]+ at ${where.replace(/\./g, '\\.')} writes LevelDB without fsync.*PouchDB Server has no durable term$`));
        assert.doesNotMatch(durable.problems[0], /CouchDB/);
      } else {
        assert.match(relaxed.settings.server.value, /^Apache CouchDB /);
        assert.deepEqual(durable.problems, []);
        assert.match(relaxed.problems[0], /commits every write with fsync before it answers/);
      }
    } finally {
      await adapter.close();
    }
  });
});
