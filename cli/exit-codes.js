export const ExitCodes = Object.freeze({
  OK: 0,
  FAILED: 1, // a workload failed validation or errored, or the run could not be completed
  USAGE: 2, // bad flags, unknown database or workload
  INTERRUPTED: 130,
});
