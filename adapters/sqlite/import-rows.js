// The profiles' rows of the bulk import, made on the dataset reader's thread (../../datasets/import-rows.js)
// rather than on the thread that inserts them: each profile's key and its document as JSON text, one after the
// other, as the adapter's importProfiles stores them.

// From profile lines (../../datasets/profile-lines.js): `<key>\t<JSON>\n`, the JSON's backslashes doubled.
export function profileValues({ bytes, count }) {
  const text = new TextDecoder().decode(bytes);
  const values = new Array(2 * count);
  let start = 0;
  for (let i = 0; i < count; i += 1) {
    const tab = text.indexOf('\t', start);
    const end = text.indexOf('\n', tab);
    const json = text.slice(tab + 1, end);
    values[2 * i] = text.slice(start, tab);
    values[2 * i + 1] = json.includes('\\') ? json.replaceAll('\\\\', '\\') : json;
    start = end + 1;
  }
  return values;
}
