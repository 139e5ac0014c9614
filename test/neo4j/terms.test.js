// Neo4j's durability terms (adapters/neo4j/README.md, Durability): durable is how every commit is, relaxed is
// unavailable; terms() reads back from the server what the durable term depends on, changes nothing on it, and
// the harness marks the writes that would need the relaxed term unsupported instead of asking Neo4j for it. The
// server part runs against the local server of `bench server start neo4j` (or BENCH_NEO4J_URL).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import neo4j from '../../adapters/neo4j/description.js';
import { termObstacle } from '../../core/terms.js';
import { settleTerms } from '../../runner/terms.js';
import { WORKLOADS as CRUD } from '../../workloads/crud/workloads.js';
import { WORKLOADS as GRAPH } from '../../workloads/graph/workloads.js';
import { WORKLOADS as SOCIAL } from '../../workloads/social/workloads.js';
import { serverTarget } from '../helpers/servers.js';

const social = (name) => SOCIAL.find((workload) => workload.name === name);
const { options, skip } = serverTarget(neo4j, { namespace: 'dbshootout_neo4jtest_terms', concurrency: 2 });

test('Neo4j declares the durable term and, with the reason, no relaxed one', () => {
  const { scope, relaxed, durable } = neo4j.terms.durability;
  assert.equal(scope, 'session');
  assert.match(durable.how, /forces it to disk \(fdatasync\) before it returns/);
  assert.equal(durable.unavailable, undefined);
  assert.match(relaxed.unavailable, /^Neo4j forces \(fdatasync\) its transaction log before every commit returns/);
  assert.equal(relaxed.how, undefined);
});

test('under the relaxed term every write that follows the run\'s term is unsupported; singleWriteSync and reads run', () => {
  const reason = /^Neo4j cannot write under the relaxed durability term: Neo4j forces \(fdatasync\) its transaction log/;
  assert.match(termObstacle(neo4j, social('singleWrite'), 'relaxed'), reason);
  for (const workload of [...CRUD, ...GRAPH].filter((w) => w.durability === 'run')) {
    assert.match(termObstacle(neo4j, workload, 'relaxed'), reason, workload.name);
  }
  assert.equal(termObstacle(neo4j, social('singleWriteSync'), 'relaxed'), null);
  assert.equal(termObstacle(neo4j, social('neighbors'), 'relaxed'), null);
  for (const workload of [...SOCIAL, ...CRUD, ...GRAPH]) assert.equal(termObstacle(neo4j, workload, 'durable'), null, workload.name);
});

describe('neo4j terms() on the server', { skip, timeout: 120_000 }, () => {
  let db;

  before(async () => {
    db = neo4j.create(options);
    await db.connect();
  });

  after(async () => {
    await db?.close();
  });

  test('reads back the release, the transaction log settings with their source, and that nothing skips the force', { timeout: 60_000 }, async () => {
    const { settings, applied, problems } = await db.terms({ durability: 'durable', owned: false });
    assert.deepEqual(Object.keys(settings).sort(), ['db.tx_log.buffer.size', 'db.tx_log.preallocate', 'neo4j',
      'server.directories.transaction.logs.root', 'transaction log force']);
    assert.match(settings.neo4j.value, /^(5\.\d+|20\d\d\.\d+)\.\d+ (community|enterprise)$/);
    assert.equal(settings.neo4j.source, 'server (dbms.components())');
    for (const name of ['db.tx_log.buffer.size', 'db.tx_log.preallocate', 'server.directories.transaction.logs.root']) {
      assert.match(settings[name].source, /^server \(SHOW SETTINGS: (Neo4j's default|set in neo4j\.conf or on the command line)\)$/, name);
      assert.equal(typeof settings[name].value, 'string', name);
    }
    assert.match(settings['server.directories.transaction.logs.root'].value, /transactions$/);
    assert.equal(settings['transaction log force'].value, 'at every commit');
    assert.match(settings['transaction log force'].source, /no setting skips it \(SHOW SETTINGS has none named \*fsync\*\)$/);
    assert.deepEqual(applied, []);
    assert.deepEqual(problems, []);
  });

  test('the relaxed term, which Neo4j cannot offer, finds nothing to contradict and sets nothing, owned or not', { timeout: 60_000 }, async () => {
    const durable = await db.terms({ durability: 'durable', owned: false });
    for (const owned of [false, true]) {
      const relaxed = await db.terms({ durability: 'relaxed', owned });
      assert.deepEqual(relaxed, durable);
    }
  });

  test('a relaxed run settles with its writes left out; a durable one with every write', { timeout: 60_000 }, async () => {
    const supported = (term) => SOCIAL.filter((workload) => !termObstacle(neo4j, workload, term));
    const relaxed = await settleTerms({ description: neo4j, adapter: db, durability: 'relaxed', source: 'default', workloads: supported('relaxed'), owned: false });
    assert.equal(relaxed.durability.how, null);
    assert.match(relaxed.durability.unavailable, /has no setting to acknowledge a commit before that flush/);
    assert.equal(relaxed.durability.verified, true);
    const durable = await settleTerms({ description: neo4j, adapter: db, durability: 'durable', source: '--durability', workloads: supported('durable'), owned: false });
    assert.match(durable.durability.how, /forces it to disk/);
    assert.equal(durable.durability.verified, true);
    assert.equal(durable.durability.settings['transaction log force'].value, 'at every commit');
  });
});
