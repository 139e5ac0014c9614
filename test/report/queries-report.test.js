// The queries suite's own report: the published table per database (min, max, avg, median seconds and rows per
// case and collection size), the load times per size, the CSV's columns, and in the page a bar chart per size of
// each database's median time per case relative to the baseline; and the speedup chart of `bench compare --format
// html`. The result documents come from real runs of the in-process memory adapter and SQLite, on 1,000
// documents, in a cache of their own.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import memory from '../../adapters/memory/description.js';
import sqlite from '../../adapters/sqlite/description.js';
import { buildComparison } from '../../results/compare.js';
import { formatCompareHtml } from '../../results/compare-html.js';
import { REPORT_FORMATS, buildReport } from '../../results/report/index.js';
import { runBenchmark } from '../../runner/run.js';
import suite from '../../workloads/queries/suite.js';
import { browserTest, drawPage } from '../helpers/browser.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-queries-report-'));
after(() => rmSync(work, { recursive: true, force: true }));
const CASES = ['collect-count-string', 'sort-string', 'join-id', 'lookup-key'];

async function run(description, runs) {
  const workloads = suite.workloads.filter((workload) => CASES.includes(workload.name));
  const config = { ...suite.configure({ ...suite.defaults, size: '1k' }), runs, workloads: CASES, stallTimeoutMs: 60_000 };
  const result = await runBenchmark({
    suite, description, dataset: { sizes: ['1k'] }, workloads, config, command: 'test',
    adapterOptions: { namespace: 'report', database: path.join(work, `${description.id}.sqlite`), dataDir: work, concurrency: 1, connectTimeoutMs: 5000 },
  });
  return { file: `${description.id}-queries.json`, result };
}

let documents;
before(async () => {
  documents = [await run(sqlite, 3), await run(memory, 2)];
});

test('the report gives each database the published table, its loads, and the normalised comparison', () => {
  const report = buildReport(documents, { baseline: 'sqlite' });
  assert.equal(report.suite, 'queries');
  assert.deepEqual(report.queries.sizes, ['1k']);
  assert.deepEqual(report.queries.cases.map((c) => c.workload), CASES.map((name) => `${name} 1k`));
  const sort = report.queries.cases.find((c) => c.queryCase === 'sort-string').results;
  assert.equal(sort.sqlite.runs, 3);
  assert.equal(sort.memory.runs, 2);
  assert.equal(sort.sqlite.rows, 1, 'sorted, the first one kept');
  for (const f of [sort.sqlite, sort.memory]) assert.ok(f.minMs <= f.medianMs && f.medianMs <= f.maxMs && f.minMs <= f.meanMs && f.meanMs <= f.maxMs);
  assert.equal(report.queries.cases[0].results.memory.rows, 10, 'n / 100 groups');
  assert.equal(report.queries.loads.sqlite['1k'].loads, 1);
  const table = REPORT_FORMATS.table(report);
  assert.match(table, /sqlite: per case and collection, seconds \(as the AQL shootout published\):\n +test name +collection +runs +min \(s\) +max \(s\) +avg \(s\) +median \(s\) +rows\n +collect-count-string +1k +3 +\d\.\d{4}/);
  assert.match(table, /memory: per case and collection, seconds/);
  assert.match(table, /Loading the collections: seconds \(documents per second\), indexes and count check included:\n +collection +sqlite +memory\n +1k +\d+\.\d\d s \([\d,]+\/s\) +\d+\.\d\d s/);
  assert.match(table, /Median time relative to sqlite \(= 100%; lower is faster\)/);
  const csv = REPORT_FORMATS.csv(report).split('\n');
  assert.ok(csv[0].endsWith('case,collection,min_ms,max_ms,mean_ms,rows'), csv[0]);
  assert.ok(csv.some((line) => line.includes(',join-id,1k,') && line.endsWith(',1000')), 'a join row with its 1,000 rows');
});

test('the page draws a line chart of each case against the size, and a bar chart of the cases per size, in a browser', browserTest, async () => {
  const html = REPORT_FORMATS.html(buildReport(documents, { baseline: 'sqlite' }));
  const { problems, drawn } = await drawPage(html, () => ['#chart-queries', '#chart-queries-relative'].map((section) => Array.from(document.querySelectorAll(`${section} canvas`)).map((canvas) => {
    const chart = window.Chart.getChart(canvas);
    // Every case is labelled: the bars are tall enough that no label is skipped.
    const y = chart.scales.y;
    return { type: chart.config.type, labels: chart.data.labels, bars: chart.data.datasets.map((dataset) => [dataset.label, dataset.data.length]), yLabels: y.ticks.length };
  })));
  assert.deepEqual(problems, []);
  const [cases, relative] = drawn;
  assert.deepEqual(cases.map((chart) => [chart.type, chart.labels, chart.bars]), CASES.map(() => ['line', ['1k'], [['sqlite', 1], ['memory', 1]]]));
  assert.deepEqual(relative, [{ type: 'bar', labels: CASES, bars: [['sqlite', 4], ['memory', 4]], yLabels: CASES.length }]);
});

test('bench compare --format html charts one bar per case both sides ran, coloured by its verdict', () => {
  const comparison = buildComparison([documents[0]], [{ ...documents[1], result: { ...documents[1].result, db: documents[0].result.db } }]);
  const page = formatCompareHtml(comparison);
  const bars = [...page.matchAll(/<g><title>([^<]+)<\/title>.*?<rect [^>]*fill="(#[0-9a-f]{6})"/g)].map(([, title, fill]) => [title.split(':')[0], fill]);
  assert.deepEqual(bars.map(([name]) => name), CASES.map((name) => `${name} 1k`));
  const colours = { faster: '#2e7d32', slower: '#c62828', 'not significant': '#9e9e9e' };
  for (const workload of comparison.workloads) {
    assert.equal(bars.find(([name]) => name === workload.name)[1], colours[workload.verdict], workload.name);
  }
  assert.match(page, /<pre>a = a: sqlite [^\n]*, 3 runs \(1 file\)\nb = b: sqlite [^\n]*, 2 runs/);
});
