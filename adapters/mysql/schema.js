// Names and tables of one namespace, which is one database (schema) of the server. Identifiers cannot be
// bound as parameters, so every name that reaches SQL text is checked to be a plain identifier first.
import { BenchError, ErrorCodes } from '../../core/errors.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
// MySQL and MariaDB limit database and table names to 64 characters.
const MAX_IDENTIFIER_LENGTH = 64;
const TEMP_PREFIX = 'tmp_';
// Keys compare byte for byte, and every key column shares this collation, so joins between them use the indexes.
export const KEY_TYPE = 'VARCHAR(32) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';

export function assertIdentifier(what, value, maxLength = MAX_IDENTIFIER_LENGTH) {
  if (typeof value !== 'string' || !IDENTIFIER.test(value) || value.length > maxLength) {
    throw new BenchError(
      ErrorCodes.USAGE,
      `mysql: ${what} ${JSON.stringify(value)} is not an identifier of at most ${maxLength} characters ` +
        '([A-Za-z_][A-Za-z0-9_]*)',
    );
  }
  return value;
}

// Every name is qualified with the database, so connections need no default database and the namespace
// may be absent while the pool is open.
export function namespaceTables(namespace) {
  assertIdentifier('namespace', namespace);
  const database = `\`${namespace}\``;
  return {
    namespace,
    database,
    profiles: `${database}.profiles`,
    relations: `${database}.relations`,
    marker: `${database}.marker`,
    temp: (name) => {
      assertIdentifier('collection name', name, MAX_IDENTIFIER_LENGTH - TEMP_PREFIX.length);
      return `${database}.${TEMP_PREFIX}${name}`;
    },
  };
}

export function createDatabaseSql(tables) {
  return `CREATE DATABASE ${tables.database} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`;
}

// The dataset's tables keep the statistics createIndexes() gathers (ANALYZE TABLE) after the import, and InnoDB
// does not recount them in the background: during a bulk load, MariaDB 10.11's background statistics task kept a
// core busy, taken from the import (measured on 8 M relations: 68 s of server CPU with it, 32 s without; the
// load's own thread the same). The tables do not change after the import, so the statistics stay exact, and
// every run plans on the same ones.
const DATASET_TABLE = 'ENGINE=InnoDB STATS_AUTO_RECALC=0';

// The marker table comes first, so that a namespace is owned from its first table on.
export function createTablesSql(tables) {
  return [
    `CREATE TABLE ${tables.marker} (id TINYINT PRIMARY KEY CHECK (id = 1), marker LONGTEXT NOT NULL) ENGINE=InnoDB`,
    `CREATE TABLE ${tables.profiles} (_key ${KEY_TYPE} NOT NULL PRIMARY KEY, doc LONGTEXT NOT NULL) ${DATASET_TABLE}`,
    `CREATE TABLE ${tables.relations} (_from ${KEY_TYPE} NOT NULL, _to ${KEY_TYPE} NOT NULL) ${DATASET_TABLE}`,
  ];
}

// One ALTER builds both indexes in one pass over the table. Each covers the relation in one direction, so
// graph queries never read the table itself. A dataset's relations are distinct pairs (datasets/pokec.js drops
// the real file's duplicates, the generator writes none): for them (`distinct`) the primary key (_from, _to) is
// the table itself, clustered in that order, and the index (_to, _from) holds the whole relation too (InnoDB
// appends the primary key's columns, here already there), two B-trees where a table without a primary key has
// three (clustered on a hidden row id, and from_to). Measured: the full synthetic relations (30.5 M) in one bulk
// insert took 123 s, against 147 s. Relations stored one batch at a time (importRelations: a graph made by hand,
// which may repeat a relation, as the adapter contract allows) get the index from_to (_from, _to) instead.
export function createIndexesSql(tables, { distinct = false } = {}) {
  const from = distinct ? 'PRIMARY KEY (_from, _to)' : 'INDEX from_to (_from, _to)';
  return `ALTER TABLE ${tables.relations} ADD ${from}, ADD INDEX to_from (_to, _from)`;
}

// The index that reads the relations by _from, whichever of the two above the table has, and the one by _to.
export const FROM_INDEXES = ['PRIMARY', 'from_to'];
export const TO_INDEX = 'to_from';

// UNIQUE rather than PRIMARY KEY: a document without _key is stored too (NULLs never collide).
export function createTempCollectionSql(table) {
  return `CREATE TABLE ${table} (_key ${KEY_TYPE} NULL, doc LONGTEXT NOT NULL, UNIQUE KEY (_key)) ENGINE=InnoDB`;
}
