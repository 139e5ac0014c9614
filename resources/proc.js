// What Linux's /proc says about a process tree: its members, their CPU time, their resident memory and their
// I/O. Every read is asynchronous, so sampling a server never stalls the event loop that times its operations.
// A process that vanishes between two reads is simply left out; nothing here throws for it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';

// USER_HZ, the unit of the times in /proc/<pid>/stat: 100 on every common Linux architecture.
const DEFAULT_CLOCK_TICKS = 100;
let clockTicks;

export function clockTicksPerSecond() {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString()) || DEFAULT_CLOCK_TICKS;
    } catch {
      clockTicks = DEFAULT_CLOCK_TICKS;
    }
  }
  return clockTicks;
}

// /proc/<pid>/stat: the command name is in parentheses and may itself hold spaces and parentheses, so the
// fields are counted from the last ')'. After it come field 3 (state), 4 (ppid), ..., 14 (utime),
// 15 (stime), ..., 22 (starttime).
export function parseStat(text) {
  const fields = text.slice(text.lastIndexOf(')') + 2).trim().split(' ');
  return {
    state: fields[0],
    ppid: Number(fields[1]),
    cpuTicks: Number(fields[11]) + Number(fields[12]),
    startTime: fields[19],
  };
}

// /proc/<pid>/status: the resident memory split by kind, in bytes (the file gives kB).
export function parseStatus(text) {
  const kib = (name) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
    return match ? Number(match[1]) * 1024 : 0;
  };
  return { anonBytes: kib('RssAnon'), fileBytes: kib('RssFile'), shmemBytes: kib('RssShmem'), rssBytes: kib('VmRSS') };
}

// /proc/<pid>/io: rchar and wchar count every byte passed to read() and write() and their kin, whatever served
// them (page cache, pipe, socket); read_bytes and write_bytes what the process made the storage layer read, and
// the pages it dirtied for writing. Null when a field is missing.
export function parseIo(text) {
  const field = (name) => {
    const match = new RegExp(`^${name}:\\s+(\\d+)$`, 'm').exec(text);
    return match ? Number(match[1]) : null;
  };
  const io = { readBytes: field('read_bytes'), writeBytes: field('write_bytes'), readChars: field('rchar'), writeChars: field('wchar') };
  return Object.values(io).includes(null) ? null : io;
}

// A kernel built without task I/O accounting has no /proc/<pid>/io at all; then no process's I/O is known.
let ioAccounting;
export function hasIoAccounting() {
  ioAccounting ??= existsSync('/proc/self/io');
  return ioAccounting;
}

const GONE = Symbol('gone');

// /proc/<pid>/io may be read only with the rights to trace the process (the same user, or CAP_SYS_PTRACE):
// unreadable counters are unknown (null), which is not the same as a process that has exited meanwhile (GONE).
async function readIo(pid) {
  if (!hasIoAccounting()) return null;
  try {
    return parseIo(await readFile(`/proc/${pid}/io`, 'utf8'));
  } catch (error) {
    return error.code === 'EACCES' || error.code === 'EPERM' ? null : GONE;
  }
}

async function readText(file) {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return null;
  }
}

async function children(pid) {
  let tasks;
  try {
    tasks = await readdir(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  // Any thread may have forked, and each thread lists only its own children.
  const lists = await Promise.all(tasks.map((tid) => readText(`/proc/${pid}/task/${tid}/children`)));
  return lists.flatMap((list) => (list ? list.trim().split(' ').filter(Boolean).map(Number) : []));
}

// The pid and all its descendants, root first; empty when the root has gone.
export async function processTree(pid) {
  const tree = [];
  let level = [pid];
  const seen = new Set();
  while (level.length > 0) {
    const fresh = level.filter((member) => !seen.has(member));
    for (const member of fresh) seen.add(member);
    tree.push(...fresh);
    level = (await Promise.all(fresh.map(children))).flat();
  }
  return tree;
}

// One reading of the tree: per process (keyed by pid and start time, so a recycled pid is a new process) its
// CPU ticks and its I/O counters with the key of its parent in the tree (null for the root; counters null when
// unreadable), and the tree's resident memory. Shared memory and mapped files are counted once, as the largest
// residency of any one process: a server's processes map the same shared buffers and binaries, and summing
// their VmRSS would count those once per process. Null when the root has gone (or is a zombie).
export async function readTree(pid) {
  const pids = await processTree(pid);
  const readings = await Promise.all(pids.map(async (member) => {
    const [stat, status, io] = await Promise.all([
      readText(`/proc/${member}/stat`), readText(`/proc/${member}/status`), readIo(member),
    ]);
    return stat && status && io !== GONE ? { pid: member, ...parseStat(stat), ...parseStatus(status), io } : null;
  }));
  // The times were read by now, so this is the moment the reading describes.
  const at = performance.now();
  const root = readings[0];
  if (!root || root.pid !== pid || root.state === 'Z') return null;
  const live = readings.filter(Boolean);
  const keys = new Map(live.map((p) => [p.pid, `${p.pid}:${p.startTime}`]));
  const ticks = new Map(live.map((p) => [keys.get(p.pid), p.cpuTicks]));
  const io = new Map(live.map((p) => [keys.get(p.pid), { parent: p.pid === pid ? null : keys.get(p.ppid) ?? null, counters: p.io }]));
  const sum = (name) => live.reduce((total, p) => total + p[name], 0);
  const max = (name) => live.reduce((most, p) => Math.max(most, p[name]), 0);
  return {
    at,
    processes: live.length,
    ticks,
    io,
    rssBytes: sum('anonBytes') + max('fileBytes') + max('shmemBytes'),
  };
}
