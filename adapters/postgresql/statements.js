// The statements of one namespace that need only its names and the profiles' model, shared by the adapters that
// speak PostgreSQL's SQL (this family's, over pg, and PGlite's, embedded): the social suite's reads, the counts,
// the marker, and the temporary collections' statements.
import { quote } from './schema.js';

// Statements that only need the namespace's names, prepared on each connection on first use.
export function statements(names, model) {
  const { profiles, relations } = names;
  const neighbors = `SELECT DISTINCT _to FROM ${relations} WHERE _from = $1`;
  // UNION removes the duplicates; both branches are lookups in the covering (_from, _to) index.
  const neighbors2 = `
    SELECT _to FROM ${relations} WHERE _from = $1 AND _to <> $1
    UNION
    SELECT r2._to FROM ${relations} AS r1 JOIN ${relations} AS r2 ON r2._from = r1._to
    WHERE r1._from = $1 AND r2._to <> $1`;
  const documentsOf = (keys) => `SELECT ${model.documentSql} FROM ${profiles} AS p WHERE p._key IN (${keys})`;
  return {
    singleRead: `SELECT ${model.documentSql} FROM ${profiles} AS p WHERE p._key = $1`,
    aggregation: `SELECT ${model.ageSql}, count(*)::int FROM ${profiles} AS p GROUP BY 1`,
    neighbors,
    neighborsData: documentsOf(neighbors),
    neighbors2,
    neighbors2data: documentsOf(neighbors2),
    shortestPath: `SELECT ${names.shortestPath}($1, $2, $3)`,
    counts: `SELECT (SELECT count(*) FROM ${profiles})::int, (SELECT count(*) FROM ${relations})::int`,
    writeMarker: `INSERT INTO ${names.marker} (id, marker) VALUES (1, $1)
                  ON CONFLICT (id) DO UPDATE SET marker = EXCLUDED.marker`,
  };
}

export function tempStatements(table, model) {
  const placeholders = model.columns.map((_, i) => `$${i + 1}`).join(', ');
  return {
    insert: `INSERT INTO ${table} (${columnList(model)}) VALUES (${placeholders})`,
    count: `SELECT count(*)::int FROM ${table}`,
    read: `SELECT ${model.tempDocumentSql} FROM ${table} AS p WHERE p._key = $1`,
    readAll: `SELECT ${model.tempDocumentSql} FROM ${table} AS p`,
  };
}

export function columnList(model) {
  return model.columns.map(quote).join(', ');
}
