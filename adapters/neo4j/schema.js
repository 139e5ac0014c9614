// The names of one namespace. Neo4j Community holds one user database, so a namespace is a prefix: of its
// node labels, of its relationship type and of its constraint names. Labels, types and constraint names
// cannot be bound as parameters, so every name that reaches Cypher text is checked to be a plain identifier
// first, and quoted with backticks.
import { BenchError, ErrorCodes } from '../../core/errors.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Neo4j's limit on label, type and constraint names is far higher; this keeps every derived name readable.
const MAX_NAMESPACE_LENGTH = 63;
// A namespace "a_tmp" or "a_tmp_b" would name labels that namespace "a" reads as its temporary collections
// ("a_tmp_Profile"), so one namespace could drop another's data.
const TEMP_SEGMENT = /_tmp(_|$)/;

function assertIdentifier(what, value) {
  if (typeof value !== 'string' || !IDENTIFIER.test(value)) {
    throw new BenchError(ErrorCodes.USAGE,
      `neo4j: ${what} ${JSON.stringify(value)} is not an identifier ([A-Za-z_][A-Za-z0-9_]*)`);
  }
  return value;
}

export function quote(name) {
  return `\`${name.replaceAll('`', '``')}\``;
}

// Every name of a namespace: unquoted, for comparisons with what the server lists; under `q`, the labels and
// the relationship type quoted for Cypher text.
export function namespaceNames(namespace) {
  assertIdentifier('namespace', namespace);
  if (namespace.length > MAX_NAMESPACE_LENGTH) {
    throw new BenchError(ErrorCodes.USAGE,
      `neo4j: namespace "${namespace}" is longer than ${MAX_NAMESPACE_LENGTH} characters`);
  }
  if (TEMP_SEGMENT.test(namespace)) {
    throw new BenchError(ErrorCodes.USAGE, `neo4j: namespace "${namespace}" must not contain "_tmp" followed by "_" `
      + 'or at its end: its labels would look like the temporary collections of a shorter namespace');
  }
  const tempPrefix = `${namespace}_tmp_`;
  const profile = `${namespace}_Profile`;
  const marker = `${namespace}_Marker`;
  const type = `${namespace}_KNOWS`;
  const profileKeyConstraint = `${namespace}_profile_key`;
  return {
    namespace,
    profile,
    marker,
    type,
    tempPrefix,
    profileKeyConstraint,
    q: { profile: quote(profile), marker: quote(marker), type: quote(type) },
    temp(name) {
      assertIdentifier('collection name', name);
      const label = `${tempPrefix}${name}`;
      return { label, quoted: quote(label), keyConstraint: `${label}_key` };
    },
    // Whether a label, or a constraint or index name, listed by the server belongs to the namespace. A temporary
    // or query collection names its constraint and indexes after its label.
    ownsLabel: (label) => label === profile || label === marker || label.startsWith(tempPrefix),
    // The graph suite's edge collections have relationship types of their own, named after their labels.
    ownsType: (name) => name === type || name.startsWith(tempPrefix),
    ownsSchemaName: (name) => name === profileKeyConstraint || name.startsWith(tempPrefix),
  };
}
