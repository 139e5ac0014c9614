// The tests of an adapter whose import streams each phase through bulk statements kept open across batches
// (PostgreSQL's COPY, MySQL's LOAD DATA LOCAL INFILE), registered in the calling describe(). `open(concurrency)`
// connects an adapter to a fresh test namespace (the caller's afterEach closes it and drops the namespace).
// The observer, `watch`, looks at the server from a session of its own:
// - `loading()`: the server's sessions running such a statement in that namespace;
// - `waiting()`: those of them that have stored rows and wait for the client's next ones;
// - `profileCount()`: the profiles another session sees;
// - `sessions()`: the server's whole process list, as text, from a new connection;
// - `abandon()`: destroys the observing connection's socket (a statement of it that never ends must not keep the
//   test or its process alive) and opens another one.
// `streams`: how many statements a phase of the namespace's profiles or relations runs at --concurrency 4 (one
// for MySQL's InnoDB bulk insert).
//
// Why the observer waits for `waiting()` before it counts, and why every observation has a deadline: a CI run
// on a loaded machine hung for good in "nothing is visible before the flush" (issue 28). MariaDB 10.11.19 listed
// the adapter's LOAD DATA in state "Reading file" and the test's COUNT(*) in "Sending data", both for 600+ s,
// no CPU, both transactions RUNNING, no row lock, KILL QUERY without effect. A LOAD DATA that waits on its
// client is listed as "Reading from net" and ends after net_read_timeout, so this one was inside the server.
// Reproduced here beside stress-ng (CPU and disk): in the 6th run of this file, and at once by a loop that
// counts while a LOAD DATA with unique_checks=0 starts on an empty table (none in 300 with unique_checks=1).
// The server's stacks then: the LOAD DATA in ha_write_row, the COUNT in ha_index_first, both parked on an
// InnoDB latch (futex) and no other thread busy; the COUNT on a latch in the buffer pool (the root page, which
// the insert holds exclusively), the LOAD DATA waiting for the one shared holder of a latch outside it (the
// index's lock, which the COUNT took to open its cursor). INNODB_TRX showed the load at its first row
// (trx_rows_modified 0, "inserting") and the COUNT at "starting index read". That is a latch deadlock in
// InnoDB's bulk insert into an empty table, met only by a reader that opens the table while the first row goes
// in: under load the server reaches that row long after the client sent it, so listing the LOAD DATA did not
// mean it had begun. Nothing ends it: KILL does not reach a latch wait, and stopping the server took SIGKILL.
// So a count happens only once every load has stored rows and waits for more (a stronger check too: the rows
// are in the server, and still invisible), and whatever the server does, an observation that takes too long
// fails the test with the server's process list instead of hanging it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

export const profiles = (from, to) => Array.from({ length: to - from }, (_, i) => ({ _key: `P${from + i}`, AGE: i % 7 }));

// One observation of the server; the database's own bound (max_statement_time, statement_timeout) comes first.
export const OBSERVE_MS = 20_000;
// A test: a few observations that may each wait for the server's view to settle, and the adapter's calls.
export const TEST_MS = 120_000;
const POLL_MS = 100;
// How long the server's view may take to settle: it can lag the client (below) by seconds on a loaded machine.
const SETTLE_MS = 15_000;

// `fn()`, or an error naming `what` and listing the server's sessions if it takes longer than OBSERVE_MS. The
// observing connection is then given up, so the statement still running on the server cannot hold the test.
const LATE = Symbol('late');
// Why the server stopped answering, once it has: the tests after that fail at once (below).
let unanswered = null;

// For every test of the file that uses the server: a server that stopped answering an observation may hold
// any later statement for good (a statement of the adapter has no deadline of its own).
export function assertServerAnswers() {
  if (unanswered) throw new Error(`not run: the server stopped answering in an earlier test (${unanswered})`);
}

async function observe(watch, what, fn) {
  let timer;
  try {
    const result = await Promise.race([fn(), new Promise((resolve) => { timer = setTimeout(resolve, OBSERVE_MS, LATE); })]);
    if (result !== LATE) return result;
  } finally {
    clearTimeout(timer);
  }
  await watch.abandon();
  const sessions = await Promise.race([
    watch.sessions().catch((error) => `(cannot list them: ${error.message})`),
    new Promise((resolve) => { setTimeout(resolve, OBSERVE_MS, '(no answer)'); }),
  ]);
  unanswered = `${what} had no answer within ${OBSERVE_MS} ms`;
  throw new Error(`${unanswered}; the server's sessions then:\n${sessions}`);
}

// The server's own view of its sessions can lag the client by a moment (MariaDB's PROCESSLIST still lists a
// LOAD DATA whose OK packet has arrived): what a finished statement leaves is read again for a while. The
// same lag the other way: a statement the client has begun may not be listed yet. Waits for `count` sessions
// of `list` (0: for none) and returns what the server lists then.
async function settled(watch, list, count = 0) {
  const deadline = performance.now() + SETTLE_MS;
  let sessions = await observe(watch, 'listing the loads', list);
  while (sessions.length !== count && performance.now() < deadline) {
    await new Promise((resolve) => { setTimeout(resolve, POLL_MS); });
    sessions = await observe(watch, 'listing the loads', list);
  }
  return sessions;
}

export function streamedImportTests({ open, watch, streams = 2 }) {
  const loading = () => observe(watch, 'listing the loads', watch.loading);
  const profileCount = () => observe(watch, 'counting the profiles', watch.profileCount);

  test(`the batches of a phase go through ${streams === 1 ? 'one statement that stays' : `${streams} statements that stay`} open until the flush`, { timeout: TEST_MS }, async () => {
    assertServerAnswers();
    const db = await open(4);
    await db.resetNamespace();
    await db.importProfiles(profiles(1, 1001));
    const first = await settled(watch, watch.loading, streams);
    assert.equal(first.length, streams, 'the streams');
    await db.importProfiles(profiles(1001, 2001));
    assert.deepEqual(await loading(), first, 'the same sessions take the next batch');
    assert.deepEqual(await settled(watch, watch.waiting, streams), first, 'every stream stored rows and waits for more');
    assert.equal(await profileCount(), 0, 'nothing is visible before the flush');
    await db.flushProfiles();
    assert.deepEqual(await settled(watch, watch.loading), []);
    assert.equal(await profileCount(), 2000);

    await db.importRelations([{ _from: 'P1', _to: 'P2' }, { _from: 'P2', _to: 'P1' }, { _from: 'P3', _to: 'P1' }]);
    assert.equal((await settled(watch, watch.loading, streams)).length, streams);
    await db.flushRelations();
    assert.deepEqual(await db.counts(), { profiles: 2000, relations: 3 });
  });

  test('with --concurrency 1 the import uses one stream', { timeout: TEST_MS }, async () => {
    assertServerAnswers();
    const db = await open(1);
    await db.resetNamespace();
    await db.importProfiles(profiles(1, 11));
    assert.equal((await settled(watch, watch.loading, 1)).length, 1);
    await db.flushProfiles();
    assert.deepEqual(await db.counts(), { profiles: 10, relations: 0 });
  });

  test('the relations batch ends the profiles phase, and any other call ends an open one', { timeout: TEST_MS }, async () => {
    assertServerAnswers();
    const db = await open(4);
    await db.resetNamespace();
    await db.importProfiles(profiles(1, 5));
    await db.importRelations([{ _from: 'P1', _to: 'P2' }]);
    assert.equal(await profileCount(), 4, 'the profiles were committed when the relations began');
    assert.deepEqual(await db.counts(), { profiles: 4, relations: 1 });
    assert.deepEqual(await settled(watch, watch.loading), []);
  });

  test('close() rolls back a phase that was never flushed, without waiting for it', { timeout: TEST_MS }, async () => {
    assertServerAnswers();
    const db = await open(4);
    await db.resetNamespace();
    await db.importProfiles(profiles(1, 101));
    assert.equal((await settled(watch, watch.loading, streams)).length, streams);
    await db.close();
    assert.deepEqual(await settled(watch, watch.loading), []);
    assert.equal(await profileCount(), 0);
  });
}

// For the callers' hooks: `fn()` within `ms`, else an error naming `what`.
export async function within(ms, what, fn) {
  let timer;
  try {
    return await Promise.race([
      fn(),
      new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error(`${what} had no answer within ${ms} ms`)), ms); }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
