// The operations an adapter has in flight, so that close() can let them finish: every operation started before
// close() ends with its answer before close() resolves (adapters/README.md, Lifecycle). A driver's own close or
// end does not promise that: MySQL's resolves before the queries it still runs answer, Neo4j's drops them.
// close() waits at most CLOSE_WAIT_MS, then interrupts what still runs (a stalled operation) as it did before,
// so that it resolves within the harness's 15 s.
import { setTimeout as delay } from 'node:timers/promises';

export const CLOSE_WAIT_MS = 10_000;

// The methods the workloads and the checks call on an adapter between connect() and close().
export const OPERATION_METHODS = ['singleRead', 'singleWrite', 'singleWriteSync', 'aggregation', 'neighbors',
  'neighborsData', 'neighbors2', 'neighbors2data', 'shortestPath', 'insertDocument', 'getDocument', 'updateDocument',
  'deleteDocument', 'query', 'countDocuments', 'readDocument', 'readCollection'];

export class InFlight {
  #running = new Set();

  // Replaces each of `names` that `target` has as a method by one that counts its calls in flight; with no
  // names, every method `target` has of its own (an object of operations, such as an adapter's `graph`).
  wrap(target, names = Object.keys(target)) {
    for (const name of names) {
      const method = target[name];
      if (typeof method !== 'function') continue;
      target[name] = (...args) => this.track(method.apply(target, args));
    }
    return target;
  }

  track(promise) {
    if (typeof promise?.then !== 'function') return promise;
    this.#running.add(promise);
    const done = () => this.#running.delete(promise);
    promise.then(done, done);
    return promise;
  }

  // Resolves true once nothing is in flight, false when something still runs after `ms`.
  async settled(ms = CLOSE_WAIT_MS) {
    const controller = new AbortController();
    const timeout = delay(ms, false, { signal: controller.signal }).catch(() => false);
    try {
      while (this.#running.size > 0) {
        const all = Promise.allSettled([...this.#running]).then(() => true);
        if (!await Promise.race([all, timeout])) return false;
      }
      return true;
    } finally {
      controller.abort();
    }
  }
}
