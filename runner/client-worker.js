// One client process of `bench run --clients` (runner/clients.js forks it): it connects with its share of the
// concurrency, rebuilds the step's call from the suite's own workload, reports ready, waits for the common start,
// runs its inputs with the same executor as the harness itself (closed or open loop), and sends back its answers,
// operation times, latency histogram and CPU figures. Messages: in `start`, `go`, `stop`; out `ready`, `progress`,
// `result`, `error`.
import { performance } from 'node:perf_hooks';
import { loadAdapter } from '../adapters/index.js';
import { meterClient } from '../resources/client.js';
import { latencyParts } from '../results/stats.js';
import { getSuite } from '../workloads/index.js';
import { monotonicOrigin } from './clients.js';
import { execute } from './execute.js';
import { executeOpenLoop } from './open-loop.js';
import { blockingDriver, connectAdapter, spreadGrowth } from './run.js';

// Ctrl-C reaches every process of the terminal's group: the parent alone decides, and sends `stop`.
process.on('SIGINT', () => {});

const controller = new AbortController();
let startAt = null;
let go;
const started = new Promise((resolve) => { go = resolve; });

// Waits for the common start on the machine's monotonic clock by spinning: it is at most GO_DELAY_MS away, and a
// timer may fire many milliseconds late on a busy machine.
function until(monotonicMs) {
  const local = monotonicMs - monotonicOrigin();
  while (performance.now() < local) {
    // spin
  }
}

// Resolves once the message is written to the channel: an exit right after a send could lose a large one.
function send(message) {
  return new Promise((resolve, reject) => {
    process.send(message, (error) => (error ? reject(error) : resolve()));
  });
}

async function run(start) {
  const description = await loadAdapter(start.adapterId);
  const workload = getSuite(start.suiteId).workloads.find((candidate) => candidate.name === start.workload);
  if (!workload) throw new Error(`the ${start.suiteId} suite has no workload "${start.workload}"`);
  const { params } = start;
  const adapter = await connectAdapter(description, start.adapterOptions);
  try {
    // The first meter of a process costs milliseconds (perf_hooks' first histogram): not between start and clock.
    meterClient().stop();
    process.send({ type: 'ready', origin: monotonicOrigin() });
    await started;
    until(startAt);
    const spreadBefore = adapter.spread?.() ?? null;
    const meter = meterClient();
    const begin = performance.now();
    const outcome = await (start.rate ? executeOpenLoop : execute)({
      inputs: start.inputs,
      call: params ? (target, input) => workload.call(target, input, params) : workload.call,
      adapter,
      concurrency: start.concurrency,
      rate: start.rate,
      times: start.times,
      signal: controller.signal,
      stallTimeoutMs: start.stallTimeoutMs,
      onProgress: (done) => process.send({ type: 'progress', done }),
    });
    const client = meter.stop();
    // A blocking driver's call holds the event loop while it waits for the server (pg-native): the loop reads as
    // busy and late throughout, which says nothing of what the client spent. Its CPU figures stand.
    if (blockingDriver(description, start.adapterOptions.driver)) Object.assign(client, { eventLoopUtilization: null, eventLoopDelayP99Ms: null });
    await send({
      type: 'result',
      answers: outcome.answers,
      errors: outcome.errors.map(({ index, error }) => ({ index, code: error.code ?? null, message: error.message })),
      completed: outcome.completed,
      aborted: outcome.aborted,
      begin,
      end: begin + outcome.wallMs,
      starts: outcome.times?.starts ?? null,
      ends: outcome.times?.ends ?? null,
      latency: latencyParts(outcome.latencies),
      client,
      openLoop: outcome.openLoop ?? null,
      spread: spreadBefore && spreadGrowth(spreadBefore, adapter.spread()),
    });
  } finally {
    await adapter.close();
  }
}

process.on('message', (message) => {
  if (message.type === 'start') {
    run(message).then(
      () => process.disconnect(),
      (error) => {
        process.send({ type: 'error', code: error.code ?? null, message: error.message }, () => process.exit(1));
      },
    );
  } else if (message.type === 'go') {
    startAt = message.startAt;
    go();
  } else if (message.type === 'stop') {
    controller.abort();
  }
});
// Done, or the parent gone (its second Ctrl-C, or a crash) so that nothing would read the result; a driver's
// leftover socket or timer must not keep the process.
process.on('disconnect', () => process.exit(0));
