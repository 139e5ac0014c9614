// Which test files may run at the same time (test/run.js with BENCH_TEST_JOBS above 1). Each file needs a set of
// shared things: the local servers it talks to (one namespace name serves many files, and a server's activity,
// settings and faults are seen by every session on it), and the shared cache (its embedded databases' default
// files). Two files run side by side only when they need nothing in common; a file that needs nothing shared runs
// beside anything.
//
// What a file needs is read from its source, erring towards more: its folder (test/<adapter>/), every server or
// adapter it names, every server when it uses `helpers/servers.js` without a name or in a loop over `adapterIds()`,
// and the shared cache when it reads defaultCacheDir() or runs the CLI without a BENCH_CACHE_DIR of its own. A file can say it
// outright on a line of its own: `// test-needs: postgresql, cache` (or `none`).

export const SERVERS = Object.freeze(['postgresql', 'mariadb', 'neo4j', 'orientdb', 'pouchdb', 'ferretdb']);
export const CACHE = 'cache';

// A name in a test's source, and the servers it means (FerretDB keeps its data on the local PostgreSQL).
const NAMES = Object.freeze({
  postgresql: ['postgresql'],
  postgresql_tabular: ['postgresql'],
  mysql: ['mariadb'],
  mariadb: ['mariadb'],
  neo4j: ['neo4j'],
  orientdb: ['orientdb'],
  couchdb: ['pouchdb'],
  pouchdb: ['pouchdb'],
  ferretdb: ['ferretdb', 'postgresql'],
});
const NAME_PATTERN = new RegExp(`\\b(${Object.keys(NAMES).join('|')})\\b`, 'g');
const DECLARED = /^\s*\/\/\s*test-needs:\s*(.+)$/m;

// The sorted list of what `file` (a path relative to the repository) needs, from its `source`.
export function fileNeeds(file, source) {
  const declared = DECLARED.exec(source);
  if (declared) {
    const names = declared[1].split(',').map((name) => name.trim()).filter(Boolean);
    if (names.length === 1 && names[0] === 'none') return [];
    const unknown = names.filter((name) => name !== CACHE && !SERVERS.includes(name));
    if (unknown.length > 0) throw new Error(`${file}: test-needs names ${unknown.join(', ')}; known: ${[...SERVERS, CACHE, 'none'].join(', ')}`);
    return [...new Set(names)].sort();
  }
  const needs = new Set();
  const folder = file.split(/[\\/]/).at(-2);
  for (const server of NAMES[folder] ?? []) needs.add(server);
  for (const [, name] of source.matchAll(NAME_PATTERN)) for (const server of NAMES[name]) needs.add(server);
  // A loop over every adapter that finds each one's server (serverTarget) meets every server, whatever names the
  // file also mentions (a list of exceptions for one of them says nothing of the others).
  const everyAdapter = /\badapterIds\(\)/.test(source) && /\bserverTarget\(/.test(source);
  if (/helpers\/servers\.js/.test(source) && (everyAdapter || ![...needs].some((need) => SERVERS.includes(need)))) {
    for (const server of SERVERS) needs.add(server);
  }
  if (/defaultCacheDir|runningServer/.test(source) || (/spawnBench|helpers\/cli\.js|bin\/bench\.js/.test(source) && !/BENCH_CACHE_DIR/.test(source))) {
    needs.add(CACHE);
  }
  return [...needs].sort();
}

// The order files are started in: those that need the most first (they can run beside the fewest), then by name.
// Files that need nothing shared come last, to fill the places the others leave.
export function startOrder(needsByFile) {
  return [...needsByFile.keys()].sort((a, b) => needsByFile.get(b).length - needsByFile.get(a).length || (a < b ? -1 : a > b ? 1 : 0));
}

// The first of `pending` (in order) that needs nothing a running file holds, or null. `held` is the set of
// what the running files need.
export function nextFile(pending, needsByFile, held) {
  return pending.find((file) => needsByFile.get(file).every((need) => !held.has(need))) ?? null;
}
