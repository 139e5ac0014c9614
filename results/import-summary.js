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
  lines.push(`import: ${seconds(done.ms)}, counts verified`);
  lines.push(`  profiles   ${seconds(done.profilesMs).padStart(9)}  ${formatCount(done.profilesPerSec).padStart(9)} rows/s`);
  lines.push(`  relations  ${seconds(done.relationsMs).padStart(9)}  ${formatCount(done.relationsPerSec).padStart(9)} rows/s`);
  lines.push(`  indexes    ${seconds(done.indexesMs).padStart(9)}`);
  if (typeof done.diskBytes === 'number') lines.push(`on disk after import: ${formatBytes(done.diskBytes)}`);
  const read = readStatsLine(dataset.readStats);
  if (read) lines.push(read);
  return lines.join('\n');
}
