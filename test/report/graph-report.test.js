// The graph suite's own report: per workload the publication's table (requests per second per edge list, edges
// per second for the batched writes, the gains over the baseline), the import against the parse floor, the bytes
// per request with their amplification, the CSV's columns, and in the page the charts of those bytes and of the
// size on disk. Real runs of SQLite and of the in-process memory adapter on the synthetic tiny edge list, and of
// memory on a file written here, give the documents and the runs' figures; copies of the memory runs with times,
// bytes and sizes set by hand, as a server database's document records them, give figures to check exactly.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import memory from '../../adapters/memory/description.js';
import sqlite from '../../adapters/sqlite/description.js';
import { formatBytes } from '../../results/format.js';
import { graphFigures } from '../../results/graph-table.js';
import { REPORT_FORMATS, buildReport } from '../../results/report/index.js';
import { runBenchmark } from '../../runner/run.js';
import { WRITE_OPERATIONS } from '../../workloads/graph/operations.js';
import suite from '../../workloads/graph/suite.js';
import { browserTest, drawPage } from '../helpers/browser.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-graph-report-'));
after(() => rmSync(work, { recursive: true, force: true }));

// 6,000 distinct edges among 400 vertices, no self-loops: enough for the tiny scale's 2,000 batched removals.
function writeEdgeFile(file) {
  const lines = [];
  for (let i = 0; i < 6000; i += 1) {
    const source = (i % 400) + 1;
    const target = ((source + 1 + Math.floor(i / 400) * 7) % 400) + 1;
    lines.push(`${source}\t${target}`);
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
}

async function run(description, dataset, runs) {
  const settings = { dataset, scale: 'tiny', seed: 1, 'cache-dir': path.join(work, 'cache'), 'skip-bad': false };
  const data = await suite.prepare(settings, {});
  const config = { ...suite.configure({ ...suite.defaults, ...settings, clients: 1 }), runs, workloads: suite.workloads.map((w) => w.name), stallTimeoutMs: 60_000 };
  const result = await runBenchmark({
    suite, description, dataset: data, workloads: suite.workloads, config, command: 'test',
    adapterOptions: { namespace: 'report', database: path.join(work, `${description.id}.sqlite`), dataDir: work, concurrency: 1, connectTimeoutMs: 5000 },
  });
  return { file: `${description.id}-${data.id}.json`, result };
}

let synthetic;
let fromFile;
let sqliteRun;
before(async () => {
  const file = path.join(work, 'edges.tsv');
  writeEdgeFile(file);
  synthetic = await run(memory, 'synthetic', 3);
  fromFile = await run(memory, `file:${file}`, 2);
  sqliteRun = await run(sqlite, 'synthetic', 3);
});

// A copy of a real document with its runs' times set: each workload's runs get `times[name]` (ms per run, or
// { failed }). As another database's (`db`), a server's: per request it read `read[name]` and wrote
// `written[name]` bytes, the write workloads leave `disk` bytes, and the import is `load`; as memory's, the
// harness's process holds the store and its bytes are the run's own.
function shaped(document, db, { times, read = {}, written = {}, disk = null, load = null }) {
  const result = structuredClone(document.result);
  const server = db !== result.db.id;
  if (server) result.db = { ...result.db, id: db, name: db, kind: 'server' };
  for (const [name, entry] of Object.entries(result.workloads)) {
    const [template] = entry.runs;
    const wanted = times[name] ?? [100];
    if (wanted.failed) {
      Object.assign(entry, { status: 'failed', valid: false, runs: [{ run: 1, valid: false, errors: 1, failed: 1, reason: wanted.failed, resources: null }] });
      continue;
    }
    const io = { readBytes: (read[name] ?? 0) * entry.ops, writeBytes: (written[name] ?? 0) * entry.ops, readChars: 0, writeChars: 0 };
    entry.runs = wanted.map((ms, i) => ({
      ...template, run: i + 1, ms,
      ...(server ? { resources: { server: { io }, client: template.resources.client, clientBound: false } } : {}),
      ...(server && WRITE_OPERATIONS.includes(entry.operation) ? { diskBytes: disk } : {}),
    }));
  }
  // The copied import's bytes were the harness's; a server's are its own.
  if (server) result.import = { ...result.import, resources: { server: null }, ...load };
  return { file: `${db}-${result.dataset.id}.json`, result };
}

const MIB = 2 ** 20;
// findEdge: postgresql's median run 50 ms (20,000 requests/s) on the synthetic list and 100 ms on the file's;
// memory's 20 ms on both (50,000 requests/s): gains 2.5 and 5, so 3.75x as the publication averages them.
const documents = () => [
  shaped(synthetic, 'postgresql', {
    times: { findEdge: [60, 50, 40], upsertEdges: [400], removeEdge: [100] },
    read: { findEdge: 4096, edgesOf: 400 * 1024 },
    written: { upsertEdges: 64 * 1024 },
    disk: 3 * MIB,
    load: { reused: false, ms: 2000, edgesPerSec: 8766, floor: { ms: 100, edgesPerSec: 175310 }, floorMultiple: 20, collectionBytes: 2 * MIB, resources: { server: { io: { writeBytes: 10 * MIB } } } },
  }),
  shaped(fromFile, 'postgresql', { times: { findEdge: [100], removeEdge: { failed: 'the edge 1->2 was still there' } }, read: { inEdges: 512 } }),
  shaped(synthetic, 'memory', { times: { findEdge: [10, 20, 30], upsertEdges: [100] } }),
  shaped(fromFile, 'memory', { times: { findEdge: [20], removeEdge: [50] } }),
];

const round3 = (value) => Math.round(value * 1000) / 1000;

const tableOf = (text, title) => {
  const start = text.indexOf(title);
  assert.ok(start >= 0, `no table "${title}" in\n${text}`);
  return text.slice(start).split('\n\n')[0].split('\n');
};

test('per workload a row per database and a column per edge list, requests per second and the publication\'s gains', () => {
  const report = buildReport(documents(), { allowMixed: true });
  assert.equal(report.suite, 'graph');
  assert.equal(report.baseline.id, 'postgresql');
  const lists = report.graph.edgeLists.map((list) => list.id);
  assert.deepEqual(lists, [synthetic.result.dataset.id, fromFile.result.dataset.id]);
  const findEdge = report.graph.workloads.find((w) => w.name === 'findEdge');
  assert.equal(findEdge.results.postgresql[lists[0]].requestsPerSec, 20_000);
  assert.equal(findEdge.results.memory[lists[1]].requestsPerSec, 50_000);
  assert.deepEqual(findEdge.gains, { postgresql: 1, memory: 3.75 });
  // A failed workload is a word, and the gains take the edge lists both passed.
  const removeEdge = report.graph.workloads.find((w) => w.name === 'removeEdge');
  assert.equal(removeEdge.results.postgresql[lists[1]].status, 'failed');
  assert.equal(removeEdge.gains.memory, 1);

  const text = REPORT_FORMATS.table(report);
  const table = tableOf(text, 'findEdge: requests per second per edge list, higher is better; gains over postgresql:');
  assert.match(table[1], new RegExp(`^ +database +${lists[0]} +${lists[1]} +gains$`));
  assert.match(table[2], /^ +postgresql +20,000 +10,000 +1x$/);
  assert.match(table[3], /^ +memory +50,000 +50,000 +3\.75x$/);
  const batched = tableOf(text, 'upsertEdges: requests per second (edges per second) per edge list');
  assert.match(batched[2], /^ +postgresql +10\.0 \(5,000 edges\/s\) +40\.0 \(20,000 edges\/s\) +1x$/);
  assert.match(batched[3], /^ +memory +40\.0 \(20,000 edges\/s\) +40\.0 \(20,000 edges\/s\) +2\.50x$/);
  assert.match(tableOf(text, 'removeEdge: requests per second')[2], /^ +postgresql +5,000 +failed +1x$/);
  // The harness's own comparison is there too.
  assert.match(text, /Median time relative to postgresql \(= 100%; lower is faster\)/);
  // Several edge lists have no one figure per CSV row: the graph columns stay empty.
  const csv = REPORT_FORMATS.csv(report).split('\n');
  assert.ok(csv.find((line) => line.startsWith('workload,findEdge,true,memory,')).endsWith(',,,,,,,,,'));
});

test('the import against the floor, and the bytes per request with their amplification and the size on disk', () => {
  const report = buildReport(documents(), { allowMixed: true });
  const [a, b] = report.graph.edgeLists.map((list) => list.id);
  const text = REPORT_FORMATS.table(report);
  const imports = tableOf(text, 'Import of the edge list');
  assert.match(imports[1], /database +edge list +edges +time +edges\/s +floor edges\/s +of the floor +written +write ampl\. +counted in +on disk/);
  // 10 MiB written for 17,531 edges of 12 bytes: 49.8 times.
  assert.match(imports.find((line) => line.includes('postgresql') && line.includes(a)), /17,531 +2\.00 s +8,766 +175,310 +20× +10\.0 MiB +50× +server +2\.0 MiB$/);
  // The memory store's import is the parse alone: about 1× the floor, below it by noise (and then pointed to the note).
  assert.match(imports.find((line) => line.includes('postgresql') && line.includes(b)), /6,000 +[\d.]+ s( +[\d,.×]+){3}( \(below it: see "of the floor"\))? +n\/a +n\/a +not measured +n\/a$/);
  // The harness process writes next to nothing while it parses into memory: 0 B, or a few KiB of its own files.
  assert.match(imports.find((line) => line.includes('memory') && line.includes(b)), /6,000 +\d+\.\d\d s +[\d,]+ +[\d,]+ +[\d.]+×( \(below it: see "of the floor"\))? +(0 B +0\.00×|[\d.]+ (B|KiB) +[\d.]+×) +harness +n\/a$/);

  const postgresql = report.graph.workloads.find((w) => w.name === 'findEdge').results.postgresql[a];
  const edges = synthetic.result.workloads.findEdge.runs[0].edges;
  assert.equal(postgresql.readBytesPerRequest, 4096);
  assert.equal(postgresql.readAmplification, (4096 * 1000) / (edges * 12));
  const amplification = tableOf(text, 'Bytes read and written per request');
  assert.match(amplification[1], /workload +database +edge list +read\/req +written\/req +read ampl\. +write ampl\. +counted in +on disk after/);
  const at = amplification.findIndex((line) => /^ +findEdge +postgresql/.test(line));
  assert.match(amplification[at], new RegExp(`^ +findEdge +postgresql +${a} +4\\.0 KiB +0 B +${Math.round((4096 * 1000) / (edges * 12))}× +0\\.00× +server$`));
  // 64 KiB a request of 500 edges (6,000 bytes): 10.9 times.
  assert.match(amplification.find((line) => /^ +upsertEdges +postgresql/.test(line)), /0 B +64\.0 KiB +0\.00× +11× +server +3\.0 MiB$/);
  // The memory store counts in the harness's process, which reads nothing from storage (and writes next to
  // nothing: none of its requests does, but the process may write a few KiB of its own files meanwhile).
  assert.match(amplification[at + 2], new RegExp(`^ +memory +${a} +0 B +[\\d.]+ (B|KiB) +0\\.00× +[\\d.]+× +harness$`));
  assert.equal(amplification.filter((line) => new RegExp(`^ +postgresql +${b} +failed$`).test(line)).length, 1);
});

test('one edge list of real SQLite and memory runs: each document\'s terminal-table figures, the gains, the import, the CSV', () => {
  const report = buildReport([sqliteRun, synthetic, shaped(synthetic, 'postgresql', { times: {}, read: { edgesOf: 1024 } })], { baseline: 'sqlite' });
  const [list] = report.graph.edgeLists;
  const figures = (document) => Object.fromEntries(graphFigures(document.result).map((f) => [f.name, f]));
  const own = { sqlite: figures(sqliteRun), memory: figures(synthetic) };
  for (const workload of report.graph.workloads) {
    for (const id of ['sqlite', 'memory']) {
      const f = workload.results[id][list.id];
      const expected = own[id][workload.name];
      assert.equal(f.status, 'passed', `${id} ${workload.name}`);
      for (const key of ['requestsPerSec', 'edgesPerSec', 'readBytesPerRequest', 'writeBytesPerRequest', 'writeAmplification', 'diskBytes', 'ioScope']) {
        assert.equal(f[key], expected[key], `${id} ${workload.name} ${key}`);
      }
    }
    assert.equal(workload.results.sqlite[list.id].ioScope, 'harness', 'SQLite runs in the harness\'s process');
    const ratio = own.memory[workload.name].requestsPerSec / own.sqlite[workload.name].requestsPerSec;
    assert.equal(workload.gains.memory, ratio >= 0.1 ? Math.round(ratio * 100) / 100 : Number(ratio.toPrecision(2)));
  }
  const text = REPORT_FORMATS.table(report);
  assert.match(text, /Median time relative to sqlite \(= 100%; lower is faster\)/);
  const sqliteImport = tableOf(text, 'Import of the edge list').find((line) => /^ +sqlite /.test(line));
  const loaded = sqliteRun.result.import;
  assert.match(sqliteImport, new RegExp(`17,531 +\\d+\\.\\d\\d s +${loaded.edgesPerSec.toLocaleString('en-US')} +${loaded.floor.edgesPerSec.toLocaleString('en-US')} +${loaded.floorMultiple}× +.+ harness +${formatBytes(loaded.collectionBytes).replace('.', '\\.')}$`));

  const csv = REPORT_FORMATS.csv(report).split('\n');
  const header = csv[0].split(',');
  assert.deepEqual(header.slice(-9), ['edge_list', 'requests_per_sec', 'edges_per_sec', 'read_bytes_per_request', 'written_bytes_per_request',
    'read_amplification', 'write_amplification', 'io_counted_in', 'disk_bytes_after']);
  const rowOf = (workload, id) => {
    const row = csv.find((line) => line.startsWith(`workload,${workload},true,${id},`)).split(',');
    return (name) => row[header.indexOf(name)];
  };
  const postgresql = rowOf('edgesOf', 'postgresql');
  assert.equal(postgresql('edge_list'), list.id);
  assert.equal(postgresql('requests_per_sec'), '10000');
  assert.equal(postgresql('read_bytes_per_request'), '1024');
  assert.equal(Number(postgresql('read_amplification')), round3((1024 * 1000) / (synthetic.result.workloads.edgesOf.runs[0].edges * 12)));
  assert.equal(postgresql('io_counted_in'), 'server');
  const upserts = rowOf('upsertEdges', 'sqlite');
  assert.equal(Number(upserts('edges_per_sec')), round3(own.sqlite.upsertEdges.edgesPerSec));
  assert.equal(Number(upserts('written_bytes_per_request')), round3(own.sqlite.upsertEdges.writeBytesPerRequest));
  assert.equal(upserts('io_counted_in'), 'harness');
  assert.equal(Number(upserts('disk_bytes_after')), own.sqlite.upsertEdges.diskBytes);
  // One database: absolute figures, no gains.
  const alone = REPORT_FORMATS.table(buildReport([sqliteRun]));
  assert.match(alone, /findEdge: requests per second per edge list, higher is better:\n +database +graph-synthetic-[^ ]+\n +sqlite +[\d,.]+\n/);
});

test('a collection every file reused has no load to show: the import row says so, with its size measured again', () => {
  const reused = structuredClone(sqliteRun.result);
  reused.import = { reused: true, edges: 17_531, ms: 0, collectionBytes: 3 * MIB, diskBytes: 4 * MIB, diskScope: 'namespace', resources: null };
  const report = buildReport([{ file: 'sqlite-reused.json', result: reused }]);
  assert.deepEqual(report.graph.imports.sqlite[report.graph.edgeLists[0].id], {
    imports: 0, edges: 17_531, ms: null, edgesPerSec: null, floorEdgesPerSec: null, floorMultiple: null, writeBytes: null,
    writeAmplification: null, ioScope: null, diskBytes: 3 * MIB, diskScope: 'collection',
  });
  assert.match(tableOf(REPORT_FORMATS.table(report), 'Import of the edge list')[2], /^ +sqlite +graph-synthetic-\S+ +17,531 +reused +3\.0 MiB$/);
});

// Debian's chromium through puppeteer-core, as test/report/html.test.js: without it the test skips, unless
// BENCH_REQUIRE lists chromium.
test('the page charts the bytes per request and the size on disk per edge list in a browser', browserTest, async () => {
  const report = buildReport(documents(), { allowMixed: true });
  const [a, b] = report.graph.edgeLists.map((list) => list.id);
  const html = REPORT_FORMATS.html(report);
  const { problems, drawn: charts } = await drawPage(html, () => Array.from(document.querySelectorAll('#chart-graph canvas')).map((canvas) => {
    const chart = window.Chart.getChart(canvas);
    return {
      title: chart.options.plugins.title.text,
      scale: chart.options.scales.y.type,
      labels: chart.data.labels,
      bars: chart.data.datasets.map((dataset) => [dataset.label, dataset.data.filter((v) => typeof v === 'number').length]),
    };
  }));
  assert.deepEqual(problems, []);
  const workloads = suite.workloads.map((w) => w.name);
  // On the file's list nothing was written (every figure 0) and no size on disk measured: no chart of either.
  assert.deepEqual(charts.map((c) => c.title), [
    `${a}: bytes read per request (lower is better)`, `${a}: bytes written per request (lower is better)`,
    `${a}: edge collection on disk after the import and after each write workload`,
    `${b}: bytes read per request (lower is better)`,
  ]);
  // 4 KiB to 400 KiB read per request: more than a factor of 20, so a log scale.
  assert.equal(charts[0].scale, 'logarithmic');
  assert.deepEqual(charts[0].labels, workloads);
  assert.deepEqual(charts[0].bars, [['postgresql', 10], ['memory', 10]]);
  assert.deepEqual(charts[2].labels, ['after import', 'after upsertEdge', 'after upsertEdges', 'after removeEdge', 'after removeEdges']);
  assert.deepEqual(charts[2].bars, [['postgresql', 5], ['memory (not measured)', 0]]);
  assert.equal(charts[2].scale, 'linear');
  // The failed removeEdge of postgresql on the file's list has no bar.
  assert.deepEqual(charts[3].bars, [['postgresql', 9], ['memory', 10]]);
  // The charts left out are named, each with the reason; the headline draws each list's rates on one axis.
  const { drawn: page } = await drawPage(html, () => ({
    notes: Array.from(document.querySelectorAll('#chart-graph p.none')).map((p) => p.textContent),
    rates: Array.from(document.querySelectorAll('#chart-graph-rates canvas')).map((canvas) => {
      const chart = window.Chart.getChart(canvas);
      return [chart.data.labels.length, chart.data.datasets.map((dataset) => dataset.label), chart.scales.y.min, chart.scales.y.max];
    }),
  }));
  assert.deepEqual(page.notes, [
    `${b}: bytes written per request: 0 B in every workload, so no chart (no write workload ran, or none reached the disk while it was measured)`,
    `${b}: edge collection on disk after the import and after each write workload: not measured in these files`,
  ]);
  assert.equal(page.rates.length, 2);
  assert.deepEqual(page.rates.map(([labels, datasets]) => [labels, datasets]), [[workloads.length, ['postgresql', 'memory']], [workloads.length, ['postgresql', 'memory']]]);
  assert.deepEqual(page.rates[0].slice(2), page.rates[1].slice(2), 'one axis for every list');
});
