// The crud suite's document operations in PGlite: PostgreSQL's statements, one each (../postgresql/crud.js), on
// the adapter's one session. What the adapter lends, `store`: label, table(collection), rows(text, values) (rows as
// arrays) and write(durable, text, values) (a result with rowCount, the rows the statement matched).
export {
  deleteDocument, getDocument, insertDocument, scanDocuments, updateDocument,
} from '../postgresql/crud.js';
