// Documents as Neo4j properties. The driver sends every JavaScript number as a float, so integer fields are
// wrapped as Neo4j integers to be stored as integers; they come back as plain numbers (the driver runs with
// disableLosslessIntegers).
import neo4j from 'neo4j-driver';

// Object.fromEntries defines each field as an own property: an assignment to a field named `__proto__` would set
// the object's prototype instead.
export function toProperties(doc) {
  return Object.fromEntries(Object.entries(doc)
    .map(([field, value]) => [field, Number.isInteger(value) ? neo4j.int(value) : value]));
}
