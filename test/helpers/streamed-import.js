// The tests of an adapter whose import streams each phase through bulk statements kept open across batches
// (PostgreSQL's COPY, MySQL's LOAD DATA LOCAL INFILE), registered in the calling describe(). `open(concurrency)`
// connects an adapter to a fresh test namespace (the caller's afterEach closes it and drops the namespace);
// `loading()` lists the server's sessions running such a statement in that namespace; `profileCount()` counts
// the profiles another session sees. `streams`: how many statements a phase of the namespace's profiles or
// relations runs at --concurrency 4 (one for MySQL's InnoDB bulk insert).
import assert from 'node:assert/strict';
import { test } from 'node:test';

export const profiles = (from, to) => Array.from({ length: to - from }, (_, i) => ({ _key: `P${from + i}`, AGE: i % 7 }));

// The server's own view of its sessions can lag the client by a moment (MariaDB's PROCESSLIST still lists a
// LOAD DATA whose OK packet has arrived): what a finished statement leaves is read again for up to 5 s.
// The same lag the other way: a statement the client has begun may not be listed yet. Waits up to 5 s for
// `count` sessions (0: for none) and returns what the server lists then.
async function settledLoading(loading, count = 0) {
  for (let i = 0; i < 50 && (await loading()).length !== count; i += 1) {
    await new Promise((resolve) => { setTimeout(resolve, 100); });
  }
  return loading();
}

export function streamedImportTests({ open, loading, profileCount, streams = 2 }) {
  test(`the batches of a phase go through ${streams === 1 ? 'one statement that stays' : `${streams} statements that stay`} open until the flush`, async () => {
    const db = await open(4);
    await db.resetNamespace();
    await db.importProfiles(profiles(1, 1001));
    const first = await settledLoading(loading, streams);
    assert.equal(first.length, streams, 'the streams');
    await db.importProfiles(profiles(1001, 2001));
    assert.deepEqual(await loading(), first, 'the same sessions take the next batch');
    assert.equal(await profileCount(), 0, 'nothing is visible before the flush');
    await db.flushProfiles();
    assert.deepEqual(await settledLoading(loading), []);
    assert.equal(await profileCount(), 2000);

    await db.importRelations([{ _from: 'P1', _to: 'P2' }, { _from: 'P2', _to: 'P1' }, { _from: 'P3', _to: 'P1' }]);
    assert.equal((await settledLoading(loading, streams)).length, streams);
    await db.flushRelations();
    assert.deepEqual(await db.counts(), { profiles: 2000, relations: 3 });
  });

  test('with --concurrency 1 the import uses one stream', async () => {
    const db = await open(1);
    await db.resetNamespace();
    await db.importProfiles(profiles(1, 11));
    assert.equal((await settledLoading(loading, 1)).length, 1);
    await db.flushProfiles();
    assert.deepEqual(await db.counts(), { profiles: 10, relations: 0 });
  });

  test('the relations batch ends the profiles phase, and any other call ends an open one', async () => {
    const db = await open(4);
    await db.resetNamespace();
    await db.importProfiles(profiles(1, 5));
    await db.importRelations([{ _from: 'P1', _to: 'P2' }]);
    assert.equal(await profileCount(), 4, 'the profiles were committed when the relations began');
    assert.deepEqual(await db.counts(), { profiles: 4, relations: 1 });
    assert.deepEqual(await settledLoading(loading), []);
  });

  test('close() rolls back a phase that was never flushed, without waiting for it', async () => {
    const db = await open(4);
    await db.resetNamespace();
    await db.importProfiles(profiles(1, 101));
    assert.equal((await settledLoading(loading, streams)).length, streams);
    await db.close();
    assert.deepEqual(await settledLoading(loading), []);
    assert.equal(await profileCount(), 0);
  });
}
