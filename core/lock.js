// A lock file between processes: a file made exclusively, holding the holder's process id. A lock whose holder
// no longer runs (a crash, a kill) is taken over. Used where two processes of the harness could otherwise write
// one place at once: an embedded engine's data directory that the engine does not lock itself (PGlite), and a
// dataset being prepared in the shared cache (two `bench run`s, or `--clients`, starting together).
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';

// A lock file still without a pid after this long was left by a taker that died between making and writing it.
const UNWRITTEN_MS = 5000;

// The files this process holds, so that a second taker in the same process is refused (or waits) too.
const HELD = new Set();

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

// Takes `file`: resolves { taken: true }, or { taken: false, holder } naming the live holder ('this process' or
// 'process <pid>'). Throws what the file system throws otherwise (a missing or unwritable folder).
export function tryLock(file) {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      HELD.add(file);
      return { taken: true };
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let holder = null;
    try {
      holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
    } catch {
      continue; // removed meanwhile: try again
    }
    if (holder === process.pid ? HELD.has(file) : Number.isInteger(holder) && holder > 0 && alive(holder)) {
      return { taken: false, holder: holder === process.pid ? 'this process' : `process ${holder}` };
    }
    // A dead holder's is taken over; so is one without a pid long after it was made. A holder still writing
    // its pid is seen again on the next attempt.
    if (Number.isInteger(holder) && holder > 0) rmSync(file, { force: true });
    else if (unwrittenSince(file) > UNWRITTEN_MS) rmSync(file, { force: true });
  }
  return { taken: false, holder: 'another process' };
}

function unwrittenSince(file) {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

export function unlock(file) {
  HELD.delete(file);
  rmSync(file, { force: true });
}

// Runs `fn` holding `file`, waiting while another process holds it (`onWait(holder)` is told once when it
// does). The holder's death ends the wait; `waitMs` bounds it (0: as long as the holder lives).
export async function withLock(file, fn, { waitMs = 0, onWait = () => {}, pollMs = 200 } = {}) {
  const started = performance.now();
  let told = false;
  for (;;) {
    const { taken, holder } = tryLock(file);
    if (taken) break;
    if (holder === 'this process') throw new Error(`${file} is already held by this process`);
    if (!told) { told = true; onWait(holder); }
    if (waitMs > 0 && performance.now() - started >= waitMs) throw new Error(`${file} is still held by ${holder} after ${Math.round(waitMs / 1000)} s`);
    await new Promise((resolve) => { setTimeout(resolve, pollMs); });
  }
  try {
    return await fn();
  } finally {
    unlock(file);
  }
}
