// Names and tables of one namespace. Identifiers cannot be bound as parameters, so every name that reaches SQL
// text is checked to be a plain identifier first.
import { INTEGER_COLUMNS, PROFILE_COLUMNS } from '../../datasets/columns.js';
import { BenchError, ErrorCodes } from '../../core/errors.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

// A profile's typed columns, in the dataset's order: `_key`, then every Pokec column but user_id (the key holds it).
export const PROFILE_FIELDS = Object.freeze(['_key', ...PROFILE_COLUMNS.filter((column) => column !== 'user_id')]);

export function assertIdentifier(what, value) {
  if (typeof value !== 'string' || !IDENTIFIER.test(value)) {
    throw new BenchError(
      ErrorCodes.USAGE,
      `duckdb: ${what} ${JSON.stringify(value)} is not an SQL identifier ([A-Za-z_][A-Za-z0-9_]*)`,
    );
  }
  return value;
}

export function quote(identifier) {
  return `"${identifier.replaceAll('"', '""')}"`;
}

export function namespaceTables(namespace) {
  assertIdentifier('namespace', namespace);
  const prefix = `${namespace}_`;
  // "a" and "a_tmp" (or "a_tmp_b") would share the names a_tmp_*; without "_tmp_" no two namespaces share any.
  if (prefix.toLowerCase().includes('_tmp_')) {
    throw new BenchError(ErrorCodes.USAGE,
      `duckdb: namespace "${namespace}" must not contain "_tmp_" or end in "_tmp"`);
  }
  const tempPrefix = `${prefix}tmp_`;
  return {
    profiles: `${prefix}profiles`,
    relations: `${prefix}relations`,
    marker: `${prefix}marker`,
    profilesKey: `${prefix}profiles_key`,
    relationsFrom: `${prefix}relations_from`,
    relationsTo: `${prefix}relations_to`,
    tempPrefix,
    temp: (name) => `${tempPrefix}${assertIdentifier('collection name', name)}`,
  };
}

// The tables and views of a namespace in the database's main schema: its three tables and its temporary
// collections, compared ignoring case as DuckDB compares identifiers. Another namespace's tables never match,
// even when that namespace's name starts with this one's ("dbshootout" and "dbshootout_v2").
export function namespaceObjectsSql(tables) {
  // Names are checked identifiers, so they can be SQL literals. "_" is a LIKE wildcard, hence the escapes.
  const tempPattern = `${tables.tempPrefix.toLowerCase().replaceAll('_', '\\_')}%`;
  const exact = [tables.profiles, tables.relations, tables.marker].map((name) => `'${name.toLowerCase()}'`);
  const matches = `(lower(name) IN (${exact.join(', ')}) OR lower(name) LIKE '${tempPattern}' ESCAPE '\\')`;
  return `
    SELECT type, name FROM (
      SELECT 'table' AS type, table_name AS name FROM duckdb_tables()
      WHERE database_name = current_database() AND schema_name = 'main' AND NOT temporary
      UNION ALL
      SELECT 'view', view_name FROM duckdb_views()
      WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary
    ) WHERE ${matches}
    ORDER BY name
  `;
}

// Profiles as typed columns, as an analytical engine stores rows best (README.md): the four integer columns as
// INTEGER, everything else VARCHAR, an absent field NULL.
export function createTablesSql(tables) {
  const columns = PROFILE_FIELDS
    .map((field) => `${quote(field)} ${field === '_key' ? 'VARCHAR NOT NULL' : INTEGER_COLUMNS.has(field) ? 'INTEGER' : 'VARCHAR'}`)
    .join(', ');
  return [
    `CREATE TABLE ${tables.profiles} (${columns})`,
    `CREATE TABLE ${tables.relations} (_from VARCHAR NOT NULL, _to VARCHAR NOT NULL)`,
    `CREATE TABLE ${tables.marker} (id INTEGER PRIMARY KEY CHECK (id = 1), marker JSON NOT NULL)`,
  ];
}

// ART indexes, built after the bulk load (cheaper than maintaining them row by row while appending).
export function createIndexesSql(tables) {
  return [
    `CREATE UNIQUE INDEX IF NOT EXISTS ${tables.profilesKey} ON ${tables.profiles} (_key)`,
    `CREATE INDEX IF NOT EXISTS ${tables.relationsFrom} ON ${tables.relations} (_from)`,
    `CREATE INDEX IF NOT EXISTS ${tables.relationsTo} ON ${tables.relations} (_to)`,
  ];
}

// A temporary collection holds schema-free documents whole, as JSON text with `_key` included.
export function createTempCollectionSql(table) {
  return [
    `DROP TABLE IF EXISTS ${table}`,
    `CREATE TABLE ${table} (_key VARCHAR PRIMARY KEY, doc JSON NOT NULL)`,
  ];
}
