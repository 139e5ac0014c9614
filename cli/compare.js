// `bench compare <a> <b>`: two result sets of one database; exit code 1 when --fail-if-slower's gate fails.
import { writeFile } from 'node:fs/promises';
import { usageError } from '../core/errors.js';
import { createComparison } from '../results/compare.js';
import { COMPARE_FORMATS } from '../results/compare-format.js';
import { reportErrorsAsUsage } from './report.js';
import { ExitCodes } from './exit-codes.js';

export function checkCompareFlags(argv) {
  const pct = argv['fail-if-slower'];
  if (pct !== undefined && !(Number.isFinite(pct) && pct >= 0)) throw usageError(`--fail-if-slower must be a percentage of at least 0, got ${pct}`);
  return true;
}

export async function compareCommand(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  return reportErrorsAsUsage(async () => {
    const comparison = await createComparison(argv.a, argv.b, { failIfSlowerPct: argv['fail-if-slower'] ?? null });
    const text = COMPARE_FORMATS[argv.format](comparison);
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
