// Progress on stderr only, so that `--json` keeps stdout to the result document. A step with a count of several
// steps is a bar on a terminal (count, rate, ETA); elsewhere (CI logs, pipes) it prints a line with the rate and
// ETA every LINE_INTERVAL_MS while it runs. A step of one step, or of an unknown total, has no ETA to give: on a
// terminal it is a spinner line with the time so far (and the count so far, when there is one); elsewhere a line
// when it starts. Every step prints one line when it finishes.
import cliProgress from 'cli-progress';
import { performance } from 'node:perf_hooks';

const LINE_INTERVAL_MS = 10_000;
const SPINNER_INTERVAL_MS = 200;
const SPINNER_FRAMES = ['-', '\\', '|', '/'];
const LABEL_WIDTH = 36;
const CLEAR_LINE = '\r\x1b[K';

const count = (n) => n.toLocaleString('en-US');

// "12 s", "11 min 53 s", "2 h 05 min"; "?" for what is no duration.
export function formatDuration(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
  return `${Math.floor(whole / 3600)} h ${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')} min`;
}

// A total that a bar can show: several steps. One step jumps from 0 to 100% and an unknown one never gets there.
export function countable(total) {
  return Number.isFinite(total) && total > 1;
}

// The time left, from the mean rate so far, while it can be estimated; else the time so far.
export function timing(done, total, seconds) {
  if (countable(total) && done > 0 && done <= total && seconds > 0) {
    return `ETA ${formatDuration(((total - done) * seconds) / done)}`;
  }
  return `${formatDuration(Math.floor(seconds))} elapsed`;
}

function rate(done, seconds) {
  return `${count(seconds > 0 ? Math.round(done / seconds) : 0)}/s`;
}

// "import relations: 1,200,000/30,622,564 (3.9%), 41,237/s, ETA 11 min 53 s"
export function progressLine(label, done, total, seconds) {
  const counted = countable(total) ? `${count(done)}/${count(total)} (${((100 * done) / total).toFixed(1)}%)` : count(done);
  return `${label}: ${counted}, ${rate(done, seconds)}, ${timing(done, total, seconds)}`;
}

// What follows the bar itself on a terminal: "3% | 1,200,000/30,622,564 | 41,237/s | ETA 11 min 53 s".
export function barStatus(done, total, seconds) {
  const percent = total > 0 ? Math.min(100, Math.floor((100 * done) / total)) : 0;
  return `${percent}% | ${count(done)}/${count(total)} | ${rate(done, seconds)} | ${timing(done, total, seconds)}`;
}

// "| creating indexes … 12 s", or with a count and no total "/ dataset full: relations … 1,200,000 so far, 3 s".
export function spinnerText(label, seconds, { frame = 0, done = null } = {}) {
  const sofar = done === null ? '' : `${count(done)} so far, `;
  return `${SPINNER_FRAMES[frame % SPINNER_FRAMES.length]} ${label} … ${sofar}${formatDuration(Math.floor(seconds))}`;
}

// The line a step prints when it finishes; its count in plain digits, which scripts reading the log look for.
// `note`: how a step that did not finish ended ("interrupted: 1200 of 30000 done, not recorded").
export function endLine(label, done, seconds, note = null) {
  const line = done === null ? `${label}: ${seconds.toFixed(2)} s` : `${label}: ${done} in ${seconds.toFixed(2)} s`;
  return note ? `${line} (${note})` : line;
}

// `now` is the clock in milliseconds (injected by tests).
export function createProgress({ stream = process.stderr, quiet = false, now = () => performance.now() } = {}) {
  const interactive = Boolean(stream.isTTY) && !quiet;
  // The spinners drawn on the terminal's last line, the innermost last; a bar or a nested spinner hides the one
  // below it until it finishes.
  const spinners = [];

  const log = (message) => {
    if (quiet) return;
    const spinning = spinners.at(-1)?.hide();
    stream.write(`${message}\n`);
    if (spinning) spinners.at(-1).show();
  };

  function countedBar(label, total) {
    const begin = now();
    const seconds = () => (now() - begin) / 1000;
    let drawn = null;
    if (interactive) {
      spinners.at(-1)?.hide();
      drawn = new cliProgress.SingleBar({
        stream,
        // A function of its own: cli-progress's ETA reads "INF" or "NULL" while no rate is known.
        format: (options, params) => `${label.padEnd(LABEL_WIDTH)} [${cliProgress.Format.BarFormat(params.progress, options)}] `
          + barStatus(params.value, params.total, seconds()),
        barsize: 24,
        hideCursor: true,
        clearOnComplete: true,
      }, cliProgress.Presets.shades_classic);
      drawn.start(total, 0);
    }
    let lastLine = begin;
    let stopped = false;
    return {
      update(done) {
        drawn?.update(done);
        if (!drawn && now() - lastLine >= LINE_INTERVAL_MS) {
          lastLine = now();
          log(progressLine(label, done, total, seconds()));
        }
      },
      stop(done = total, note = null) {
        if (stopped) return;
        stopped = true;
        drawn?.stop();
        log(endLine(label, done, seconds(), note));
        if (drawn) spinners.at(-1)?.show();
      },
    };
  }

  // `counting`: the updates give a count (of an unknown total) to show.
  function spinner(label, counting) {
    const begin = now();
    const seconds = () => (now() - begin) / 1000;
    let done = counting ? 0 : null;
    let stopped = false;
    if (!interactive) {
      log(`${label} …`);
      let lastLine = begin;
      return {
        update(value) {
          if (!counting) return;
          done = value;
          if (now() - lastLine >= LINE_INTERVAL_MS) {
            lastLine = now();
            log(progressLine(label, done, null, seconds()));
          }
        },
        stop(value = done, note = null) {
          if (stopped) return;
          stopped = true;
          log(endLine(label, counting ? value : null, seconds(), note));
        },
      };
    }

    let frame = 0;
    let lastDraw = -Infinity;
    let visible = false;
    const draw = () => {
      // Longer than the terminal's width, it would wrap, and the next draw would start on the wrapped line.
      const text = spinnerText(label, seconds(), { frame, done }).slice(0, Math.max(1, (stream.columns || 80) - 1));
      stream.write(`${CLEAR_LINE}${text}`);
      frame += 1;
      lastDraw = now();
    };
    const shown = {
      // Whether it was visible.
      hide() {
        const was = visible;
        if (was) stream.write(CLEAR_LINE);
        visible = false;
        return was;
      },
      show() {
        visible = true;
        draw();
      },
    };
    // The timer keeps the time moving while nothing is counted; it must not keep the process alive.
    const timer = setInterval(() => { if (visible) draw(); }, SPINNER_INTERVAL_MS);
    timer.unref();
    spinners.at(-1)?.hide();
    spinners.push(shown);
    shown.show();
    return {
      // Drawn at once when the last draw is old enough: a synchronous loop that counts leaves the timer no turn.
      update(value) {
        if (!counting) return;
        done = value;
        if (visible && now() - lastDraw >= SPINNER_INTERVAL_MS) draw();
      },
      stop(value = done, note = null) {
        if (stopped) return;
        stopped = true;
        clearInterval(timer);
        shown.hide();
        spinners.splice(spinners.indexOf(shown), 1);
        log(endLine(label, counting ? value : null, seconds(), note));
        spinners.at(-1)?.show();
      },
    };
  }

  // { update(done), stop(done, note) } for a step of `total` steps: a bar for several, a spinner for one step or for an
  // unknown total (null, undefined); null with --quiet.
  function bar(label, total) {
    if (quiet) return null;
    return countable(total) ? countedBar(label, total) : spinner(label, !Number.isFinite(total));
  }

  // An onProgress({ phase, done, total }) callback that shows one step per phase; a phase ends when its count
  // reaches a known total, or when the next phase starts.
  function phases(prefix) {
    let current = null;
    return ({ phase, done, total }) => {
      if (current?.phase !== phase) {
        current?.bar?.stop();
        current = { phase, bar: bar(`${prefix}: ${phase}`, total) };
      }
      current.bar?.update(done);
      if (Number.isFinite(total) && done >= total) {
        current.bar?.stop(done);
        current = { phase, bar: null };
      }
    };
  }

  return { log, bar, phases };
}
