// The mixed suite's key choice: YCSB's three request distributions over key numbers 0..count-1, each drawn from
// a seeded generator so that a seed names the same operation stream everywhere.
//   uniform  - every key equally likely;
//   zipfian  - YCSB's scrambled zipfian with its constant 0.99: ranks drawn from a zipfian over 10^10 items,
//              hashed (FNV-1a 64) onto the keys, so the popular keys are scattered over the key space;
//   latest   - YCSB's skewed latest: a zipfian over recency, the newest key the most likely.
import { usageError } from '../../core/errors.js';

export const DISTRIBUTIONS = Object.freeze(['uniform', 'zipfian', 'latest']);
export const DEFAULT_DISTRIBUTION = 'zipfian';
export const ZIPFIAN_CONSTANT = 0.99;
// YCSB's ScrambledZipfianGenerator draws ranks among this many items; their zeta is YCSB's precomputed value.
const SCRAMBLED_ITEMS = 10_000_000_000;
const SCRAMBLED_ZETAN = 26.46902820178302;
const FNV_OFFSET_BASIS_64 = 0xcbf29ce484222325n;
const FNV_PRIME_64 = 1099511628211n;
// A draw beyond the keys that exist so far is drawn again (as YCSB does); this many in a row is a bug.
const MAX_DRAWS = 1_000_000;

function zeta(from, to, theta, initial) {
  let sum = initial;
  for (let i = from + 1; i <= to; i += 1) sum += 1 / i ** theta;
  return sum;
}

// YCSB's ZipfianGenerator (Gray et al., "Quickly generating billion-record synthetic databases"): rank 0 the most
// popular. The item count may change between draws; a grown one extends zeta instead of summing it again.
export function createZipfian(random, { items, theta = ZIPFIAN_CONSTANT, zetan = null }) {
  const alpha = 1 / (1 - theta);
  const zeta2 = zeta(0, 2, theta, 0);
  const half = 0.5 ** theta;
  let countForZeta = items;
  let zetaN = zetan ?? zeta(0, items, theta, 0);
  const etaOf = (n) => (1 - (2 / n) ** (1 - theta)) / (1 - zeta2 / zetaN);
  let eta = etaOf(items);

  return (n = countForZeta) => {
    if (n !== countForZeta) {
      zetaN = n > countForZeta ? zeta(countForZeta, n, theta, zetaN) : zeta(0, n, theta, 0);
      countForZeta = n;
      eta = etaOf(n);
    }
    const u = random.next();
    const uz = u * zetaN;
    if (uz < 1) return 0;
    if (uz < 1 + half) return 1;
    return Math.min(n - 1, Math.floor(n * (eta * u - eta + 1) ** alpha));
  };
}

// YCSB's Utils.fnvhash64: FNV-1a over the 8 bytes of a long, then its absolute value.
export function fnvHash64(value) {
  let rest = BigInt(value);
  let hash = FNV_OFFSET_BASIS_64;
  for (let i = 0; i < 8; i += 1) {
    hash ^= rest & 0xffn;
    rest >>= 8n;
    hash = BigInt.asUintN(64, hash * FNV_PRIME_64);
  }
  const signed = BigInt.asIntN(64, hash);
  return signed < 0n ? -signed : signed;
}

// A chooser of key numbers: `next(count)` draws among 0..count-1, `count` at most `capacity` (the keys the stream
// will ever hold; a zipfian spreads over all of them from the start, as YCSB sizes it for the inserts to come).
export function createKeyChooser({ distribution, random, capacity }) {
  switch (distribution) {
    case 'uniform':
      return (count) => random.int(count);
    case 'zipfian': {
      const ranks = createZipfian(random, { items: SCRAMBLED_ITEMS, zetan: SCRAMBLED_ZETAN });
      const space = BigInt(capacity);
      return (count) => {
        for (let draw = 0; draw < MAX_DRAWS; draw += 1) {
          const key = Number(fnvHash64(ranks()) % space);
          if (key < count) return key;
        }
        throw new Error(`internal: no zipfian key below ${count} of ${capacity} in ${MAX_DRAWS} draws`);
      };
    }
    case 'latest': {
      const recency = createZipfian(random, { items: 1 });
      return (count) => count - 1 - recency(count);
    }
    default:
      throw usageError(`unknown distribution "${distribution}"; valid distributions: ${DISTRIBUTIONS.join(', ')}`);
  }
}
