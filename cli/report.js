// `bench report`: result documents of one or more databases in, one comparison out (stdout or --out).
import { writeFile } from 'node:fs/promises';
import { isReportError } from '../results/report/errors.js';
import { REPORT_FORMATS, createReport, datasetNote } from '../results/report/index.js';
import { ExitCodes } from './exit-codes.js';
import { checkOutputFile } from './output.js';

// Every report error is about the files or flags given: the usage exit code, and the message as it is.
export async function reportErrorsAsUsage(work) {
  try {
    return await work();
  } catch (error) {
    if (!isReportError(error)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    return ExitCodes.USAGE;
  }
}

export async function reportCommand(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  if (argv.out) checkOutputFile(argv.out);
  return reportErrorsAsUsage(async () => {
    const report = await createReport(argv.results, { baseline: argv.baseline, dataset: argv.dataset, allowMixed: argv['allow-mixed'], allowUnequalTerms: argv['allow-unequal-terms'], suite: argv.suite });
    // Which dataset of several was reported goes to stderr whatever the format, so it is seen next to a file.
    for (const line of datasetNote(report.datasetChoice)) stderr.write(`${line}\n`);
    const text = REPORT_FORMATS[argv.format](report);
    if (argv.out) {
      await writeFile(argv.out, text);
      stderr.write(`report (${argv.format}) written to ${argv.out}\n`);
    } else {
      stdout.write(text);
    }
    // Warnings also go to stderr, where they are seen when stdout is redirected to a file.
    if (argv.format !== 'table' || argv.out) for (const warning of report.warnings) stderr.write(`warning: ${warning}\n`);
    return ExitCodes.OK;
  });
}
