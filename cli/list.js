import { DURABILITY_TERMS, declaredTerm } from '../core/terms.js';
import { adapterIds, loadAdapter } from '../adapters/index.js';
import { SUITES, isSupported } from '../workloads/index.js';
import { describePreset, formatValue, presetsOf } from '../workloads/presets.js';

const describeWorkload = ({ name, operation, compared, description }) => ({ name, operation, compared, description });
const supportedNames = (description, suite) => suite.workloads.filter((w) => isSupported(description, w)).map((w) => w.name);

function suiteLines(suite, adapters) {
  const lines = [`suite ${suite.id}: ${suite.description}`, '  workloads:'];
  const nameWidth = Math.max(...suite.workloads.map((w) => w.name.length));
  for (const w of suite.workloads) {
    lines.push(`    ${w.name.padEnd(nameWidth)}  ${w.description}${w.compared ? '' : ' (reported separately, not compared)'}`);
  }
  lines.push('  support (x = supported):');
  lines.push(`    ${''.padEnd(nameWidth)}  ${adapters.map((a) => a.id).join('  ')}`);
  for (const w of suite.workloads) {
    const cells = adapters.map((a) => (a.suites[suite.id].includes(w.name) ? 'x' : '-').padEnd(a.id.length));
    lines.push(`    ${w.name.padEnd(nameWidth)}  ${cells.join('  ')}`);
  }
  const presets = presetsOf(suite.id);
  if (presets.length > 0) lines.push('  presets (bench run --preset <name>; a flag given as well overrides the preset\'s value):');
  for (const { name, description, parameters } of presets) {
    lines.push(`    ${name}  ${description}`);
    lines.push(`      ${Object.entries(parameters).map(([parameter, value]) => `${parameter} ${formatValue(value)}`).join(', ')}`);
  }
  return lines;
}

export async function listCommand(argv, { stdout = process.stdout } = {}) {
  const descriptions = await Promise.all(adapterIds().map((id) => loadAdapter(id)));
  const suites = Object.values(SUITES);
  const listing = {
    adapters: descriptions.map((d) => ({
      id: d.id, name: d.name, kind: d.kind, driver: d.driver, execution: d.execution,
      passwordEnv: d.connection?.passwordEnv ?? null,
      // The durability terms it offers (core/terms.js), as its description declares them.
      durability: DURABILITY_TERMS.filter((term) => declaredTerm(d, term).how),
      // The social suite's workloads, as before suites existed; `suites` has every suite's.
      supports: supportedNames(d, SUITES.social),
      suites: Object.fromEntries(suites.map((suite) => [suite.id, supportedNames(d, suite)])),
    })),
    workloads: SUITES.social.workloads.map(describeWorkload),
    suites: suites.map((suite) => ({
      id: suite.id,
      name: suite.name,
      description: suite.description,
      workloads: suite.workloads.map(describeWorkload),
      presets: presetsOf(suite.id).map(describePreset),
    })),
  };
  if (argv.json) {
    stdout.write(`${JSON.stringify(listing, null, 2)}\n`);
    return 0;
  }
  const lines = ['databases:'];
  const idWidth = Math.max(...listing.adapters.map((a) => a.id.length));
  for (const a of listing.adapters) {
    lines.push(`  ${a.id.padEnd(idWidth)}  ${a.name} (${a.kind}${a.driver ? `, driver ${a.driver}` : ''}${a.passwordEnv ? `, password from $${a.passwordEnv}` : ''}; durability: ${a.durability.join(', ') || 'none'})`);
  }
  for (const suite of suites) lines.push('', ...suiteLines(suite, listing.adapters));
  stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
