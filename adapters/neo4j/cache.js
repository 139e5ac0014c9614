// The memory term on Neo4j (adapters/README.md, "Terms", Memory): the page cache, which holds the store's pages
// (nodes, relationships, properties, indexes), sized by server.memory.pagecache.size and read back with SHOW
// SETTINGS. The JVM heap beside it (transactions, query state, Cypher's plans) is no part of the term; its maximum
// is recorded with it, as the JVM reports it.

export const PAGE_CACHE = 'server.memory.pagecache.size';

// Neo4j's byte units are binary: SHOW SETTINGS gives "1.00GiB", "64.00MiB"; neo4j.conf takes "512m", "1g" or bytes.
const UNITS = Object.freeze({ '': 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 });

export function parseByteSize(text) {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(String(text ?? ''));
  return match ? Math.round(Number(match[1]) * UNITS[match[2].toUpperCase()]) : null;
}

// { bytes, settings } from the page cache's setting as SHOW SETTINGS gives it ({ value, isExplicitlySet }, the
// latter undefined on releases without that column) and the heap's maximum (bytes, or { refused: reason }).
export function neo4jCache({ pageCache, heapMax }) {
  let source;
  if (pageCache.value === null) {
    source = 'server (SHOW SETTINGS: not set, so Neo4j sized the page cache at start from the machine\'s memory and reports no size)';
  } else if (pageCache.isExplicitlySet === undefined) {
    source = 'server (SHOW SETTINGS)';
  } else {
    source = `server (SHOW SETTINGS: ${pageCache.isExplicitlySet ? 'set in neo4j.conf or on the command line' : 'Neo4j\'s default'})`;
  }
  const heap = typeof heapMax === 'number'
    ? { value: `${heapMax} B`, source: 'server (dbms.queryJmx java.lang:type=Memory, HeapMemoryUsage.max: the JVM\'s -Xmx); beside the page cache, not part of it' }
    : { value: 'unreadable', source: `server refused dbms.queryJmx: ${heapMax.refused}` };
  return {
    bytes: parseByteSize(pageCache.value),
    settings: { [PAGE_CACHE]: { value: pageCache.value ?? 'not set', source }, 'JVM heap (max)': heap },
  };
}

// What neo4jCache needs, asked through `run(query, params)` (the adapter's read). A user the server does not let
// read the JVM's beans (a Neo.ClientError: forbidden, or no such procedure) leaves the heap unreadable.
export async function readCache(run) {
  const [record] = await run('SHOW SETTINGS YIELD * WHERE name = $name RETURN *', { name: PAGE_CACHE });
  const pageCache = {
    value: record?.get('value') ?? null,
    isExplicitlySet: record?.has('isExplicitlySet') ? record.get('isExplicitlySet') : undefined,
  };
  let heapMax;
  try {
    const [heap] = await run("CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes "
      + 'RETURN attributes.HeapMemoryUsage.value.properties.max');
    heapMax = heap?.get(0) ?? { refused: 'no java.lang:type=Memory bean' };
  } catch (error) {
    if (!String(error.code).startsWith('Neo.ClientError.')) throw error;
    heapMax = { refused: `${error.code} (${error.message.split('\n')[0]})` };
  }
  return neo4jCache({ pageCache, heapMax });
}
