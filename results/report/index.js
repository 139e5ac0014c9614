// `bench report` as an API: documents in, the report's model out, and one function per output format.
import { buildReport } from './build.js';
import { datasetNote } from './datasets.js';
import { formatReportCsv } from './format-csv.js';
import { formatReportMarkdown, formatReportTable } from './format-text.js';
import { formatReportHtml } from './html.js';
import { loadResults } from './load.js';

export const REPORT_FORMATS = Object.freeze({
  table: formatReportTable,
  markdown: formatReportMarkdown,
  csv: formatReportCsv,
  json: (report) => `${JSON.stringify(report, null, 2)}\n`,
  html: formatReportHtml,
});

// `targets`: result files and directories. Options: `baseline`, `dataset`, `allowMixed` (see build.js).
export async function createReport(targets, options = {}) {
  return buildReport(await loadResults(targets), options);
}

export { buildReport, datasetNote, loadResults };
