// What an end-to-end run of a database is held to under the durability terms (core/terms.js): the term it asks
// for, and the status each workload must end with under it.
import { DEFAULT_DURABILITY, declaredTerm, termObstacle } from '../../core/terms.js';

// The default term where the database offers it (every database but DuckDB and Neo4j), else the one it offers.
export function termFor(description) {
  return declaredTerm(description, DEFAULT_DURABILITY).how ? DEFAULT_DURABILITY : 'durable';
}

// 'passed', or 'unsupported' for a write workload the term stops on this database (its reason says why): a
// database that offers no durable term runs no singleWriteSync, a server-wide term only the run's.
export function expectedStatus(description, workload, term) {
  return termObstacle(description, workload, term) ? 'unsupported' : 'passed';
}
