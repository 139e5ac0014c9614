// A seeded PRNG (sfc32, state filled by splitmix32) so that a seed names the same dataset on every machine
// and Node version; Math.random cannot be seeded.
import { usageError } from '../core/errors.js';

const TWO_POW_32 = 2 ** 32;
// sfc32's authors discard the first outputs so that similar seeds do not start with similar numbers.
const WARM_UP_ROUNDS = 12;

function splitmix32(seed) {
  let state = seed | 0;
  return () => {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

// `stream` selects one of several independent sequences of the same seed (profiles, relations, parameters),
// so that changing how one consumer draws numbers leaves the others' numbers as they were.
export function createRandom(seed, stream = 0) {
  if (!Number.isSafeInteger(seed) || seed < 0) throw usageError(`a seed must be a non-negative integer, got ${seed}`);
  // Both 32-bit halves of the seed take part.
  const seedMix = splitmix32(seed ^ Math.imul(Math.floor(seed / TWO_POW_32), 0x27d4eb2f));
  const streamMix = splitmix32(~stream);
  let a = seedMix() ^ streamMix();
  let b = seedMix() ^ streamMix();
  let c = seedMix() ^ streamMix();
  let d = seedMix() ^ streamMix();

  function uint32() {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  }
  for (let i = 0; i < WARM_UP_ROUNDS; i += 1) uint32();

  const next = () => uint32() / TWO_POW_32;
  const int = (n) => Math.floor(next() * n);
  return {
    uint32,
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => items[int(items.length)],
  };
}
