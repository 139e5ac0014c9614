// How a document of the contract is stored and read back. The key becomes the document's `_id`, as the classic
// benchmark keyed MongoDB's profiles, so every key lookup uses the `_id` index MongoDB keeps on every collection.
// The driver serializes an integer JavaScript number as a BSON int32 (a double beyond the int32 range) and a
// string as a string, and reads both back as JavaScript numbers and strings; an absent field stays absent.

// A fresh object: the driver adds an ObjectId `_id` to a document that has none, and must never do so to the
// caller's document. A document without `_key` is stored too, under the driver's generated `_id`.
export function toStored(doc) {
  const { _key, ...fields } = doc;
  return _key === undefined ? fields : { _id: _key, ...fields };
}

export function fromStored(stored) {
  const { _id, ...fields } = stored;
  return { _key: _id, ...fields };
}

// Relations keep a generated ObjectId `_id`: the dataset holds duplicate relations, which counts() must see.
export function toStoredRelation({ _from, _to }) {
  return { _from, _to };
}

// The `$group` result of the aggregation, keyed like the reference: String(AGE), "null" for an absent AGE.
export function ageHistogram(groups) {
  const histogram = {};
  for (const { _id, count } of groups) histogram[String(_id)] = count;
  return histogram;
}
