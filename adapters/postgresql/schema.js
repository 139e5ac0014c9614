// Names and DDL of one namespace: a PostgreSQL schema holding profiles, relations, the marker, the temporary
// collections and the shortest-path function. Identifiers cannot be bound as parameters, so every name that
// reaches SQL text is checked to be a plain identifier first, and quoted (PostgreSQL folds unquoted names to
// lower case; quoting keeps the namespace exactly as given).
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { shortestPathFunctionSql } from './shortest-path.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
// NAMEDATALEN - 1: PostgreSQL silently truncates longer names, so two long namespaces could meet.
const MAX_IDENTIFIER_BYTES = 63;

// What each adapter of the family appends to the namespace to get its schema. A namespace of the document
// adapter must not end in another adapter's suffix: "a_tabular" would be postgresql_tabular's schema of "a".
export const SCHEMA_SUFFIXES = Object.freeze({ document: '', tabular: '_tabular' });

const PATH_FUNCTION_ARGUMENTS = '(text, text, integer)';

export function assertIdentifier(label, what, value) {
  if (typeof value !== 'string' || !IDENTIFIER.test(value) || value.length > MAX_IDENTIFIER_BYTES) {
    throw new BenchError(ErrorCodes.USAGE, `${label}: ${what} ${JSON.stringify(value)} is not an SQL identifier `
      + `([A-Za-z_][A-Za-z0-9_]*, at most ${MAX_IDENTIFIER_BYTES} characters)`);
  }
  return value;
}

export function quote(identifier) {
  return `"${identifier.replaceAll('"', '""')}"`;
}

export function schemaName(label, namespace, suffix) {
  assertIdentifier(label, 'namespace', namespace);
  if (namespace.startsWith('pg_')) {
    throw new BenchError(ErrorCodes.USAGE, `${label}: namespace "${namespace}" is reserved by PostgreSQL (pg_*)`);
  }
  if (suffix === SCHEMA_SUFFIXES.document) {
    const clash = Object.values(SCHEMA_SUFFIXES).find((other) => other !== '' && namespace.endsWith(other));
    if (clash) {
      throw new BenchError(ErrorCodes.USAGE,
        `${label}: namespace "${namespace}" must not end in "${clash}", the suffix of a sibling adapter's schema`);
    }
  }
  return assertIdentifier(label, 'schema', `${namespace}${suffix}`);
}

// Quoted, schema-qualified names of one namespace.
export function namespaceNames(label, schema) {
  const q = quote(schema);
  return {
    schema,
    quotedSchema: q,
    profiles: `${q}.profiles`,
    relations: `${q}.relations`,
    marker: `${q}.marker`,
    shortestPath: `${q}.shortest_path`,
    temp: (name) => {
      assertIdentifier(label, 'collection name', name);
      return `${q}.${quote(assertIdentifier(label, 'table', `tmp_${name}`))}`;
    },
  };
}

// The schema's state as two facts: whether it exists, and whether it holds a marker table of the expected shape
// (a table, not a view someone named "marker"). The objects it holds name a foreign namespace in the refusal.
export const INSPECT_SQL = `
  SELECT
    EXISTS (
      SELECT FROM pg_class AS c
      WHERE c.relnamespace = n.oid AND c.relname = 'marker' AND c.relkind = 'r'
        AND (SELECT count(*) FROM pg_attribute AS a
             WHERE a.attrelid = c.oid AND NOT a.attisdropped
               AND (a.attname, a.atttypid) IN (('id', 'integer'::regtype), ('marker', 'jsonb'::regtype))) = 2
    ) AS has_marker_table,
    ARRAY(SELECT c.relname::text FROM pg_class AS c
          WHERE c.relnamespace = n.oid AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
          ORDER BY c.relname) AS objects
  FROM pg_namespace AS n
  WHERE n.nspname = $1
`;

// The tables resetNamespace drops: its own names only. Anything else in the schema makes DROP SCHEMA fail.
export const OWN_TABLES_SQL = `
  SELECT c.relname::text FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
  WHERE n.nspname = $1 AND c.relkind = 'r'
    AND (c.relname IN ('profiles', 'relations', 'marker') OR c.relname LIKE 'tmp\\_%')
`;

// Every DROP is RESTRICT (the default), never CASCADE: CASCADE follows dependencies out of the schema and would
// drop, say, a view in another schema that reads our profiles. PostgreSQL refuses instead, and so do we.
export function dropNamespaceSql(names, tables) {
  const qualified = tables.map((table) => `${names.quotedSchema}.${quote(table)}`);
  return `
    ${qualified.length > 0 ? `DROP TABLE ${qualified.join(', ')};` : ''}
    DROP FUNCTION IF EXISTS ${names.shortestPath}${PATH_FUNCTION_ARGUMENTS};
    DROP SCHEMA IF EXISTS ${names.quotedSchema};
  `;
}

// Keys and relation ends use the "C" collation: byte order, whatever the database's default collation, which
// makes index builds and lookups cheaper and their order the same on every server.
export function createNamespaceSql(names, model) {
  return `
    CREATE SCHEMA ${names.quotedSchema};
    CREATE TABLE ${names.profiles} (_key text COLLATE "C" NOT NULL, ${model.columnsSql});
    CREATE TABLE ${names.relations} (_from text COLLATE "C" NOT NULL, _to text COLLATE "C" NOT NULL);
    CREATE TABLE ${names.marker} (id integer PRIMARY KEY CHECK (id = 1), marker jsonb NOT NULL);
    INSERT INTO ${names.marker} (id, marker) VALUES (1, '{}');
    ${shortestPathFunctionSql(names)}
  `;
}

// Each run in its own session, so the three builds proceed in parallel. A relation's two ends are nearly always
// a unique pair, so B-tree deduplication would find nothing to merge: without it the build of the full dataset's
// indexes takes about 12% less time, and the indexes have the same size.
export function createIndexesSql(names) {
  return {
    profiles: `ALTER TABLE ${names.profiles} ADD CONSTRAINT profiles_pkey PRIMARY KEY (_key)`,
    relations: [
      `CREATE INDEX relations_from ON ${names.relations} (_from, _to) WITH (deduplicate_items = off)`,
      `CREATE INDEX relations_to ON ${names.relations} (_to, _from) WITH (deduplicate_items = off)`,
    ],
  };
}

export function createTempCollectionSql(table, model) {
  // UNIQUE rather than PRIMARY KEY: a document without _key is stored too (NULLs never collide).
  return `
    DROP TABLE IF EXISTS ${table};
    CREATE TABLE ${table} (_key text COLLATE "C" UNIQUE, ${model.tempColumnsSql});
  `;
}
