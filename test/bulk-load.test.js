// The life of a streamed import phase (adapters/bulk-load.js), with recording streams in place of a server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BulkLoad, split } from '../adapters/bulk-load.js';

function recorder() {
  const events = [];
  let opened = 0;
  const open = (table, { failEnd = -1, failOpen = -1 } = {}) => async () => {
    const id = opened;
    opened += 1;
    if (id === failOpen) throw new Error(`open ${id} failed`);
    events.push(['open', table, id]);
    return {
      write: async (part) => events.push(['write', table, id, part]),
      end: async () => {
        if (id === failEnd) throw new Error(`end ${id} failed`);
        events.push(['end', table, id]);
      },
      abort: () => events.push(['abort', table, id]),
    };
  };
  const load = new BulkLoad({ streams: 2, failed: (table, error) => new Error(`${table}: ${error.message}`) });
  return { events, open, load };
}

test('split gives at most `parts` consecutive slices, none empty', () => {
  assert.deepEqual(split([1, 2, 3, 4, 5], 2), [[1, 2, 3], [4, 5]]);
  assert.deepEqual(split([1], 2), [[1]]);
  assert.deepEqual(split([], 2), []);
});

test('a phase opens its streams once, and the next table ends it first', async () => {
  const { events, open, load } = recorder();
  await load.write('p', ['a', 'b'], open('p'));
  await load.write('p', ['c'], open('p'));
  await load.write('r', ['d', 'e'], open('r'));
  await load.finish();
  await load.finish();
  assert.deepEqual(events, [
    ['open', 'p', 0], ['open', 'p', 1], ['write', 'p', 0, 'a'], ['write', 'p', 1, 'b'], ['write', 'p', 0, 'c'],
    ['end', 'p', 0], ['end', 'p', 1],
    ['open', 'r', 2], ['open', 'r', 3], ['write', 'r', 2, 'd'], ['write', 'r', 3, 'e'],
    ['end', 'r', 2], ['end', 'r', 3],
  ]);
});

test('a stream that fails to end fails the phase, after every stream was ended', async () => {
  const { events, open, load } = recorder();
  await load.write('p', ['a', 'b'], open('p', { failEnd: 0 }));
  await assert.rejects(load.finish(), /^Error: p: end 0 failed$/);
  assert.deepEqual(events.at(-1), ['end', 'p', 1]);
  await load.finish();
});

test('a stream that fails to open gives up the others, and abort() gives up a phase', async () => {
  const { events, open, load } = recorder();
  await assert.rejects(load.write('p', ['a'], open('p', { failOpen: 1 })), /open 1 failed/);
  assert.deepEqual(events, [['open', 'p', 0], ['abort', 'p', 0]]);
  await load.write('r', ['b'], open('r'));
  load.abort();
  assert.deepEqual(events.slice(-2), [['abort', 'r', 2], ['abort', 'r', 3]]);
  await load.finish();
});

test('a phase written alongside keeps the others open; finish(table) ends only that one', async () => {
  const { events, open, load } = recorder();
  await load.write('p', ['a'], open('p'), { alongside: true });
  await load.write('r', ['b'], open('r'), { alongside: true });
  await load.write('p', ['c'], open('p'), { alongside: true });
  await load.finish('p');
  assert.deepEqual(events, [
    ['open', 'p', 0], ['open', 'p', 1], ['write', 'p', 0, 'a'],
    ['open', 'r', 2], ['open', 'r', 3], ['write', 'r', 2, 'b'],
    ['write', 'p', 0, 'c'],
    ['end', 'p', 0], ['end', 'p', 1],
  ]);
  await load.finish('p');
  await load.write('r', ['d'], open('r'), { alongside: true });
  assert.deepEqual(events.at(-1), ['write', 'r', 2, 'd'], 'the relations phase is the one opened before');
  // A table written without `alongside` ends every other phase first.
  await load.write('x', ['e'], open('x'));
  assert.deepEqual(events.slice(-6), [
    ['write', 'r', 2, 'd'], ['end', 'r', 2], ['end', 'r', 3], ['open', 'x', 4], ['open', 'x', 5], ['write', 'x', 4, 'e'],
  ]);
});

test('two phases under way: finish() ends both, and a failure of either fails it', async () => {
  const { events, open, load } = recorder();
  await load.write('p', ['a'], open('p', { failEnd: 1 }), { alongside: true });
  await load.write('r', ['b'], open('r'), { alongside: true });
  await assert.rejects(load.finish(), /^Error: p: end 1 failed$/);
  assert.deepEqual(events.filter(([kind]) => kind === 'end'), [['end', 'p', 0], ['end', 'r', 2], ['end', 'r', 3]]);
  await load.finish();
  await load.write('q', ['c'], open('q'), { alongside: true });
  await load.write('s', ['d'], open('s'), { alongside: true });
  load.abort();
  assert.deepEqual(events.filter(([kind]) => kind === 'abort'), [['abort', 'q', 4], ['abort', 'q', 5], ['abort', 's', 6], ['abort', 's', 7]]);
  await load.finish();
});
