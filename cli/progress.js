// Progress on stderr only, so that `--json` keeps stdout to the result document. On a terminal it draws
// bars with rate and ETA; elsewhere (CI logs, pipes) it prints a line with the rate and ETA every
// LINE_INTERVAL_MS while a long step runs, and one when it finishes.
import cliProgress from 'cli-progress';
import { performance } from 'node:perf_hooks';

const LINE_INTERVAL_MS = 10_000;

function duration(seconds) {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  return `${Math.floor(seconds / 60)} min ${String(Math.round(seconds % 60)).padStart(2, '0')} s`;
}

// "label: 1,200,000/30,622,564 (3.9%), 41,237/s, ETA 11 min 53 s"
export function progressLine(label, done, total, seconds) {
  const rate = seconds > 0 ? done / seconds : 0;
  const percent = total > 0 ? ((100 * done) / total).toFixed(1) : '0.0';
  const eta = rate > 0 ? duration((total - done) / rate) : '?';
  return `${label}: ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} (${percent}%), `
    + `${Math.round(rate).toLocaleString('en-US')}/s, ETA ${eta}`;
}

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
    let lastLine = begin;
    return {
      update(done) {
        const now = performance.now();
        const seconds = (now - begin) / 1000;
        drawn?.update(done, { rate: seconds > 0 ? Math.round(done / seconds) : 0 });
        if (!drawn && total > 1 && now - lastLine >= LINE_INTERVAL_MS) {
          lastLine = now;
          log(progressLine(label, done, total, seconds));
        }
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
