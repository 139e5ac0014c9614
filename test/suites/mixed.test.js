// The mixed suite: its key distributions, its operation streams, the consistency rule (a pure function, fed
// hand-made histories), its plan of rounds, and whole runs through the one runner, closed and open loop, over the
// in-process memory store (and once over SQLite), with stores that answer stale or lose writes.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import memory from '../../adapters/memory/description.js';
import sqlite from '../../adapters/sqlite/description.js';
import { createRandom } from '../../datasets/random.js';
import { crudDocuments } from '../../workloads/crud/documents.js';
import { formatTable } from '../../results/table.js';
import { runBenchmark } from '../../runner/run.js';
import { getSuite, suiteIds } from '../../workloads/index.js';
import {
  DELETE, INSERT, READ, READ_MODIFY_WRITE, SCAN, UPDATE, consistencyFailures,
} from '../../workloads/mixed/consistency.js';
import { DEFAULT_DISTRIBUTION, ZIPFIAN_CONSTANT, createKeyChooser, createZipfian, fnvHash64 } from '../../workloads/mixed/keys.js';
import mixed, { stepKey } from '../../workloads/mixed/suite.js';
import { COLLECTION, WORKLOADS, crossInserts, operationStream } from '../../workloads/mixed/workloads.js';

const byName = Object.fromEntries(WORKLOADS.map((workload) => [workload.name, workload]));

function draws(distribution, { count = 1000, capacity = count, n = 50_000, seed = 1 } = {}) {
  const next = createKeyChooser({ distribution, random: createRandom(seed, 9), capacity });
  return Array.from({ length: n }, () => next(count));
}

function frequencies(keys, count) {
  const counts = new Array(count).fill(0);
  for (const key of keys) counts[key] += 1;
  return counts;
}

const share = (counts, keys) => keys.reduce((sum, key) => sum + counts[key], 0) / counts.reduce((a, b) => a + b, 0);
const hottest = (counts, k) => counts.map((c, key) => [c, key]).sort((a, b) => b[0] - a[0]).slice(0, k).map(([, key]) => key);

describe('mixed key distributions', () => {
  test('stay within the keys that exist, and repeat for the same seed', () => {
    for (const distribution of ['uniform', 'zipfian', 'latest']) {
      const keys = draws(distribution, { count: 700, capacity: 1000, n: 20_000 });
      assert.ok(keys.every((key) => Number.isInteger(key) && key >= 0 && key < 700), distribution);
      assert.deepEqual(keys, draws(distribution, { count: 700, capacity: 1000, n: 20_000 }));
      assert.notDeepEqual(keys, draws(distribution, { count: 700, capacity: 1000, n: 20_000, seed: 2 }));
    }
    const one = createKeyChooser({ distribution: 'latest', random: createRandom(1), capacity: 1 });
    assert.equal(one(1), 0);
  });

  test('uniform is flat: no key far from the mean', () => {
    const counts = frequencies(draws('uniform', { count: 100, n: 100_000 }), 100);
    assert.ok(counts.every((c) => c > 800 && c < 1200), `${Math.min(...counts)}..${Math.max(...counts)}`);
  });

  test('zipfian is skewed, with its popular keys scattered over the key space', () => {
    assert.equal(DEFAULT_DISTRIBUTION, 'zipfian');
    assert.equal(ZIPFIAN_CONSTANT, 0.99);
    const counts = frequencies(draws('zipfian', { count: 10_000, n: 100_000 }), 10_000);
    const top = hottest(counts, 100);
    // With the constant 0.99 the first 100 of 10^10 ranks take about a fifth of the draws; uniform would give 1%.
    assert.ok(share(counts, top) > 0.15, `top 1% of the keys: ${share(counts, top)}`);
    assert.ok(counts[top[0]] > 2000, `hottest key: ${counts[top[0]]} draws`);
    assert.ok(top.filter((key) => key < 1000).length < 40, 'the popular keys are not the first ones');
  });

  test('latest favours the newest keys, and follows the keys as they grow', () => {
    const counts = frequencies(draws('latest', { count: 1000, n: 50_000 }), 1000);
    assert.equal(hottest(counts, 1)[0], 999);
    assert.ok(share(counts, Array.from({ length: 10 }, (_, i) => 999 - i)) > 0.3);
    assert.ok(share(counts, Array.from({ length: 500 }, (_, i) => i)) < 0.1);
    const next = createKeyChooser({ distribution: 'latest', random: createRandom(3), capacity: 2000 });
    const grown = Array.from({ length: 5000 }, () => next(2000));
    assert.equal(hottest(frequencies(grown, 2000), 1)[0], 1999);
  });

  test('zipfian hashes with YCSB\'s FNV-1a 64; an unknown distribution is a usage error', () => {
    // FNV-1a 64 of eight zero bytes, as a signed long made positive (computed apart, with Python integers).
    assert.equal(fnvHash64(0), 0x573807cdd7e5c63bn);
    // Each byte of the long in turn, low byte first; hashes above 2^63 made positive, those below kept.
    assert.equal(fnvHash64(1), 0x7632ced6e2d5105cn);
    assert.equal(fnvHash64(256), 0x1c8a835829b99916n);
    assert.equal(fnvHash64(123456789), 0x209fb53a28d931e7n);
    assert.equal(fnvHash64(2n ** 63n - 1n), 0x730a6574035b9e43n);
    assert.equal(fnvHash64(9999999999), 0x3207ffb3a7bacce2n);
    assert.notEqual(fnvHash64(1), fnvHash64(256));
    assert.throws(() => createKeyChooser({ distribution: 'pareto', random: createRandom(1), capacity: 5 }),
      { code: 'E_USAGE', message: /valid distributions: uniform, zipfian, latest/ });
  });
});

// YCSB's ZipfianGenerator written out again from its formulas (Gray et al.): the rank a uniform draw u gives among
// n items, with theta 0.99.
function zipfianRank(u, n, theta = 0.99) {
  let zetan = 0;
  for (let i = 1; i <= n; i += 1) zetan += 1 / i ** theta;
  const zeta2 = 1 + 1 / 2 ** theta;
  const eta = (1 - (2 / n) ** (1 - theta)) / (1 - zeta2 / zetan);
  if (u * zetan < 1) return 0;
  if (u * zetan < 1 + 0.5 ** theta) return 1;
  return Math.min(n - 1, Math.floor(n * (eta * u - eta + 1) ** (1 / (1 - theta))));
}

// A generator that returns the given draws in turn.
const fixed = (values) => {
  let i = 0;
  return { next: () => values[i++ % values.length] };
};

describe('mixed key distributions, draw by draw', () => {
  const U = [0.05, 0.14, 0.2, 0.3, 0.5, 0.7, 0.9, 0.99, 0.999, 0.9999];

  test('the zipfian ranks are YCSB\'s for each draw, at the two first ranks\' edges too', () => {
    const expected = U.map((u) => zipfianRank(u, 1000));
    const next = createZipfian(fixed(U), { items: 1000 });
    assert.deepEqual(U.map(() => next()), expected);
    assert.ok(new Set(expected).size > 6, JSON.stringify(expected));
    // zeta(1000) is 7.08...: a draw just under 1/zeta is rank 0, just over it rank 1, and past 1 + 0.5^0.99 rank 2 or more.
    let zetan = 0;
    for (let i = 1; i <= 1000; i += 1) zetan += 1 / i ** 0.99;
    const edges = [1 / zetan - 1e-9, 1 / zetan + 1e-9, (1 + 0.5 ** 0.99) / zetan - 1e-9, (1 + 0.5 ** 0.99) / zetan + 1e-9];
    const ranks = createZipfian(fixed(edges), { items: 1000 });
    assert.deepEqual(edges.map(() => ranks()), [0, 1, 1, edges.map((u) => zipfianRank(u, 1000))[3]]);
    assert.ok(edges.map((u) => zipfianRank(u, 1000))[3] >= 2);
  });

  test('an item count that grows or shrinks between draws gives the ranks of a generator made for it', () => {
    const next = createZipfian(fixed(U), { items: 10 });
    assert.deepEqual(U.map(() => next()), U.map((u) => zipfianRank(u, 10)));
    assert.deepEqual(U.map(() => next(2000)), U.map((u) => zipfianRank(u, 2000)), 'grown');
    assert.deepEqual(U.map(() => next(50)), U.map((u) => zipfianRank(u, 50)), 'shrunk');
    assert.deepEqual(U.map(() => next()), U.map((u) => zipfianRank(u, 50)), 'the last count stays');
    // A precomputed zeta is taken as given.
    const given = createZipfian(fixed([0.5]), { items: 1000, zetan: 2 });
    assert.equal(given(), 1, 'u × zeta = 1 is past rank 0 and below 1 + 0.5^0.99');
    // u × zeta exactly 1 + 0.5^0.99 is past rank 1: among 3 items, rank 2.
    assert.equal(createZipfian(fixed([0.5]), { items: 3, zetan: 2 * (1 + 0.5 ** 0.99) })(), 2);
    // The largest draw below 1 gives the last rank, never one past it.
    assert.equal(createZipfian(fixed([1 - 2 ** -53]), { items: 1000 })(), 999);
    assert.equal(createZipfian(fixed([1 - 2 ** -53]), { items: 10 })(), 9);
  });

  test('latest counts back from the newest key by a zipfian rank; uniform is the generator\'s own integer', () => {
    const latest = createKeyChooser({ distribution: 'latest', random: fixed(U), capacity: 1000 });
    assert.deepEqual(U.map(() => latest(1000)), U.map((u) => 999 - zipfianRank(u, 1000)));
    const uniform = createKeyChooser({ distribution: 'uniform', random: { int: (n) => n - 3 }, capacity: 10 });
    assert.equal(uniform(10), 7);
  });

  test('zipfian: a rank hashed onto the capacity, drawn again while it falls beyond the keys that exist', () => {
    const capacity = 1000;
    // Ranks 0, 1, 2 hash to keys of these numbers: the chooser returns the first below the count.
    const keys = [0, 1, 2].map((rank) => Number(fnvHash64(rank) % BigInt(capacity)));
    const tiny = 1e-12; // a draw of rank 0
    const chooser = createKeyChooser({ distribution: 'zipfian', random: fixed([tiny]), capacity });
    assert.equal(chooser(keys[0] + 1), keys[0]);
    let draws = 0;
    const counting = { next: () => { draws += 1; return tiny; } };
    assert.throws(() => createKeyChooser({ distribution: 'zipfian', random: counting, capacity })(keys[0]),
      { message: `internal: no zipfian key below ${keys[0]} of 1000 in 1000000 draws` });
    assert.equal(draws, 1_000_000, 'a million draws, then the error');
    assert.equal(fnvHash64(2n ** 63n - 1n) >= 0n, true);
  });
});

const ctx = await mixed.prepare({ records: 200, ops: [7000], shape: 'varied', seed: 4 });

describe('mixed operation streams', () => {
  const stream = (name, params = {}) => byName[name].inputs(ctx, { ops: 7000, records: 200, distribution: 'zipfian', ...params });

  test('are deterministic and follow their mix', () => {
    assert.deepEqual(stream('50-50'), stream('50-50'));
    const kinds = (ops) => ops.reduce((counts, op) => ({ ...counts, [op.kind]: (counts[op.kind] ?? 0) + 1 }), {});
    assert.deepEqual(kinds(stream('read-only')), { [READ]: 7000 });
    assert.deepEqual(kinds(stream('write-only')), { [UPDATE]: 7000 });
    const half = kinds(stream('50-50'));
    assert.ok(Math.abs(half[READ] - 3500) < 250, JSON.stringify(half));
    const mostly = kinds(stream('95-5'));
    assert.ok(mostly[UPDATE] > 250 && mostly[UPDATE] < 450, JSON.stringify(mostly));
    const modify = kinds(stream('read-modify-write'));
    assert.deepEqual(Object.keys(modify).sort(), [READ, READ_MODIFY_WRITE]);
    assert.ok(Math.abs(modify[READ_MODIFY_WRITE] - 3500) < 250, JSON.stringify(modify));
    assert.deepEqual(stream('igiugid').slice(0, 14).map((op) => op.kind).join(' '),
      'insert get insert update get insert delete insert get insert update get insert delete');
    assert.equal(crossInserts(7000), 3000);
    assert.equal(crossInserts(9), 4);
    // A partial pattern counts its own inserts: I G I of ten operations' last three, I G I U G I of thirteen's.
    assert.deepEqual([crossInserts(10), crossInserts(13), crossInserts(0), crossInserts(1)], [5, 6, 0, 1]);
  });

  test('each write carries a version no other write of its key has, on a document of the key', () => {
    for (const name of ['write-only', 'igiugid', 'read-modify-write']) {
      const seen = new Set();
      for (const op of stream(name)) {
        if (op.kind !== UPDATE && op.kind !== INSERT && op.kind !== READ_MODIFY_WRITE) continue;
        assert.equal(op.doc._key, op.key);
        const id = `${op.key}/${op.doc.version}`;
        assert.ok(!seen.has(id), id);
        seen.add(id);
      }
    }
    const loaded = new Set(ctx.docs.slice(0, 200).map((doc) => doc._key));
    assert.ok(stream('50-50').every((op) => loaded.has(op.key)));
  });

  test('the cross-action pattern: new keys for inserts, deletes of existing keys only, never touched by a write again', () => {
    const ops = stream('igiugid');
    const exists = new Set(ctx.docs.slice(0, 200).map((doc) => doc._key));
    const updated = new Set();
    const gone = new Set();
    let lastInserted = null;
    ops.forEach((op, i) => {
      if (op.kind === INSERT) {
        assert.ok(!exists.has(op.key) && !gone.has(op.key), `insert of ${op.key} at ${i}`);
        exists.add(op.key);
        lastInserted = op.key;
      } else if (op.kind === UPDATE) {
        assert.ok(exists.has(op.key), `update of missing ${op.key} at ${i}`);
        updated.add(op.key);
      } else if (op.kind === DELETE) {
        assert.ok(exists.has(op.key), `delete of missing ${op.key} at ${i}`);
        assert.notEqual(op.key, lastInserted, `delete of the latest insert at ${i}`);
        assert.ok(!updated.has(op.key), `delete of updated ${op.key} at ${i}`);
        exists.delete(op.key);
        gone.add(op.key);
      }
      // A write of a key this stream inserted waits for that insert.
      if ((op.kind === UPDATE || op.kind === DELETE) && op.after !== undefined) {
        assert.equal(ops[op.after].key, op.key);
        assert.equal(ops[op.after].awaited, true);
      }
    });
    assert.equal(gone.size, 1000);
    assert.ok(ops.some((op) => op.kind === READ && gone.has(op.key)), 'some reads meet deleted keys');
    assert.ok(ops.some((op) => op.kind === UPDATE && op.after !== undefined));
  });

  test('more documents than prepared is an internal error', () => {
    assert.throws(() => operationStream(ctx, { mix: { pattern: 'I' }, ops: 100_000, records: 200, distribution: 'uniform', stream: 0 }),
      /documents needed/);
    assert.throws(() => operationStream(ctx, { mix: { pattern: 'I' }, ops: 100_000, records: 200, distribution: 'uniform', stream: 0 }),
      { message: `internal: ${200 + crossInserts(100_000)} documents needed, ${ctx.docs.length} prepared` });
  });

  test('a seed names the same stream everywhere: each workload\'s first operations, keys and versions', () => {
    const first = (name, distribution = 'zipfian') => stream(name, { distribution }).slice(0, 12)
      .map((op) => `${op.kind[0]}${op.key.slice(1)}${op.doc ? `/${op.doc.version}` : ''}`);
    assert.deepEqual(first('read-only'), ['g39', 'g176', 'g131', 'g55', 'g194', 'g136', 'g188', 'g18', 'g15', 'g178', 'g72', 'g41']);
    assert.deepEqual(first('write-only'), ['u184/2', 'u95/3', 'u103/4', 'u79/5', 'u155/6', 'u126/7', 'u82/8', 'u33/9', 'u171/10', 'u180/11', 'u108/12', 'u21/13']);
    assert.deepEqual(first('50-50'), ['g135', 'u180/3', 'u81/4', 'g119', 'u122/6', 'g167', 'u12/8', 'u113/9', 'u16/10', 'u148/11', 'g94', 'g111']);
    assert.deepEqual(first('95-5'), ['g88', 'g21', 'g135', 'g106', 'g12', 'g94', 'g44', 'g85', 'g59', 'g44', 'g194', 'g158']);
    assert.deepEqual(first('igiugid'), ['i201/2', 'g200', 'i202/4', 'u147/5', 'g132', 'i203/7', 'd1', 'i204/9', 'g14', 'i205/11', 'u149/12', 'g39']);
    assert.deepEqual(first('50-50', 'uniform'), ['g112', 'u35/3', 'u171/4', 'g142', 'u194/6', 'g52', 'u8/8', 'u83/9', 'u118/10', 'u165/11', 'g86', 'g139']);
    assert.deepEqual(first('50-50', 'latest'), ['g187', 'u199/3', 'u119/4', 'g166', 'u38/6', 'g198', 'u200/8', 'u195/9', 'u184/10', 'u132/11', 'g194', 'g170']);
  });

  test('a write is the key\'s other crud version under the operation\'s own version; only inserts carry their index', () => {
    for (const name of ['write-only', 'igiugid']) {
      const writes = new Map();
      stream(name).forEach((op, i) => {
        const number = Number(op.key.slice(1)) - 1;
        if (op.kind === INSERT) assert.equal(op.index, i);
        else assert.equal(Object.hasOwn(op, 'index'), false);
        if (op.kind !== UPDATE && op.kind !== INSERT) {
          assert.equal(op.doc, undefined);
          return;
        }
        const before = writes.get(number) ?? 0;
        const base = before % 2 === 0 ? ctx.updates[number] : ctx.docs[number];
        assert.deepEqual(op.doc, { ...base, version: i + 2 }, `${name} ${i}`);
        writes.set(number, before + 1);
      });
      assert.ok([...writes.values()].some((count) => count >= 3), name);
    }
  });

  test('every update or delete of a key the stream inserted names its insert, the very first one too', () => {
    const ops = stream('igiugid');
    const insertOf = new Map();
    let followed = 0;
    ops.forEach((op, i) => {
      if (op.kind === INSERT) insertOf.set(op.key, i);
      if (op.kind === UPDATE || op.kind === DELETE) {
        assert.equal(op.after, insertOf.get(op.key), `${op.kind} of ${op.key} at ${i}`);
        if (op.after === 0) followed += 1;
      } else {
        assert.equal(op.after, undefined);
      }
      assert.equal(op.awaited === true, ops.some((later) => later.after === i), `awaited ${i}`);
    });
    assert.equal(ops[0].kind, INSERT);
    assert.ok(followed > 0, 'a write of the key inserted by operation 0');
  });

  test('a delete takes the oldest key no update wrote, and never the last key; none left is an internal error', () => {
    const deletes = (pattern, records, ops) => operationStream(ctx, { mix: { pattern }, ops, records, distribution: 'uniform', stream: 0 });
    assert.deepEqual(deletes('D', 3, 2).map((op) => op.key), ['C1', 'C2']);
    assert.throws(() => deletes('D', 3, 3), { message: 'internal: no key to delete at operation 2: every older key was updated or deleted' });
    assert.throws(() => deletes('D', 1, 1), /no key to delete at operation 0/);
    const mixed = deletes('UD', 4, 2);
    const updated = Number(mixed[0].key.slice(1));
    assert.equal(mixed[1].key, updated === 1 ? 'C2' : 'C1');
  });
});

describe('mixed operation calls', () => {
  const recorder = () => {
    const calls = [];
    return {
      calls,
      getDocument: async (collection, key) => { calls.push(['get', collection, key]); return { got: key }; },
      updateDocument: async (collection, key, doc, ack) => { calls.push(['update', collection, key, doc.version, ack]); return 'updated'; },
      deleteDocument: async (collection, key, ack) => { calls.push(['delete', collection, key, ack]); return 'deleted'; },
      insertDocument: async (collection, doc, ack) => { calls.push(['insert', collection, doc._key, ack]); return 'inserted'; },
    };
  };

  test('a read-modify-write gets its key, then updates it, and answers what the get returned', async () => {
    const workload = byName['read-modify-write'];
    const adapter = recorder();
    await workload.setup(adapter);
    const op = { kind: READ_MODIFY_WRITE, key: 'C4', doc: { _key: 'C4', version: 9 } };
    assert.deepEqual(await workload.call(adapter, op, { durable: true }), { got: 'C4' });
    assert.deepEqual(adapter.calls, [['get', 'mixed', 'C4'], ['update', 'mixed', 'C4', 9, { durable: true }]]);
    await workload.teardown(adapter);
  });

  test('each kind calls its adapter operation on the mixed collection, with the acknowledgement asked', async () => {
    assert.equal(COLLECTION, 'mixed');
    const workload = byName['50-50'];
    const adapter = recorder();
    await workload.setup(adapter);
    assert.deepEqual(await workload.call(adapter, { kind: READ, key: 'C1' }, { durable: true }), { got: 'C1' });
    assert.equal(await workload.call(adapter, { kind: UPDATE, key: 'C1', doc: { _key: 'C1', version: 5 } }, { durable: true }), 'updated');
    assert.equal(await workload.call(adapter, { kind: DELETE, key: 'C2' }, { durable: false }), 'deleted');
    assert.equal(await workload.call(adapter, { kind: INSERT, key: 'C3', doc: { _key: 'C3', version: 6 }, index: 3 }, { durable: true }), 'inserted');
    await workload.teardown(adapter);
    assert.deepEqual(adapter.calls, [['get', 'mixed', 'C1'], ['update', 'mixed', 'C1', 5, { durable: true }],
      ['delete', 'mixed', 'C2', { durable: false }], ['insert', 'mixed', 'C3', { durable: true }]]);
  });

  test('a write of a key the stream inserted waits for that insert, on each connection and in each round', { timeout: 5000 }, async () => {
    const workload = byName.igiugid;
    const order = [];
    let release = null;
    const adapter = {
      insertDocument: async (collection, doc, ack) => {
        await new Promise((resolve) => { release = resolve; });
        order.push(`insert ${collection} ${doc._key} ${ack.durable}`);
        return 'inserted';
      },
      updateDocument: async (collection, key) => { order.push(`update ${key}`); return 'updated'; },
      deleteDocument: async (collection, key) => { order.push(`delete ${key}`); return 'deleted'; },
    };
    const insert = { kind: INSERT, key: 'C9', doc: { _key: 'C9', version: 2 }, index: 0, awaited: true };
    // The write asks first, on a connection the workload's setup never saw; the insert comes after.
    const round = async (write) => {
      order.length = 0;
      const writing = workload.call(adapter, write, { durable: false });
      const inserting = workload.call(adapter, insert, { durable: true });
      await sleep(20);
      assert.deepEqual(order, [], 'the write waits');
      release();
      assert.equal(await inserting, undefined);
      await writing;
      assert.deepEqual(order, ['insert mixed C9 true', `${write.kind} C9`]);
    };
    await round({ kind: UPDATE, key: 'C9', doc: { _key: 'C9', version: 3 }, after: 0 });
    // The next round's setup forgets the inserts of the last one.
    await workload.setup(adapter);
    await round({ kind: DELETE, key: 'C9', after: 0 });
    // So does the teardown.
    await workload.teardown(adapter);
    await round({ kind: UPDATE, key: 'C9', doc: { _key: 'C9', version: 4 }, after: 0 });
  });

  test('a failed insert fails the writes that wait for it, with the insert named; alone it is no unhandled rejection', async () => {
    const workload = byName.igiugid;
    const adapter = { insertDocument: async () => { throw new Error('disk full'); }, deleteDocument: async () => 'deleted' };
    await workload.setup(adapter);
    const waiting = workload.call(adapter, { kind: DELETE, key: 'C9', after: 4 }, { durable: false });
    const insert = { kind: INSERT, key: 'C9', doc: { _key: 'C9', version: 2 }, index: 4, awaited: true };
    await assert.rejects(workload.call(adapter, insert, { durable: false }), { message: 'disk full' });
    await assert.rejects(waiting, { message: 'its insert (operation 4) failed: disk full' });
    const rejections = [];
    const onRejection = (reason) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      await assert.rejects(workload.call(adapter, { ...insert, index: 7 }, { durable: false }), { message: 'disk full' });
      await sleep(20);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    assert.deepEqual(rejections, []);
  });

  test('the check reads the collection back and judges the keys this process owns, from the loaded records', async () => {
    const workload = byName['write-only'];
    const written = { ...ctx.updates[1], version: 2 };
    const ops = [{ kind: UPDATE, key: 'C2', doc: written }];
    const times = { starts: [0], ends: [1] };
    const judge = (final, params = { records: 3 }) => workload.check(ctx, ops, [undefined], {
      readCollection: async (collection) => (collection === COLLECTION ? final : null),
    }, params, times);
    assert.deepEqual(await judge([ctx.docs[0], written, ctx.docs[2]]), []);
    assert.deepEqual((await judge([ctx.docs[0], written])).map((f) => f.input), ['C3']);
    assert.deepEqual((await judge([ctx.docs[0], ctx.docs[1], ctx.docs[2]])).map((f) => f.input), ['C2']);
    // Only the first `records` documents were loaded.
    assert.deepEqual((await judge([ctx.docs[0], written, ctx.docs[2]], { records: 2 })).map((f) => f.input), ['C3']);
    // A shard's process judges its own keys only: the others' documents, stored or not, are not its concern.
    const owns = (key) => key === 'C1' || key === 'C2';
    assert.deepEqual(await judge([ctx.docs[0], written], { records: 3, owns }), []);
    assert.deepEqual(await judge([ctx.docs[0], written, { _key: 'C3', torn: true }], { records: 3, owns }), []);
    assert.deepEqual((await judge([ctx.docs[0], written, null], { records: 3, owns })).map((f) => f.input), ['undefined']);
    assert.match((await judge({ rows: [] }))[0].problem, /expected an array of documents/);
  });

  test('each workload names the operation that tells whether an adapter supports it, and its own description', () => {
    assert.deepEqual(WORKLOADS.map((w) => w.operation), ['getDocument', 'updateDocument', 'updateDocument', 'updateDocument', 'insertDocument',
      'updateDocument', 'scanDocuments']);
    assert.ok(WORKLOADS.every((w) => w.compared === true && w.timed === true));
    assert.deepEqual(WORKLOADS.map((w) => w.description), ['gets only', 'updates (replace) only', 'gets and updates, half each',
      '95% gets, 5% updates', 'the cross-action pattern I G I U G I D: insert, get, insert, update, get, insert, delete',
      'gets and read-modify-writes (a get, then an update of its key), half each: YCSB\'s workload F',
      '95% scans of 1 to 100 documents (uniform) from a key the distribution chooses, 5% inserts: YCSB\'s workload E']);
  });
});

describe('the consistency rule', () => {
  const doc = (key, version, extra = {}) => ({ _key: key, version, name: `v${version}`, ...extra });
  const loaded = doc('C1', 1);
  const initial = new Map([['C1', loaded]]);
  // A log from [kind, key, doc or answer, start, end] rows.
  function log(rows) {
    const operations = [];
    const answers = [];
    const starts = [];
    const ends = [];
    for (const [kind, key, value, start, end] of rows) {
      operations.push(kind === READ || kind === DELETE ? { kind, key } : { kind, key, doc: value });
      answers.push(kind === READ ? value : undefined);
      starts.push(start);
      ends.push(end);
    }
    return { operations, answers, starts, ends };
  }
  const check = (rows, final, init = initial) => consistencyFailures({ initial: init, ...log(rows), final });

  test('a read of the last write completed before it began passes; an older one is stale', () => {
    const v2 = doc('C1', 2);
    const v3 = doc('C1', 3, { extra: 'x' });
    const rows = [[UPDATE, 'C1', v2, 0, 10], [UPDATE, 'C1', v3, 20, 30]];
    assert.deepEqual(check([...rows, [READ, 'C1', v3, 40, 50]], [v3]), []);
    const stale = check([...rows, [READ, 'C1', v2, 40, 50]], [v3]);
    assert.equal(stale.length, 1);
    assert.equal(stale[0].input, 'operation 2 (get C1)');
    assert.match(stale[0].problem, /stale value of operation 0 \(update\): operation 1 \(update\) began after it completed/);
    assert.match(check([...rows, [READ, 'C1', loaded, 40, 50]], [v3])[0].problem, /stale value of the loaded state/);
  });

  test('a read overlapping a write may return either side of it', () => {
    const v2 = doc('C1', 2);
    const rows = [[UPDATE, 'C1', v2, 10, 30]];
    assert.deepEqual(check([...rows, [READ, 'C1', loaded, 20, 25]], [v2]), []);
    assert.deepEqual(check([...rows, [READ, 'C1', v2, 20, 25]], [v2]), []);
    assert.deepEqual(check([...rows, [READ, 'C1', v2, 0, 12]], [v2]), []);
    assert.deepEqual(check([...rows, [READ, 'C1', loaded, 0, 5]], [v2]), []);
    // Began after the read ended: the read cannot have seen it.
    assert.match(check([...rows, [READ, 'C1', v2, 0, 5]], [v2])[0].problem, /began after the read ended/);
  });

  test('writes that overlapped each other before the read may each be the last', () => {
    const a = doc('C1', 2);
    const b = doc('C1', 3);
    const rows = [[UPDATE, 'C1', a, 0, 20], [UPDATE, 'C1', b, 5, 10]];
    assert.deepEqual(check([...rows, [READ, 'C1', a, 30, 31]], [a]), []);
    assert.deepEqual(check([...rows, [READ, 'C1', b, 30, 31]], [b]), []);
    assert.match(check([...rows, [READ, 'C1', loaded, 30, 31]], [b])[0].problem, /stale value of the loaded state/);
  });

  test('a value never written fails, also under a version that was', () => {
    const v2 = doc('C1', 2);
    const rows = [[UPDATE, 'C1', v2, 0, 10]];
    assert.match(check([...rows, [READ, 'C1', doc('C1', 9), 20, 30]], [v2])[0].problem, /a value never written to this key/);
    assert.match(check([...rows, [READ, 'C1', { ...v2, name: 'torn' }, 20, 30]], [v2])[0].problem, /never written/);
    assert.match(check([...rows, [READ, 'C1', { ...v2, ...loaded, version: 2 }, 5, 30]], [v2])[0].problem, /never written/);
    assert.match(check([...rows, [READ, 'C1', 'C1', 20, 30]], [v2])[0].problem, /never written/);
    // A key that does not exist: null is absence, anything else was never written.
    assert.deepEqual(check([[READ, 'C9', null, 0, 1]], [loaded]), []);
    assert.match(check([[READ, 'C9', doc('C9', 1), 0, 1]], [loaded])[0].problem, /never written/);
  });

  test('an insert: absence before it, the document once it completed', () => {
    const c2 = doc('C2', 5);
    const rows = [[INSERT, 'C2', c2, 10, 20]];
    assert.deepEqual(check([...rows, [READ, 'C2', null, 0, 15]], [loaded, c2]), []);
    assert.deepEqual(check([...rows, [READ, 'C2', c2, 15, 16]], [loaded, c2]), []);
    assert.match(check([...rows, [READ, 'C2', null, 25, 30]], [loaded, c2])[0].problem, /stale value of the loaded state: operation 0 \(insert\).* writing \{/);
  });

  test('a delete: absence once it completed; a deleted key still stored fails', () => {
    const rows = [[DELETE, 'C1', null, 10, 20]];
    assert.deepEqual(check([...rows, [READ, 'C1', null, 25, 30]], []), []);
    assert.deepEqual(check([...rows, [READ, 'C1', loaded, 12, 30]], []), []);
    assert.match(check([...rows, [READ, 'C1', loaded, 25, 30]], [])[0].problem, /stale value of the loaded state: operation 0 \(delete\).*writing absence/);
    const present = check(rows, [loaded]);
    assert.equal(present.length, 1);
    assert.equal(present[0].input, 'C1');
    assert.match(present[0].problem, /holds .* at the end; one of its last writes left absence \(operation 0 \(delete\)\)/);
  });

  test('absence is exactly null: undefined, false, {} or 0 after a delete, before an insert or for a key never written fails', () => {
    const c2 = doc('C2', 5);
    for (const got of [undefined, false, {}, 0]) {
      const text = String(JSON.stringify(got));
      for (const [rows, final, key] of [
        [[[DELETE, 'C1', null, 10, 20], [READ, 'C1', got, 25, 30]], [], 'C1'],
        [[[INSERT, 'C2', c2, 10, 20], [READ, 'C2', got, 0, 5]], [loaded, c2], 'C2'],
        [[[READ, 'C9', got, 0, 1]], [loaded], 'C9'],
      ]) {
        const failures = check(rows, final);
        assert.deepEqual(failures.map((f) => f.input), [`operation ${rows.length - 1} (get ${key})`], `${key}: ${text}`);
        assert.match(failures[0].problem, /a value never written to this key/, `${key}: ${text}`);
      }
    }
  });

  test('the final state must be one of the last writes of each key', () => {
    const a = doc('C1', 2);
    const b = doc('C1', 3);
    const c = doc('C1', 4);
    // a and b overlap, c began after both completed: only c may remain.
    const rows = [[UPDATE, 'C1', a, 0, 20], [UPDATE, 'C1', b, 5, 10], [UPDATE, 'C1', c, 30, 40]];
    assert.deepEqual(check(rows, [c]), []);
    assert.match(check(rows, [a])[0].problem, /one of its last writes left .*"version":4/);
    // c overlapping a: either may remain, not b (completed before c began).
    const overlapping = [[UPDATE, 'C1', a, 0, 35], [UPDATE, 'C1', b, 5, 10], [UPDATE, 'C1', c, 30, 40]];
    assert.deepEqual(check(overlapping, [a]), []);
    assert.deepEqual(check(overlapping, [c]), []);
    assert.equal(check(overlapping, [b]).length, 1);
    // A key no operation wrote keeps its loaded document; a lost one fails.
    assert.deepEqual(check([], [loaded]), []);
    assert.match(check([], [])[0].problem, /holds absence at the end; one of its last writes left .* \(the loaded state\)/);
  });

  test('the final collection holds each key once and no key never written', () => {
    assert.match(check([], [loaded, loaded])[0].problem, /stored more than once/);
    assert.deepEqual(check([], [loaded, doc('C7', 1)]).map((f) => f.input), ['C7']);
    assert.match(check([], { rows: [] })[0].problem, /expected an array of documents/);
    assert.equal(check([], { rows: [] })[0].input, 'the final collection');
  });

  test('a wrong final state names every last write it could have been, each with its operation', () => {
    const a = doc('C1', 2);
    const b = doc('C1', 3);
    const rows = [[UPDATE, 'C1', a, 0, 20], [UPDATE, 'C1', b, 5, 10]];
    const failures = check(rows, [loaded]);
    assert.equal(failures.length, 1);
    assert.match(failures[0].problem, /^holds \{.*"version":1.*\} at the end; one of its last writes left \{.*"version":2.*\} \(operation 0 \(update\)\) or \{.*"version":3.*\} \(operation 1 \(update\)\)$/);
  });

  test('a read-modify-write is checked as a read and as a write, both over its whole span', () => {
    const v2 = doc('C1', 2);
    const v3 = doc('C1', 3);
    const rmw = (value, answer, start, end) => ({ kind: READ_MODIFY_WRITE, key: 'C1', doc: value, answer, start, end });
    const run = (ops, final) => consistencyFailures({
      initial,
      operations: ops.map(({ kind, key, doc: value }) => (kind === READ ? { kind, key } : { kind, key, doc: value })),
      answers: ops.map((op) => op.answer),
      starts: ops.map((op) => op.start),
      ends: ops.map((op) => op.end),
      final,
    });
    // Its read saw the loaded document, its write left v2; a later one read v2 and wrote v3.
    assert.deepEqual(run([rmw(v2, loaded, 0, 10), rmw(v3, v2, 20, 30)], [v3]), []);
    // A read part that missed the write completed before it began is stale, named by its kind.
    const stale = run([rmw(v2, loaded, 0, 10), rmw(v3, loaded, 20, 30)], [v3]);
    assert.equal(stale.length, 1);
    assert.equal(stale[0].input, 'operation 1 (read-modify-write C1)');
    assert.match(stale[0].problem, /stale value of the loaded state: operation 0 \(read-modify-write\) began after it completed/);
    // A write part that was lost leaves the wrong final state.
    assert.match(run([rmw(v2, loaded, 0, 10)], [loaded])[0].problem, /holds .*"version":1.* at the end; one of its last writes left .*"version":2.* \(operation 0 \(read-modify-write\)\)/);
    // A later get sees its write.
    assert.match(run([rmw(v2, loaded, 0, 10), { kind: READ, key: 'C1', answer: loaded, start: 20, end: 30 }], [v2])[0].problem,
      /stale value of the loaded state: operation 0 \(read-modify-write\)/);
  });

  test('a version written twice matches either write', () => {
    const v2 = doc('C1', 2);
    // The first write of v2 completed before the read; the second began after the read ended.
    const rows = [[UPDATE, 'C1', v2, 0, 10], [UPDATE, 'C1', { ...v2 }, 50, 60]];
    assert.deepEqual(check([...rows, [READ, 'C1', v2, 20, 30]], [v2]), []);
  });

  test('a final collection holding null, undefined or a non-document is a document never written', () => {
    for (const bad of [null, undefined, 'C1', 5]) {
      const failures = check([], [loaded, bad]);
      assert.deepEqual(failures.map((f) => f.input), [String(undefined)], String(bad));
      assert.match(failures[0].problem, /a document that was never written/);
    }
  });

  test('a read that answered undefined or an array returned a value never written', () => {
    for (const got of [undefined, [], [loaded]]) {
      const failures = check([[READ, 'C1', got, 0, 1]], [loaded]);
      assert.equal(failures.length, 1);
      assert.match(failures[0].problem, /a value never written to this key/);
    }
  });

  test('the edges of the rule: a write beginning as the read ends, one completing as it begins', () => {
    const v2 = doc('C1', 2);
    const v3 = doc('C1', 3);
    // A write that began exactly when the read ended may have been seen.
    assert.deepEqual(check([[UPDATE, 'C1', v2, 10, 30], [READ, 'C1', v2, 0, 10]], [v2]), []);
    // A write that completed exactly when the read began did not supersede the older value yet.
    assert.deepEqual(check([[UPDATE, 'C1', v2, 0, 10], [UPDATE, 'C1', v3, 20, 30], [READ, 'C1', v2, 30, 40]], [v3]), []);
    assert.match(check([[UPDATE, 'C1', v2, 0, 10], [UPDATE, 'C1', v3, 20, 30], [READ, 'C1', v2, 31, 40]], [v3])[0].problem, /stale/);
  });

  describe('scans', () => {
    // C1, C10, C2 and C3 loaded (C10 sorts before C2); C11 inserted at 20..30; C2 deleted at 20..30.
    const docs = Object.fromEntries(['C1', 'C10', 'C2', 'C3'].map((key) => [key, doc(key, 1)]));
    const start = new Map(Object.entries(docs));
    const c11 = doc('C11', 5);
    const writes = [{ kind: INSERT, key: 'C11', doc: c11 }, { kind: DELETE, key: 'C2' }];
    const scanCheck = (scan, answer, [begin, end]) => consistencyFailures({
      initial: start,
      operations: [...writes, { kind: SCAN, ...scan }],
      answers: [undefined, undefined, answer],
      starts: [20, 20, begin],
      ends: [30, 30, end],
      final: [docs.C1, docs.C10, c11, docs.C3],
    });
    const problemOf = (...args) => {
      const failures = scanCheck(...args);
      assert.equal(failures.length, 1, JSON.stringify(failures));
      assert.match(failures[0].input, /^operation 2 \(scan of \d+ from C\d*\)$/);
      return failures[0].problem;
    };

    test('the keys from the start key in order, at most the limit, each a value a read could return', () => {
      assert.deepEqual(scanCheck({ key: 'C1', limit: 10 }, [docs.C1, docs.C10, docs.C2, docs.C3], [0, 10]), []);
      assert.deepEqual(scanCheck({ key: 'C1', limit: 2 }, [docs.C1, docs.C10], [0, 10]), []);
      assert.deepEqual(scanCheck({ key: 'C10', limit: 10 }, [docs.C10, c11, docs.C3], [40, 50]), []);
      assert.deepEqual(scanCheck({ key: 'C4', limit: 10 }, [], [0, 10]), []);
      assert.match(problemOf({ key: 'C1', limit: 10 }, [docs.C1, docs.C2, docs.C10, docs.C3], [0, 10]), /returned C10 after C2: the keys do not ascend/);
      assert.match(problemOf({ key: 'C1', limit: 2 }, [docs.C1, docs.C10, docs.C2], [0, 10]), /returned 3 documents, more than its limit of 2/);
      assert.match(problemOf({ key: 'C10', limit: 2 }, [docs.C1, docs.C10], [0, 10]), /returned C1, before its start key C10/);
      assert.match(problemOf({ key: 'C1', limit: 2 }, [docs.C1, doc('C10', 9)], [0, 10]), /^C10: returned .*, a value never written to this key/);
      assert.match(problemOf({ key: 'C1', limit: 2 }, null, [0, 10]), /not an array of documents/);
      assert.match(problemOf({ key: 'C1', limit: 2 }, [docs.C1, null], [0, 10]), /not a document with a key/);
      assert.match(problemOf({ key: 'C1', limit: 2 }, [docs.C1, doc('C9', 1)], [0, 10]), /returned C9, a key never written/);
    });

    test('no key that existed throughout is left out, up to the last key returned, or at all below the limit', () => {
      assert.match(problemOf({ key: 'C1', limit: 3 }, [docs.C1, docs.C2, docs.C3], [0, 10]), /^left out C10, which existed throughout the scan/);
      assert.match(problemOf({ key: 'C1', limit: 10 }, [docs.C1, docs.C10, docs.C2], [0, 10]), /^left out C3/);
      // Beyond a full scan's last key, nothing is asked.
      assert.deepEqual(scanCheck({ key: 'C1', limit: 1 }, [docs.C1], [0, 10]), []);
    });

    test('a key inserted or deleted during the scan may be there or not; after it, as the writes left it', () => {
      // During the writes (25..28): C11 may be there or not, C2 too.
      for (const answer of [[docs.C10, c11, docs.C2, docs.C3], [docs.C10, docs.C2, docs.C3], [docs.C10, c11, docs.C3], [docs.C10, docs.C3]]) {
        assert.deepEqual(scanCheck({ key: 'C10', limit: 10 }, answer, [25, 28]), [], JSON.stringify(answer.map((d) => d._key)));
      }
      // After them: C11 must be there, C2 must not.
      assert.match(problemOf({ key: 'C10', limit: 10 }, [docs.C10, docs.C3], [40, 50]), /^left out C11/);
      assert.match(problemOf({ key: 'C10', limit: 10 }, [docs.C10, c11, docs.C2, docs.C3], [40, 50]), /^C2: returned the stale value of the loaded state/);
      // Before them: C11 cannot be there yet.
      assert.match(problemOf({ key: 'C10', limit: 10 }, [docs.C10, c11, docs.C2, docs.C3], [0, 10]), /^C11: returned the value of operation 0 \(insert\), which began after the read ended/);
    });
  });

  test('operations logged out of the order they began are ordered by their start', () => {
    const v2 = doc('C1', 2);
    const v3 = doc('C1', 3);
    // Operation 0 began after operation 1: v2 is the later write, v3 stale once v2 completed.
    const rows = [[UPDATE, 'C1', v2, 20, 30], [UPDATE, 'C1', v3, 0, 10]];
    assert.deepEqual(check([...rows, [READ, 'C1', v2, 40, 50]], [v2]), []);
    const stale = check([...rows, [READ, 'C1', v3, 40, 50]], [v2]);
    assert.equal(stale.length, 1);
    assert.match(stale[0].problem, /stale value of operation 1 \(update\): operation 0 \(update\) began after it completed/);
    assert.match(check(rows, [v3])[0].problem, /holds .*"version":3.* one of its last writes left .*"version":2/);
  });

  test('a value is superseded by the write that completed first of those that began after it, not the first to begin', () => {
    const v2 = doc('C1', 2);
    const slow = doc('C1', 3);
    const quick = doc('C1', 4);
    // After v2 (0-10): `slow` began at 20 and runs past the read; `quick` began at 25 and completed at 30, before
    // the read began at 40. v2 is stale, superseded by `quick`.
    const rows = [[UPDATE, 'C1', v2, 0, 10], [UPDATE, 'C1', slow, 20, 100], [UPDATE, 'C1', quick, 25, 30]];
    const stale = check([...rows, [READ, 'C1', v2, 40, 50]], [slow]);
    assert.equal(stale.length, 1);
    assert.match(stale[0].problem, /stale value of operation 0 \(update\): operation 2 \(update\) began after it completed and completed before the read began, writing .*"version":4/);
    // Of two that completed at the same time, the message names the one that began first.
    const tie = [[UPDATE, 'C1', v2, 0, 10], [UPDATE, 'C1', slow, 20, 30], [UPDATE, 'C1', quick, 25, 30]];
    assert.match(check([...tie, [READ, 'C1', v2, 40, 50]], [quick])[0].problem, /stale value of operation 0 \(update\): operation 1 \(update\)/);
    // A write that began after v2 but completes after the read began does not make v2 stale.
    assert.deepEqual(check([[UPDATE, 'C1', v2, 0, 10], [UPDATE, 'C1', slow, 20, 100], [READ, 'C1', v2, 40, 50]], [slow]), []);
  });
});

describe('mixed plan', () => {
  test('is a registered suite', () => {
    assert.ok(suiteIds().includes('mixed'));
    assert.equal(getSuite('mixed'), mixed);
    assert.deepEqual(WORKLOADS.map((w) => w.name), ['read-only', 'write-only', '50-50', '95-5', 'igiugid', 'read-modify-write', 'scan-insert']);
    assert.ok(WORKLOADS.every((w) => w.timed));
  });

  test('one round per workload, level (or rate) and run; a round alone loads the documents into a fresh collection and drops it', async () => {
    const config = { records: 5, ops: 10, concurrency: [1, 4], runs: 2, durable: true, distribution: 'uniform', shape: 'uniform', seed: 1 };
    const rounds = mixed.rounds({ config, workloads: WORKLOADS.slice(0, 2) });
    assert.deepEqual(rounds.map((r) => [r.steps[0].key, r.run]), [
      ['read-only n=10 c=1', 1], ['read-only n=10 c=1', 2], ['read-only n=10 c=4', 1], ['read-only n=10 c=4', 2],
      ['write-only n=10 c=1', 1], ['write-only n=10 c=1', 2], ['write-only n=10 c=4', 1], ['write-only n=10 c=4', 2]]);
    assert.ok(rounds.every((r) => r.steps.length === 1));
    assert.deepEqual(rounds[2].steps[0].params, { ops: 10, records: 5, distribution: 'uniform', concurrency: 4, durable: true });
    const calls = [];
    const adapter = {
      createTempCollection: async (name) => calls.push(['create', name]),
      insertDocument: async (name, doc, ack) => calls.push(['insert', name, doc._key, ack]),
      dropTempCollection: async (name) => calls.push(['drop', name]),
    };
    await rounds[0].setup(adapter);
    await rounds[0].teardown(adapter);
    assert.deepEqual(calls.map((c) => c.slice(0, 3)), [['create', COLLECTION], ...['C1', 'C2', 'C3', 'C4', 'C5'].map((key) => ['insert', COLLECTION, key]), ['drop', COLLECTION]]);
    assert.deepEqual(calls[1][3], { durable: false });

    const open = mixed.rounds({ config: { ...config, concurrency: 8, rates: [100, 200], runs: 1 }, workloads: WORKLOADS.slice(0, 1) });
    assert.deepEqual(open.map((r) => [r.steps[0].key, r.concurrency, r.steps[0].params.rate]), [
      ['read-only n=10 c=8 rate=100', 8, 100], ['read-only n=10 c=8 rate=200', 8, 200]]);
    assert.equal(stepKey('95-5', { ops: 3, concurrency: 2 }), '95-5 n=3 c=2');
  });

  test('takes bench run\'s flags: a rate list selects the open loop, --sync the durable acknowledgement', () => {
    const settings = { ...mixed.defaults, seed: 3, concurrency: [8] };
    assert.deepEqual(mixed.configure(settings), {
      concurrency: [8], records: 10_000, ops: [100_000], rates: [], distribution: 'zipfian', shape: 'uniform', durable: false, seed: 3,
    });
    assert.deepEqual(mixed.configure({ ...settings, rate: '1000, 2000,4000', sync: true }).rates, [1000, 2000, 4000]);
    assert.deepEqual(mixed.configure({ ...settings, rate: 500 }).rates, [500]);
    assert.equal(mixed.configure({ ...settings, sync: true }).durable, true);
    assert.throws(() => mixed.configure({ ...settings, rate: '100,,200' }), { code: 'E_USAGE', message: /--rate must be a positive number/ });
    assert.throws(() => mixed.configure({ ...settings, rate: '100,100' }), { code: 'E_USAGE', message: /names a value twice/ });
    assert.deepEqual(mixed.flags, ['records', 'ops', 'rate', 'distribution', 'shape', 'sync', 'doc-bytes', 'duration', 'reload']);
  });

  test('refuses an unknown distribution or shape, a bad rate and no concurrency', () => {
    const config = { records: 5, ops: 10, concurrency: [1], runs: 1 };
    assert.throws(() => mixed.rounds({ config: { ...config, distribution: 'hot' }, workloads: WORKLOADS }), { code: 'E_USAGE', message: /unknown distribution "hot"/ });
    assert.throws(() => mixed.rounds({ config: { ...config, shape: 'round' }, workloads: WORKLOADS }), { code: 'E_USAGE', message: /unknown shape/ });
    assert.throws(() => mixed.rounds({ config: { ...config, rates: [0] }, workloads: WORKLOADS }), { code: 'E_USAGE', message: /positive number/ });
    assert.throws(() => mixed.rounds({ config: { ...config, records: 0 }, workloads: WORKLOADS }), { code: 'E_USAGE', message: /--records must be/ });
    assert.throws(() => mixed.rounds({ config: { ...config, concurrency: [] }, workloads: WORKLOADS }), { code: 'E_USAGE', message: /concurrency level/ });
    for (const concurrency of [null, undefined, [null]]) {
      assert.throws(() => mixed.rounds({ config: { ...config, concurrency }, workloads: WORKLOADS }), { message: 'the mixed suite needs a concurrency level' });
    }
    const refusal = (changes) => {
      try {
        mixed.rounds({ config: { ...config, ...changes }, workloads: WORKLOADS });
      } catch (error) {
        assert.equal(error.code, 'E_USAGE');
        return error.message;
      }
      return null;
    };
    assert.equal(refusal({ distribution: 'hot' }), 'unknown distribution "hot"; valid distributions: uniform, zipfian, latest');
    assert.equal(refusal({ shape: 'round' }), 'unknown shape "round"; valid shapes: uniform, varied');
    assert.equal(refusal({ records: 0 }), '--records must be a whole number of at least 1, got 0');
    assert.equal(refusal({ records: 1.5 }), '--records must be a whole number of at least 1, got 1.5');
    assert.equal(refusal({ records: 1 }), null);
    assert.equal(refusal({ rates: '100,x' }), '--rate must be a positive number of operations per second or a comma-separated list of them, got 100,x');
    for (const rates of ['', ' ', '100, ', -5, Number.NaN, Number.POSITIVE_INFINITY, [100, 0]]) assert.match(refusal({ rates }), /^--rate must be/, String(rates));
    assert.equal(refusal({ rates: [100, 100] }), '--rate names a value twice: 100,100');
    assert.equal(refusal({ rates: null }), null);
    assert.equal(refusal({ rates: [0.5, 200] }), null);
  });

  test('its defaults: three runs of 100,000 operations over 10,000 uniform documents of seed 1, zipfian, not durable (a plan without runs has one)', async () => {
    const rounds = mixed.rounds({ config: { concurrency: 3 }, workloads: WORKLOADS.slice(0, 1) });
    assert.deepEqual(rounds.map((r) => [r.run, r.label, r.concurrency, r.steps[0].key]), [[1, 'run 1/1', 3, 'read-only n=100000 c=3']]);
    assert.deepEqual(rounds[0].steps[0].params, { ops: 100_000, records: 10_000, distribution: 'zipfian', concurrency: 3, durable: false });
    assert.equal(rounds[0].steps[0].workload, WORKLOADS[0]);
    const small = mixed.rounds({ config: { concurrency: [2], records: 5, runs: 3 }, workloads: WORKLOADS.slice(4, 5) });
    assert.deepEqual(small.map((r) => r.label), ['run 1/3', 'run 2/3', 'run 3/3']);
    // The documents loaded: those of seed 1 and the uniform shape, two inserts at a time at concurrency 2.
    const inserted = [];
    let inFlight = 0;
    let most = 0;
    const adapter = {
      createTempCollection: async () => {},
      insertDocument: async (name, doc) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await sleep(2);
        inFlight -= 1;
        inserted.push(doc);
      },
    };
    await small[0].setup(adapter);
    assert.deepEqual(inserted, crudDocuments({ count: 5, shape: 'uniform', seed: 1 }).docs);
    assert.equal(most, 2);
    assert.deepEqual(mixed.defaults, {
      runs: 3, concurrency: [25], records: 10_000, ops: [100_000], distribution: 'zipfian', shape: 'uniform', sync: false,
    });
    assert.deepEqual(mixed.configure({ concurrency: [1] }), {
      concurrency: [1], records: 10_000, ops: [100_000], rates: [], distribution: 'zipfian', shape: 'uniform', durable: false, seed: 1,
    });
  });

  test('prepares the loaded documents and those the largest stream inserts, and describes them', async () => {
    const data = await mixed.prepare({ records: 5, ops: [7, 14], shape: 'varied', seed: 2 });
    const made = crudDocuments({ count: 5 + crossInserts(14), shape: 'varied', seed: 2 });
    assert.deepEqual(data, { shape: 'varied', seed: 2, records: 5, ...made });
    assert.equal(data.docs.length, 11);
    assert.equal(mixed.context(data), data);
    assert.deepEqual(mixed.describeData({ shape: 'varied', records: 300, seed: 5, docs: [] }), {
      id: 'mixed-varied-r300-s5', name: 'mixed documents', shape: 'varied', seed: 5, documents: 300, label: '300 varied documents, seed 5',
    });
    assert.equal(mixed.id, 'mixed');
    assert.equal(mixed.name, 'mixed');
    assert.deepEqual(mixed.alwaysRun, []);
    assert.equal(mixed.description, 'concurrent gets, updates, inserts and deletes of the same documents, closed or open loop, every read checked');
  });
});

describe('mixed through the runner', () => {
  const options = { namespace: 'dbshootout_mixedtest', concurrency: 4, connectTimeoutMs: 1000, dataDir: null };
  const base = { records: 300, ops: 3000, runs: 1, durable: false, shape: 'varied', seed: 5, stallTimeoutMs: 10_000 };
  // The memory store, acknowledging every `every`-th update without applying it.
  const droppingUpdates = (every) => ({
    ...memory,
    create(opts) {
      const adapter = memory.create(opts);
      const update = adapter.updateDocument.bind(adapter);
      let n = 0;
      adapter.updateDocument = async (...args) => {
        n += 1;
        if (n % every !== 0) await update(...args);
      };
      return adapter;
    },
  });
  const run = async (config, description = memory, workloads = WORKLOADS) => runBenchmark({
    suite: mixed, description, adapterOptions: options, dataset: await mixed.prepare(config), workloads, config, command: 'test',
  });

  test('closed loop: every workload at every level passes, with its latencies and params', async () => {
    for (const distribution of ['zipfian', 'latest']) {
      const result = await run({ ...base, distribution, concurrency: [1, 16] });
      assert.equal(result.suite, 'mixed');
      assert.equal(result.dataset.id, 'mixed-varied-r300-s5');
      assert.equal(result.complete, true);
      assert.equal(Object.keys(result.workloads).length, 2 * WORKLOADS.length);
      for (const [key, entry] of Object.entries(result.workloads)) {
        assert.equal(entry.status, 'passed', `${distribution} ${key}: ${JSON.stringify(entry.failures)}`);
        assert.equal(entry.ops, 3000);
        assert.ok(entry.runs[0].latencyMs.p99 >= entry.runs[0].latencyMs.p95);
        assert.equal(entry.runs[0].openLoop, undefined);
        // The harness's cost per operation, against the operation's mean latency (resources/client.js).
        const { client } = entry.runs[0].resources;
        if (typeof client.cpuPct === 'number') {
          assert.ok(client.cpuPerOpUs > 0, JSON.stringify(client));
          assert.ok(Math.abs(client.latencyShare - client.cpuPerOpUs / 1000 / entry.runs[0].latencyMs.mean) < 0.01 + client.latencyShare * 0.01, JSON.stringify(client));
        }
      }
      assert.deepEqual(result.workloads['igiugid n=3000 c=16'].params,
        { ops: 3000, records: 300, distribution, concurrency: 16, durable: false });
    }
  });

  test('open loop: a rate sweep records each target and achieved rate', async () => {
    const result = await run({ ...base, distribution: 'uniform', concurrency: [4], rates: [2000, 4000] }, memory,
      [byName['50-50'], byName.igiugid]);
    assert.deepEqual(Object.keys(result.workloads), [
      '50-50 n=3000 c=4 rate=2000', '50-50 n=3000 c=4 rate=4000', 'igiugid n=3000 c=4 rate=2000', 'igiugid n=3000 c=4 rate=4000']);
    for (const [key, entry] of Object.entries(result.workloads)) {
      assert.equal(entry.status, 'passed', `${key}: ${JSON.stringify(entry.failures)}`);
      const { openLoop, opsPerSec } = entry.runs[0];
      assert.equal(openLoop.targetRate, entry.params.rate);
      assert.equal(opsPerSec, openLoop.achievedRate);
      assert.ok(openLoop.achievedRate > entry.params.rate * 0.8, `${key}: ${openLoop.achievedRate}`);
    }
  });

  test('read-modify-write through the runner: passes on the memory store; a store whose updates after a get are lost fails', async () => {
    const config = { ...base, distribution: 'zipfian', concurrency: [4] };
    const passed = await run(config, memory, [byName['read-modify-write']]);
    const entry = passed.workloads['read-modify-write n=3000 c=4'];
    assert.equal(entry.status, 'passed', JSON.stringify(entry.failures));
    assert.deepEqual(Object.keys(entry.runs[0].byKind).sort(), [READ, READ_MODIFY_WRITE]);
    const failed = (await run(config, droppingUpdates(50), [byName['read-modify-write']])).workloads['read-modify-write n=3000 c=4'];
    assert.equal(failed.status, 'failed');
    assert.ok(failed.failures.some((failure) => /read-modify-write C\d+/.test(failure.input) || /at the end/.test(failure.problem)),
      JSON.stringify(failed.failures.slice(0, 3)));
  });

  test('a store that answers some reads from a stale cache fails, with the operation named', async () => {
    const stale = {
      ...memory,
      create(opts) {
        const adapter = memory.create(opts);
        const cache = new Map();
        const get = adapter.getDocument.bind(adapter);
        adapter.getDocument = async (collection, key) => {
          if (cache.has(key)) return cache.get(key);
          const doc = await get(collection, key);
          if (key === 'C1' || key.endsWith('7')) cache.set(key, doc);
          return doc;
        };
        return adapter;
      },
    };
    const result = await run({ ...base, distribution: 'uniform', concurrency: [4] }, stale, [byName['50-50']]);
    const entry = result.workloads['50-50 n=3000 c=4'];
    assert.equal(entry.status, 'failed');
    assert.match(entry.runs[0].reason, /wrong answers/);
    assert.match(entry.failures[0].input, /^"operation \d+ \(get C(\d*7|1)\)"$/);
    assert.match(entry.failures[0].problem, /stale value/);
  });

  test('a store that drops some updates fails on the final state', async () => {
    // Acknowledged, never applied, and never read back (the write-only stream has no reads).
    const result = await run({ ...base, distribution: 'uniform', concurrency: [2] }, droppingUpdates(500), [byName['write-only']]);
    const entry = result.workloads['write-only n=3000 c=2'];
    assert.equal(entry.status, 'failed');
    assert.match(entry.failures[0].problem, /at the end; one of its last writes left/);
  });

  // The memory store, acknowledging every update after the first `applied` without applying it (one count over
  // every connection: the later runs' updates are the ones lost).
  const losingUpdatesAfter = (applied) => {
    let n = 0;
    return {
      ...memory,
      create(opts) {
        const adapter = memory.create(opts);
        const update = adapter.updateDocument.bind(adapter);
        adapter.updateDocument = async (...args) => {
          n += 1;
          if (n <= applied) await update(...args);
        };
        return adapter;
      },
    };
  };
  const startsOf = (entry) => entry.runs.map((r) => r.startedFrom);

  test('the documents load once: each later run starts from the state the run before left, the load\'s time recorded', async () => {
    const result = await run({ ...base, distribution: 'zipfian', concurrency: [1, 4], runs: 2 }, memory,
      [byName['read-only'], byName['50-50'], byName['read-modify-write']]);
    const entries = Object.values(result.workloads);
    for (const entry of entries) assert.equal(entry.status, 'passed', JSON.stringify(entry.failures));
    const runs = entries.flatMap((entry) => entry.runs);
    assert.deepEqual(runs.map((r) => r.startedFrom), ['load', ...Array(11).fill('the run before')]);
    assert.equal(runs[0].load.documents, 300);
    assert.equal(runs[0].load.concurrency, 1);
    assert.ok(Number.isInteger(runs[0].load.ms) && runs[0].load.ms >= 0);
    assert.ok(runs.slice(1).every((r) => r.load === undefined));
    // The terminal's table says it under the title.
    assert.match(formatTable(result).split('\n')[1], /^loaded once: 300 documents in [\d.]+ s \(untimed\); 11 of 12 runs started from the checked state the run before left$/);
    // The last run dropped the collection.
    const after = memory.create(options);
    await after.connect?.();
    await assert.rejects(after.readCollection(COLLECTION), /no temporary collection/);
  });

  test('a run that starts from the run before and loses every update fails: its versions are not the run before\'s', async () => {
    // Write-only, no reads: what the second run's lost updates leave is the first run's final state, which the
    // same stream under the same versions would also have left.
    const result = await run({ ...base, distribution: 'uniform', concurrency: [2], runs: 3 }, losingUpdatesAfter(3000), [byName['write-only']]);
    const entry = result.workloads['write-only n=3000 c=2'];
    assert.deepEqual(entry.runs.map((r) => r.valid), [true, false, false]);
    assert.match(entry.failures[0].problem, /at the end; one of its last writes left/);
    // A run that failed its check leaves a state nobody checked: the next one reloads.
    assert.deepEqual(startsOf(entry), ['load', 'the run before', 'load']);
  });

  test('--reload loads before every run; a run that inserted and deleted leaves its successor a reload', async () => {
    const reloaded = await run({ ...base, distribution: 'uniform', concurrency: [2], runs: 2, reload: true }, memory, [byName['95-5']]);
    assert.deepEqual(startsOf(reloaded.workloads['95-5 n=3000 c=2']), ['load', 'load']);
    const cross = await run({ ...base, distribution: 'uniform', concurrency: [2], runs: 2 }, memory, [byName['50-50'], byName.igiugid, byName['95-5']]);
    assert.deepEqual(Object.values(cross.workloads).map(startsOf), [['load', 'the run before'], ['the run before', 'load'], ['load', 'the run before']]);
    for (const entry of Object.values(cross.workloads)) assert.equal(entry.status, 'passed', JSON.stringify(entry.failures));
    assert.equal(mixed.configure({ reload: true, concurrency: 2 }).reload, true);
    assert.equal(mixed.configure({ concurrency: 2 }).reload, undefined);
  });

  test('a benchmark interrupted between runs drops the collection kept for the next one', async () => {
    const controller = new AbortController();
    const result = await runBenchmark({
      suite: mixed, description: memory, adapterOptions: options, dataset: await mixed.prepare(base), workloads: [byName['read-only']],
      config: { ...base, distribution: 'uniform', concurrency: [2], runs: 3 }, command: 'test', signal: controller.signal,
      onUpdate: (partial) => { if (partial.workloads['read-only n=3000 c=2']?.runs.length === 1) controller.abort(); },
    });
    assert.equal(result.interrupted, true);
    assert.equal(result.workloads['read-only n=3000 c=2'].runs.length, 1);
    const after = memory.create(options);
    await after.connect?.();
    await assert.rejects(after.readCollection(COLLECTION), /no temporary collection/);
  });

  test('a store that stops answering while the run is checked ends the run within the stall timeout, naming the check', { timeout: 60_000 }, async () => {
    const silent = {
      ...memory,
      create(opts) {
        const adapter = memory.create(opts);
        // The read-back of the check never answers, as a server that wedged after the timed operations.
        adapter.readCollection = () => new Promise(() => {});
        return adapter;
      },
    };
    const begin = performance.now();
    // As a stall of the timed operations does: a server that stopped answering would stall every later workload too.
    await assert.rejects(run({ ...base, distribution: 'uniform', concurrency: [2], stallTimeoutMs: 2000 }, silent, [byName['50-50'], byName['95-5']]),
      (error) => {
        assert.equal(error.code, 'E_TIMEOUT');
        assert.match(error.message, /^checking 50-50 n=3000 c=2: the database answered nothing for [23] s \(1 request waiting; --stall-timeout 2 s\); is the server still up\?$/);
        return true;
      });
    assert.ok(performance.now() - begin < 30_000, 'given up after about 2 s');
  });

  test('an update or delete of a key the stream inserted waits for that insert, however slow', async () => {
    const slowInserts = {
      ...memory,
      create(opts) {
        const adapter = memory.create(opts);
        const insert = adapter.insertDocument.bind(adapter);
        // The stream's own inserts (keys beyond the loaded ones) take 5 ms, while the later operations go on.
        adapter.insertDocument = async (collection, doc, ack) => {
          if (Number(doc._key.slice(1)) > base.records) await sleep(5);
          return insert(collection, doc, ack);
        };
        return adapter;
      },
    };
    for (const extra of [{ concurrency: [8] }, { concurrency: [8], rates: [3000] }]) {
      const result = await run({ ...base, ops: 1400, distribution: 'latest', ...extra }, slowInserts, [byName.igiugid]);
      const [entry] = Object.values(result.workloads);
      assert.equal(entry.status, 'passed', JSON.stringify(entry.failures));
    }
  });

  test('scan-insert through the runner: passes on the memory store; a store whose scans skip a key or reorder fails', async () => {
    const config = { ...base, distribution: 'zipfian', concurrency: [4], runs: 1 };
    const passed = (await run(config, memory, [byName['scan-insert']])).workloads['scan-insert n=3000 c=4'];
    assert.equal(passed.status, 'passed', JSON.stringify(passed.failures));
    assert.deepEqual(Object.keys(passed.runs[0].byKind).sort(), [INSERT, SCAN]);
    assert.ok(passed.runs[0].byKind[SCAN].operations > 2700 && passed.runs[0].byKind[INSERT].operations > 50, JSON.stringify(passed.runs[0].byKind[SCAN]));
    const scanning = (change) => ({
      ...memory,
      create(opts) {
        const adapter = memory.create(opts);
        const scan = adapter.scanDocuments.bind(adapter);
        adapter.scanDocuments = async (...args) => change(await scan(...args));
        return adapter;
      },
    });
    const skipping = (docs) => (docs.length > 2 ? [docs[0], ...docs.slice(2)] : docs);
    const failed = (await run(config, scanning(skipping), [byName['scan-insert']])).workloads['scan-insert n=3000 c=4'];
    assert.equal(failed.status, 'failed');
    assert.match(failed.failures[0].problem, /^left out C\d+, which existed throughout the scan/);
    const reordered = (await run(config, scanning((docs) => [...docs].reverse()), [byName['scan-insert']])).workloads['scan-insert n=3000 c=4'];
    assert.equal(reordered.status, 'failed');
    assert.match(reordered.failures[0].problem, /the keys do not ascend/);
    // An adapter without scanDocuments runs the other workloads; this one is unsupported.
    const noScans = { ...memory, supports: memory.supports.filter((op) => op !== 'scanDocuments') };
    const result = await run({ ...config, ops: 300 }, noScans, [byName['read-only'], byName['scan-insert']]);
    assert.deepEqual(Object.values(result.workloads).map((entry) => entry.status), ['passed', 'unsupported']);
  });

  test('an adapter without the document operations reports the workloads unsupported', async () => {
    const social = { ...memory, supports: memory.supports.filter((op) => !/Documents?$/.test(op)) };
    const result = await run({ ...base, concurrency: [1] }, social);
    assert.ok(Object.values(result.workloads).every((entry) => entry.status === 'unsupported'));
  });

  describe('over SQLite', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-mixed-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('the cross-action pattern and 50-50 pass closed and open loop', async () => {
      const config = { ...base, records: 200, ops: 1400, distribution: 'latest', concurrency: [4], runs: 1 };
      const sqliteOptions = { ...options, dataDir: dir };
      for (const extra of [{}, { rates: [1000] }]) {
        const result = await runBenchmark({
          suite: mixed, description: sqlite, adapterOptions: sqliteOptions, dataset: await mixed.prepare(config),
          workloads: [byName['50-50'], byName.igiugid], config: { ...config, ...extra }, command: 'test',
        });
        for (const [key, entry] of Object.entries(result.workloads)) {
          assert.equal(entry.status, 'passed', `${key}: ${JSON.stringify(entry.failures)}`);
        }
      }
    });
  });
});

describe('mixed --doc-bytes', () => {
  test('sets every document\'s JSON to that size, recorded in the dataset and the configuration; other suites and bad sizes are refused', { timeout: 120_000 }, async () => {
    const { spawnBench } = await import('../helpers/cli.js');
    const out = mkdtempSync(path.join(os.tmpdir(), 'bench-docbytes-'));
    try {
      const { code, stdout, stderr } = await spawnBench(['run', '--suite', 'mixed', '--db', 'memory', '--doc-bytes', '864', '--records', '100',
        '--ops', '500', '--concurrency', '2', '--runs', '1', '--workload', '50-50', '--json', '--quiet', '--out', out], { timeoutMs: 100_000 });
      assert.equal(code, 0, stderr);
      const result = JSON.parse(stdout);
      assert.equal(result.dataset.docBytes, 864);
      assert.equal(result.config.docBytes, 864);
      assert.equal(result.workloads['50-50 n=500 c=2'].status, 'passed');
      const { docs, updates } = crudDocuments({ count: 100, shape: 'uniform', seed: 1, bytes: 864 });
      for (const doc of [...docs, ...updates]) assert.equal(Buffer.byteLength(JSON.stringify(doc)), 864);
      for (const [args, message] of [
        [['--doc-bytes', '864'], /^error: --doc-bytes is a flag of --suite mixed, not of --suite social$/m],
        [['--suite', 'mixed', '--doc-bytes', '0'], /^error: --doc-bytes must be a positive integer up to 16,777,216, got 0$/m],
      ]) {
        const refused = await spawnBench(['run', '--db', 'memory', ...args], { timeoutMs: 30_000 });
        assert.equal(refused.code, 2, refused.stderr);
        assert.match(refused.stderr, message);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
