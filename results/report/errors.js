// The errors of `bench report` and `bench compare`. All of them are about the files or flags the user gave,
// so the commands exit with the usage code (2) on them.
import { BenchError } from '../../core/errors.js';

export const ReportErrorCodes = Object.freeze({
  NOT_A_RESULT: 'E_NOT_A_RESULT', // unreadable, not JSON, or not a db-shootout/result@1 document
  NO_RESULTS: 'E_NO_RESULTS', // a directory without result files, or no file at all
  MIXED_DATASETS: 'E_MIXED_DATASETS', // documents of different datasets, which no figure can compare
  MIXED_SUITES: 'E_MIXED_SUITES', // documents of different suites (bench run --suite), never compared
  BASELINE: 'E_BASELINE', // --baseline names a database that is not in the results
  UNKNOWN_DATASET: 'E_UNKNOWN_DATASET', // --dataset names a dataset that is not in the results
  MIXED_DATABASES: 'E_MIXED_DATABASES', // one side of `bench compare` holds several databases
});

export function reportError(code, message) {
  return new BenchError(code, message);
}

export function isReportError(error) {
  return Object.values(ReportErrorCodes).includes(error?.code);
}
