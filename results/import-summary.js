// The readable summary of a `bench import` result document, for the terminal.
import { formatBytes, formatCount } from './format.js';
import { readStatsLine } from './table.js';

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

export function formatImport(result) {
  const { db, dataset, import: done } = result;
  const lines = [`${db.name} ${db.version} · dataset ${dataset.name} ${dataset.scale} (${formatCount(dataset.profiles)} profiles, `
    + `${formatCount(dataset.relations)} relations, seed ${dataset.seed})`];
  if (!done) {
    lines.push(`INCOMPLETE: ${result.error?.message ?? 'the import did not finish'}`);
    return lines.join('\n');
  }
  const offline = done.path === 'offline';
  lines.push(`import: ${seconds(done.ms)}${offline ? ' offline' : ''}, counts verified`);
  if (done.onlineBecause) lines.push(`  online: ${done.onlineBecause}`);
  // Both files loaded at once: the profiles' time runs from their first batch, the relations' from the start.
  if (done.filesTogether) lines.push('  profiles loaded while the server finished the relations: the two times overlap');
  // Offline, the profiles and relations are written to files first; the importer loads them afterwards.
  lines.push(`  profiles   ${seconds(done.profilesMs).padStart(9)}  ${formatCount(done.profilesPerSec).padStart(9)} rows/s${offline ? ' (written)' : ''}`);
  lines.push(`  relations  ${seconds(done.relationsMs).padStart(9)}  ${formatCount(done.relationsPerSec).padStart(9)} rows/s${offline ? ' (written)' : ''}`);
  if (offline) lines.push(`  load       ${seconds(done.loadMs).padStart(9)}  (the importer, the server restarted on its database)`);
  lines.push(`  indexes    ${seconds(done.indexesMs).padStart(9)}`);
  if (typeof done.diskBytes === 'number') lines.push(`on disk after import: ${formatBytes(done.diskBytes)}`);
  const read = readStatsLine(dataset.readStats);
  if (read) lines.push(read);
  return lines.join('\n');
}
