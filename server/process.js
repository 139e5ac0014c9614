// Process and network helpers shared by the local servers: free-port checks, waiting for a server to
// accept connections, the tail of its log, and stopping exactly the process that was started.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import net from 'node:net';
import { promisify } from 'node:util';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { isAlive } from './state.js';

export const run = promisify(execFile);
export const LOCALHOST = '127.0.0.1';
const POLL_MS = 200;
const LOG_TAIL_BYTES = 4000;

export const isRoot = () => process.getuid?.() === 0;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function portIsFree(port, host = LOCALHOST) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

export async function requireFreePort(port, family) {
  if (!(await portIsFree(port))) {
    throw new BenchError(ErrorCodes.USAGE,
      `port ${LOCALHOST}:${port} is already in use; start ${family} on another one with --port <n>`);
  }
}

function accepts(port, host) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(1000);
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('timeout', () => { socket.destroy(); resolve(false); });
    socket.once('error', () => resolve(false));
  });
}

export async function logTail(file) {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, LOG_TAIL_BYTES);
      const { buffer } = await handle.read(Buffer.alloc(length), 0, length, size - length);
      return buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return '(no log)';
  }
}

// Resolves once `port` accepts TCP connections; rejects with the log's tail when the process dies first or
// the time runs out.
export async function waitUntilAccepting({ port, pid, timeoutMs, logFile, family }) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await accepts(port, LOCALHOST)) return;
    if (pid !== undefined && !isAlive(pid)) {
      throw new BenchError(ErrorCodes.CONNECT, `${family} exited during start-up; the end of ${logFile}:\n${await logTail(logFile)}`);
    }
    await sleep(POLL_MS);
  }
  throw new BenchError(ErrorCodes.TIMEOUT,
    `${family} did not accept connections on ${LOCALHOST}:${port} within ${timeoutMs / 1000} s; the end of ${logFile}:\n${await logTail(logFile)}`);
}

// True when `pid` is still the program we started (a recycled pid must never be signalled).
export function isProgram(pid, program) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0].endsWith(program);
  } catch {
    return false;
  }
}

export async function waitUntilGone(pid, timeoutMs, family) {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      throw new BenchError(ErrorCodes.TIMEOUT, `${family} (pid ${pid}) did not stop within ${timeoutMs / 1000} s`);
    }
    await sleep(POLL_MS);
  }
}
