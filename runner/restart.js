import { spawn } from 'node:child_process';
import { BenchError, ErrorCodes } from '../core/errors.js';

export const RESTART_TIMEOUT_MS = 300_000;

// Runs the user's --restart-cmd through the shell; its output goes to stderr, never into --json stdout.
export function restartServer(command, { timeoutMs = RESTART_TIMEOUT_MS } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', process.stderr, process.stderr] });
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new BenchError(ErrorCodes.TIMEOUT, `--restart-cmd did not finish within ${timeoutMs / 1000} s: ${command}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new BenchError(ErrorCodes.RESTART, `--restart-cmd could not start: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new BenchError(ErrorCodes.RESTART, `--restart-cmd exited with ${signal ?? `code ${code}`}: ${command}`));
    });
  });
}
