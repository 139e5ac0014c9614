// The bound on the untimed work after the clock (runner/answering.js): it gives up only while calls to the database
// wait unanswered, through the adapter's methods and its graph operations alike.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { answering } from '../runner/answering.js';

class Store {
  #rows = 3;
  async count() { return this.#rows; }
  never() { return new Promise(() => {}); }
}

test('work that waits on no call is never cut off; a call that never answers is, after the bound', { timeout: 30_000 }, async () => {
  const store = new Store();
  store.graph = { scan: () => new Promise(() => {}), count: async () => 7 };
  const watched = answering(store, 1000);
  assert.equal(await watched.guard((async () => { await sleep(2500); return watched.adapter.count(); })(), 'computing'), 3,
    'private fields reachable, and 2.5 s of work with nothing waiting is not a stall');
  assert.equal(await watched.guard(watched.adapter.graph.count(), 'counting'), 7);
  for (const [what, call] of [['reading', () => watched.adapter.never()], ['scanning', () => watched.adapter.graph.scan()]]) {
    const begin = performance.now();
    await assert.rejects(watched.guard(call(), what), (error) => error.code === 'E_TIMEOUT'
      && new RegExp(`^${what}: the database answered nothing for [12] s \\(\\d+ requests? waiting; --stall-timeout 1 s\\)`).test(error.message));
    assert.ok(performance.now() - begin < 5000);
  }
});
