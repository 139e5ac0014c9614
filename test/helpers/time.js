import { setTimeout as sleep } from 'node:timers/promises';

// Resolves once `ms` have passed by performance.now(), the clock the harness times with. A timer alone may fire a
// little early by that clock, so a stand-in that must last `ms` sleeps again for whatever is left.
export async function sleepAtLeast(ms) {
  const begin = performance.now();
  for (let left = ms; left > 0; left = ms - (performance.now() - begin)) await sleep(left);
}
