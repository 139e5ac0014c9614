// Process and network helpers shared by the local servers: free-port checks, waiting for a server to
// accept connections, confirming that the process started is the one listening, the tail of its log, and
// stopping exactly the processes that were started, in bounded time.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { open, readdir, readFile, readlink } from 'node:fs/promises';
import net from 'node:net';
import { promisify } from 'node:util';
import { BenchError, ErrorCodes } from '../core/errors.js';
import { parseStat, processTree } from '../resources/proc.js';
import { isAlive } from './state.js';

export const run = promisify(execFile);
export const LOCALHOST = '127.0.0.1';
const POLL_MS = 200;
const LOG_TAIL_BYTES = 4000;
// After SIGKILL a process is gone within milliseconds unless it is stuck in the kernel (uninterruptible I/O).
const KILL_WAIT_MS = 10_000;
// /proc/net/tcp's state of a listening socket.
const TCP_LISTEN = '0A';

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
// the time runs out (then the process started is killed, so nothing stays behind).
// `host`: where it listens (127.0.0.1 unless a cluster's node in a network namespace of its own).
export async function waitUntilAccepting({ port, pid, timeoutMs, logFile, family, host = LOCALHOST }) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await accepts(port, host)) return;
    if (pid !== undefined && !isAlive(pid)) {
      throw new BenchError(ErrorCodes.CONNECT, `${family} exited during start-up; the end of ${logFile}:\n${await logTail(logFile)}`);
    }
    await sleep(POLL_MS);
  }
  if (pid !== undefined) await killTree(await treeOf(pid), family);
  throw new BenchError(ErrorCodes.TIMEOUT,
    `${family} did not accept connections on ${host}:${port} within ${timeoutMs / 1000} s (killed); the end of ${logFile}:\n${await logTail(logFile)}`);
}

// Resolves once the part of `logFile` written after byte `from` matches `pattern`: for a server that accepts
// connections before it is ready for them. Rejects as waitUntilAccepting does.
export async function waitUntilLogged({ logFile, from, pattern, pid, timeoutMs, family, what }) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (pattern.test(await readFrom(logFile, from))) return;
    if (pid !== undefined && !isAlive(pid)) {
      throw new BenchError(ErrorCodes.CONNECT, `${family} exited during start-up; the end of ${logFile}:\n${await logTail(logFile)}`);
    }
    await sleep(POLL_MS);
  }
  if (pid !== undefined) await killTree(await treeOf(pid), family);
  throw new BenchError(ErrorCodes.TIMEOUT,
    `${family} did not report ${what} within ${timeoutMs / 1000} s (killed); the end of ${logFile}:\n${await logTail(logFile)}`);
}

async function readFrom(file, from) {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      if (size <= from) return '';
      const { buffer } = await handle.read(Buffer.alloc(size - from), 0, size - from, from);
      return buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}

// The inodes of the TCP sockets listening on `port`, on any address, IPv4 or IPv6 (a Java server binds
// 127.0.0.1 through an IPv6 socket), in the network namespace of `pid` (this process's by default: a cluster's node
// may run in a namespace of its own).
export async function listeningInodes(port, pid = 'self') {
  const inodes = new Set();
  for (const table of [`/proc/${pid}/net/tcp`, `/proc/${pid}/net/tcp6`]) {
    let text;
    try {
      text = await readFile(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== TCP_LISTEN) continue;
      if (Number.parseInt(fields[1].split(':').at(-1), 16) === port) inodes.add(fields[9]);
    }
  }
  return inodes;
}

async function socketInodes(pid) {
  let fds;
  try {
    fds = await readdir(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  return links.map((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1]).filter(Boolean);
}

// The pid of the process in `pid`'s tree (itself or a descendant: a wrapper script, runuser, a forked
// server) that holds a socket listening on `port`, or null when none does.
export async function listenerInTree(pid, port) {
  const listening = await listeningInodes(port, pid);
  if (listening.size === 0) return null;
  for (const member of await processTree(pid)) {
    if ((await socketInodes(member)).some((inode) => listening.has(inode))) return member;
  }
  return null;
}

// The kernel's range of local ports for outgoing connections, [low, high], or null where it cannot be read.
export function ephemeralRange(file = '/proc/sys/net/ipv4/ip_local_port_range') {
  try {
    const [low, high] = readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);
    return Number.isInteger(low) && Number.isInteger(high) ? [low, high] : null;
  } catch {
    return null;
  }
}

// Why a port may be held for a while by no server at all: any outgoing connection may take a port of the
// ephemeral range as its local end.
export function ephemeralNote(port, range = ephemeralRange()) {
  if (!range || port < range[0] || port > range[1]) return '';
  return ` (it lies in the kernel's ephemeral range, ${range[0]}-${range[1]}, whose ports outgoing connections take as their own: `
    + `a server restarted there may find one; a port below ${range[0]} avoids that)`;
}

// A port that answers proves nothing by itself: another process may hold it while the server started fails
// to bind it and exits. Resolves once the started process (or one of its descendants) is the one listening;
// rejects with the log's tail when it dies first or the time runs out.
export async function confirmOwnListener({ pid, port, timeoutMs, logFile, family }) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await listenerInTree(pid, port)) return;
    if (!isAlive(pid)) {
      throw new BenchError(ErrorCodes.CONNECT,
        `${family} (pid ${pid}) exited during start-up; port ${port} is held by another process${ephemeralNote(port)}; the end of ${logFile}:\n${await logTail(logFile)}`);
    }
    if (performance.now() > deadline) {
      throw new BenchError(ErrorCodes.CONNECT,
        `${family} (pid ${pid}) is running, but port ${port} is not its own: another process listens there; the end of ${logFile}:\n${await logTail(logFile)}`);
    }
    await sleep(POLL_MS);
  }
}

// True when `pid` is still the program we started (a recycled pid must never be signalled).
export function isProgram(pid, program) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0].endsWith(program);
  } catch {
    return false;
  }
}

// True once every pid is gone, false when `timeoutMs` ran out first.
async function allGone(pids, timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  while (pids.some(isAlive)) {
    if (performance.now() > deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

function startTime(pid) {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).startTime;
  } catch {
    return null;
  }
}

// The members of a process tree, each with its start time, so that a pid recycled later is never signalled.
export async function treeOf(pid) {
  return (await processTree(pid)).map((member) => ({ pid: member, startTime: startTime(member) }));
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch (error) {
    if (error.code !== 'ESRCH') throw error;
  }
}

// SIGKILL to every member of `tree` (root first) still alive, then waits until they are gone. The tree is
// taken before: when the root dies its children are handed to another parent and can no longer be found from
// it. The root is stopped first, so that it forks nothing more and its children do not see it die before
// their own kill: the whole tree ends as in one blow.
export async function killTree(tree, family) {
  const live = tree.filter((member) => member.startTime !== null && startTime(member.pid) === member.startTime);
  if (live.length > 1) signal(live[0].pid, 'SIGSTOP');
  for (const { pid } of [...live.slice(1), ...live.slice(0, 1)]) signal(pid, 'SIGKILL');
  if (!(await allGone(live.map((member) => member.pid), KILL_WAIT_MS))) {
    throw new BenchError(ErrorCodes.TIMEOUT,
      `${family}: processes ${live.map((member) => member.pid).join(', ')} survived SIGKILL for ${KILL_WAIT_MS / 1000} s`);
  }
  return live.length;
}

// Stops a server in bounded time: `request()` asks it to stop (a signal, or the server's own stop command,
// which must not wait for the end itself); after `graceMs` whatever is left of its process tree is killed.
// Resolves with `{ killed }`: false when it stopped by itself, else the number of processes killed.
export async function stopProcessTree({ pid, request, graceMs, family }) {
  const tree = await treeOf(pid);
  // A stop request that fails (a server that no longer answers it, a process already gone) leaves the end to
  // the grace period and the kill.
  await Promise.resolve().then(request).catch(() => {});
  if (await allGone([pid], graceMs)) return { killed: false };
  const latest = await treeOf(pid);
  const known = new Set(tree.map((member) => member.pid));
  return { killed: await killTree([...tree, ...latest.filter((member) => !known.has(member.pid))], family) };
}
