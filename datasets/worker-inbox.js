// The messages of a reader's thread (edges.js readBatches, import-rows.js), taken one at a time in order. The
// thread's own failure and an exit before it said it was done arrive as messages too, { error: { message, code,
// bench } }, so a reader waiting for the next batch never waits for ever.
export function workerInbox(worker) {
  const inbox = [];
  let wake = null;
  const deliver = (message) => {
    inbox.push(message);
    wake?.();
  };
  worker.on('message', deliver);
  worker.on('error', (error) => deliver({ error: { message: error.message, code: null, bench: false } }));
  worker.on('exit', (code) => deliver({ error: { message: `the reader's thread ended (exit code ${code})`, code: null, bench: false } }));
  return async function receive() {
    while (inbox.length === 0) await new Promise((resolve) => { wake = resolve; });
    wake = null;
    return inbox.shift();
  };
}
