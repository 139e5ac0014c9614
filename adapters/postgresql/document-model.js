// The document model, as the classic benchmark stored PostgreSQL: one jsonb document per profile. The document
// is stored whole, `_key` included, so a read hands the parsed jsonb back unchanged: jsonb keeps strings as
// strings and numbers as numbers, and an absent field stays absent.
import { SCHEMA_SUFFIXES } from './schema.js';
import { BULK_LOAD_MODULE } from '../bulk-load.js';
import { copyTexts } from './copy.js';

export const documentModel = {
  // How the dataset reader's thread makes the profiles' COPY text (adapter.js, profileRows): profile lines
  // (../../datasets/profile-lines.js), `<key>\t<JSON>\n` with the backslashes doubled, are already this model's
  // rows, and only need cutting into one part per stream.
  profileRows: { module: BULK_LOAD_MODULE, name: 'lineParts', input: 'lines' },
  schemaSuffix: SCHEMA_SUFFIXES.document,
  // The columns after `_key`, for profiles and temporary collections alike.
  columnsSql: 'doc jsonb NOT NULL',
  // The columns `rowValues` fills, in its order, for COPY and INSERT.
  columns: ['_key', 'doc'],
  rowValues: (doc) => [doc._key ?? null, JSON.stringify(doc)],
  // The document of the row `p`, as the one column a read selects.
  documentSql: 'p.doc',
  // Temporary collections have the same column, which holds the crud suite's documents (crud.js) as well.
  tempColumnsSql: 'doc jsonb NOT NULL',
  tempDocumentSql: 'p.doc',
  // ->> gives the number as text and a missing AGE as NULL, which is exactly the histogram's String(AGE).
  ageSql: "p.doc ->> 'AGE'",
};

// A batch of profiles as the COPY text of `parts` streams, made on the dataset reader's thread.
export function profileCopyTexts(docs, { parts }) {
  return copyTexts(docs, parts, documentModel.rowValues);
}

