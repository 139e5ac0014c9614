// The queries suite in PGlite: PostgreSQL's document model and its 32 cases (../postgresql/queries.js), each one
// statement with its parameters bound; a collection is a table `tmp_q_<name>` of the namespace's schema, loaded by
// COPY from a blob. What the adapter lends, `store`, is what that module asks of its store: table(name),
// index(name, field), query(config), run(config), transaction(work) and copy(table, columns, docs, line).
export {
  CASE_NAMES, countDocuments, createCollection, documentQueries, dropCollection, importDocuments, indexCollection,
  runQuery,
} from '../postgresql/queries.js';
