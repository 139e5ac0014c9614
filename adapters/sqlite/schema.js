// Names and tables of one namespace. SQLite cannot bind identifiers, so every name that reaches SQL text is
// checked to be a plain identifier first.
import { BenchError, ErrorCodes } from '../../core/errors.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function assertIdentifier(what, value) {
  if (typeof value !== 'string' || !IDENTIFIER.test(value)) {
    throw new BenchError(
      ErrorCodes.USAGE,
      `sqlite: ${what} ${JSON.stringify(value)} is not an SQL identifier ([A-Za-z_][A-Za-z0-9_]*)`,
    );
  }
  return value;
}

export function namespaceTables(namespace) {
  assertIdentifier('namespace', namespace);
  const prefix = `${namespace}_`;
  const lower = prefix.toLowerCase();
  // SQLite reserves every name starting with "sqlite_", so such a namespace could never be created.
  if (lower.startsWith('sqlite_')) {
    throw new BenchError(ErrorCodes.USAGE, `sqlite: namespace "${namespace}" is reserved by SQLite (sqlite_*)`);
  }
  // "a" and "a_tmp" (or "a_tmp_b") would share the names a_tmp_*; without "_tmp_" no two namespaces share any.
  if (lower.includes('_tmp_')) {
    throw new BenchError(ErrorCodes.USAGE,
      `sqlite: namespace "${namespace}" must not contain "_tmp_" or end in "_tmp"`);
  }
  const tempPrefix = `${prefix}tmp_`;
  return {
    profiles: `${prefix}profiles`,
    relations: `${prefix}relations`,
    marker: `${prefix}marker`,
    relationsFrom: `${prefix}relations_from`,
    relationsTo: `${prefix}relations_to`,
    pathForward: `${prefix}path_forward`,
    pathBackward: `${prefix}path_backward`,
    tempPrefix,
    temp: (name) => `${tempPrefix}${assertIdentifier('collection name', name)}`,
  };
}

// The tables and views of a namespace: its three tables and its temporary collections, compared ignoring ASCII
// case as SQLite compares identifiers. Another namespace's tables never match, even when that namespace's name
// starts with this one's ("dbshootout" and "dbshootout_v2").
export function namespaceObjectsSql(tables) {
  // Names are checked identifiers, so they can be SQL literals. "_" is a LIKE wildcard, hence the escapes.
  const tempPattern = `${tables.tempPrefix.replaceAll('_', '\\_')}%`;
  const exact = [tables.profiles, tables.relations, tables.marker].map((name) => `'${name.toLowerCase()}'`);
  return `
    SELECT type, name FROM main.sqlite_schema
    WHERE type IN ('table', 'view') AND (lower(name) IN (${exact.join(', ')}) OR name LIKE '${tempPattern}' ESCAPE '\\')
  `;
}

export function createTablesSql(tables) {
  return `
    CREATE TABLE ${tables.profiles} (_key TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE ${tables.relations} (_from TEXT NOT NULL, _to TEXT NOT NULL);
    CREATE TABLE ${tables.marker} (id INTEGER PRIMARY KEY CHECK (id = 1), marker TEXT NOT NULL);
  `;
}

// Both indexes cover (_from, _to), so graph queries never read the relations table itself.
export function createIndexesSql(tables) {
  return `
    CREATE INDEX IF NOT EXISTS ${tables.relationsFrom} ON ${tables.relations} (_from, _to);
    CREATE INDEX IF NOT EXISTS ${tables.relationsTo} ON ${tables.relations} (_to, _from);
  `;
}

export function createTempCollectionSql(table) {
  // UNIQUE rather than PRIMARY KEY: a document without _key is stored too (NULLs never collide).
  return `
    DROP TABLE IF EXISTS ${table};
    CREATE TABLE ${table} (_key TEXT UNIQUE, doc TEXT NOT NULL);
  `;
}
