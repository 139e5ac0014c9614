// What a namespace holds on the server, and removing it. Each function takes `run(query, params)`, which runs
// one auto-commit query and resolves to its records.
import { BenchError, ErrorCodes } from '../../core/errors.js';
import { quote } from './schema.js';

// Rows per inner transaction when deleting: one transaction over a whole dataset would hold every deleted
// record in the heap.
const DELETE_BATCH = 10000;

function parseMarker(text) {
  try {
    const marker = JSON.parse(text);
    return marker !== null && typeof marker === 'object' && !Array.isArray(marker) ? marker : null;
  } catch {
    return null;
  }
}

// The namespace's labels that label at least one node, its relationship types in use, and its constraint
// and index names. db.labels() and db.relationshipTypes() list only what is in use.
async function namespaceObjects(run, names) {
  const labels = (await run('CALL db.labels() YIELD label RETURN label'))
    .map((record) => record.get('label')).filter(names.ownsLabel);
  const types = (await run('CALL db.relationshipTypes() YIELD relationshipType AS type RETURN type'))
    .map((record) => record.get('type')).filter(names.ownsType);
  const constraints = (await run('SHOW CONSTRAINTS YIELD name RETURN name'))
    .map((record) => record.get('name')).filter(names.ownsSchemaName);
  const indexes = (await run('SHOW INDEXES YIELD name RETURN name'))
    .map((record) => record.get('name')).filter(names.ownsSchemaName);
  return { labels, types, constraints, indexes };
}

// 'owned' when a marker node holds a JSON object; 'foreign' when anything else of the namespace exists (a
// marker node holding something else included); 'absent' otherwise.
export async function inspectNamespace(run, names) {
  const found = await run(`MATCH (m:${names.q.marker}) RETURN m.marker AS marker LIMIT 1`);
  if (found.length > 0) {
    const marker = parseMarker(found[0].get('marker'));
    if (marker) return { state: 'owned', marker, objects: null };
  }
  const objects = await namespaceObjects(run, names);
  const any = found.length > 0 || Object.values(objects).some((list) => list.length > 0);
  return { state: any ? 'foreign' : 'absent', marker: null, objects };
}

export async function deleteRelationships(run, type) {
  await run(`MATCH ()-[r:${quote(type)}]->() CALL (r) { DELETE r } IN TRANSACTIONS OF ${DELETE_BATCH} ROWS`);
}

// Plain DELETE, never DETACH: a relationship someone else attached to one of these nodes makes the delete
// fail instead of disappearing with it.
export async function deleteNodes(run, label) {
  await run(`MATCH (n:${quote(label)}) CALL (n) { DELETE n } IN TRANSACTIONS OF ${DELETE_BATCH} ROWS`);
}

// Dropping a constraint drops its index; the indexes listed are dropped too when they back no constraint.
export async function dropSchema(run, { constraints, indexes }) {
  for (const name of constraints) await run(`DROP CONSTRAINT ${quote(name)} IF EXISTS`);
  for (const name of indexes) await run(`DROP INDEX ${quote(name)} IF EXISTS`);
}

// A node of the namespace that carries a label of someone else's, or a relationship of another type: deleting
// it would delete someone else's data with it.
async function assertNothingForeignAttached(run, labels) {
  for (const label of labels) {
    const found = await run(`
      MATCH (n:${quote(label)})
      WHERE size(labels(n)) > 1 OR COUNT { (n)--() } > 0
      RETURN labels(n) AS labels, [(n)-[r]-() | type(r)][0..3] AS types LIMIT 1`);
    if (found.length > 0) {
      const others = [...found[0].get('labels').filter((other) => other !== label), ...found[0].get('types')];
      throw new BenchError(ErrorCodes.NAMESPACE_FOREIGN, `neo4j: nodes labelled ${label} carry labels or `
        + `relationships that db-shootout did not create (${others.join(', ')}); refusing to delete them`);
    }
  }
}

// Deletes every relationship, node, constraint and index of the namespace, the marker last, so an interrupted
// call leaves a namespace that is still recognisably the harness's. Only for a namespace already inspected.
export async function deleteNamespace(run, names, { keepMarker = false } = {}) {
  const { labels, types, constraints, indexes } = await namespaceObjects(run, names);
  for (const type of types) await deleteRelationships(run, type);
  const data = labels.filter((label) => label !== names.marker);
  await assertNothingForeignAttached(run, data);
  for (const label of data) await deleteNodes(run, label);
  await dropSchema(run, { constraints, indexes });
  if (!keepMarker) await deleteNodes(run, names.marker);
}
