// What the HTML report's charts draw: the data embedded in the page. Several databases get the published
// overview (every workload, one bar per database, baseline = 100%) above one chart per workload; one database
// gets its absolute throughput and latencies, never a percentage of itself.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { REPORT_FORMATS, buildReport, createReport } from '../../results/report/index.js';

const SUITE = fileURLToPath(new URL('../fixtures/results/suite/', import.meta.url));
const fixtureFile = (db) => path.join(SUITE, readdirSync(SUITE).find((file) => file.startsWith(`${db}-`)));
const fixture = (db) => JSON.parse(readFileSync(fixtureFile(db), 'utf8'));

// The chart data as the page's script reads it.
function embedded(html) {
  return JSON.parse(html.match(/<script type="application\/json" id="report-data">(.*?)<\/script>/s)[1]);
}

const comparedNames = (report) => report.workloads.filter((w) => w.compared).map((w) => w.name);

test('one database: the page charts its ops/s and latency p50/p99 per workload, and no percentage of itself', async () => {
  const report = await createReport([fixtureFile('sqlite')]);
  const html = REPORT_FORMATS.html(report);
  const data = embedded(html);
  const names = comparedNames(report);
  const of = (name) => report.workloads.find((w) => w.name === name).results.sqlite;
  assert.equal(data.baseline, null);
  assert.equal(data.overview, null);
  assert.deepEqual(data.normalised, []);
  assert.deepEqual(data.throughput, {
    database: 'sqlite', workloads: names, opsPerSec: names.map((name) => of(name).opsPerSec), medianMs: names.map((name) => of(name).medianMs),
  });
  assert.ok(data.throughput.opsPerSec.every((value) => value > 0));
  assert.equal(new Set(data.throughput.opsPerSec).size, names.length, 'absolute figures differ between workloads');
  const [latency] = data.latency;
  assert.deepEqual([latency.database, latency.workloads], ['sqlite', names]);
  assert.deepEqual(latency.p50, names.map((name) => of(name).latencyMs.p50));
  assert.deepEqual(latency.p99, names.map((name) => of(name).latencyMs.p99));
  assert.ok(html.includes('<div id="chart-throughput"></div>'));
  assert.ok(html.includes(': higher is better'), 'the chart says which way is better');
  const markup = html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, '');
  assert.ok(!/id="chart-normalised"|id="chart-overview"|= 100%|100% \(baseline\)/.test(markup), 'no percentage in the page\'s markup');
  assert.match(REPORT_FORMATS.table(report), /\nbaseline: none \(one database: absolute figures, no percentages\)\n/);
});

test('several databases: the overview at the top holds every compared workload with one bar per database, baseline = 100%', async () => {
  const report = await createReport([SUITE], { baseline: 'postgresql' });
  const html = REPORT_FORMATS.html(report);
  const data = embedded(html);
  const names = comparedNames(report);
  assert.equal(data.baseline, 'postgresql');
  assert.equal(data.throughput, null);
  assert.deepEqual(data.overview.workloads, names);
  assert.deepEqual(data.overview.databases.map((d) => d.id), report.databases.map((d) => d.id), 'the baseline first, then by id');
  for (const database of data.overview.databases) {
    assert.deepEqual(database.values, names.map((name) => report.workloads.find((w) => w.name === name).results[database.id].normalisedPct));
    assert.deepEqual(database.missing, names.map(() => null));
  }
  assert.deepEqual(data.overview.databases[0].values, names.map(() => 100));
  assert.ok(data.overview.databases[1].values.some((value) => value !== 100));
  assert.equal(data.normalised.length, names.length, 'each workload keeps its own chart below the overview');
  // Right below the summary, above everything else, and it says which way is better.
  const sections = [...html.matchAll(/<div (?:class="grid" )?id="(chart-[a-z]+)"/g)].map((match) => match[1]);
  assert.deepEqual(sections.slice(0, 2), ['chart-overview', 'chart-normalised']);
  assert.ok(html.indexOf('id="chart-overview"') < html.indexOf('<section id="normalised">'));
  assert.ok(html.includes('<h2>Overview: median time per workload, postgresql = 100% (lower is better)</h2>'));
  assert.ok(html.includes(": lower is better'"), 'the chart says which way is better');
});

test('the overview names the bars it cannot draw: a failed or unsupported workload, and one the baseline has no time for', () => {
  const sqlite = fixture('sqlite');
  const pg = fixture('postgresql');
  const other = {
    ...sqlite,
    db: { ...sqlite.db, id: 'other', name: 'other' },
    workloads: {
      ...sqlite.workloads,
      singleRead: { ...sqlite.workloads.singleRead, status: 'failed', valid: false, runs: [{ run: 1, valid: false, errors: 0, failed: 3, reason: '3 wrong answers' }] },
      aggregation: { ...sqlite.workloads.aggregation, supported: false, status: 'unsupported', valid: null, runs: [] },
    },
  };
  const report = buildReport([{ file: 'pg.json', result: pg }, { file: 'sqlite.json', result: sqlite }, { file: 'other.json', result: other }], { baseline: 'other' });
  const data = embedded(REPORT_FORMATS.html(report));
  const names = data.overview.workloads;
  const row = (id) => data.overview.databases.find((d) => d.id === id);
  const at = (id, name) => ({ value: row(id).values[names.indexOf(name)], missing: row(id).missing[names.indexOf(name)] });
  assert.deepEqual(at('other', 'singleRead'), { value: null, missing: 'failed' });
  assert.deepEqual(at('other', 'aggregation'), { value: null, missing: 'unsupported' });
  assert.deepEqual(at('sqlite', 'singleRead'), { value: null, missing: 'n/a' }, 'no baseline time: no percentage');
  assert.deepEqual(at('sqlite', 'neighbors'), { value: 100, missing: null }, 'the same runs as the baseline');
  const significance = report.workloads.find((w) => w.name === 'neighbors').results.postgresql.significant;
  assert.equal(row('postgresql').notSignificant[names.indexOf('neighbors')], significance === false);
});
