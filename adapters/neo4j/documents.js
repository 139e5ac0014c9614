// Documents as Neo4j properties. The driver sends every JavaScript number as a float, so integer fields are
// wrapped as Neo4j integers to be stored as integers; they come back as plain numbers (the driver runs with
// disableLosslessIntegers).
import neo4j from 'neo4j-driver';

export function toProperties(doc) {
  const properties = {};
  for (const [field, value] of Object.entries(doc)) {
    properties[field] = Number.isInteger(value) ? neo4j.int(value) : value;
  }
  return properties;
}
