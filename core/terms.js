// The terms a comparison runs under, the same for every database of it: how durable an acknowledged write is.
// Each adapter declares how its database gets each term (description.terms, adapters/README.md, "Terms"), or
// why it cannot; the harness applies the term, reads the server's effective settings back before any work and
// records them in the result; a report of results run under different terms says so first.
import { usageError } from './errors.js';

export const DURABILITY = Object.freeze({
  relaxed: 'acknowledged before the commit\'s log record is flushed to disk: an operating-system crash or a power loss '
    + 'can lose the last moments of acknowledged writes, and so can a crash of the database\'s process where its '
    + 'log waits in the server\'s own memory (each database\'s `how` says)',
  durable: 'acknowledged after the commit\'s log record is flushed to disk (fsync): an acknowledged write survives '
    + 'a power loss (on storage that honours flushes)',
});
export const DURABILITY_TERMS = Object.freeze(Object.keys(DURABILITY));
// The 2012 CRUD publication turned per-write sync off in both databases; so does every suite by default.
export const DEFAULT_DURABILITY = 'relaxed';

// Where a database's term is chosen: 'session' (each connection or request picks it, so both terms can run side by
// side in one run: PostgreSQL's synchronous_commit), 'server' (one setting for the whole server: MariaDB's
// innodb_flush_log_at_trx_commit), 'none' (no writes reach a disk: the memory store).
export const SCOPES = Object.freeze(['session', 'server', 'none']);

// --durability, and crud's and mixed's older --sync, which means --durability durable.
export function durabilityOf({ durability, sync }) {
  if (Array.isArray(durability)) throw usageError(`--durability is given ${durability.length} times; give it once`);
  if (durability !== undefined && !DURABILITY_TERMS.includes(durability)) {
    throw usageError(`unknown durability "${durability}"; valid terms: ${DURABILITY_TERMS.join(', ')}`);
  }
  if (sync && durability === 'relaxed') {
    throw usageError('--sync means --durability durable; it contradicts --durability relaxed');
  }
  if (sync) return 'durable';
  return durability ?? DEFAULT_DURABILITY;
}

// The term a workload's writes run under: `durability: 'run'` follows the run's term, 'durable' always
// (singleWriteSync, a durable per-write acknowledgement by definition); none for a workload that writes nothing
// the clock measures.
export function workloadDurability(workload, runTerm) {
  if (workload.durability === 'durable') return 'durable';
  if (workload.durability === 'run') return runTerm;
  return null;
}

// The adapter's declaration of one term: { how } or { unavailable }; an adapter that declares no terms
// at all has none of them.
export function declaredTerm(description, term) {
  const declared = description.terms?.durability;
  if (!declared) return { unavailable: `${description.name}'s adapter declares no durability terms (adapters/README.md, "Terms")` };
  const entry = declared[term];
  if (!entry || (!entry.how && !entry.unavailable)) return { unavailable: `${description.name}'s adapter does not declare the ${term} term` };
  return entry;
}

// Why a workload cannot run under this run's terms on this database, or null when it can: the term it needs is
// unavailable, or (a server-wide setting) another term than the run's.
export function termObstacle(description, workload, runTerm) {
  const term = workloadDurability(workload, runTerm);
  if (!term) return null;
  const declared = declaredTerm(description, term);
  if (declared.unavailable) {
    return `${description.name} cannot write under the ${term} durability term: ${declared.unavailable}`;
  }
  const scope = description.terms.durability.scope ?? 'session';
  if (term !== runTerm && scope === 'server') {
    return `${description.name} sets durability for the whole server, and this run's term is ${runTerm}: `
      + `the ${workload.name} workload needs ${term} (run it with --durability ${term})`;
  }
  return null;
}

// The durability terms the planned workloads need, each once.
export function neededTerms(workloads, runTerm) {
  return [...new Set(workloads.map((workload) => workloadDurability(workload, runTerm)).filter(Boolean))];
}

// The result's `terms` section: what was asked, how the database gets it, and what the server says.
export function termsRecord({ description, durability, source, verified }) {
  const declared = declaredTerm(description, durability);
  return {
    durability: {
      term: durability,
      source,
      meaning: DURABILITY[durability],
      how: declared.how ?? null,
      unavailable: declared.unavailable ?? null,
      scope: description.terms?.durability?.scope ?? null,
      settings: verified?.settings ?? {},
      applied: verified?.applied ?? [],
    },
  };
}

// The durability term a result ran under, or null for a result of a time before terms were recorded.
export const durabilityOfResult = (result) => result.terms?.durability?.term ?? null;

// --cache: the memory the database may keep its data in (PostgreSQL's shared_buffers, InnoDB's buffer pool,
// Neo4j's page cache, SQLite's cache_size, DuckDB's memory_limit), the same for every database. Units are
// binary, as PostgreSQL and MariaDB read them: 1 MB = 1024 × 1024 bytes.
const UNITS = Object.freeze({ '': 1, B: 1, KB: 2 ** 10, K: 2 ** 10, MB: 2 ** 20, M: 2 ** 20, GB: 2 ** 30, G: 2 ** 30 });
// Smaller than any database accepts (InnoDB: 5 MB; PostgreSQL: 128 kB) and larger than any machine.
const MIN_CACHE = 8 * 2 ** 20;
const MAX_CACHE = 2 ** 40;

export function parseSize(text, flag = 'cache') {
  if (Array.isArray(text)) throw usageError(`--${flag} is given ${text.length} times; give it once`);
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMG]?B?)\s*$/i.exec(String(text));
  const bytes = match ? Math.round(Number(match[1]) * UNITS[match[2].toUpperCase()]) : Number.NaN;
  if (!Number.isFinite(bytes) || bytes < MIN_CACHE || bytes > MAX_CACHE) {
    throw usageError(`--${flag} must be a size from 8MB to 1024GB, such as 512MB or 2GB (1 MB = 1024 × 1024 bytes), got ${text}`);
  }
  return bytes;
}

// 512MB, 1.5GB, 65536 bytes as 64KB.
export function formatSize(bytes) {
  if (bytes === null || bytes === undefined) return 'n/a';
  for (const [unit, size] of [['GB', 2 ** 30], ['MB', 2 ** 20], ['KB', 2 ** 10]]) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(2))}${unit}`;
  }
  return `${bytes}B`;
}

// Whether a cache the server reports is the one asked for: databases round a size to their page or chunk
// (PostgreSQL to 8 kB buffers, InnoDB to its chunks), so within 1% or one 8 kB page.
export function sameCache(requested, reported) {
  return typeof reported === 'number' && Math.abs(reported - requested) <= Math.max(8192, requested * 0.01);
}
