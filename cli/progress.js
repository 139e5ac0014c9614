// Progress on stderr only, so that `--json` keeps stdout to the result document. On a terminal it draws
// bars with rate and ETA; elsewhere (CI logs, pipes) it prints one line when a step finishes.
import cliProgress from 'cli-progress';
import { performance } from 'node:perf_hooks';

export function createProgress({ stream = process.stderr, quiet = false } = {}) {
  const interactive = Boolean(stream.isTTY) && !quiet;
  const log = (message) => {
    if (!quiet) stream.write(`${message}\n`);
  };

  function bar(label, total) {
    if (quiet) return null;
    const begin = performance.now();
    let drawn = null;
    if (interactive) {
      drawn = new cliProgress.SingleBar({
        stream,
        format: `${label.padEnd(36)} [{bar}] {percentage}% | {value}/{total} | {rate}/s | ETA {eta_formatted}`,
        barsize: 24,
        hideCursor: true,
        clearOnComplete: true,
        etaBuffer: 50,
      }, cliProgress.Presets.shades_classic);
      drawn.start(total, 0, { rate: 0 });
    }
    return {
      update(done) {
        const seconds = (performance.now() - begin) / 1000;
        drawn?.update(done, { rate: seconds > 0 ? Math.round(done / seconds) : 0 });
      },
      stop(done = total) {
        drawn?.stop();
        const seconds = (performance.now() - begin) / 1000;
        log(total > 1 ? `${label}: ${done} in ${seconds.toFixed(2)} s` : `${label}: ${seconds.toFixed(2)} s`);
      },
    };
  }

  // An onProgress({ phase, done, total }) callback that draws one bar per phase.
  function phases(prefix) {
    let current = null;
    return ({ phase, done, total }) => {
      if (current?.phase !== phase) {
        current?.bar?.stop();
        current = { phase, bar: bar(`${prefix}: ${phase}`, total) };
      }
      current.bar?.update(done);
      if (done >= total) {
        current.bar?.stop(done);
        current = { phase, bar: null };
      }
    };
  }

  return { log, bar, phases };
}
