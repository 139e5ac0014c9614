// The tabular model: one typed column per Pokec column, named exactly as in the file (quoted, so "AGE" keeps
// its case).
import { INTEGER_COLUMNS, PROFILE_COLUMNS } from '../../datasets/columns.js';
import { SCHEMA_SUFFIXES, quote } from '../postgresql/schema.js';
import { copyTexts } from '../postgresql/copy.js';

// A document's possible fields, in column order: `_key`, then every profile column but user_id (the key holds it).
const FIELDS = Object.freeze(['_key', ...PROFILE_COLUMNS.filter((column) => column !== 'user_id')]);
const KNOWN = new Set(FIELDS);

// A table has no column for a field outside the Pokec schema; storing the document without it would lose data.
function checkFields(doc) {
  for (const field of Object.keys(doc)) {
    if (!KNOWN.has(field)) {
      throw new Error(`postgresql_tabular: field ${JSON.stringify(field)} of document ${JSON.stringify(doc._key)} `
        + 'is not a Pokec column');
    }
  }
}

const COLUMNS_SQL = FIELDS.slice(1)
  .map((field) => `${quote(field)} ${INTEGER_COLUMNS.has(field) ? 'integer' : 'text'}`)
  .join(', ');

export const tabularModel = {
  // How the dataset reader's thread makes the profiles' COPY text (../postgresql/adapter.js, profileRows): this
  // module's profileCopyTexts, from the documents.
  profileRows: { module: import.meta.url, name: 'profileCopyTexts', input: 'docs' },
  schemaSuffix: SCHEMA_SUFFIXES.tabular,
  // The columns after `_key`.
  columnsSql: COLUMNS_SQL,
  // The columns `rowValues` fills, in its order, for COPY and INSERT; an absent field is NULL.
  columns: FIELDS,
  rowValues(doc) {
    checkFields(doc);
    return FIELDS.map((field) => doc[field] ?? null);
  },
  // The server turns the row `p` into the document: to_jsonb names each field after its column, integers as
  // numbers, and jsonb_strip_nulls drops the NULL columns, so an absent field stays absent. One jsonb value per
  // row parses faster in the driver than 59 columns.
  documentSql: 'jsonb_strip_nulls(to_jsonb(p))',
  // A temporary collection holds the social suite's profiles in the typed columns and the crud suite's
  // documents, whose field names no column can foresee, whole in a jsonb column `doc` (../postgresql/crud.js);
  // a row fills one or the other. A profile's row reads as above (its NULL `doc` is stripped with the rest).
  tempColumnsSql: `${COLUMNS_SQL}, doc jsonb`,
  tempDocumentSql: 'coalesce(p.doc, jsonb_strip_nulls(to_jsonb(p)))',
  // An integer (or NULL); the histogram's keys are String(AGE).
  ageSql: 'p."AGE"',
};

// A batch of profiles as the COPY text of `parts` streams, made on the dataset reader's thread.
export function profileCopyTexts(docs, { parts }) {
  return copyTexts(docs, parts, tabularModel.rowValues);
}
