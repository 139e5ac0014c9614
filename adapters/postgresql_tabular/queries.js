// The tabular model of the queries suite (the cases are ../postgresql/queries.js): one typed column per field,
// integer for value1, value3, value5 and value7, text COLLATE "C" for the others, every one NOT NULL (every
// document has every field). A document is its columns, read as a row named by them; merge-number and
// merge-string build the document's jsonb from the row (to_jsonb) to add the merged field.
import { copyLine } from '../postgresql/copy.js';
import { FIELDS, fieldList, isNumber, knownField } from '../postgresql/queries.js';
import { quote } from '../postgresql/schema.js';

const column = (name) => `${quote(name)} ${isNumber(name) ? 'integer' : 'text COLLATE "C"'} NOT NULL`;

export const tabularQueries = {
  columnsSql: FIELDS.map(column).join(', '),
  copyColumns: FIELDS.map(quote).join(', '),
  copyLine: (doc) => copyLine(FIELDS.map((name) => doc[name])),
  field: (alias, name) => `${alias ? `${alias}.` : ''}${quote(knownField(name))}`,
  document: (alias) => ({ select: fieldList(tabularQueries, alias, FIELDS), rows: 'objects' }),
  json: (alias) => `to_jsonb(${alias})`,
  // The other columns.
  unset: ({ attributes }) => ({
    sql: `SELECT ${fieldList(tabularQueries, 't', FIELDS.filter((name) => !attributes.includes(name)))} FROM $t AS t`,
    rows: 'objects',
  }),
};
