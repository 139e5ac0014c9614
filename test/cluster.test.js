// The pure logic of runs on a cluster: how connections spread over endpoints (adapters/spread.js), --host's
// list of endpoints, the nodes' counters and process figures a run records, a Galera node's ports, and the retry of
// a write the server rolled back as a conflict.
// test-needs: none
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpreadPool, connectionShares } from '../adapters/spread.js';
import { CONFLICT_ATTEMPTS, ER_LOCK_DEADLOCK, retryConflicts } from '../adapters/mysql/connection.js';
import { adapterOptions, parseEndpoints } from '../cli/options.js';
import mysql from '../adapters/mysql/description.js';
import neo4j from '../adapters/neo4j/description.js';
import { nodeDifferences, spreadGrowth } from '../runner/run.js';
import { addSpreads } from '../runner/clients.js';
import { clusterFigures, namespaceTraffic } from '../resources/measure.js';
import { checkNodes, nodePorts } from '../server/galera.js';
import { longestGap, summariseNodeLoss } from '../durability/cluster.js';
import { streamInserts } from '../durability/load.js';
import { nodeLossLine } from '../results/report/durability.js';

// A pool whose calls stay open until the test settles them.
function fakePool(name) {
  const open = [];
  const call = (args) => new Promise((resolve, reject) => open.push({ args, resolve, reject }));
  return {
    name,
    open,
    listeners: [],
    ended: false,
    query: (...args) => call(args),
    execute: (...args) => call(args),
    async getConnection() {
      const connection = { pool: name, released: 0, destroyed: 0, query: async () => [[{ from: name }]] };
      connection.release = () => { connection.released += 1; };
      connection.destroy = () => { connection.destroyed += 1; };
      return connection;
    },
    on(event, listener) { this.listeners.push(event); },
    async end() { this.ended = true; },
  };
}

describe('connections spread over endpoints', () => {
  test('connection j goes to endpoint j mod n, counted from the offset of the client process', () => {
    assert.deepEqual(connectionShares(8, 3), [3, 3, 2]);
    assert.deepEqual(connectionShares(2, 3), [1, 1, 0]);
    assert.deepEqual(connectionShares(3, 3), [1, 1, 1]);
    // Three client processes of one connection each land on three endpoints, not all on the first.
    assert.deepEqual([0, 1, 2].map((offset) => connectionShares(1, 3, offset)), [[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    assert.deepEqual(connectionShares(4, 3, 2), [1, 1, 2]);
  });

  test('an operation takes the endpoint with the most idle connections, the next in turn on a tie', async () => {
    const pools = ['a', 'b', 'c'].map(fakePool);
    const spread = new SpreadPool(pools, ['a:1', 'b:2', 'c:3'], [2, 2, 1]);
    const calls = Array.from({ length: 5 }, (_, i) => spread.execute(`op ${i}`));
    // All idle: a, b, c in turn; then a and b, which still have an idle connection each; c has none.
    assert.deepEqual(pools.map((pool) => pool.open.length), [2, 2, 1]);
    // One of a's ends: the next operation goes to a, the only endpoint with an idle connection.
    pools[0].open.shift().resolve('done');
    assert.equal(await calls[0], 'done');
    const sixth = spread.query('op 5');
    assert.equal(pools[0].open.length, 2);
    for (const pool of pools) for (const call of pool.open.splice(0)) call.resolve('ok');
    await Promise.all([...calls.slice(1), sixth]);
    assert.deepEqual(spread.spread(), [
      { endpoint: 'a:1', connections: 2, operations: 3 },
      { endpoint: 'b:2', connections: 2, operations: 2 },
      { endpoint: 'c:3', connections: 1, operations: 1 },
    ]);
  });

  test('a failed operation frees its connection too', async () => {
    const pools = ['a', 'b'].map(fakePool);
    const spread = new SpreadPool(pools, ['a:1', 'b:2'], [1, 1]);
    const failing = spread.execute('x');
    pools[0].open.shift().reject(new Error('refused'));
    await assert.rejects(failing, /refused/);
    // a is idle again, and it is a's turn after b's... b is next in turn, both idle: b, then a.
    const first = spread.execute('y');
    const second = spread.execute('z');
    assert.deepEqual(pools.map((pool) => pool.open.length), [1, 1]);
    for (const pool of pools) pool.open.shift().resolve('ok');
    await Promise.all([first, second]);
  });

  test('a held connection counts as busy until released or destroyed, once', async () => {
    const pools = ['a', 'b'].map(fakePool);
    const spread = new SpreadPool(pools, ['a:1', 'b:2'], [1, 1]);
    const held = await spread.getConnection();
    assert.equal(held.pool, 'a');
    assert.deepEqual((await held.query('SELECT 1'))[0], [{ from: 'a' }]);
    // a is busy: the next goes to b, and so does the one after, b having as many idle (0) as a... b then a in turn.
    const other = await spread.getConnection();
    assert.equal(other.pool, 'b');
    held.release();
    held.release();
    assert.equal(held.released, 2, 'the release reaches the connection each time');
    const third = await spread.getConnection();
    assert.equal(third.pool, 'a', 'a is idle again, b is not');
    other.destroy();
    third.release();
    const calls = [spread.execute(1), spread.execute(2)];
    assert.deepEqual(pools.map((pool) => pool.open.length), [1, 1], 'every connection idle once more, not counted twice');
    for (const pool of pools) pool.open.shift().resolve('ok');
    await Promise.all(calls);
  });

  test('an endpoint without connections has no pool; every other one is reached, ended, and listened to', async () => {
    const pools = [fakePool('a'), null, fakePool('c')];
    const spread = new SpreadPool(pools, ['a:1', 'b:2', 'c:3'], [1, 0, 1]);
    spread.on('connection', () => {});
    assert.deepEqual(pools.filter(Boolean).map((pool) => pool.listeners), [['connection'], ['connection']]);
    assert.deepEqual(await spread.eachEndpoint(async (pool, where) => `${pool.name}@${where}`), ['a@a:1', 'c@c:3']);
    const calls = [spread.execute(1), spread.execute(2)];
    assert.deepEqual(pools.filter(Boolean).map((pool) => pool.open.length), [1, 1]);
    for (const pool of pools.filter(Boolean)) pool.open.shift().resolve('ok');
    await Promise.all(calls);
    await spread.end();
    assert.ok(pools.filter(Boolean).every((pool) => pool.ended));
  });
});

describe('--host a:p,b:p', () => {
  test('a list of endpoints, each with its own port or --port', () => {
    assert.deepEqual(parseEndpoints('10.0.0.1:3306,10.0.0.2:3307', undefined),
      [{ host: '10.0.0.1', port: 3306 }, { host: '10.0.0.2', port: 3307 }]);
    assert.deepEqual(parseEndpoints('a,b:4000, c', 3306),
      [{ host: 'a', port: 3306 }, { host: 'b', port: 4000 }, { host: 'c', port: 3306 }]);
    assert.deepEqual(parseEndpoints('[::1]:5432,127.0.0.1:5433', undefined), [{ host: '::1', port: 5432 }, { host: '127.0.0.1', port: 5433 }]);
    assert.deepEqual(parseEndpoints('db.example:5432', undefined), [{ host: 'db.example', port: 5432 }]);
  });

  test('an adapter that spreads its connections takes the list; any other refuses more than one endpoint', () => {
    const argv = { host: 'a:3307,b', port: undefined, 'cache-dir': '/nonexistent', concurrency: 4, 'connect-timeout': 5 };
    const options = adapterOptions(mysql, argv);
    assert.deepEqual(options.endpoints, [{ host: 'a', port: 3307 }, { host: 'b', port: 3306 }]);
    assert.equal(options.host, 'a');
    assert.equal(options.port, 3307);
    assert.throws(() => adapterOptions(neo4j, argv), /--host names 2 endpoints, but Neo4j connects to one server/);
    assert.deepEqual(adapterOptions(neo4j, { ...argv, host: 'db.example', port: 7688 }).endpoints, [{ host: 'db.example', port: 7688 }]);
  });

  test('a plain host is no list; a bad item is named', () => {
    assert.equal(parseEndpoints('db.example', 5432), null);
    assert.equal(parseEndpoints(undefined, 5432), null);
    assert.throws(() => parseEndpoints('a:1,b', undefined), /"b" is not host:port \(give each endpoint its port, or --port for all\)/);
    assert.throws(() => parseEndpoints('a:1,:2', undefined), /":2" is not host:port/);
    assert.throws(() => parseEndpoints('a:1,b:99999', undefined), /"b:99999" is not host:port/);
  });
});

describe('what a run records of the nodes', () => {
  test('each counter by what it grew during the step, with the state the node was in after', () => {
    const before = [
      { endpoint: 'a:1', statements: 100, bytesSent: 10, galera: { clusterSize: 3 } },
      { endpoint: 'b:2', statements: 50, bytesSent: 5 },
    ];
    const after = [
      { endpoint: 'a:1', statements: 160, bytesSent: 30, galera: { clusterSize: 2, state: 'Synced' } },
      { endpoint: 'b:2', statements: 90, bytesSent: 5, certificationFailures: 3 },
    ];
    assert.deepEqual(nodeDifferences(before, after), [
      { endpoint: 'a:1', statements: 60, bytesSent: 20, galera: { clusterSize: 2, state: 'Synced' } },
      // A counter the first reading lacked is not guessed.
      { endpoint: 'b:2', statements: 40, bytesSent: 0 },
    ]);
  });

  test('a cluster\'s process figures: each node apart, the sums as the server\'s', () => {
    const io = (w) => ({ readBytes: 1, writeBytes: w, readChars: 2, writeChars: w });
    const figures = clusterFigures([
      { name: 'n1', endpoint: 'a:1', figures: { rssPeakBytes: 100, rssMeanBytes: 90, cpuPeakPct: 50, cpuMeanPct: 20.25, samples: 4, ms: 1000, io: io(10) } },
      { name: 'n2', endpoint: 'b:2', figures: { rssPeakBytes: 200, rssMeanBytes: 150, cpuPeakPct: 30, cpuMeanPct: 10.1, samples: 3, ms: 1010, io: io(5) } },
      { name: 'n3', endpoint: 'c:3', figures: null },
    ]);
    assert.equal(figures.rssPeakBytes, 300);
    assert.equal(figures.rssMeanBytes, 240);
    assert.equal(figures.cpuMeanPct, 30.4);
    assert.equal(figures.samples, 3);
    assert.equal(figures.ms, 1010);
    assert.deepEqual(figures.io, { readBytes: 2, writeBytes: 15, readChars: 4, writeChars: 15 });
    assert.deepEqual(figures.nodes.map((node) => [node.name, node.gone ?? false]), [['n1', false], ['n2', false], ['n3', true]]);
    assert.equal(clusterFigures([{ name: 'n1', figures: null }]), null);
  });

  test('a node without I/O counters leaves the sum unknown, not short', () => {
    const figures = clusterFigures([
      { name: 'n1', figures: { rssPeakBytes: 1, rssMeanBytes: 1, cpuPeakPct: 1, cpuMeanPct: 1, samples: 2, ms: 5, io: null } },
      { name: 'n2', figures: { rssPeakBytes: 1, rssMeanBytes: 1, cpuPeakPct: 1, cpuMeanPct: 1, samples: 2, ms: 5, io: { readBytes: 1, writeBytes: 1, readChars: 1, writeChars: 1 } } },
    ]);
    assert.equal(figures.io, null);
  });
});

describe('Galera nodes', () => {
  test('node k takes a block of ten ports from the cluster\'s', () => {
    assert.deepEqual(nodePorts(23306, 1), { sql: 23306, gcomm: 23307, ist: 23308, sst: 23309 });
    assert.deepEqual(nodePorts(23306, 3), { sql: 23326, gcomm: 23327, ist: 23328, sst: 23329 });
  });

  test('--nodes is a whole number from 1 to 9', () => {
    assert.equal(checkNodes(3), 3);
    for (const bad of [0, 10, 2.5, Number.NaN]) assert.throws(() => checkNodes(bad), /--nodes must be a whole number from 1 to 9/);
  });
});

describe('a write the server rolled back as a conflict', () => {
  const conflict = () => Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), { errno: ER_LOCK_DEADLOCK });

  test('is sent again until it commits', async () => {
    let attempts = 0;
    const answer = await retryConflicts(async () => {
      attempts += 1;
      if (attempts < 4) throw conflict();
      return 'committed';
    });
    assert.equal(answer, 'committed');
    assert.equal(attempts, 4);
  });

  test('fails with the server\'s error after the last attempt', async () => {
    let attempts = 0;
    await assert.rejects(retryConflicts(async () => { attempts += 1; throw conflict(); }, 3), /Deadlock found/);
    assert.equal(attempts, 3);
    assert.ok(CONFLICT_ATTEMPTS >= 10);
  });

  test('any other error is the operation\'s at once', async () => {
    let attempts = 0;
    await assert.rejects(retryConflicts(async () => {
      attempts += 1;
      throw Object.assign(new Error('Duplicate entry'), { errno: 1062 });
    }), /Duplicate entry/);
    assert.equal(attempts, 1);
  });
});

describe('node loss, counted', () => {
  test('the longest time without an acknowledgement after the kill, up to the end of the load', () => {
    assert.equal(longestGap([1, 2, 3, 10, 11], 2.5, 12), 7);
    assert.equal(longestGap([1, 2], 5, 9), 4, 'nothing acknowledged after the kill: the whole rest of the load');
    assert.equal(longestGap([5, 6, 7], 4, 7.5), 1);
  });

  test('a load that goes on through failed inserts, counting them and logging only the acknowledged', async () => {
    const logged = [];
    let calls = 0;
    const insert = async (adapter, collection, doc) => {
      calls += 1;
      if (calls % 3 === 0) throw new Error('WSREP has not yet prepared node for application use');
      return doc._key;
    };
    const load = streamInserts({
      adapter: null, insert, collection: 'c', documents: [{ name: 'x' }], concurrency: 2, trial: 1, log: { record: (key) => logged.push(key) }, throughFailures: true,
    });
    await load.firstAck;
    await new Promise((resolve) => setTimeout(resolve, 60));
    load.stop();
    await load.done;
    assert.ok(load.failures.length > 0, 'failures were met');
    assert.ok(load.failures.every((failure) => /WSREP/.test(failure.message)));
    assert.equal(logged.length, load.acks.length);
    assert.equal(logged.length + load.failures.length, calls);
    assert.equal(new Set(logged).size, logged.length, 'every key once');
  });

  test('the verdict: verified only with no acknowledged write lost and every node alike', () => {
    const crash = (lost, consistent) => ({ acknowledged: 100, lost, errored: 2, refusedMs: 2000, rejoinMs: 5000, consistent });
    const fine = summariseNodeLoss([crash(0, true), { ...crash(0, true), refusedMs: 3100, rejoinMs: 4000 }]);
    assert.deepEqual([fine.verdict, fine.acknowledged, fine.lost, fine.errored, fine.refusedMs.max, fine.rejoinMs.max, fine.inconsistent],
      ['verified', 200, 0, 4, 3100, 5000, 0]);
    assert.equal(summariseNodeLoss([crash(1, true)]).verdict, 'failed');
    assert.equal(summariseNodeLoss([crash(0, false)]).verdict, 'failed');
    assert.match(nodeLossLine(fine), /^verified: 0 of 200 acknowledged writes lost across 2 node kills; 4 writes errored, writes held for 3\.1 s at most, rejoined within 5\.0 s, every node ended with the same rows$/);
    assert.match(nodeLossLine(summariseNodeLoss([crash(0, false)])), /^FAILED: .*1 trial\(s\) ended with nodes holding different rows/);
    const cut = summariseNodeLoss([{ ...crash(0, true), cutNode: { refused: true } }, { ...crash(0, true), cutNode: { refused: false } }], 'network-cut');
    assert.equal(cut.kind, 'network-cut');
    assert.equal(cut.cutNodeAnswered, 1);
    assert.match(nodeLossLine(cut), /across 2 network cuts; .*; the cut-off node ANSWERED a read in 1 of 2 cuts/);
    assert.match(nodeLossLine(summariseNodeLoss([{ ...crash(0, true), cutNode: { refused: true } }], 'network-cut')), /the cut-off node refused reads in every cut$/);
  });
});

describe('the spread a run records', () => {
  test('a step\'s operations per endpoint: the growth of its pool\'s counts, added over the client processes', () => {
    const before = [{ endpoint: 'a:1', connections: 2, operations: 10 }, { endpoint: 'b:2', connections: 2, operations: 4 }];
    const after = [{ endpoint: 'a:1', connections: 2, operations: 60 }, { endpoint: 'b:2', connections: 2, operations: 50 }];
    assert.deepEqual(spreadGrowth(before, after), [{ endpoint: 'a:1', connections: 2, operations: 50 }, { endpoint: 'b:2', connections: 2, operations: 46 }]);
    assert.deepEqual(addSpreads([spreadGrowth(before, after), null, [{ endpoint: 'b:2', connections: 1, operations: 4 }]]),
      [{ endpoint: 'a:1', connections: 2, operations: 50 }, { endpoint: 'b:2', connections: 3, operations: 50 }]);
    assert.equal(addSpreads([null, null]), null);
  });
});

describe('a node in a network namespace of its own', () => {
  test('its traffic: the bytes its interfaces but loopback received and sent', () => {
    const dev = [
      'Inter-|   Receive                                                |  Transmit',
      ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed',
      '    lo:  500 5 0 0 0 0 0 0  500 5 0 0 0 0 0 0',
      'dbs1v1: 1000 10 0 0 0 0 0 0 2000 20 0 0 0 0 0 0',
      'eth9: 1 1 0 0 0 0 0 0 2 1 0 0 0 0 0 0',
    ].join('\n');
    assert.deepEqual(namespaceTraffic(1, () => dev), { rxBytes: 1001, txBytes: 2002 });
    assert.equal(namespaceTraffic(1, () => { throw new Error('ENOENT'); }), null);
  });
});
