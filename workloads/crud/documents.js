// The crud suite's documents: small flat JSON objects, deterministic from the seed, so every database gets the
// same bytes. `uniform`: every document has the same field names and types (about 200 bytes of JSON), the case
// the 2012 publication measured; `varied`: names, their number and their types change per document, the case it
// warned about, since a store that shares one shape between documents gains from uniform ones. With `bytes`, each
// document also carries a `text` of words that brings its JSON to that many bytes (the mixed suite's documents of
// a publication's size).
import { createRandom } from '../../datasets/random.js';

export const SHAPES = Object.freeze(['uniform', 'varied']);
// Independent sequences of one seed: the documents as inserted, and the versions that replace them.
const STREAM_INSERT = 11;
const STREAM_UPDATE = 12;
// The words that fill documents of a set size: sequences of their own, so that every other field is the one the
// seed gives without a size.
const STREAM_INSERT_TEXT = 13;
const STREAM_UPDATE_TEXT = 14;
// The sizes a document may be set to: from the smallest to BSON's (MongoDB's) largest, 16 MiB.
export const DOCUMENT_BYTES = Object.freeze({ min: 1, max: 16 * 2 ** 20 });

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliett',
  'kilo', 'lima', 'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango'];
// Non-ASCII text on purpose: a store must give back every string exactly.
const CITIES = ['Bratislava', 'Košice', 'Žilina', 'Nitra', 'Prešov', 'Banská Bystrica', 'Trnava', 'Martin',
  'Trenčín', 'Poprad', 'Zürich', 'Kraków', 'São Paulo', '東京', 'Αθήνα'];
// Field names of varied documents: letters, digits and `_`, never a leading `_` (the harness's `_key` is the
// only such field), and some that every JavaScript object inherits, which a careless mapping would drop.
const NAME_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_';
const INHERITED_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty'];
const MAX_VARIED_FIELDS = 12;
const MAX_NAME_LENGTH = 40;

export function crudKey(n) {
  return `C${n}`;
}

function words(random, count) {
  return Array.from({ length: count }, () => random.pick(WORDS)).join(' ');
}

function uniformDocument(random, n, version) {
  return {
    _key: crudKey(n),
    name: `${random.pick(WORDS)} ${random.pick(WORDS)}`,
    email: `${random.pick(WORDS)}.${n}@example.org`,
    city: random.pick(CITIES),
    age: 18 + random.int(70),
    score: random.int(2_000_001) - 1_000_000,
    visits: random.int(100_000),
    bio: words(random, 4 + random.int(5)),
    version,
  };
}

function fieldName(random) {
  if (random.chance(0.05)) return random.pick(INHERITED_NAMES);
  const length = 1 + random.int(MAX_NAME_LENGTH);
  let name = NAME_CHARS[random.int(NAME_CHARS.length - 1)];
  for (let i = 1; i < length; i += 1) name += NAME_CHARS[random.int(NAME_CHARS.length)];
  return name;
}

function fieldValue(random) {
  switch (random.int(4)) {
    case 0: return random.int(2_000_001) - 1_000_000;
    case 1: return random.pick([0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);
    case 2: return random.chance(0.1) ? '' : random.pick(CITIES);
    default: return words(random, 1 + random.int(6));
  }
}

function variedDocument(random, n) {
  const doc = { _key: crudKey(n) };
  const fields = 1 + random.int(MAX_VARIED_FIELDS);
  while (Object.keys(doc).length <= fields) doc[fieldName(random)] = fieldValue(random);
  return doc;
}

// `doc` with a last field `text` that brings its JSON to `bytes` bytes of UTF-8, or empty when the document is that
// large already. The words are ASCII, so the text is cut to the exact length.
function sized(doc, bytes, random) {
  const filled = { ...doc, text: '' };
  const missing = bytes - Buffer.byteLength(JSON.stringify(filled));
  let text = '';
  while (text.length < missing) text += `${random.pick(WORDS)} `;
  filled.text = text.slice(0, Math.max(0, missing));
  return filled;
}

// Documents 1..count as inserted (`version` 1) and as the update phase replaces them (`version` 2: for uniform
// documents other values under the same names; for varied ones another shape altogether, so that replace
// semantics show: a field the new version lacks must be gone). `bytes`: the size of each document's JSON, or null
// for the documents as they come.
export function crudDocuments({ count, shape, seed, bytes = null }) {
  if (!SHAPES.includes(shape)) throw new Error(`internal: unknown document shape ${shape}`);
  if (bytes !== null && !(Number.isSafeInteger(bytes) && bytes >= DOCUMENT_BYTES.min && bytes <= DOCUMENT_BYTES.max)) {
    throw new Error(`internal: a document size of ${bytes} bytes`);
  }
  const make = shape === 'uniform' ? uniformDocument : variedDocument;
  const inserted = createRandom(seed, STREAM_INSERT);
  const updated = createRandom(seed, STREAM_UPDATE);
  const insertedText = createRandom(seed, STREAM_INSERT_TEXT);
  const updatedText = createRandom(seed, STREAM_UPDATE_TEXT);
  const docs = new Array(count);
  const updates = new Array(count);
  for (let i = 0; i < count; i += 1) {
    docs[i] = make(inserted, i + 1, 1);
    updates[i] = make(updated, i + 1, 2);
    if (bytes !== null) {
      docs[i] = sized(docs[i], bytes, insertedText);
      updates[i] = sized(updates[i], bytes, updatedText);
    }
  }
  return { docs, updates };
}
