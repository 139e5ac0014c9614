// Every suite's HTML report as a reader opens it: real runs of embedded SQLite and the in-process memory store
// (the CLI, on small sizes, in a cache of their own), reported for the two databases and for SQLite alone, each
// page drawn in headless Chromium at 1400 px and checked by test/helpers/page-layout.js: no empty chart, no canvas
// overflowing the page or overlapping another, no tick labels on top of each other, no chart section without a
// chart or a sentence saying why. `benchmarks/report-screenshots.js` draws the same pages for the README.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { REPORT_FORMATS, createReport } from '../../results/report/index.js';
import { browserTest, drawPage } from '../helpers/browser.js';
import { spawnBench } from '../helpers/cli.js';
import { pageLayout } from '../helpers/page-layout.js';
import { PAGE_DATABASES, SUITE_RUNS, pageRunArgs } from '../helpers/report-pages.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-pages-'));
after(() => rmSync(work, { recursive: true, force: true }));

async function runSuite(suite) {
  const out = path.join(work, suite);
  mkdirSync(out, { recursive: true });
  for (const db of PAGE_DATABASES) {
    const { code, stderr } = await spawnBench(pageRunArgs(suite, db, { cacheDir: path.join(work, 'cache'), out }), { timeoutMs: 300_000 });
    assert.equal(code, 0, `bench run --suite ${suite} --db ${db}: ${stderr}`);
  }
  return readdirSync(out).map((name) => path.join(out, name));
}

const files = {};
before(async () => {
  for (const suite of Object.keys(SUITE_RUNS)) files[suite] = await runSuite(suite);
}, { timeout: 900_000 });

async function checkPage(suite, paths) {
  const report = await createReport(paths, {});
  const { problems, drawn } = await drawPage(REPORT_FORMATS.html(report), pageLayout, { width: 1400 });
  assert.deepEqual(problems, [], `${suite}: the page logged errors`);
  assert.deepEqual(drawn.problems, [], `${suite} (${report.databases.map((d) => d.id).join(', ')}): ${drawn.problems.join('\n')}`);
  assert.ok(drawn.charts.length > 0, `${suite}: no chart at all`);
  return drawn;
}

for (const suite of Object.keys(SUITE_RUNS)) {
  test(`the ${suite} report of two databases and of one: every chart drawn, readable and in its place`, { ...browserTest, timeout: 300_000 }, async () => {
    const both = await checkPage(suite, files[suite]);
    const alone = await checkPage(suite, files[suite].filter((file) => path.basename(file).startsWith('sqlite-')));
    // One database has nothing to be relative to: no chart of percentages.
    assert.ok(alone.charts.every((chart) => !/= 100%/.test(chart.title)), alone.charts.map((chart) => chart.title).join('\n'));
    assert.ok(both.charts.length >= alone.charts.length, `${suite}: fewer charts for two databases than for one`);
  });
}

test('the layout check finds what it is for: an empty chart, an overflow, an overlap, crowded labels, a section without a word', browserTest, async () => {
  const html = `<!doctype html><html><body style="margin:0">
    <script>${(await import('node:fs')).readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '../../node_modules/chart.js/dist/chart.umd.min.js'), 'utf8')}</script>
    <section><div class="grid" id="chart-a"><div style="width:300px;height:200px"><canvas id="empty"></canvas></div></div></section>
    <section><div class="grid" id="chart-b"><div style="width:1600px;height:200px"><canvas id="wide"></canvas></div></div></section>
    <section><div class="grid" id="chart-c"><div style="width:200px;height:200px"><canvas id="crowded"></canvas></div>
      <div style="width:300px;height:200px;margin-top:-150px"><canvas id="over"></canvas></div></div></section>
    <section><div class="grid" id="chart-d"><div style="width:300px;height:200px;margin-top:300px"><canvas id="skipped"></canvas></div></div></section>
    <section><div class="grid" id="chart-none"></div></section>
    <script>
      Chart.defaults.animation = false; Chart.defaults.maintainAspectRatio = false;
      const line = (id, labels, data, x) => new Chart(document.getElementById(id), { type: 'line', data: { labels, datasets: [{ data }] },
        options: { plugins: { title: { display: true, text: id } }, scales: { x: Object.assign({ ticks: { autoSkip: false, maxRotation: 0 } }, x || {}) } } });
      line('empty', ['a', 'b'], [null, null]);
      line('wide', ['a', 'b'], [1, 2]);
      line('crowded', Array.from({ length: 30 }, (_, i) => 'label number ' + i), Array.from({ length: 30 }, (_, i) => i));
      line('skipped', Array.from({ length: 60 }, (_, i) => 'case ' + i), Array.from({ length: 60 }, (_, i) => i), { ticks: { autoSkip: true } });
      line('over', ['a', 'b'], [1, 2]);
    </script></body></html>`;
  const { drawn } = await drawPage(html, pageLayout, { width: 1400 });
  const found = drawn.problems.join('\n');
  assert.match(found, /^empty: an empty chart \(no figure in its data\)$/m);
  assert.match(found, /^wide: the canvas reaches \d+ px, past the page's 1400 px$/m);
  assert.match(found, /^crowded: the x axis labels "label number 0" and "label number 1" overlap/m);
  assert.match(found, /^crowded and over: their canvases overlap$/m);
  assert.match(found, /^skipped: the x axis shows \d+ of its 60 labels$/m);
  assert.match(found, /^chart-none: a chart section with no chart and no word why$/m);
  assert.match(found, /^the page is \d+ px wide, past the window's 1400 px$/m);
});
