import { adapterIds, loadAdapter } from '../adapters/index.js';
import { WORKLOADS, isSupported } from '../workloads/suite.js';

export async function listCommand(argv, { stdout = process.stdout } = {}) {
  const descriptions = await Promise.all(adapterIds().map((id) => loadAdapter(id)));
  const listing = {
    adapters: descriptions.map((d) => ({
      id: d.id, name: d.name, kind: d.kind, driver: d.driver, execution: d.execution,
      passwordEnv: d.connection?.passwordEnv ?? null,
      supports: WORKLOADS.filter((w) => isSupported(d, w)).map((w) => w.name),
    })),
    workloads: WORKLOADS.map(({ name, operation, compared, description }) => ({ name, operation, compared, description })),
  };
  if (argv.json) {
    stdout.write(`${JSON.stringify(listing, null, 2)}\n`);
    return 0;
  }
  const lines = ['databases:'];
  const idWidth = Math.max(...listing.adapters.map((a) => a.id.length));
  for (const a of listing.adapters) {
    lines.push(`  ${a.id.padEnd(idWidth)}  ${a.name} (${a.kind}${a.driver ? `, driver ${a.driver}` : ''}${a.passwordEnv ? `, password from $${a.passwordEnv}` : ''})`);
  }
  lines.push('', 'workloads:');
  const nameWidth = Math.max(...WORKLOADS.map((w) => w.name.length));
  for (const w of WORKLOADS) lines.push(`  ${w.name.padEnd(nameWidth)}  ${w.description}${w.compared ? '' : ' (reported separately, not compared)'}`);
  lines.push('', 'support (x = supported):');
  lines.push(`  ${''.padEnd(nameWidth)}  ${listing.adapters.map((a) => a.id).join('  ')}`);
  for (const w of WORKLOADS) {
    const cells = listing.adapters.map((a) => (a.supports.includes(w.name) ? 'x' : '-').padEnd(a.id.length));
    lines.push(`  ${w.name.padEnd(nameWidth)}  ${cells.join('  ')}`);
  }
  stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
