// The report tests' pages in a real headless browser (as test/report/html.test.js: Debian's chromium through
// puppeteer-core). Without a chromium binary those tests skip with the reason, unless BENCH_REQUIRE lists
// chromium (CI sets it), in which case they fail.
import assert from 'node:assert/strict';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

// The first of BROWSERS found executable on PATH, or null.
function findBrowser() {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of BROWSERS) {
      try {
        accessSync(path.join(dir, name), constants.X_OK);
        return path.join(dir, name);
      } catch {
        // not in this directory
      }
    }
  }
  return null;
}

export const browserPath = findBrowser();
const required = (process.env.BENCH_REQUIRE ?? '').split(',').map((id) => id.trim()).includes('chromium');
export const missing = `no chromium binary on PATH (${BROWSERS.join(', ')}): install one with \`apt-get install chromium\``;

// A browser test's options: its skip, and time for the browser to start.
export const browserTest = { skip: browserPath || required ? false : missing, timeout: 120_000 };

// Loads the page `html` from a file and resolves with what `evaluate` (run in the page) returns, and the errors
// the page logged or threw. `width`: the window's, in CSS pixels (Chromium's own default is 800).
// Chart.js sizes a responsive chart to its box when the page lays it out, which a loaded machine may do frames after
// the load event: the page is read once every canvas has kept its box for three frames in a row (or after the bound).
const SETTLE_TIMEOUT_MS = 10_000;
function settledLayout(timeoutMs) {
  return new Promise((resolve) => {
    const deadline = performance.now() + timeoutMs;
    const boxes = () => JSON.stringify([...document.querySelectorAll('canvas')].map((canvas) => {
      const box = canvas.getBoundingClientRect();
      return [box.left, box.top, box.width, box.height];
    }));
    let last = null;
    let same = 0;
    const frame = () => {
      const now = boxes();
      same = now === last ? same + 1 : 0;
      last = now;
      if (same >= 3 || performance.now() > deadline) resolve();
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

export async function drawPage(html, evaluate, { width = null } = {}) {
  assert.ok(browserPath, `BENCH_REQUIRE lists chromium, but ${missing}`);
  const { default: puppeteer } = await import('puppeteer-core');
  const work = mkdtempSync(path.join(os.tmpdir(), 'bench-report-page-'));
  const file = path.join(work, 'report.html');
  writeFileSync(file, html);
  const browser = await puppeteer.launch({ executablePath: browserPath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    if (width) await page.setViewport({ width, height: 900 });
    const problems = [];
    page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    await page.evaluate(settledLayout, SETTLE_TIMEOUT_MS);
    return { problems, drawn: await page.evaluate(evaluate) };
  } finally {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  }
}
