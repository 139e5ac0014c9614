// The HTML report in a real headless browser (Debian's chromium through puppeteer-core): it loads with no
// console error, page error or network request, and every chart is drawn. Without a chromium binary the test
// skips with the reason, unless BENCH_REQUIRE lists chromium (CI sets it), in which case it fails
// (test/helpers/browser.js finds it).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REPORT_FORMATS, createReport } from '../../results/report/index.js';
import { chartData } from '../../results/report/html.js';
import { browserPath, browserTest, missing } from '../helpers/browser.js';

const SUITE = fileURLToPath(new URL('../fixtures/results/suite/', import.meta.url));
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-html-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('the HTML report loads offline with no errors and draws every chart', browserTest, async () => {
  assert.ok(browserPath, `BENCH_REQUIRE lists chromium, but ${missing}`);
  const { default: puppeteer } = await import('puppeteer-core');
  const report = await createReport([SUITE], { baseline: 'postgresql' });
  const charts = chartData(report);
  const expectedCharts = 1 + charts.normalised.length + charts.latency.length + (charts.memory.length > 0 ? 1 : 0) + (charts.import.length > 0 ? 1 : 0);
  assert.equal(charts.normalised.length, 10, 'one normalised chart per compared workload');
  assert.ok(charts.memory.length > 0, 'the PostgreSQL fixtures carry server memory');
  const file = path.join(work, 'report.html');
  writeFileSync(file, REPORT_FORMATS.html(report));

  const browser = await puppeteer.launch({ executablePath: browserPath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
    page.on('request', (request) => { if (!request.url().startsWith('file:')) problems.push(`network request: ${request.url()}`); });
    await page.setViewport({ width: 1300, height: 900 });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });

    const drawn = await page.evaluate(() => Array.from(document.querySelectorAll('canvas')).map((canvas) => {
      const chart = window.Chart?.getChart(canvas);
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let painted = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) painted += 1;
      return {
        label: canvas.getAttribute('aria-label'),
        chart: Boolean(chart),
        values: chart ? chart.data.datasets.flatMap((dataset) => dataset.data).filter((v) => typeof v === 'number').length : 0,
        width: canvas.width,
        height: canvas.height,
        painted,
      };
    }));
    const tables = await page.evaluate(() => document.querySelectorAll('table').length);
    assert.deepEqual(problems, []);
    assert.equal(drawn.length, expectedCharts);
    for (const canvas of drawn) {
      assert.ok(canvas.chart, `${canvas.label}: a Chart.js instance`);
      assert.ok(canvas.values > 0, `${canvas.label}: has figures`);
      assert.ok(canvas.width > 0 && canvas.height > 0, `${canvas.label}: has a size`);
      // Axes, labels and bars: far more than a few stray pixels.
      assert.ok(canvas.painted > (canvas.width * canvas.height) / 100, `${canvas.label}: ${canvas.painted} painted pixels`);
    }
    assert.equal(drawn[0].label, 'overview', 'the overview first');
    assert.equal(drawn[0].values, 10 * 4, 'every compared workload, one bar per database');
    assert.deepEqual(drawn.slice(1, 11).map((c) => c.label), report.workloads.filter((w) => w.compared).map((w) => w.name));
    assert.equal(tables, 5, 'terms, normalised, workloads, not compared, resources');

    // One database: its throughput and latencies in absolute figures, no chart of percentages.
    const single = path.join(work, 'single.html');
    writeFileSync(single, REPORT_FORMATS.html(await createReport([path.join(SUITE, 'sqlite-tiny-20261121T232927Z.json')])));
    await page.goto(pathToFileURL(single).href, { waitUntil: 'load' });
    const singleCharts = await page.evaluate(() => Array.from(document.querySelectorAll('canvas')).map((canvas) => {
      const chart = window.Chart.getChart(canvas);
      return { label: canvas.getAttribute('aria-label'), scale: chart.options.scales.y.type, values: chart.data.datasets[0].data.length };
    }));
    assert.deepEqual(problems, []);
    assert.deepEqual(singleCharts, [
      { label: 'throughput', scale: 'logarithmic', values: 10 }, { label: 'sqlite', scale: 'logarithmic', values: 10 }, { label: 'Import time', scale: 'linear', values: 1 },
    ]);
    // Figures within a factor of 20 (here one workload) are bars from zero, not on a log scale.
    writeFileSync(single, REPORT_FORMATS.html(await createReport([fileURLToPath(new URL('../fixtures/results/seed2/', import.meta.url))])));
    await page.goto(pathToFileURL(single).href, { waitUntil: 'load' });
    const scales = await page.evaluate(() => Array.from(document.querySelectorAll('canvas')).map((canvas) => window.Chart.getChart(canvas).options.scales.y.type));
    assert.deepEqual(problems, []);
    assert.deepEqual(scales.slice(0, 2), ['linear', 'linear']);
  } finally {
    await browser.close();
  }
});
