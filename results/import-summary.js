// The readable summary of a `bench import` result document, for the terminal.

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const count = (n) => n.toLocaleString('en-US');

function bytes(n) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

export function formatImport(result) {
  const { db, dataset, import: done } = result;
  const lines = [`${db.name} ${db.version} · dataset ${dataset.name} ${dataset.scale} (${count(dataset.profiles)} profiles, `
    + `${count(dataset.relations)} relations, seed ${dataset.seed})`];
  if (!done) {
    lines.push(`INCOMPLETE: ${result.error?.message ?? 'the import did not finish'}`);
    return lines.join('\n');
  }
  lines.push(`import: ${seconds(done.ms)}, counts verified`);
  lines.push(`  profiles   ${seconds(done.profilesMs).padStart(9)}  ${count(done.profilesPerSec).padStart(9)} rows/s`);
  lines.push(`  relations  ${seconds(done.relationsMs).padStart(9)}  ${count(done.relationsPerSec).padStart(9)} rows/s`);
  lines.push(`  indexes    ${seconds(done.indexesMs).padStart(9)}`);
  if (typeof done.diskBytes === 'number') lines.push(`on disk after import: ${bytes(done.diskBytes)}`);
  return lines.join('\n');
}
