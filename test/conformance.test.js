// The shared conformance suite (test/conformance/adapter.js) against every registered adapter that has no file of
// its own in test/conformance/ (those with a local server family have one, run as files of their own), then
// hand-made faulty adapters it must catch. The server adapters left here have no server that installs on this
// machine (test/schedule.test.js checks that every one with a local server family has its own file): they skip
// with the reason, or run against the server BENCH_<ID>_URL names.
// test-needs: none
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { adapterIds, loadAdapter } from '../adapters/index.js';
import { conformanceTests, embeddedTarget, testDataDir } from './conformance/adapter.js';
import { conformanceCases, conformanceNamespaces } from './conformance/suite.js';

const dataDir = testDataDir();

// The adapters whose conformance tests are a file of their own (test/conformance/<id>.test.js).
const ownFile = (id) => existsSync(new URL(`./conformance/${id}.test.js`, import.meta.url));

for (const id of adapterIds().filter((id) => !ownFile(id))) await conformanceTests(id, dataDir);

// Hand-made faulty adapters, each a wrapper around the SQLite or memory adapter with one fault a vendor could make,
// and the case that must catch it with a message naming the problem.
describe('the conformance suite catches a faulty adapter', () => {
  const sqlite = loadAdapter('sqlite');
  const memory = loadAdapter('memory');
  let runs = 0;

  // Options of a namespace (and memory database) of its own for each test, in the test file's data directory.
  function faultOptions(description) {
    runs += 1;
    const { options } = embeddedTarget(description, dataDir);
    return { ...options, namespace: `faults${runs}`, ...(description.id === 'memory' ? { database: `faults${runs}` } : {}) };
  }

  // Runs the named cases in order (the import first where a case reads the fixture) and resolves with the last
  // one's error, or null when it passed. Removes the namespaces it made.
  async function lastCaseError(description, names, options = faultOptions(description)) {
    const cases = conformanceCases(description);
    try {
      for (const [i, name] of names.entries()) {
        const found = cases.find((c) => c.name.startsWith(name));
        assert.ok(found, `a case named ${name}`);
        assert.equal(found.skip, false, `${name} runs`);
        try {
          await found.run({ options });
        } catch (error) {
          if (i === names.length - 1) return error;
          throw error;
        }
      }
      return null;
    } finally {
      for (const namespace of conformanceNamespaces(options.namespace)) {
        await (await sqlite).testSupport.dropNamespace({ ...options, namespace }).catch(() => {});
        await (await memory).testSupport.dropNamespace({ ...options, namespace });
      }
    }
  }

  // The adapter `description` creates, with `methods(adapter, original)` replacing some of its methods.
  function faulty(description, fields, methods = () => ({})) {
    return {
      ...description,
      ...fields,
      create(options) {
        const adapter = description.create(options);
        const originals = new Map(Object.getOwnPropertyNames(Object.getPrototypeOf(adapter))
          .filter((name) => typeof adapter[name] === 'function').map((name) => [name, adapter[name].bind(adapter)]));
        return Object.assign(adapter, methods(adapter, (name) => originals.get(name), options));
      },
    };
  }

  // Drops every SQLite table whose name starts with the namespace's, as a reset or drop matching by prefix does.
  function dropByPrefix(options) {
    const db = new Database(path.join(options.dataDir, 'sqlite', 'bench.sqlite'));
    try {
      const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE ?").pluck()
        .all(`${options.namespace}%`);
      for (const table of tables) db.exec(`DROP TABLE "${table}"`);
    } finally {
      db.close();
    }
  }

  const IMPORT = 'imports batches';
  const NEIGHBOUR = 'resetNamespace and dropNamespace leave a namespace whose name starts with theirs intact';

  test('a resetNamespace() that removes every namespace starting with its name', { timeout: 120_000 }, async () => {
    const description = faulty(await sqlite, {}, (adapter, original, options) => ({
      resetNamespace: async () => {
        dropByPrefix(options);
        await original('resetNamespace')();
      },
    }));
    const error = await lastCaseError(description, [NEIGHBOUR]);
    assert.match(error?.message, /resetNamespace\(\) of "faults\d+" touched the namespace "faults\d+_neighbour", whose name only starts with it/);
  });

  test('a dropNamespace that removes every namespace starting with its name', { timeout: 120_000 }, async () => {
    const real = await sqlite;
    const description = { ...real, testSupport: { ...real.testSupport, dropNamespace: async (options) => dropByPrefix(options) } };
    const error = await lastCaseError(description, [NEIGHBOUR]);
    assert.match(error?.message, /testSupport\.dropNamespace\(\) of "faults\d+" touched the namespace "faults\d+_neighbour"/);
  });

  test('an aggregation without the "null" bucket', { timeout: 120_000 }, async () => {
    const description = faulty(await memory, {}, (adapter, original) => ({
      aggregation: async () => {
        const histogram = await original('aggregation')();
        delete histogram.null;
        return histogram;
      },
    }));
    const error = await lastCaseError(description, [IMPORT, 'aggregation counts']);
    assert.match(error?.message, /a profile without AGE counts under "null"\): AGE null: expected 1, got/);
  });

  // Each operation of the memory adapter answered after `ms()` milliseconds, all of them at once ('parallel') or
  // one after the other, as one connection that queues its queries does ('serial').
  function delayed(description, execution, ms) {
    return faulty(description, {}, (adapter, original) => {
      let queue = Promise.resolve();
      const wrap = (name) => async (...args) => {
        const wait = execution === 'parallel' ? delay(ms(name)) : (queue = queue.then(() => delay(ms(name))));
        await wait;
        return original(name)(...args);
      };
      return Object.fromEntries(['singleRead', 'shortestPath'].map((name) => [name, wrap(name)]));
    });
  }
  const slowPath = (name) => (name === 'shortestPath' ? 20 : 2);
  const EXECUTION = 'the declared execution model matches the overlap observed';

  test("execution: 'parallel' declared by a synchronous driver, or by one queue of operations", { timeout: 120_000 }, async () => {
    const message = /execution: 'parallel' is declared, but the operations never overlapped: in 40 rounds of a shortestPath then 8 x singleRead/;
    const synchronous = { ...await sqlite, execution: 'parallel' };
    assert.match((await lastCaseError(synchronous, [IMPORT, EXECUTION]))?.message, message);
    const queued = { ...delayed(await memory, 'serial', slowPath), execution: 'parallel' };
    assert.match((await lastCaseError(queued, [IMPORT, EXECUTION]))?.message, message);
  });

  test("execution: 'serial' declared by operations that overlap; 'parallel' by them passes", { timeout: 120_000 }, async () => {
    const overlapping = delayed(await memory, 'parallel', slowPath);
    assert.match((await lastCaseError({ ...overlapping, execution: 'serial' }, [IMPORT, EXECUTION]))?.message,
      /execution: 'serial' is declared, but the operations overlapped: of a shortestPath then 8 x singleRead, started together, singleRead #1 finished before shortestPath/);
    assert.equal(await lastCaseError({ ...overlapping, execution: 'parallel' }, [IMPORT, EXECUTION]), null);
  });

  test('multiProcess declared by an adapter whose data lives in one process', { timeout: 120_000 }, async () => {
    const description = { ...await memory, multiProcess: true };
    const error = await lastCaseError(description, [IMPORT, 'another process shares the database']);
    assert.match(error?.message, /multiProcess is declared but another process does not see this process's namespace/);
  });

  test('an unopenable data directory reported without E_CONNECT, or only by the first operation', { timeout: 120_000 }, async () => {
    const CASE = 'a data directory that cannot be opened';
    const uncoded = faulty(await sqlite, {}, (adapter, original) => ({
      connect: () => original('connect')().catch((error) => { throw new Error(error.message); }),
    }));
    assert.match((await lastCaseError(uncoded, [CASE]))?.message,
      /its data directory lies under the regular file .*a-regular-file: connect\(\) must reject with code E_CONNECT, not undefined/);
    const lazy = faulty(await sqlite, {}, (adapter, original) => {
      let opened = null;
      const open = () => (opened ??= original('connect')());
      return {
        connect: async () => {},
        inspectNamespace: async () => { await open(); return original('inspectNamespace')(); },
      };
    });
    assert.match((await lastCaseError(lazy, [CASE]))?.message,
      /connect\(\) resolved, and inspectNamespace\(\) then failed instead of connect\(\) rejecting with E_CONNECT: sqlite: cannot open/);
  });

  // The memory adapter's reads answered after 5 ms, and a close() that returns at once (the reads then fail:
  // not connected) or rejects the reads still running.
  function closing(description, close) {
    return faulty(description, {}, (adapter, original) => {
      const running = new Set();
      const read = async (key) => {
        const call = {};
        const wait = new Promise((resolve, reject) => { call.reject = reject; setTimeout(resolve, 5); });
        running.add(call);
        try {
          await wait;
        } finally {
          running.delete(call);
        }
        return original('singleRead')(key);
      };
      return { singleRead: read, close: () => close(original('close'), running) };
    });
  }
  const CLOSE = 'close() while operations run';

  test('a close() that does not wait for the operations in flight', { timeout: 120_000 }, async () => {
    const early = closing(await memory, (close) => close());
    assert.match((await lastCaseError(early, [IMPORT, CLOSE]))?.message,
      /close\(\) \(closed at once\) resolved before \d+ of the 100 operations started before it had settled \(\d+ x singleRead.*\); 0 of them were still pending 100 ms later: close\(\) must wait for the operations in flight/);
    const cutting = closing(await memory, (close, running) => {
      for (const call of running) call.reject(new Error('connection closed'));
      return close();
    });
    assert.match((await lastCaseError(cutting, [IMPORT, CLOSE]))?.message,
      /close\(\) \(closed at once\) cut off \d+ of the 100 operations in flight \(\d+ x singleRead\) instead of letting them finish; singleRead rejected with connection closed/);
  });
});
