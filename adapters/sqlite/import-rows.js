// The profiles' rows of the bulk import, made on the dataset reader's thread (../../datasets/import-rows.js)
// rather than on the thread that inserts them: each profile's key and its document as JSON text, one after the
// other, as the adapter's importProfiles stores them.
export function profileValues(docs) {
  const values = new Array(2 * docs.length);
  for (let i = 0; i < docs.length; i += 1) {
    values[2 * i] = docs[i]._key;
    values[2 * i + 1] = JSON.stringify(docs[i]);
  }
  return values;
}
