import { INTEGER_COLUMNS, PROFILE_COLUMNS } from '../../datasets/columns.js';

// A graph small enough to check by hand, with the cases that break naive implementations: a reciprocal
// pair (P1 <-> P2), two shortest paths of equal length (P1 -> P2|P3 -> P4), a seven-hop chain, a profile
// nobody points to (P9), one that points nowhere (P10), Slovak text with diacritics, and a profile without AGE
// and without relations (P0), which the aggregation counts under "null" as datasets/reference.js does.
const base = {
  public: 1,
  completion_percentage: 38,
  region: 'zilinsky kraj, zilina',
  last_login: '2012-05-25 11:20:00.0',
  registration: '2010-03-04 18:12:00.0',
};

export const PROFILES = [
  { ...base, _key: 'P1', gender: 1, AGE: 26, hobbies: 'šport, čítanie kníh, varenie', I_like_books: 'detektívky' },
  { ...base, _key: 'P2', gender: 0, AGE: 0 },
  { ...base, _key: 'P3', gender: 1, AGE: 18, region: 'bratislavsky kraj, bratislava - petrzalka', pets: 'pes<br />mačka' },
  { ...base, _key: 'P4', AGE: 0, public: 0 },
  { ...base, _key: 'P5', gender: 0, AGE: 33, music: 'ľudová hudba, rock' },
  { ...base, _key: 'P6', gender: 1, AGE: 18 },
  { ...base, _key: 'P7', gender: 0, AGE: 0, completion_percentage: 0 },
  { ...base, _key: 'P8', gender: 1, AGE: 41, more: 'Ahoj, som tu nový "hráč"\\n ☺' },
  { ...base, _key: 'P9', gender: 0, AGE: 18 },
  { ...base, _key: 'P10', gender: 1, AGE: 26, completion_percentage: 100 },
  { ...base, _key: 'P0', gender: 0 },
];

export const RELATIONS = [
  ['P1', 'P2'], ['P1', 'P3'], ['P2', 'P1'], ['P2', 'P4'], ['P3', 'P4'], ['P4', 'P5'],
  ['P5', 'P6'], ['P6', 'P7'], ['P7', 'P8'], ['P8', 'P10'], ['P9', 'P1'],
].map(([_from, _to]) => ({ _from, _to }));

export const AGE_HISTOGRAM = { 0: 3, 18: 3, 26: 2, 33: 1, 41: 1, null: 1 };

export const NEIGHBORS = {
  P1: ['P2', 'P3'],
  P2: ['P1', 'P4'],
  P9: ['P1'],
  P10: [],
  P0: [],
};

export const NEIGHBORS2 = {
  P1: ['P2', 'P3', 'P4'],
  P2: ['P1', 'P3', 'P4', 'P5'],
  P9: ['P1', 'P2', 'P3'],
  P10: [],
  P0: [],
};

// [from, to, maxDepth, hops or null]
export const PATHS = [
  ['P1', 'P4', 15, 2],
  ['P9', 'P4', 15, 3],
  ['P1', 'P10', 15, 7],
  ['P1', 'P10', 7, 7],
  ['P1', 'P10', 6, null],
  ['P1', 'P9', 15, null],
  ['P10', 'P1', 15, null],
  ['P4', 'P4', 15, 0],
];

// A document with every field a profile can have (each Pokec column but user_id), for the write cases: text with
// diacritics, a character outside the Basic Multilingual Plane, markup, quotes and an escaped newline.
export const FULL_DOCUMENT = Object.fromEntries(PROFILE_COLUMNS.filter((column) => column !== 'user_id').map(
  (column, i) => [column, INTEGER_COLUMNS.has(column) ? i : `${column}: ľudová hudba 𝄞 <br /> "x"\\n ${i}`],
));
