// The durability terms on MongoDB (adapters/mongodb/terms.js): the write concern of every timed write, what
// terms() makes of the server's answers, and, against a real server (BENCH_MONGODB_URL; none can be installed on
// this project's machines, so that part skips with the reason), what it reads back.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MongoServerError, WriteConcern } from 'mongodb';
import mongodb from '../../adapters/mongodb/description.js';
import { graphOperations } from '../../adapters/mongodb/graph.js';
import { mongoTerms, readTermAnswers, termWrite } from '../../adapters/mongodb/terms.js';
import { termObstacle } from '../../core/terms.js';
import { WORKLOADS as SOCIAL } from '../../workloads/social/workloads.js';
import { serverTarget } from '../helpers/servers.js';

// The answers of the commands terms() sends, in the shapes MongoDB's manual documents for a standalone mongod 7 or 8
// on WiredTiger (serverStatus.storageEngine, getCmdLineOpts's `parsed`, getParameter, getDefaultRWConcern). They
// are written from the manual, not recorded: no MongoDB server can be installed on this project's machines.
const WIRED_TIGER = { name: 'wiredTiger', supportsCommittedReads: true, readOnly: false, persistent: true, backupCursorOpen: false };
const standaloneAnswers = () => ({
  hello: { isWritablePrimary: true, maxWireVersion: 21, ok: 1 },
  serverStatus: { host: 'db1', version: '7.0.14', storageEngine: { ...WIRED_TIGER }, ok: 1 },
  cmdLineOpts: { argv: ['mongod', '--dbpath', '/data/db'], parsed: { storage: { dbPath: '/data/db' } }, ok: 1 },
  journalCommitInterval: { journalCommitInterval: 100, ok: 1 },
  defaultRWConcern: {
    defaultReadConcern: { level: 'local' }, defaultWriteConcern: { w: 1, wtimeout: 0 },
    defaultWriteConcernSource: 'implicit', defaultReadConcernSource: 'implicit', ok: 1,
  },
  refused: {},
});
const WHERE = { where: 'db1:27017' };

describe('mongodb durability terms', () => {
  test('the description declares both terms per request, by write concern', () => {
    assert.equal(mongodb.terms.durability.scope, 'session');
    assert.match(mongodb.terms.durability.relaxed.how, /\{ w: 1, j: false \}.*never the deployment's default/);
    assert.match(mongodb.terms.durability.durable.how, /\{ w: 1, j: true \}/);
    // Per request: singleWriteSync runs durable in a relaxed run.
    const singleWriteSync = SOCIAL.find((workload) => workload.name === 'singleWriteSync');
    assert.equal(termObstacle(mongodb, singleWriteSync, 'relaxed'), null);
  });

  test('a standalone WiredTiger with its journal: both terms hold; each setting says where it came from', () => {
    for (const durability of ['relaxed', 'durable']) {
      const { settings, problems } = mongoTerms(standaloneAnswers(), { durability, ...WHERE });
      assert.deepEqual(problems, [], durability);
      assert.deepEqual(settings, {
        topology: { value: 'standalone', source: 'server (hello)' },
        'storage.engine': { value: 'wiredTiger', source: 'server (serverStatus.storageEngine)' },
        'storage.journal.enabled': { value: 'true', source: 'server default (not set at startup; journaling is on unless --nojournal, and always since MongoDB 6.1)' },
        'storage.journal.commitIntervalMs': { value: '100', source: 'server (getParameter journalCommitInterval)' },
        defaultWriteConcern: { value: '{"w":1,"wtimeout":0}', source: 'server (getDefaultRWConcern, implicit); no timed write uses it, each names its own' },
        'writeConcern (timed writes)': { value: durability === 'durable' ? '{ w: 1, j: true }' : '{ w: 1, j: false }', source: 'set by the adapter on each write' },
      });
    }
  });

  test('a replica set\'s w: "majority" default is recorded, and contradicts nothing: the timed writes name w: 1', () => {
    const answers = standaloneAnswers();
    answers.hello = { setName: 'rs0', isWritablePrimary: true, ok: 1 };
    answers.defaultRWConcern = { defaultWriteConcern: { w: 'majority', wtimeout: 0 }, defaultWriteConcernSource: 'implicit', ok: 1 };
    answers.cmdLineOpts.parsed.storage.journal = { commitIntervalMs: 50 };
    answers.journalCommitInterval = undefined;
    answers.refused = { getParameter: 'Unauthorized' };
    const { settings, problems } = mongoTerms(answers, { durability: 'relaxed', ...WHERE });
    assert.deepEqual(problems, []);
    assert.equal(settings.topology.value, 'replica set rs0');
    assert.equal(settings.defaultWriteConcern.value, '{"w":"majority","wtimeout":0}');
    assert.deepEqual(settings['storage.journal.commitIntervalMs'], { value: '50', source: 'server (getCmdLineOpts: set at startup)' });
  });

  test('an engine that keeps nothing on disk, or a mongod without its journal, gives neither term', () => {
    const inMemory = standaloneAnswers();
    inMemory.serverStatus.storageEngine = { name: 'inMemory', persistent: false };
    const noJournal = standaloneAnswers();
    noJournal.cmdLineOpts = { argv: ['mongod', '--nojournal'], parsed: { storage: { journal: { enabled: false } } }, ok: 1 };
    for (const durability of ['relaxed', 'durable']) {
      const memory = mongoTerms(inMemory, { durability, ...WHERE });
      assert.equal(memory.settings['storage.engine'].value, 'inMemory (not persistent)');
      assert.deepEqual(memory.problems, [`the storage engine is inMemory on db1:27017 (serverStatus.storageEngine.persistent is false): it keeps no journal and nothing reaches a disk, so no write is ${durability} there (start mongod with --storageEngine wiredTiger)`]);
      const journal = mongoTerms(noJournal, { durability, ...WHERE });
      assert.deepEqual(journal.settings['storage.journal.enabled'], { value: 'false', source: 'server (getCmdLineOpts: set at startup)' });
      assert.equal(journal.problems.length, 1);
      assert.match(journal.problems[0], new RegExp(`^storage.journal.enabled is false on db1:27017 \\(getCmdLineOpts: set at startup\\): .*no write is ${durability} there \\(start mongod without --nojournal`));
    }
  });

  test('what the user may not read is recorded as unreadable, with the server\'s reason, and is no problem', () => {
    const { settings, problems } = mongoTerms({
      hello: { isWritablePrimary: true, ok: 1 },
      refused: { serverStatus: 'Unauthorized', getCmdLineOpts: 'Unauthorized', getParameter: 'Unauthorized', getDefaultRWConcern: 'Unauthorized' },
    }, { durability: 'durable', ...WHERE });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings['storage.engine'], { value: 'unreadable', source: 'server refused serverStatus: Unauthorized' });
    assert.deepEqual(settings['storage.journal.enabled'], { value: 'unreadable', source: 'server refused getCmdLineOpts: Unauthorized' });
    assert.deepEqual(settings['storage.journal.commitIntervalMs'], { value: 'unreadable', source: 'server refused getParameter: Unauthorized' });
    assert.deepEqual(settings.defaultWriteConcern, { value: 'unreadable', source: 'server refused getDefaultRWConcern: Unauthorized' });
  });

  test('readTermAnswers sends each command to admin; a refusal is named, a broken connection throws', async () => {
    const sent = [];
    const refusal = new MongoServerError({ ok: 0, errmsg: 'not authorized on admin to execute command', code: 13, codeName: 'Unauthorized' });
    const answers = standaloneAnswers();
    const admin = {
      async command(command) {
        sent.push(Object.keys(command)[0]);
        if (command.getCmdLineOpts) throw refusal;
        const [name] = Object.keys(command);
        return { hello: answers.hello, serverStatus: answers.serverStatus, getParameter: answers.journalCommitInterval, getDefaultRWConcern: answers.defaultRWConcern }[name];
      },
    };
    const read = await readTermAnswers(admin);
    assert.deepEqual(sent, ['hello', 'serverStatus', 'getCmdLineOpts', 'getParameter', 'getDefaultRWConcern']);
    assert.deepEqual(read.refused, { getCmdLineOpts: 'Unauthorized' });
    assert.equal(read.cmdLineOpts, undefined);
    assert.deepEqual(read.serverStatus, answers.serverStatus);
    await assert.rejects(readTermAnswers({ command: async () => { throw new Error('socket closed'); } }), /socket closed/);
  });

  test('every write of the graph suite follows its { durable } argument: w:1 with j:true or j:false', async () => {
    const calls = [];
    const collection = {
      updateOne: async (...args) => { calls.push(['updateOne', ...args]); },
      deleteOne: async (...args) => { calls.push(['deleteOne', ...args]); },
      bulkWrite: async (...args) => { calls.push(['bulkWrite', ...args]); },
    };
    const graph = graphOperations({ collection: () => collection, create: async () => {} });
    const edge = { source: 1, target: 2, weight: 3 };
    for (const durable of [false, true]) {
      calls.length = 0;
      await graph.upsertEdge('edges', edge, { durable });
      await graph.upsertEdges('edges', [edge], { durable });
      await graph.removeEdge('edges', edge, { durable });
      await graph.removeEdges('edges', [edge], { durable });
      const concerns = calls.map((call) => WriteConcern.fromOptions(call.at(-1)));
      assert.deepEqual(concerns.map(({ w, j }) => [w, j]), Array(4).fill([1, durable]), `durable: ${durable}`);
      assert.equal(calls[0].at(-1).upsert, true);
      assert.equal(calls[1].at(-1).ordered, false);
    }
    // Without the argument (a caller from before the terms), the relaxed term's write concern, never the default.
    calls.length = 0;
    await graph.removeEdge('edges', edge);
    assert.deepEqual(calls[0].at(-1), termWrite(false));
  });
});

const { options, skip } = serverTarget(mongodb, { namespace: 'dbshootout_mongotest_terms', concurrency: 2 });

describe('mongodb durability terms against a server', { skip, timeout: 60_000 }, () => {
  test('terms() reads back the engine, the journal and the default write concern, and names the timed writes\' own', { timeout: 30_000 }, async () => {
    const adapter = mongodb.create(options);
    await adapter.connect();
    try {
      for (const durability of ['relaxed', 'durable']) {
        const { settings, applied, problems } = await adapter.terms({ durability, owned: false });
        assert.deepEqual(applied, []);
        assert.deepEqual(Object.keys(settings), ['topology', 'storage.engine', 'storage.journal.enabled',
          'storage.journal.commitIntervalMs', 'defaultWriteConcern', 'writeConcern (timed writes)']);
        for (const { value, source } of Object.values(settings)) {
          assert.equal(typeof value, 'string');
          assert.equal(typeof source, 'string');
        }
        assert.equal(settings['writeConcern (timed writes)'].value, durability === 'durable' ? '{ w: 1, j: true }' : '{ w: 1, j: false }');
        // A server on WiredTiger with its journal gives both terms.
        if (settings['storage.engine'].value === 'wiredTiger' && settings['storage.journal.enabled'].value === 'true') {
          assert.deepEqual(problems, [], durability);
        }
      }
    } finally {
      await adapter.close();
    }
  });
});
