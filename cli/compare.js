// `bench compare <a> <b>`: two result sets of one database; exit code 1 when --fail-if-slower's gate fails.
import { writeFile } from 'node:fs/promises';
import { createComparison } from '../results/compare.js';
import { COMPARE_FORMATS } from '../results/compare-format.js';
import { formatCompareHtml } from '../results/compare-html.js';
import { reportErrorsAsUsage } from './report.js';
import { ExitCodes } from './exit-codes.js';
import { checkOutputFile } from './output.js';

const FORMATS = Object.freeze({ ...COMPARE_FORMATS, html: formatCompareHtml });

export async function compareCommand(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  if (argv.out) checkOutputFile(argv.out);
  return reportErrorsAsUsage(async () => {
    const comparison = await createComparison(argv.a, argv.b, { failIfSlowerPct: argv['fail-if-slower'] ?? null });
    // On stderr before anything else, whatever the format and wherever it goes; a table printed on the terminal
    // does not repeat them.
    for (const warning of comparison.warnings) stderr.write(`warning: ${warning}\n`);
    const text = FORMATS[argv.format](comparison, { warnings: Boolean(argv.out) });
    if (argv.out) {
      await writeFile(argv.out, text);
      stderr.write(`comparison (${argv.format}) written to ${argv.out}\n`);
    } else {
      stdout.write(text);
    }
    if (comparison.gate && !comparison.gate.passed) {
      stderr.write(`failed: ${comparison.gate.failed.map((f) => `${f.workload} ${f.reason}`).join('; ')}\n`);
      return ExitCodes.FAILED;
    }
    return ExitCodes.OK;
  });
}
