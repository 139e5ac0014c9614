// Errors carry a stable `code` so the CLI, the conformance suite and callers can branch on it
// without matching message text.

export const ErrorCodes = Object.freeze({
  USAGE: 'E_USAGE',
  UNKNOWN_DB: 'E_UNKNOWN_DB',
  UNKNOWN_WORKLOAD: 'E_UNKNOWN_WORKLOAD',
  CONNECT: 'E_CONNECT',
  NAMESPACE_FOREIGN: 'E_NAMESPACE_FOREIGN',
  UNSUPPORTED: 'E_UNSUPPORTED',
  TIMEOUT: 'E_TIMEOUT',
  DATASET: 'E_DATASET',
  IMPORT: 'E_IMPORT',
  RESTART: 'E_RESTART',
  OUTPUT: 'E_OUTPUT',
  TERMS: 'E_TERMS',
});

export class BenchError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.name = 'BenchError';
    this.code = code;
  }
}

export function usageError(message) {
  return new BenchError(ErrorCodes.USAGE, message);
}

// Rejects with E_TIMEOUT when `promise` has not settled within `ms`. The timer keeps the process alive on
// purpose: a promise that never settles must end in this error, not in a silent exit.
export async function withTimeout(promise, ms, message) {
  let timer;
  const timeout = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new BenchError(ErrorCodes.TIMEOUT, message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
