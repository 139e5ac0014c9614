// Rows to documents. DuckDB answers SQL NULL for an absent field and BIGINT as BigInt; a document has no null
// fields and plain numbers only.

// The rows of a reader as documents: one field per column, NULL columns left out (a profile's absent fields).
export function rowsToDocuments(reader) {
  const names = reader.columnNames();
  return reader.getRowsJS().map((row) => {
    const doc = {};
    for (let i = 0; i < names.length; i += 1) {
      if (row[i] !== null) doc[names[i]] = row[i];
    }
    return doc;
  });
}

// The first column of every row, as plain values (a list of keys, or JSON documents to parse).
export function firstColumn(reader) {
  return reader.getRowsJS().map((row) => row[0]);
}

// A count: count(*) is a BIGINT, exact as a Number far beyond any table here.
export function toCount(value) {
  return Number(value);
}
