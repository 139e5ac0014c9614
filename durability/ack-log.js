// The log of acknowledged writes: one key per line, appended by the process that receives the
// acknowledgements, each key only after the adapter's insert resolved, and fsynced at least every
// SYNC_INTERVAL_MS and when closed. A crash test counts a write as acknowledged only when it is in this log.
import { closeSync, fdatasyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const SYNC_INTERVAL_MS = 50;

export class AckLog {
  #fd;
  #lastSync = performance.now();

  constructor(file) {
    this.#fd = openSync(file, 'a');
  }

  // Synchronous, and synced from here rather than by a timer: an embedded database's inserts may hold the
  // event loop for as long as the process lives.
  record(key) {
    if (this.#fd === null) return;
    writeSync(this.#fd, `${key}\n`);
    if (performance.now() - this.#lastSync >= SYNC_INTERVAL_MS) this.sync();
  }

  sync() {
    fdatasyncSync(this.#fd);
    this.#lastSync = performance.now();
  }

  // Later acknowledgements are no longer recorded.
  close() {
    if (this.#fd === null) return;
    this.sync();
    closeSync(this.#fd);
    this.#fd = null;
  }
}

// The keys in the log. A last line without its newline was cut by a kill in the middle of the write: that
// acknowledgement was never completely logged.
export function readAckLog(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  return lines.slice(0, -1).filter(Boolean);
}
