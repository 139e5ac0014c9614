#!/usr/bin/env node
// The README's pictures of a report: for every suite, embedded SQLite and the in-process memory store run on the
// small sizes of test/helpers/report-pages.js (those test/report/pages.test.js checks), reported together, the HTML page drawn in headless Chromium at 1400 px
// and the top of it (the summary and the headline charts) saved as docs/screenshots/<suite>.png. The layout check
// of that test runs on each page too, and its problems are printed (the script fails on any).
//   node benchmarks/report-screenshots.js [--out docs/screenshots] [--suite crud,graph] [--height 1100]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REPORT_FORMATS, createReport } from '../results/report/index.js';
import { browserPath, missing } from '../test/helpers/browser.js';
import { pageLayout } from '../test/helpers/page-layout.js';
import { PAGE_DATABASES, SUITE_RUNS, pageRunArgs } from '../test/helpers/report-pages.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string', default: path.join(ROOT, 'docs/screenshots') }, suite: { type: 'string', default: Object.keys(SUITE_RUNS).join(',') }, height: { type: 'string', default: '1100' } } });
if (!browserPath) {
  console.error(`error: ${missing}`);
  process.exit(1);
}
const suites = values.suite.split(',');
const unknown = suites.filter((suite) => !SUITE_RUNS[suite]);
if (unknown.length > 0) {
  console.error(`error: --suite ${unknown.join(',')}: not a suite; the suites: ${Object.keys(SUITE_RUNS).join(', ')}`);
  process.exit(1);
}
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-screenshots-'));
const { default: puppeteer } = await import('puppeteer-core');
const browser = await puppeteer.launch({ executablePath: browserPath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
let failed = false;
try {
  mkdirSync(values.out, { recursive: true });
  for (const suite of suites) {
    const out = path.join(work, suite);
    for (const db of PAGE_DATABASES) {
      const args = [path.join(ROOT, 'bin/bench.js'), ...pageRunArgs(suite, db, { cacheDir: path.join(work, 'cache'), out })];
      const run = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 });
      if (run.status !== 0) throw new Error(`bench ${args.slice(1).join(' ')} exited with ${run.status}`);
    }
    const report = await createReport(readdirSync(out).map((name) => path.join(out, name)), {});
    const file = path.join(work, `${suite}.html`);
    writeFileSync(file, REPORT_FORMATS.html(report));
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const layout = await page.evaluate(pageLayout);
    const height = Math.min(Number(values.height), await page.evaluate(() => document.documentElement.scrollHeight));
    const png = path.join(values.out, `${suite}.png`);
    await page.screenshot({ path: png, clip: { x: 0, y: 0, width: 1400, height } });
    await page.close();
    console.log(`${suite}: ${layout.charts.length} charts, ${layout.problems.length} layout problems; ${path.relative(process.cwd(), png)}`);
    for (const problem of layout.problems) console.log(`  ${problem}`);
    failed ||= layout.problems.length > 0;
  }
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
