// Dataset sizes and how many query parameters each workload draws at each size. `full` is the real Pokec size.
import { usageError } from '../core/errors.js';

export const SCALES = Object.freeze({
  tiny: Object.freeze({
    profiles: 1000, reads: 500, warmups: 100, writes: 500, writesSync: 100,
    neighborStarts: 100, neighbors2dataStarts: 20, pathPairs: 50,
  }),
  small: Object.freeze({
    profiles: 10000, reads: 9000, warmups: 1000, writes: 10000, writesSync: 1000,
    neighborStarts: 1000, neighbors2dataStarts: 100, pathPairs: 1000,
  }),
  medium: Object.freeze({
    profiles: 100000, reads: 20000, warmups: 1000, writes: 20000, writesSync: 1000,
    neighborStarts: 1000, neighbors2dataStarts: 100, pathPairs: 1000,
  }),
  full: Object.freeze({
    profiles: 1632803, reads: 100000, warmups: 1000, writes: 100000, writesSync: 100000,
    neighborStarts: 1000, neighbors2dataStarts: 100, pathPairs: 1000,
  }),
});

export const MAX_PATH_DEPTH = 15;
export const DEFAULT_SEED = 1;

export function scaleSizes(scale) {
  if (!Object.hasOwn(SCALES, scale)) {
    throw usageError(`unknown scale "${scale}"; valid scales: ${Object.keys(SCALES).join(', ')}`);
  }
  return SCALES[scale];
}
