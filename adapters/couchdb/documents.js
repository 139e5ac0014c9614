// A document as CouchDB stores it: `_key` becomes the document id `_id`, every other field keeps its value.
// CouchDB reserves the top-level names that begin with `_` (it refuses a document with any other, and PouchDB
// Server silently drops `__proto__`), yet the contract allows `__proto__`: a name that begins with `_` is stored
// behind a `$`, as is one that begins with `$` (which the contract's names never do), so that every name maps
// back. Entries go through Object.fromEntries, which makes `__proto__` an own field, never the prototype.
const ESCAPE = '$';

const storedName = (name) => (name.startsWith('_') || name.startsWith(ESCAPE) ? `${ESCAPE}${name}` : name);
const fieldName = (name) => (name.startsWith(ESCAPE) ? name.slice(ESCAPE.length) : name);

// The body of a PUT /db/<key>: the fields without `_key`, with the revision it replaces, if any.
export function documentBody(doc, rev) {
  const entries = Object.entries(doc).filter(([name]) => name !== '_key').map(([name, value]) => [storedName(name), value]);
  if (rev !== undefined) entries.push(['_rev', rev]);
  return Object.fromEntries(entries);
}

// A stored document in the shape it was written: `_id` back to `_key`, `_rev` dropped, names unescaped.
export function fromStored(stored) {
  const entries = Object.entries(stored).filter(([name]) => name !== '_id' && name !== '_rev')
    .map(([name, value]) => [fieldName(name), value]);
  return Object.fromEntries([['_key', stored._id], ...entries]);
}
