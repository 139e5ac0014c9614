// The untimed work around a step (its setup, its check, its teardown and the restore of what it wrote) talks to the
// database too, and a database that stops answering there would hold the run for ever: the timed loop's stall bound
// does not reach it. `answering(adapter, stallMs)` gives the adapter as that work sees it, with every call of its
// methods (and of its `graph` operations) counted while it waits, and `guard(promise, what)`, which rejects with
// E_TIMEOUT once calls wait and none has been answered for `stallMs`, naming what it was doing. Work that computes
// without calling the database (a check over answers already read) is never cut off.
import { performance } from 'node:perf_hooks';
import { BenchError, ErrorCodes } from '../core/errors.js';

const WATCH_INTERVAL_MS = 1000;

export function answering(adapter, stallMs) {
  let waiting = 0;
  let lastAnswerAt = performance.now();
  const track = (value) => {
    if (typeof value?.then !== 'function') return value;
    waiting += 1;
    const answered = () => {
      waiting -= 1;
      lastAnswerAt = performance.now();
    };
    value.then(answered, answered);
    return value;
  };
  // Methods run on the object itself (private fields stay reachable); `graph` is watched the same way.
  const watch = (target) => new Proxy(target, {
    get(object, name) {
      const value = Reflect.get(object, name, object);
      if (typeof value === 'function') return (...args) => track(value.apply(object, args));
      if (name === 'graph' && value && typeof value === 'object') return watch(value);
      return value;
    },
  });

  return {
    adapter: watch(adapter),
    async guard(promise, what) {
      lastAnswerAt = performance.now();
      let timer;
      const stalled = new Promise((resolve, reject) => {
        timer = setInterval(() => {
          const silentMs = performance.now() - lastAnswerAt;
          if (waiting > 0 && silentMs > stallMs) {
            reject(new BenchError(ErrorCodes.TIMEOUT, `${what}: the database answered nothing for ${Math.round(silentMs / 1000)} s `
              + `(${waiting} request${waiting === 1 ? '' : 's'} waiting; --stall-timeout ${Math.round(stallMs / 1000)} s); is the server still up?`));
          }
        }, WATCH_INTERVAL_MS);
      });
      try {
        return await Promise.race([promise, stalled]);
      } finally {
        clearInterval(timer);
      }
    },
  };
}
