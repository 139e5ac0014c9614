// Names and DDL of one namespace: an OrientDB database holding the Profile vertices, the Knows edges between
// them, the Marker and the temporary collections. Class names cannot be bound as parameters, so every name that
// reaches SQL text is checked to be a plain identifier first.
import { BenchError, ErrorCodes } from '../../core/errors.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_NAME = 63;
// The server's own database, which exists on every server.
const RESERVED_DATABASES = new Set(['OSystem']);

export const PROFILE = 'Profile';
export const KNOWS = 'Knows';
export const MARKER = 'Marker';
// Where OrientDB keeps the lightweight Knows edges of a vertex: link bags named for the direction and the class.
export const OUT_EDGES = `out_${KNOWS}`;
export const IN_EDGES = `in_${KNOWS}`;
const TEMP_PREFIX = 'Tmp_';

function assertIdentifier(label, what, value) {
  if (typeof value !== 'string' || !IDENTIFIER.test(value) || value.length > MAX_NAME) {
    throw new BenchError(ErrorCodes.USAGE, `${label}: ${what} ${JSON.stringify(value)} is not an identifier `
      + `([A-Za-z_][A-Za-z0-9_]*, at most ${MAX_NAME} characters)`);
  }
  return value;
}

export function databaseName(label, namespace) {
  assertIdentifier(label, 'namespace', namespace);
  if (RESERVED_DATABASES.has(namespace)) {
    throw new BenchError(ErrorCodes.USAGE, `${label}: namespace "${namespace}" is the server's own database`);
  }
  return namespace;
}

export function tempClass(label, name) {
  assertIdentifier(label, 'collection name', name);
  return assertIdentifier(label, 'class', `${TEMP_PREFIX}${name}`);
}

// Classes OrientDB creates in every database: V, E, and its own, whose names all start with O and a capital.
export function isSystemClass(name) {
  return name === 'V' || name === 'E' || /^O[A-Z]/.test(name);
}

// The classes a namespace of ours may hold besides the system classes; anything else makes it someone else's.
export function isOwnClass(name) {
  return [PROFILE, KNOWS, MARKER].includes(name) || name.startsWith(TEMP_PREFIX);
}

// Lightweight edges: a Knows relation is the target's RID in the source's out_Knows link bag and the source's
// RID in the target's in_Knows bag, with no edge record. Relations carry no properties, so an edge record would
// only cost a third record per relation to write and one more record to load per hop. OrientDB 3.x makes regular
// edges unless the database says otherwise; useLightweightEdges makes CREATE EDGE agree with the bulk import.
// The bags are declared LINKBAG so that a list of RIDs assigned to them is stored as a bag, as CREATE EDGE
// stores it.
export function createNamespaceScript() {
  return `
    ALTER DATABASE CUSTOM useLightweightEdges = true;
    CREATE CLASS ${PROFILE} EXTENDS V;
    CREATE PROPERTY ${PROFILE}._key STRING;
    CREATE PROPERTY ${PROFILE}.${OUT_EDGES} LINKBAG;
    CREATE PROPERTY ${PROFILE}.${IN_EDGES} LINKBAG;
    CREATE CLASS ${KNOWS} EXTENDS E;
    CREATE CLASS ${MARKER};
    CREATE PROPERTY ${MARKER}.json STRING;
    INSERT INTO ${MARKER} SET json = '{}';
  `;
}

export const CREATE_KEY_INDEX = `CREATE INDEX ${PROFILE}._key IF NOT EXISTS ON ${PROFILE} (_key) UNIQUE_HASH_INDEX`;

// A document class, not a vertex class: written documents have no edges. Unique like the profile key, and
// like a SQL UNIQUE column it lets any number of documents without _key in.
export function createTempClassScript(name) {
  return `
    DROP CLASS ${name} IF EXISTS;
    CREATE CLASS ${name};
    CREATE PROPERTY ${name}._key STRING;
    CREATE INDEX ${name}._key ON ${name} (_key) UNIQUE_HASH_INDEX METADATA { ignoreNullValues: true };
  `;
}

export function dropTempClassSql(name) {
  return `DROP CLASS ${name} IF EXISTS`;
}

export const CLASSES_SQL = 'SELECT name FROM (SELECT expand(classes) FROM metadata:schema)';
