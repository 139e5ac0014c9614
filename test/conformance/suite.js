// The adapter conformance suite: every adapter runs these cases against its real database. The cases
// switch on the description's `supports` list, never on whether a method happens to exist.
// test/conformance.test.js runs them under node:test; `bench check` runs them for vendors.
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ErrorCodes } from '../../core/errors.js';
import { documentDifference, histogramDifference, keySetDifference } from '../../workloads/compare.js';
import { crudCases } from './crud.js';
import { GRAPH_OPERATIONS, graphCases } from './graph.js';
import { QUERY_METHODS, queryCases } from './queries.js';
import { CASE_NAMES } from '../../workloads/queries/cases.js';
import { DEFAULT_DURABILITY, DURABILITY_TERMS, SCOPES } from '../../core/terms.js';
import { AGE_HISTOGRAM, FULL_DOCUMENT, NEIGHBORS, NEIGHBORS2, PATHS, PROFILES, RELATIONS } from './fixture.js';

export const OPERATIONS = ['singleRead', 'singleWrite', 'singleWriteSync', 'aggregation', 'neighbors',
  'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath',
  'insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', 'scanDocuments', ...CASE_NAMES, ...GRAPH_OPERATIONS];
const CRUD_OPERATIONS = ['insertDocument', 'getDocument', 'updateDocument', 'deleteDocument', 'scanDocuments'];
// The bulk import: required of an adapter that offers any operation on the imported dataset, not of one that
// offers the crud suite's document operations (or query cases) alone.
const IMPORT = ['importProfiles', 'importRelations', 'createIndexes', 'counts'];
const LIFECYCLE = ['connect', 'close', 'serverVersion', 'warmup', 'inspectNamespace', 'resetNamespace', 'writeMarker',
  'createTempCollection', 'dropTempCollection', 'countDocuments', 'readDocument', 'readCollection'];

// How long close() may take under load, and how soon after it resolves every operation it interrupted must have
// settled: a promise still pending then may never settle, since nothing of the adapter keeps the process alive.
export const CLOSE_BOUND_MS = 15_000;
const SETTLE_GRACE_MS = 100;

// The execution case: how many rounds may pass without an overlap before 'parallel' is refused (it stops at the
// first), how many rounds a 'serial' adapter is watched, the quick operations started after the slow one, and the
// documents of the slow readCollection of an adapter that offers only the document operations.
const PARALLEL_ROUNDS = 40;
const SERIAL_ROUNDS = 5;
const EXECUTION_FAST_OPERATIONS = 8;
const EXECUTION_DOCUMENTS = 200;
// How long the other process of the multiProcess case may take to connect, read, write and exit.
const OTHER_PROCESS_MS = 60_000;
const OTHER_PROCESS = fileURLToPath(new URL('./other-process.js', import.meta.url));

const byKey = new Map(PROFILES.map((doc) => [doc._key, doc]));
const edges = new Set(RELATIONS.map(({ _from, _to }) => `${_from} ${_to}`));
const neighbours = (key) => [...new Set(RELATIONS.filter(({ _from }) => _from === key).map(({ _to }) => _to))].sort();

function assertNoDifference(difference, context) {
  assert.equal(difference, null, `${context}: ${difference}`);
}

async function withAdapter(description, options, body) {
  const adapter = description.create(options);
  await adapter.connect();
  try {
    return await body(adapter);
  } finally {
    await adapter.close();
  }
}

async function importFixture(adapter) {
  await adapter.resetNamespace();
  await adapter.importProfiles(PROFILES.slice(0, 6));
  await adapter.importProfiles(PROFILES.slice(6));
  await adapter.importRelations(RELATIONS.slice(0, 5));
  await adapter.importRelations(RELATIONS.slice(5));
  await adapter.createIndexes();
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// Every namespace the cases create, from the one they are given: that one, the foreign one planted (and
// removed) by plantForeign, the one dropNamespace is tried on, and the neighbour whose name starts with the given
// one. `bench check` removes what is left of them.
export function conformanceNamespaces(namespace) {
  return [namespace, `${namespace}_foreign`, `${namespace}_dropped`, `${namespace}_neighbour`];
}

// Runs other-process.js with `task` and resolves with what it saw; rejects when it fails or outlasts
// OTHER_PROCESS_MS (it is then killed).
function inOtherProcess(task) {
  return new Promise((resolve, reject) => {
    const child = fork(OTHER_PROCESS, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    let answer = null;
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const timer = setTimeout(() => child.kill('SIGKILL'), OTHER_PROCESS_MS);
    child.on('message', (message) => { answer = message; });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (answer && code === 0) resolve(answer);
      else reject(new Error(`another process ended (${signal ?? `exit code ${code}`}) without an answer: ${stderr.trim().slice(-500)}`));
    });
    child.send(task);
  });
}

// Settles as the promise does, or rejects when it has not within `ms`.
async function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new assert.AssertionError({ message: `${what} had not settled after ${ms / 1000} s` })), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// One call of each supported operation, cycled to `count` calls, all started at once: [{ operation, promise,
// check }], `check(answer)` naming what is wrong with an answer, or null.
function startLoad(adapter, supports, collection, count) {
  const [from, to, maxDepth, hops] = PATHS[0];
  const profile = (i) => PROFILES[i % PROFILES.length];
  const none = () => null;
  const calls = [
    ['singleRead', (i) => adapter.singleRead(profile(i)._key), (i, doc) => documentDifference(profile(i), doc)],
    ['neighbors', (i) => adapter.neighbors(profile(i)._key), (i, keys) => keySetDifference(neighbours(profile(i)._key), keys)],
    ['neighbors2data', (i) => adapter.neighbors2data(profile(i)._key), (i, docs) => (Array.isArray(docs) ? null : 'not an array')],
    ['shortestPath', () => adapter.shortestPath(from, to, maxDepth), (i, path) => (path?.length === hops + 1 ? null : `not a path of ${hops} hops`)],
    ['aggregation', () => adapter.aggregation(), (i, histogram) => histogramDifference(AGE_HISTOGRAM, histogram)],
    ['singleWrite', (i) => adapter.singleWrite(collection, { ...profile(i), _key: `C${i}` }), none],
    ['insertDocument', (i) => adapter.insertDocument(collection, { _key: `D${i}`, n: i }, { durable: false }), none],
  ].filter(([operation]) => supports(operation));
  return Array.from({ length: count }, (_, i) => {
    const [operation, call, check] = calls[i % calls.length];
    return { operation, promise: call(i), check: (answer) => check(i, answer) };
  });
}

// "3 x singleRead, 1 x aggregation"
function tally(operations) {
  const counts = new Map();
  for (const { operation } of operations) counts.set(operation, (counts.get(operation) ?? 0) + 1);
  return [...counts].map(([operation, n]) => `${n} x ${operation}`).join(', ');
}

// Each case gets { description, options } and connects on its own. The fixture is imported by the
// 'import' case and reused by the read-only cases after it, so cases run in order.
export function conformanceCases(description) {
  const supports = (operation) => description.supports.includes(operation);
  const imports = description.supports.some((operation) => !CRUD_OPERATIONS.includes(operation) && !CASE_NAMES.includes(operation)
    && !GRAPH_OPERATIONS.includes(operation));
  const queries = description.supports.some((operation) => CASE_NAMES.includes(operation));
  const noImport = 'the adapter imports no dataset: it offers only the crud suite\'s document operations';
  const cases = [];
  const add = (name, run, skip = false) => cases.push({ name, run, skip });
  const addFor = (operation, name, run) => add(name, run, supports(operation) ? false : `${operation} is not supported`);

  add('description declares the contract', async ({ options }) => {
    assert.match(description.id, /^[a-z][a-z0-9_]*$/);
    assert.equal(typeof description.name, 'string');
    assert.ok(['embedded', 'server'].includes(description.kind), 'kind is embedded or server');
    assert.ok(['serial', 'parallel'].includes(description.execution), 'execution is serial or parallel');
    for (const driver of description.blockingDrivers ?? []) assert.ok(description.drivers?.includes(driver), `blocking driver ${driver} is one of drivers`);
    for (const operation of description.supports) assert.ok(OPERATIONS.includes(operation), `unknown operation ${operation}`);
    for (const write of ['singleWrite', 'singleWriteSync']) {
      if (supports(write)) assert.equal(typeof description.durability?.[write], 'string', `durability.${write} is stated`);
    }
    const adapter = description.create(options);
    const operations = description.supports.filter((operation) => !CASE_NAMES.includes(operation) && !GRAPH_OPERATIONS.includes(operation));
    for (const method of [...LIFECYCLE, ...(imports ? IMPORT : []), ...(queries ? QUERY_METHODS : []), ...operations]) {
      assert.equal(typeof adapter[method], 'function', `the adapter implements ${method}()`);
    }
  });

  // The durability terms (adapters/README.md, "Terms"): declared, and read back from the server under each term
  // the adapter offers. `owned`: the server is one `bench server` runs, so a server-wide term may be set. On a
  // server-wide setting the case also checks that terms() sees a contradiction: after setting the relaxed term,
  // asking for durable without owning the server must name a problem.
  add('the durability terms it declares are the ones the server reports', async ({ options, owned = false }) => {
    const declared = description.terms?.durability;
    assert.ok(declared, 'description.terms.durability is declared (adapters/README.md, "Terms")');
    assert.ok(SCOPES.includes(declared.scope), `terms.durability.scope is one of ${SCOPES.join(', ')}, not ${declared.scope}`);
    for (const term of DURABILITY_TERMS) {
      const entry = declared[term];
      assert.ok(entry && (typeof entry.how === 'string') !== (typeof entry.unavailable === 'string'),
        `terms.durability.${term} holds either how or unavailable, a sentence`);
    }
    const offered = DURABILITY_TERMS.filter((term) => declared[term].how);
    assert.ok(offered.length > 0, 'the database offers at least one durability term');
    const adapter = description.create(options);
    await adapter.connect();
    try {
      assert.equal(typeof adapter.terms, 'function', 'the adapter implements terms()');
      const answers = {};
      for (const term of offered) {
        const answer = await adapter.terms({ durability: term, owned });
        assert.ok(answer && typeof answer.settings === 'object', `terms() resolves { settings, applied, problems } under ${term}`);
        for (const [name, setting] of Object.entries(answer.settings)) {
          assert.equal(typeof setting?.value, 'string', `${term}: setting ${name} has a string value`);
          assert.equal(typeof setting?.source, 'string', `${term}: setting ${name} says where it came from`);
        }
        assert.ok(Array.isArray(answer.applied) && answer.applied.every((line) => typeof line === 'string'), `${term}: applied is a list of statements`);
        assert.ok(Array.isArray(answer.problems) && answer.problems.every((line) => typeof line === 'string'), `${term}: problems is a list of sentences`);
        if (!owned) assert.deepEqual(answer.applied, [], `${term}: nothing is set on a server the harness does not own`);
        // A term chosen per session, or one the adapter set on a server it owns, must hold.
        if (declared.scope !== 'server' || answer.applied.length > 0) {
          assert.deepEqual(answer.problems, [], `the server contradicts the declared ${term} term`);
        }
        answers[term] = answer;
      }
      if (declared.scope === 'server') {
        // One setting for the whole server: it holds one of the terms, and asking for the other without setting it
        // must name the contradiction (a stand-in that can give one term only, as PouchDB Server, included).
        const held = offered.find((term) => answers[term].problems.length === 0);
        assert.ok(held, `the server's settings match none of the declared terms: ${offered.map((term) => answers[term].problems.join('; ')).join(' / ')}`);
        await adapter.terms({ durability: held, owned });
        const other = offered.find((term) => term !== held);
        if (other) {
          const contradicted = await adapter.terms({ durability: other, owned: false });
          assert.ok(contradicted.problems.length > 0, `a server holding the ${held} term contradicts ${other}: terms() must say so`);
        }
        if (owned && offered.includes(DEFAULT_DURABILITY)) await adapter.terms({ durability: DEFAULT_DURABILITY, owned: true });
      }
    } finally {
      await adapter.close();
    }
  });

  add('connects, reports its version and closes twice', async ({ options }) => {
    const adapter = description.create(options);
    await adapter.connect();
    const version = await adapter.serverVersion();
    assert.equal(typeof version, 'string');
    assert.ok(version.length > 0);
    await adapter.close();
    await adapter.close();
  });

  add('an unreachable server is reported in bounded time, naming host:port', async ({ options }) => {
    const port = await freePort();
    const adapter = description.create({ ...options, host: '127.0.0.1', port, connectTimeoutMs: 2000 });
    const begin = performance.now();
    await assert.rejects(adapter.connect(), (error) => {
      assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port}`));
      return true;
    });
    assert.ok(performance.now() - begin < 10_000, 'connect() gave up within 10 s');
    await adapter.close();
  }, description.kind === 'embedded' ? 'embedded databases have no server to miss' : false);

  // An embedded database whose file cannot be opened is the embedded form of an unreachable server: the harness
  // tells it apart by E_CONNECT. Its directory under a regular file can never be made, whoever runs the check.
  add('a data directory that cannot be opened is reported with E_CONNECT, naming the file', async ({ options }) => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'bench-conformance-'));
    const blocker = path.join(folder, 'a-regular-file');
    await writeFile(blocker, 'not a directory\n');
    try {
      const unopened = [
        ['its data directory', { ...options, database: null, dataDir: path.join(blocker, 'data') }],
        ['the file --database names', { ...options, database: path.join(blocker, 'bench.db') }],
      ];
      for (const [what, target] of unopened) {
        const adapter = description.create(target);
        const context = `${what} lies under the regular file ${blocker}`;
        try {
          let connected = true;
          try {
            await adapter.connect();
          } catch (error) {
            connected = false;
            assert.equal(error?.code, ErrorCodes.CONNECT,
              `${context}: connect() must reject with code ${ErrorCodes.CONNECT}, not ${error?.code} (${error?.message})`);
            assert.ok(String(error.message).includes(blocker), `${context}: the message names the file: ${error.message}`);
          }
          // Only an adapter that keeps nothing in files (the memory adapter) connects; it must then work.
          if (connected) {
            await adapter.inspectNamespace().catch((error) => {
              assert.fail(`${context}: connect() resolved, and inspectNamespace() then failed instead of connect() `
                + `rejecting with ${ErrorCodes.CONNECT}: ${error?.message}`);
            });
          }
        } finally {
          await adapter.close();
        }
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, description.kind === 'embedded' ? false : 'a server adapter keeps no files of its own');

  add('resetNamespace creates an owned namespace whose marker round-trips', async ({ options }) => {
    await withAdapter(description, options, async (adapter) => {
      await adapter.resetNamespace();
      assert.deepEqual(await adapter.inspectNamespace(), { state: 'owned', marker: {} });
      const marker = { harness: 'db-shootout', dataset: 'fixture', imported: true, timings: { ms: 1.5 } };
      await adapter.writeMarker(marker);
      assert.deepEqual(await adapter.inspectNamespace(), { state: 'owned', marker });
      await adapter.resetNamespace();
      assert.deepEqual((await adapter.inspectNamespace()).marker, {});
    });
  });

  add('refuses to reset a namespace it did not create, and leaves it intact', async ({ options }) => {
    const foreign = { ...options, namespace: `${options.namespace}_foreign` };
    const cleanup = await description.testSupport.plantForeign(foreign);
    try {
      assert.equal(typeof cleanup, 'function', 'plantForeign resolves the function that removes what it planted');
      await withAdapter(description, foreign, async (adapter) => {
        assert.equal((await adapter.inspectNamespace()).state, 'foreign');
        await assert.rejects(adapter.resetNamespace(), (error) => error.code === ErrorCodes.NAMESPACE_FOREIGN);
        assert.equal((await adapter.inspectNamespace()).state, 'foreign');
      });
    } finally {
      await cleanup?.();
    }
  }, description.testSupport?.plantForeign ? false : 'the adapter offers no testSupport.plantForeign');

  add('testSupport.dropNamespace removes a namespace with everything in it, and only that one', async ({ options }) => {
    const dropped = { ...options, namespace: conformanceNamespaces(options.namespace)[2] };
    await withAdapter(description, dropped, async (adapter) => {
      await adapter.resetNamespace();
      if (imports) {
        await adapter.importProfiles(PROFILES);
        await adapter.importRelations(RELATIONS.slice(0, 2));
        await adapter.createIndexes();
      }
      await adapter.createTempCollection('conformance_dropped');
    });
    await description.testSupport.dropNamespace(dropped);
    await withAdapter(description, dropped, async (adapter) => {
      assert.deepEqual(await adapter.inspectNamespace(), { state: 'absent', marker: null });
    });
    await withAdapter(description, options, async (adapter) => {
      assert.equal((await adapter.inspectNamespace()).state, 'owned', 'the namespace next to it is still there');
    });
  }, description.testSupport?.dropNamespace ? false : 'the adapter offers no testSupport.dropNamespace');

  // Namespaces are names, not prefixes: `dbshootout` and `dbshootout_someoneelse` are two. A reset or drop that
  // matches every name starting with its own (LIKE 'ns%', a regular expression without its end, a loop over
  // `startsWith`) would take someone else's benchmark data with it.
  add('resetNamespace and dropNamespace leave a namespace whose name starts with theirs intact', async ({ options }) => {
    const neighbour = { ...options, namespace: conformanceNamespaces(options.namespace)[3] };
    const marker = { harness: 'db-shootout', dataset: 'neighbour' };
    const collection = 'conformance_neighbour';
    const write = supports('singleWrite') ? 'singleWrite' : supports('insertDocument') ? 'insertDocument' : null;
    const intact = async (after) => {
      await withAdapter(description, neighbour, async (adapter) => {
        const problem = `${after} of "${options.namespace}" touched the namespace "${neighbour.namespace}", whose name `
          + 'only starts with it';
        assert.deepEqual(await adapter.inspectNamespace(), { state: 'owned', marker }, `${problem}: its marker`);
        if (imports) {
          assert.deepEqual(await adapter.counts(), { profiles: PROFILES.length, relations: RELATIONS.length },
            `${problem}: its profiles and relations`);
        }
        assert.equal(await adapter.countDocuments(collection), write ? 1 : 0, `${problem}: its temporary collection`);
      });
    };
    try {
      await withAdapter(description, neighbour, async (adapter) => {
        await adapter.resetNamespace();
        await adapter.writeMarker(marker);
        if (imports) {
          await adapter.importProfiles(PROFILES);
          await adapter.importRelations(RELATIONS);
          await adapter.createIndexes();
        }
        await adapter.createTempCollection(collection);
        if (write) await adapter[write](collection, { ...PROFILES[0], _key: 'C1' }, { durable: false });
      });
      await withAdapter(description, options, async (adapter) => {
        await adapter.resetNamespace();
        await adapter.createTempCollection(collection);
      });
      await intact('resetNamespace()');
      await description.testSupport.dropNamespace(options);
      await withAdapter(description, options, async (adapter) => {
        assert.equal((await adapter.inspectNamespace()).state, 'absent', 'dropNamespace removed its own namespace');
      });
      await intact('testSupport.dropNamespace()');
      // The cases after this one find the namespace as the cases before it left it: owned.
      await withAdapter(description, options, (adapter) => adapter.resetNamespace());
    } finally {
      await description.testSupport.dropNamespace(neighbour);
    }
  }, description.testSupport?.dropNamespace ? false : 'the adapter offers no testSupport.dropNamespace');

  add('imports batches, builds indexes and counts', async ({ options }) => {
    await withAdapter(description, options, async (adapter) => {
      await importFixture(adapter);
      assert.deepEqual(await adapter.counts(), { profiles: PROFILES.length, relations: RELATIONS.length });
      await adapter.warmup();
    });
  }, imports ? false : noImport);

  addFor('singleRead', 'singleRead returns each document exactly, and null for a missing key', async ({ options }) => {
    await withAdapter(description, options, async (adapter) => {
      for (const doc of PROFILES) assertNoDifference(documentDifference(doc, await adapter.singleRead(doc._key)), doc._key);
      assert.equal(await adapter.singleRead('P999999'), null);
    });
  });

  addFor('singleRead', 'serves concurrent operations up to the run concurrency', async ({ options }) => {
    await withAdapter(description, options, async (adapter) => {
      const keys = Array.from({ length: options.concurrency * 2 }, (_, i) => PROFILES[i % PROFILES.length]._key);
      const answers = await Promise.all(keys.map((key) => adapter.singleRead(key)));
      answers.forEach((doc, i) => assertNoDifference(documentDifference(byKey.get(keys[i]), doc), keys[i]));
    });
  });

  // `execution` is what the results say of the driver ('serial driver: one operation at a time'). Overlap is
  // witnessed when an operation started after another finishes before it: a slow operation (the longest shortest
  // path) is started, then quick ones (reads) at once; one of them overtaking it proves that the database worked on
  // both at the same time. A synchronous driver, or one connection that queues every query, never overtakes.
  add('the declared execution model matches the overlap observed', async ({ options }) => {
    const collection = 'conformance_execution';
    const fastCount = Math.max(1, Math.min(options.concurrency - 1, EXECUTION_FAST_OPERATIONS));
    // A driver whose calls block the process (pg-native) runs one operation at a time in it; the harness gives each
    // operation in flight a process of its own (adapters/README.md, "Concurrency").
    const execution = (description.blockingDrivers ?? []).includes(options.driver) ? 'serial' : description.execution;
    const rounds = execution === 'parallel' ? PARALLEL_ROUNDS : SERIAL_ROUNDS;
    await withAdapter(description, options, async (adapter) => {
      let slow;
      let fast;
      if (supports('singleRead')) {
        const [longest] = ['shortestPath', 'neighbors2data', 'aggregation', 'singleRead'].filter(supports);
        const [from, to, maxDepth] = PATHS[2];
        slow = [longest, {
          shortestPath: () => adapter.shortestPath(from, to, maxDepth),
          neighbors2data: () => adapter.neighbors2data(from),
          aggregation: () => adapter.aggregation(),
          singleRead: () => adapter.singleRead(from),
        }[longest]];
        fast = ['singleRead', (i) => adapter.singleRead(PROFILES[i % PROFILES.length]._key)];
      } else {
        await adapter.createTempCollection(collection);
        for (let i = 0; i < EXECUTION_DOCUMENTS; i += 1) {
          await adapter.insertDocument(collection, { _key: `C${i}`, text: 'ľudová hudba '.repeat(8), n: i }, { durable: false });
        }
        slow = ['readCollection', () => adapter.readCollection(collection)];
        fast = ['getDocument', (i) => adapter.getDocument(collection, `C${i}`)];
      }
      let overtaken = null;
      for (let round = 0; round < rounds && !overtaken; round += 1) {
        const finished = [];
        const started = [slow[1](), ...Array.from({ length: fastCount }, (_, i) => fast[1](i))];
        await Promise.all(started.map((promise, i) => promise.then(() => finished.push(i))));
        const first = finished.findIndex((index, position) => index !== position);
        if (first !== -1) overtaken = { later: finished[first], earlier: first };
      }
      if (!supports('singleRead')) await adapter.dropTempCollection(collection);
      const name = (index) => (index === 0 ? slow[0] : `${fast[0]} #${index}`);
      const mix = `a ${slow[0]} then ${fastCount} x ${fast[0]}, started together`;
      if (execution === 'parallel') {
        assert.ok(overtaken, `execution: 'parallel' is declared, but the operations never overlapped: in ${rounds} rounds of `
          + `${mix}, each finished after every one started before it, one at a time. Declare execution: 'serial', or give each `
          + 'operation a connection of its own (a pool of options.concurrency connections)');
      } else {
        assert.equal(overtaken, null, overtaken && `execution: 'serial' is declared, but the operations overlapped: of ${mix}, `
          + `${name(overtaken.later)} finished before ${name(overtaken.earlier)}, started before it. Declare execution: 'parallel'`);
      }
    });
  }, supports('singleRead') || supports('insertDocument') ? false : 'neither singleRead nor insertDocument is supported');

  // multiProcess (true unless declared false) lets `bench run --clients <n>` run the operations in n processes of
  // their own while this one does the setup and the checks: another process must see this one's namespace and
  // data, and this one what that process writes.
  add('another process shares the database, as multiProcess declares', async ({ options }) => {
    const collection = 'conformance_process';
    const write = supports('singleWrite') ? 'singleWrite' : supports('insertDocument') ? 'insertDocument' : null;
    await withAdapter(description, options, async (adapter) => {
      const { marker } = await adapter.inspectNamespace();
      await adapter.createTempCollection(collection);
      try {
        const seen = await inOtherProcess({ id: description.id, options, collection, write, imports,
          read: supports('singleRead') ? PROFILES[0]._key : null });
        const problem = `multiProcess is declared ${description.multiProcess === undefined ? '(true by default) ' : ''}`
          + 'but another process';
        assert.deepEqual(seen.namespace, { state: 'owned', marker }, `${problem} does not see this process's namespace`);
        assert.equal(seen.error, undefined, `${problem} failed on it: ${seen.error}`);
        if (imports) {
          assert.deepEqual(seen.counts, { profiles: PROFILES.length, relations: RELATIONS.length }, `${problem} does not `
            + 'see its profiles and relations');
        }
        if (seen.read !== undefined) assertNoDifference(documentDifference(PROFILES[0], seen.read), `${problem} reads`);
        if (write) {
          assert.equal(await adapter.countDocuments(collection), 1, `${problem} wrote a document this process does not see`);
        }
      } finally {
        await adapter.dropTempCollection(collection);
      }
    });
  }, description.multiProcess === false ? 'multiProcess: false is declared' : false);

  addFor('aggregation', 'aggregation counts profiles per AGE, those without one under "null"', async ({ options }) => {
    await withAdapter(description, options, async (adapter) => {
      assertNoDifference(histogramDifference(AGE_HISTOGRAM, await adapter.aggregation()),
        'histogram (a profile without AGE counts under "null")');
    });
  });

  for (const [operation, reference] of [['neighbors', NEIGHBORS], ['neighbors2', NEIGHBORS2]]) {
    addFor(operation, `${operation} returns the distinct keys`, async ({ options }) => {
      await withAdapter(description, options, async (adapter) => {
        for (const [key, expected] of Object.entries(reference)) {
          assertNoDifference(keySetDifference(expected, await adapter[operation](key)), `${operation}(${key})`);
        }
      });
    });
    const dataOperation = operation === 'neighbors' ? 'neighborsData' : 'neighbors2data';
    addFor(dataOperation, `${dataOperation} returns the same set as whole documents`, async ({ options }) => {
      await withAdapter(description, options, async (adapter) => {
        for (const [key, expected] of Object.entries(reference)) {
          const documents = await adapter[dataOperation](key);
          assert.ok(Array.isArray(documents), `${dataOperation}(${key}) is an array`);
          assertNoDifference(keySetDifference(expected, documents.map((doc) => doc?._key)), `${dataOperation}(${key})`);
          for (const doc of documents) assertNoDifference(documentDifference(byKey.get(doc._key), doc), doc._key);
        }
      });
    });
  }

  addFor('shortestPath', 'shortestPath is minimal, follows relations, honours maxDepth, or is null', async ({ options }) => {
    await withAdapter(description, options, async (adapter) => {
      for (const [from, to, maxDepth, hops] of PATHS) {
        const path = await adapter.shortestPath(from, to, maxDepth);
        const call = `shortestPath(${from}, ${to}, ${maxDepth})`;
        if (hops === null) {
          assert.equal(path, null, `${call} is null`);
          continue;
        }
        assert.ok(Array.isArray(path), `${call} is an array`);
        assert.equal(path.length - 1, hops, `${call} has ${hops} hops: ${JSON.stringify(path)}`);
        assert.equal(path[0], from);
        assert.equal(path.at(-1), to);
        for (let i = 1; i < path.length; i += 1) {
          assert.ok(edges.has(`${path[i - 1]} ${path[i]}`), `${call}: ${path[i - 1]} -> ${path[i]} is a relation`);
        }
      }
    });
  });

  for (const write of ['singleWrite', 'singleWriteSync']) {
    addFor(write, `${write} stores documents in a temporary collection`, async ({ options }) => {
      await withAdapter(description, options, async (adapter) => {
        const collection = `conformance_${write}`;
        await adapter.createTempCollection(collection);
        const documents = PROFILES.map((doc, i) => ({ ...doc, _key: `W${i + 1}` }));
        await Promise.all(documents.map((doc) => adapter[write](collection, doc)));
        assert.equal(await adapter.countDocuments(collection), documents.length);
        for (const doc of documents) {
          assertNoDifference(documentDifference(doc, await adapter.readDocument(collection, doc._key)), doc._key);
        }
        assert.equal(await adapter.readDocument(collection, 'W999'), null);
        await adapter.createTempCollection(collection);
        assert.equal(await adapter.countDocuments(collection), 0, 'createTempCollection starts empty');
        await adapter.dropTempCollection(collection);
        assert.deepEqual(await adapter.counts(), { profiles: PROFILES.length, relations: RELATIONS.length },
          'the temporary collection did not touch the dataset');
      });
    });
  }

  addFor('singleWrite', 'readCollection returns exactly the documents of its temporary collection', async ({ options }) => {
    await withAdapter(description, options, async (adapter) => {
      const [collection, other] = ['conformance_readCollection', 'conformance_readCollection_other'];
      await adapter.createTempCollection(collection);
      await adapter.createTempCollection(other);
      try {
        assert.deepEqual(await adapter.readCollection(collection), [], 'an empty collection reads as []');
        // The fixture's profiles (absent fields, diacritics, symbols) and one document with every field.
        const documents = [...PROFILES, FULL_DOCUMENT].map((doc, i) => ({ ...doc, _key: `W${i + 1}` }));
        await Promise.all(documents.map((doc) => adapter.singleWrite(collection, doc)));
        await adapter.singleWrite(other, { ...PROFILES[0], _key: 'X1' });
        const answer = await adapter.readCollection(collection);
        assert.ok(Array.isArray(answer), 'readCollection resolves an array');
        assert.equal(answer.length, documents.length, 'every document once, no other');
        const byKey = new Map(answer.map((doc) => [doc?._key, doc]));
        assert.equal(byKey.size, documents.length, 'no key twice');
        for (const doc of documents) assertNoDifference(documentDifference(doc, byKey.get(doc._key)), doc._key);
      } finally {
        await adapter.dropTempCollection(collection);
        await adapter.dropTempCollection(other);
      }
    });
  });

  // The crud suite's document operations, each case skipped unless the operations it calls are supported.
  cases.push(...crudCases(description, { withAdapter, assertNoDifference }));

  // The queries suite's collection and cases, skipped unless some case is supported.
  cases.push(...queryCases(description, { withAdapter }));

  // The graph suite's edge collection and operations, skipped unless some graph operation is supported.
  cases.push(...graphCases(description, { withAdapter }));

  // A stall or Ctrl-C closes the adapter while operations run; with an asynchronous native driver, freeing the
  // database under a running statement is how a process crashes. Closed at once, and after the first answer. The
  // operations are quick: each of them finishes, with its answer, before close() resolves. One still pending then
  // may never settle (nothing keeps the process alive for it); one cut off with a connection error is a close()
  // that did not wait.
  add('close() while operations run: each ends with its answer before close() resolves, the data stays intact', async ({ options }) => {
    const collection = 'conformance_close';
    for (const moment of ['at once', 'after the first answer']) {
      const adapter = description.create(options);
      await adapter.connect();
      if (supports('singleWrite') || supports('insertDocument')) await adapter.createTempCollection(collection);
      const operations = startLoad(adapter, supports, collection, options.concurrency * 4);
      for (const operation of operations) {
        operation.promise.then(
          (answer) => { operation.outcome = { status: 'fulfilled', answer }; },
          (reason) => { operation.outcome = { status: 'rejected', reason }; },
        );
      }
      if (moment !== 'at once') await Promise.race(operations.map(({ promise }) => promise.catch(() => {})));
      await within(adapter.close(), CLOSE_BOUND_MS, `close() (closed ${moment})`);
      const pending = operations.filter(({ outcome }) => outcome === undefined);
      if (pending.length > 0) {
        // Told apart from a promise that never settles: one that settles soon after is a close() that did not wait.
        await delay(SETTLE_GRACE_MS);
        const never = pending.filter(({ outcome }) => outcome === undefined).length;
        assert.fail(`close() (closed ${moment}) resolved before ${pending.length} of the ${operations.length} `
          + `operations started before it had settled (${tally(pending)}); ${never} of them were still pending `
          + `${SETTLE_GRACE_MS} ms later: close() must wait for the operations in flight`);
      }
      const rejected = operations.filter(({ outcome }) => outcome.status === 'rejected');
      if (rejected.length > 0) {
        const { reason } = rejected[0].outcome;
        assert.fail(`close() (closed ${moment}) cut off ${rejected.length} of the ${operations.length} operations in `
          + `flight (${tally(rejected)}) instead of letting them finish; ${rejected[0].operation} rejected with `
          + `${reason instanceof Error ? reason.message : `a non-Error: ${reason}`}`);
      }
      for (const { operation, check, outcome } of operations) {
        const problem = check(outcome.answer);
        assert.equal(problem, null, `${operation}, closed ${moment}: a wrong answer: ${problem}`);
      }
    }
    await withAdapter(description, options, async (adapter) => {
      if (supports('singleWrite') || supports('insertDocument')) await adapter.dropTempCollection(collection);
      if (imports) assert.deepEqual(await adapter.counts(), { profiles: PROFILES.length, relations: RELATIONS.length });
    });
  }, supports('singleRead') || supports('insertDocument') ? false : 'neither singleRead nor insertDocument is supported');

  return cases;
}
