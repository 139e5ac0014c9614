// The graph suite's report (results/report/suites/graph.js) on result documents made up here, with no run behind
// them: the model (edge lists, each database's figures per edge list, the publication's gains, the imports), the
// tables and notes it adds to the report, the CSV's columns, the page's chart data, and the dataset's label. Every
// time, byte and size is set by hand so that each figure can be checked exactly; test/report/graph-report.test.js
// does the same on real runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { REPORT_FORMATS, buildReport } from '../../results/report/index.js';
import { suiteRendering } from '../../results/report/suites/index.js';
import graph, { GRAPH_CSV, GRAPH_PAGE_SCRIPT, graphBlocks, graphChartData, graphDatasetLabel, graphModel } from '../../results/report/suites/graph.js';

const MIB = 2 ** 20;
const io = (readBytes, writeBytes) => ({ readBytes, writeBytes, readChars: 0, writeChars: 0 });
const server = (readBytes, writeBytes) => ({ server: { io: io(readBytes, writeBytes) } });
const client = (readBytes, writeBytes) => ({ client: { io: io(readBytes, writeBytes) } });
const run = (n, ms, extra = {}) => ({ run: n, valid: true, ms, latencyMs: { p50: ms / 100, p99: ms / 10 }, ...extra });
const passed = (operation, ops, runs) => ({ supported: true, compared: true, status: 'passed', valid: true, operation, ops, runs });
const failed = (operation, ops, reason) => ({ supported: true, compared: true, status: 'failed', valid: false, operation, ops, runs: [{ run: 1, valid: false, reason }] });
const unsupported = (operation) => ({ supported: false, compared: true, status: 'unsupported', operation, ops: 0, runs: [] });

const G1 = { id: 'g1', name: 'synthetic', scale: 'tiny', seed: 1, edges: 1000, vertices: 100, label: 'synthetic tiny', file: 'x.tsv' };
const G2 = { id: 'g2' };

function document(db, kind, dataset, workloads, load, file = `${db}-${dataset.id}.json`) {
  return {
    file,
    result: {
      schema: 'db-shootout/result@1', suite: 'graph', db: { id: db, name: db.toUpperCase(), version: '1', kind },
      dataset, config: { concurrency: 2, runs: 3 }, import: load, resources: null, complete: true, workloads,
    },
  };
}

// p, a server, on two edge lists; m, embedded, on the first only.
// findEdge: p's median run of three 50 ms (20,000 requests/s) on g1, 100 ms on g2; m's 20 ms (50,000/s): gain 2.5.
// upsertEdges (batched): p 400 ms for 4 requests of 500 edges, m 100 ms: gain 4. removeEdge: p failed on g1, m
// did not run g2: no list both passed. inEdges: p does not support it.
function documents() {
  return [
    document('p', 'server', G1, {
      findEdge: passed('findEdge', 1000, [
        run(1, 60, { edges: 500, resources: server(36000, 0) }), run(2, 40, { edges: 500, resources: server(12000, 0) }),
        run(3, 50, { edges: 500, resources: server(24000, 1000) }),
      ]),
      inEdges: unsupported('inEdges'),
      upsertEdges: passed('upsertEdges', 4, [run(1, 400, { edges: 2000, diskBytes: 3 * MIB, resources: server(0, 4 * 65536) })]),
      removeEdge: failed('removeEdge', 10, 'the edge 1->2 was still there'),
    }, {
      reused: false, edges: 1000, ms: 2000, edgesPerSec: 500, floor: { ms: 100, edgesPerSec: 10000 }, floorMultiple: 20,
      collectionBytes: 2 * MIB, diskBytes: 9e9, diskScope: 'data directory', resources: server(0, 120000),
    }),
    document('p', 'server', G2, {
      findEdge: passed('findEdge', 1000, [run(1, 100, { edges: 100 })]),
      upsertEdges: passed('upsertEdges', 4, [run(1, 200, { edges: 2000 })]),
      removeEdge: passed('removeEdge', 10, [run(1, 5, { edges: 10 })]),
    }, { reused: false, edges: 6000, ms: 3000, edgesPerSec: 2000, diskBytes: 5 * MIB, diskScope: 'data directory', resources: null }),
    document('m', 'embedded', G1, {
      findEdge: passed('findEdge', 1000, [run(1, 20, { edges: 500, resources: client(0, 0) })]),
      upsertEdges: passed('upsertEdges', 4, [run(1, 100, { edges: 2000, diskBytes: MIB, resources: client(0, 48000) })]),
      removeEdge: passed('removeEdge', 10, [run(1, 50, { edges: 10 })]),
      inEdges: passed('inEdges', 10, [run(1, 1, { edges: 40, resources: client(9600, 0) })]),
    }, { reused: false, edges: 1000, ms: 500, edgesPerSec: 2000, resources: client(0, 6000), diskBytes: 4096, diskScope: 'namespace' }),
  ];
}

const report = () => buildReport(documents(), { baseline: 'p', allowMixed: true });
const blockOf = (r, id) => graphBlocks(r).find((block) => block.id === id);
const NOT_RUN = (name) => ({ name, status: 'not run', reason: null });

test('the model: the edge lists in the files\' order with their unknown fields null, each database\'s figures per list, the gains', () => {
  const r = report();
  assert.equal(r.suite, 'graph');
  assert.deepEqual(r.graph.edgeLists, [
    { id: 'g1', name: 'synthetic', scale: 'tiny', seed: 1, edges: 1000, vertices: 100, label: 'synthetic tiny' },
    { id: 'g2', name: null, scale: null, seed: null, edges: null, vertices: null, label: null },
  ]);
  assert.deepEqual(r.graph.workloads.map((w) => [w.name, w.operation, w.batched]),
    [['findEdge', 'findEdge', false], ['inEdges', 'inEdges', false], ['upsertEdges', 'upsertEdges', true], ['removeEdge', 'removeEdge', false]]);
  const [findEdge, inEdges, upsertEdges, removeEdge] = r.graph.workloads;
  // p's median run of 40, 50 and 60 ms is the 50 ms one, with that run's bytes.
  assert.deepEqual(findEdge.results.p.g1, {
    name: 'findEdge', status: 'passed', requests: 1000, edges: 500, medianMs: 50, requestsPerSec: 20000, edgesPerSec: 10000, p50Ms: 0.5, p99Ms: 5,
    ioScope: 'server', readBytesPerRequest: 24, writeBytesPerRequest: 1, readAmplification: 4, writeAmplification: 1 / 6,
    readCharsPerRequest: 0, writeCharsPerRequest: 0, diskBytes: null,
  });
  assert.equal(findEdge.results.p.g2.requestsPerSec, 10000);
  assert.equal(findEdge.results.p.g2.ioScope, null);
  assert.equal(findEdge.results.m.g1.ioScope, 'harness');
  assert.deepEqual(findEdge.results.m.g2, NOT_RUN('findEdge'));
  assert.deepEqual(findEdge.gains, { p: 1, m: 2.5 });
  assert.deepEqual(upsertEdges.gains, { p: 1, m: 4 });
  assert.equal(upsertEdges.results.p.g1.diskBytes, 3 * MIB);
  // The baseline's gain is 1 on the list it passed; m passed only where p failed.
  assert.deepEqual(removeEdge.gains, { p: 1, m: null });
  assert.deepEqual(removeEdge.results.p.g1, { name: 'removeEdge', operation: 'removeEdge', status: 'failed', reason: 'the edge 1->2 was still there' });
  // A workload the baseline does not support has no gains at all.
  assert.deepEqual(inEdges.results.p.g1, { name: 'inEdges', operation: 'inEdges', status: 'unsupported', reason: null });
  assert.deepEqual(inEdges.results.p.g2, { ...NOT_RUN('inEdges'), operation: 'inEdges' });
  assert.deepEqual(inEdges.gains, { p: null, m: null });
});

test('the model: per database and edge list the import of median time, its bytes over the edges\' logical bytes, the size on disk', () => {
  const { imports } = report().graph;
  assert.deepEqual(imports.p.g1, {
    imports: 1, edges: 1000, ms: 2000, edgesPerSec: 500, floorEdgesPerSec: 10000, floorMultiple: 20, writeBytes: 120000,
    writeAmplification: 10, ioScope: 'server', diskBytes: 2 * MIB, diskScope: 'collection',
  });
  // Without the collection's own size, the size recorded with its scope; without bytes counted, null.
  assert.deepEqual(imports.p.g2, {
    imports: 1, edges: 6000, ms: 3000, edgesPerSec: 2000, floorEdgesPerSec: null, floorMultiple: null, writeBytes: null,
    writeAmplification: null, ioScope: null, diskBytes: 5 * MIB, diskScope: 'data directory',
  });
  // An embedded database's import is counted in the harness's process.
  assert.deepEqual(imports.m.g1, {
    imports: 1, edges: 1000, ms: 500, edgesPerSec: 2000, floorEdgesPerSec: null, floorMultiple: null, writeBytes: 6000,
    writeAmplification: 0.5, ioScope: 'harness', diskBytes: 4096, diskScope: 'namespace',
  });
  assert.equal(imports.m.g2, null);
});

// One database's documents of one edge list, each with its own import.
function imported(loads, workloads = { findEdge: passed('findEdge', 10, [run(1, 10, { edges: 10 })]) }) {
  const docs = loads.map((load, i) => document('q', 'server', G1, workloads, load, `q${i}.json`));
  return graphModel({ workloads: Object.keys(workloads).map((name) => ({ name })), databases: [{ id: 'q' }], documents: docs }).block.imports.q.g1;
}

test('the import of several files: the fresh loads counted once, the lower middle one by time, a reused one only for the size', () => {
  const load = (ms, extra = {}) => ({ reused: false, edges: 100, ms, edgesPerSec: 100000 / ms, ...extra });
  // Three loads, one of them twice (a document that repeats it), and a reused collection: the median of 10, 30 and 20 ms.
  const three = imported([load(30, { collectionBytes: 300 }), load(10, { collectionBytes: 100 }), load(30, { collectionBytes: 300 }), load(20, { collectionBytes: 200 }),
    { reused: true, edges: 100, ms: 0, collectionBytes: 999 }]);
  assert.deepEqual([three.imports, three.ms, three.diskBytes, three.diskScope], [3, 20, 200, 'collection']);
  // Two loads: the faster of the middle two.
  const two = imported([load(40), load(20)]);
  assert.deepEqual([two.imports, two.ms, two.edgesPerSec], [2, 20, 5000]);
  // Every file reused the collection: no load, the size of the last, measured again.
  const reused = imported([{ reused: true, edges: 100, collectionBytes: 1000 }, { reused: true, edges: 100, collectionBytes: 2000 }, { reused: true, edges: 100, diskBytes: 5000, diskScope: 'namespace' }]);
  assert.deepEqual(reused, {
    imports: 0, edges: 100, ms: null, edgesPerSec: null, floorEdgesPerSec: null, floorMultiple: null, writeBytes: null,
    writeAmplification: null, ioScope: null, diskBytes: 5000, diskScope: 'namespace',
  });
  // A size without its scope, no size at all, no edge count.
  assert.deepEqual([imported([load(10, { diskBytes: 7 })]).diskScope, imported([load(10, { diskBytes: 7 })]).diskBytes], [null, 7]);
  // A scope without a size to go with it is no scope.
  assert.deepEqual(imported([{ reused: true, diskScope: 'namespace' }]).diskScope, null);
  const bare = imported([{ reused: true }]);
  assert.deepEqual([bare.edges, bare.diskBytes, bare.diskScope], [null, null, null]);
  // A server's bytes before the harness's; the harness's for a database whose kind is not recorded; none over no edges.
  assert.deepEqual(imported([load(10, { resources: { server: { io: io(0, 600) }, client: { io: io(0, 1) } } })]).writeAmplification, 0.5);
  assert.deepEqual(imported([load(10, { resources: { server: null, client: { io: io(0, 2400) } } })]).ioScope, 'harness');
  const noEdges = imported([load(10, { edges: 0, resources: server(0, 2400) })]);
  assert.deepEqual([noEdges.writeBytes, noEdges.writeAmplification, noEdges.ioScope], [2400, null, 'server']);
  const unknownEdges = imported([{ reused: false, ms: 10, resources: server(0, 2400) }]);
  assert.deepEqual([unknownEdges.edges, unknownEdges.writeAmplification], [null, null]);
  // No import recorded in any file: nothing to show.
  assert.equal(imported([null, undefined]), null);
});

test('the gains: the mean of the ratios over the lists both passed with a rate; two decimals, two significant digits below 0.1', () => {
  const rated = (db, dataset, ms) => document(db, 'server', dataset, { findEdge: passed('findEdge', 1000, [run(1, ms, { edges: 1 })]) }, null);
  const gains = (docs) => graphModel({ workloads: [{ name: 'findEdge' }], databases: [{ id: 'b' }, { id: 'o' }], documents: docs }).block.workloads[0].gains;
  // 30 ms against the baseline's 10 ms and 60 against 20: a third of its rate on both lists; 3 and 1.5: 2.25.
  assert.deepEqual(gains([rated('b', G1, 10), rated('o', G1, 30), rated('b', G2, 20), rated('o', G2, 60)]), { b: 1, o: 0.33 });
  assert.deepEqual(gains([rated('b', G1, 30), rated('o', G1, 10), rated('b', G2, 15), rated('o', G2, 10)]), { b: 1, o: 2.25 });
  // 0.1 exactly keeps two decimals; a hundredth of it, 0.001234..., two significant digits.
  assert.deepEqual(gains([rated('b', G1, 10), rated('o', G1, 100)]), { b: 1, o: 0.1 });
  assert.deepEqual(gains([rated('b', G1, 10), rated('o', G1, 8100)]), { b: 1, o: 0.0012 });
  assert.deepEqual(gains([rated('b', G1, 10), rated('o', G1, 10.2)]), { b: 1, o: 0.98 });
  // A rate of 0 (a run of 0 ms has none) is no ratio.
  assert.deepEqual(gains([rated('b', G1, 10), rated('o', G1, 0)]), { b: 1, o: null });
  assert.deepEqual(gains([rated('b', G1, 0), rated('o', G1, 10)]), { b: null, o: null });
});

test('the tables: per workload a row per database, rates readable from a few to millions, the gains as the publication printed them', () => {
  const r = report();
  const [gains, ...blocks] = graphBlocks(r);
  // The headline first: every operation's gains, the status where a database passed no list, n/a where the
  // baseline has no rate.
  assert.deepEqual(gains, {
    kind: 'table', id: 'graph-gains', title: 'Gains over p per operation (its requests per second over p\'s = 1x; higher is better)',
    header: ['database', 'findEdge', 'inEdges', 'upsertEdges', 'removeEdge'], numeric: [1, 2, 3, 4],
    rows: [['p', '1x', 'unsupported', '1x', '1x'], ['m', '2.50x', 'n/a', '4.00x', 'n/a']],
  });
  assert.deepEqual(blocks.map((b) => b.id), ['graph-findEdge', 'graph-inEdges', 'graph-upsertEdges', 'graph-removeEdge', 'graph-import', 'graph-amplification', 'graph-notes']);
  assert.deepEqual(blocks[0], {
    kind: 'table', id: 'graph-findEdge', title: 'findEdge: requests per second per edge list, higher is better; gains over p',
    header: ['database', 'g1', 'g2', 'gains'], numeric: [1, 2, 3],
    rows: [['p', '20,000', '10,000', '1x'], ['m', '50,000', 'not run', '2.50x']],
  });
  assert.deepEqual(blocks[1].rows, [['p', 'unsupported', 'not run', 'n/a'], ['m', '10,000', 'not run', 'n/a']]);
  assert.deepEqual([blocks[2].title, blocks[2].rows], [
    'upsertEdges: requests per second (edges per second) per edge list, higher is better; gains over p',
    [['p', '10.0 (5,000 edges/s)', '20.0 (10,000 edges/s)', '1x'], ['m', '40.0 (20,000 edges/s)', 'not run', '4.00x']],
  ]);
  assert.deepEqual(blocks[3].rows, [['p', 'failed', '2,000', '1x'], ['m', '200', 'not run', 'n/a']]);
  // A workload name with other characters than letters and digits: one dash for each run of them.
  const renamed = report();
  renamed.graph.workloads[0].name = 'find  edge/2';
  assert.equal(graphBlocks(renamed)[1].id, 'graph-find-edge-2');
});

test('the rates and gains at their edges: two decimals below 10, one below 100, whole numbers from 100; a gain below 0.1', () => {
  const r = report();
  const findEdge = r.graph.workloads[0];
  const cells = (rates, gain, batched = false, edgesPerSec = 2.5) => {
    findEdge.batched = batched;
    findEdge.results.p.g1 = { status: 'passed', requestsPerSec: rates[0], edgesPerSec };
    findEdge.results.p.g2 = { status: 'passed', requestsPerSec: rates[1], edgesPerSec: null };
    findEdge.gains.m = gain;
    return [...blockOf(r, 'graph-findEdge').rows[0].slice(1, 3), blockOf(r, 'graph-findEdge').rows[1][3]];
  };
  assert.deepEqual(cells([9.994, 10], 0.1), ['9.99', '10.0', '0.10x']);
  assert.deepEqual(cells([99.94, 100.4], 0.0123), ['99.9', '100', '0.012x']);
  assert.deepEqual(cells([1234.5, null], 12.345), ['1,235', 'n/a', '12.35x']);
  assert.deepEqual(cells([100, 9.999], 1), ['100', '10.00', '1.00x']);
  assert.deepEqual(cells([5, 5], 1, true), ['5.00 (2.50 edges/s)', '5.00', '1.00x']);
  assert.deepEqual(cells([5, 5], 1, true, null), ['5.00', '5.00', '1.00x']);
  // The baseline without a gain: n/a, never 1x.
  findEdge.gains.p = null;
  assert.equal(blockOf(r, 'graph-findEdge').rows[0][3], 'n/a');
});

test('the import table: a row per database and list with an import, the load against the floor, the bytes written, the size', () => {
  const block = blockOf(report(), 'graph-import');
  assert.deepEqual([block.kind, block.title, block.header, block.numeric], [
    'table', 'Import of the edge list, indexes included, against reading and parsing the file alone (the floor)',
    ['database', 'edge list', 'edges', 'time', 'edges/s', 'floor edges/s', 'of the floor', 'written', 'write ampl.', 'counted in', 'on disk'],
    [2, 3, 4, 5, 6, 7, 8, 10],
  ]);
  assert.deepEqual(block.rows, [
    ['p', 'g1', '1,000', '2.00 s', '500', '10,000', '20×', '117.2 KiB', '10×', 'server', '2.0 MiB'],
    ['p', 'g2', '6,000', '3.00 s', '2,000', 'n/a', 'n/a', 'n/a', 'n/a', 'not measured', '5.0 MiB (whole data directory)'],
    ['m', 'g1', '1,000', '0.50 s', '2,000', 'n/a', 'n/a', '5.9 KiB', '0.50×', 'harness', '4.0 KiB'],
  ]);
  // A reused collection: no load, its size; amplifications of 10 and more without decimals, with separators.
  const r = report();
  r.graph.imports.p.g1 = { imports: 0, edges: null, ms: null, edgesPerSec: 1, floorEdgesPerSec: 1, floorMultiple: 1, writeBytes: 1, writeAmplification: 1, ioScope: 'server', diskBytes: null, diskScope: null };
  r.graph.imports.m.g1 = { ...r.graph.imports.m.g1, writeAmplification: 1234.4, diskScope: 'namespace' };
  r.graph.imports.p.g2 = { ...r.graph.imports.p.g2, writeAmplification: 9.996, writeBytes: 1024 };
  assert.deepEqual(blockOf(r, 'graph-import').rows, [
    ['p', 'g1', 'n/a', 'reused', '', '', '', '', '', '', 'n/a'],
    ['p', 'g2', '6,000', '3.00 s', '2,000', 'n/a', 'n/a', '1.0 KiB', '10.00×', 'not measured', '5.0 MiB (whole data directory)'],
    ['m', 'g1', '1,000', '0.50 s', '2,000', 'n/a', 'n/a', '5.9 KiB', '1,234×', 'harness', '4.0 KiB'],
  ]);
  // An import faster than the floor points to the note that says what that can mean.
  r.graph.imports.m.g1 = { ...r.graph.imports.m.g1, floorEdgesPerSec: 9000, floorMultiple: 0.23 };
  assert.equal(blockOf(r, 'graph-import').rows[2][6], '0.23× (below it: see "of the floor")');
});

test('the amplification table: each workload named once, a column for the edge list when there are several, words where nothing was measured', () => {
  const block = blockOf(report(), 'graph-amplification');
  assert.deepEqual([block.kind, block.title, block.header, block.numeric], [
    'table', 'Bytes read and written per request, and as a multiple of the edges\' logical bytes (amplification)',
    ['workload', 'database', 'edge list', 'read/req', 'written/req', 'read ampl.', 'write ampl.', 'counted in', 'on disk after'],
    [3, 4, 5, 6, 8],
  ]);
  assert.deepEqual(block.rows, [
    ['findEdge', 'p', 'g1', '24 B', '1 B', '4.00×', '0.17×', 'server', ''],
    ['', 'p', 'g2', 'n/a', 'n/a', '', '', 'not measured', ''],
    ['', 'm', 'g1', '0 B', '0 B', '0.00×', '0.00×', 'harness', ''],
    ['', 'm', 'g2', 'not run', '', '', '', '', ''],
    ['inEdges', 'p', 'g1', 'unsupported', '', '', '', '', ''],
    ['', 'p', 'g2', 'not run', '', '', '', '', ''],
    ['', 'm', 'g1', '960 B', '0 B', '20×', '0.00×', 'harness', ''],
    ['', 'm', 'g2', 'not run', '', '', '', '', ''],
    ['upsertEdges', 'p', 'g1', '0 B', '64.0 KiB', '0.00×', '11×', 'server', '3.0 MiB'],
    ['', 'p', 'g2', 'n/a', 'n/a', '', '', 'not measured', 'n/a'],
    ['', 'm', 'g1', '0 B', '11.7 KiB', '0.00×', '2.00×', 'harness', '1.0 MiB'],
    ['', 'm', 'g2', 'not run', '', '', '', '', ''],
    ['removeEdge', 'p', 'g1', 'failed', '', '', '', '', ''],
    ['', 'p', 'g2', 'n/a', 'n/a', '', '', 'not measured', 'n/a'],
    ['', 'm', 'g1', 'n/a', 'n/a', '', '', 'not measured', 'n/a'],
    ['', 'm', 'g2', 'not run', '', '', '', '', ''],
  ]);
  // Bytes counted but no ratio (no edges answered): an n/a ratio.
  const r = report();
  r.graph.workloads[0].results.p.g1 = { ...r.graph.workloads[0].results.p.g1, readAmplification: null, writeAmplification: null, readBytesPerRequest: 1.6 };
  assert.deepEqual(blockOf(r, 'graph-amplification').rows[0], ['findEdge', 'p', 'g1', '2 B', '1 B', 'n/a', 'n/a', 'server', '']);
});

// The first edge list only, of both databases.
const oneList = (options = { baseline: 'p' }) => buildReport(documents().filter(({ result }) => result.dataset.id === 'g1'), options);

test('one edge list: no column for it in the amplification table; one database: no gains, and the notes say nothing of them', () => {
  const block = blockOf(oneList(), 'graph-amplification');
  assert.deepEqual(block.header, ['workload', 'database', 'read/req', 'written/req', 'read ampl.', 'write ampl.', 'counted in', 'on disk after']);
  assert.deepEqual(block.numeric, [2, 3, 4, 5, 7]);
  assert.deepEqual(block.rows.slice(0, 2), [['findEdge', 'p', '24 B', '1 B', '4.00×', '0.17×', 'server', ''], ['', 'm', '0 B', '0 B', '0.00×', '0.00×', 'harness', '']]);

  const notes = blockOf(report(), 'graph-notes');
  assert.deepEqual([notes.kind, notes.title], ['list', 'Graph suite figures']);
  assert.deepEqual(notes.items.map((item) => item.label), ['requests/s', 'gains', 'read/written', 'amplification', 'of the floor', 'on disk']);
  assert.deepEqual(notes.items[1].lines, ['as the publication: the mean over the edge lists of the database\'s requests/s over p\'s (= 1x); the normalised table below compares the medians with their intervals']);
  assert.match(notes.items[0].lines[0], /^requests per run over the median time of every valid run of that database and edge list \(for an even number of runs the mean of the middle two/);
  assert.match(notes.items[2].lines[0], /^bytes the server's process tree read from and wrote to storage per request \(\/proc\/<pid>\/io\)/);
  assert.deepEqual(notes.items[3].lines, ['those bytes over the logical bytes of the edges answered or written, 12 bytes an edge']);
  assert.match(notes.items[4].lines[0], /^the import's time over the floor's: reading and parsing the edge file alone, the faster of two passes/);
  assert.match(notes.items[5].lines[0], /^the edge collection with its indexes as the adapter measures it/);

  const alone = buildReport(documents().filter(({ result }) => result.db.id === 'm'));
  const blocks = graphBlocks(alone);
  assert.deepEqual(blocks[0], {
    kind: 'table', id: 'graph-findEdge', title: 'findEdge: requests per second per edge list, higher is better',
    header: ['database', 'g1'], numeric: [1], rows: [['m', '50,000']],
  });
  assert.equal(blocks[1].title, 'upsertEdges: requests per second (edges per second) per edge list, higher is better');
  assert.deepEqual(blockOf(alone, 'graph-notes').items.map((item) => item.label), ['requests/s', 'read/written', 'amplification', 'of the floor', 'on disk']);
  // The report's text holds the graph tables right after the summary and the terms.
  const text = REPORT_FORMATS.table(alone).split('\n');
  assert.deepEqual(text.slice(10, 13), ['findEdge: requests per second per edge list, higher is better:', '  database      g1', '  m         50,000']);
});

test('the CSV: the edge list and the figures to three decimals on one list; the list alone for a workload that did not pass; none on several', () => {
  assert.deepEqual(GRAPH_CSV.columns, ['edge_list', 'requests_per_sec', 'edges_per_sec', 'read_bytes_per_request', 'written_bytes_per_request',
    'read_amplification', 'write_amplification', 'io_counted_in', 'disk_bytes_after']);
  const r = oneList();
  const cells = (name, id) => GRAPH_CSV.cells(r, { name }, id);
  assert.deepEqual(cells('findEdge', 'p'), ['g1', 20000, 10000, 24, 1, 4, 0.167, 'server', null]);
  assert.deepEqual(cells('upsertEdges', 'p'), ['g1', 10, 5000, 0, 65536, 0, 10.923, 'server', 3 * MIB]);
  assert.deepEqual(cells('removeEdge', 'p'), ['g1', null, null, null, null, null, null, null, null]);
  assert.deepEqual(cells('removeEdge', 'm'), ['g1', 200, 200, null, null, null, null, null, null]);
  assert.deepEqual(cells('warmup', 'm'), ['g1', null, null, null, null, null, null, null, null]);
  assert.deepEqual(GRAPH_CSV.cells(report(), { name: 'findEdge' }, 'm'), [null, null, null, null, null, null, null, null, null]);
  // Through the report: the columns after the generic ones, the cells of each row.
  const csv = REPORT_FORMATS.csv(r).split('\n');
  assert.ok(csv[0].endsWith(',server_rss_mean_bytes,edge_list,requests_per_sec,edges_per_sec,read_bytes_per_request,written_bytes_per_request,read_amplification,write_amplification,io_counted_in,disk_bytes_after'));
  assert.ok(csv.find((line) => line.startsWith('workload,findEdge,true,p,')).endsWith(',g1,20000,10000,24,1,4,0.167,server,'));
  assert.ok(csv.find((line) => line.startsWith('database,,,p,')).endsWith(',,,,,,,,,'));
});

test('the chart data: per edge list the bytes read and written per request and the size on disk, charts without a figure above 0 left out', () => {
  const data = graphChartData(report());
  assert.deepEqual(data.charts.map((c) => c.title), [
    'g1: bytes read per request (lower is better)', 'g1: bytes written per request (lower is better)',
    'g1: edge collection on disk after the import and after each write workload', 'g2: edge collection on disk after the import and after each write workload',
  ]);
  const [read, written, disk, disk2] = data.charts;
  assert.deepEqual(read, {
    title: 'g1: bytes read per request (lower is better)', axis: 'bytes read per request', labels: ['findEdge', 'inEdges', 'upsertEdges', 'removeEdge'],
    databases: [
      { id: 'p', values: [24, null, 0, null], text: ['24 B per request (4.00× the edges\' bytes), counted in the server', 'unsupported', '0 B per request (0.00× the edges\' bytes), counted in the server', 'failed'] },
      { id: 'm', values: [0, 960, 0, null], text: ['0 B per request (0.00× the edges\' bytes), counted in the harness', '960 B per request (20× the edges\' bytes), counted in the harness', '0 B per request (0.00× the edges\' bytes), counted in the harness', 'not measured'] },
    ],
  });
  assert.equal(written.axis, 'bytes written per request');
  assert.deepEqual(written.databases.map((d) => d.values), [[1, null, 65536, null], [0, 0, 12000, null]]);
  assert.equal(written.databases[0].text[0], '1 B per request (0.17× the edges\' bytes), counted in the server');
  assert.deepEqual(disk, {
    title: 'g1: edge collection on disk after the import and after each write workload', axis: 'MiB',
    labels: ['after import', 'after upsertEdges', 'after removeEdge'],
    databases: [
      { id: 'p', values: [2, 3, null], text: ['2.0 MiB', '3.0 MiB', 'not measured'] },
      { id: 'm', values: [4096 / MIB, 1, null], text: ['4.0 KiB', '1.0 MiB', 'not measured'] },
    ],
  });
  // On g2 only p ran: a workload neither passed there has no label; nothing was counted, so only the size is drawn.
  assert.deepEqual(disk2.databases, [
    { id: 'p', values: [5, null, null], text: ['5.0 MiB', 'not measured', 'not measured'] },
    // m measured nothing there: its legend says so.
    { id: 'm', label: 'm (not measured)', values: [null, null, null], text: ['not measured', 'not measured', 'not measured'] },
  ]);
  // One edge list: titles without its name; a ratio that is not a number is left out of the words.
  const one = oneList();
  one.graph.workloads[0].results.p.g1.readAmplification = null;
  const charts = graphChartData(one).charts;
  assert.deepEqual(charts.map((c) => c.title), ['bytes read per request (lower is better)', 'bytes written per request (lower is better)', 'edge collection on disk after the import and after each write workload']);
  assert.equal(charts[0].databases[0].text[0], '24 B per request, counted in the server');
  // A workload no database passed on the list has no bars.
  one.graph.workloads.find((w) => w.name === 'inEdges').results.m.g1 = { name: 'inEdges', status: 'failed', reason: 'x' };
  assert.deepEqual(graphChartData(one).charts[0].labels, ['findEdge', 'upsertEdges', 'removeEdge']);
  // Only zeros and gaps: no chart, a sentence saying why instead.
  const zeros = buildReport([document('z', 'embedded', G2, { findEdge: passed('findEdge', 10, [run(1, 10, { edges: 1, resources: client(0, 0) })]) }, null)]);
  const empty = graphChartData(zeros);
  assert.deepEqual(empty.charts, []);
  assert.deepEqual(empty.omitted, [
    'bytes read per request: 0 B in every workload, so no chart: every read was served from memory (the page cache or the database\'s own cache); --cache with a size below the data and --cold make reads reach the disk',
    'bytes written per request: 0 B in every workload, so no chart (no write workload ran, or none reached the disk while it was measured)',
    'edge collection on disk after the import and after each write workload: not measured in these files',
  ]);
  // Not sampled at all: said so.
  const unsampled = buildReport([document('z', 'embedded', G2, { findEdge: passed('findEdge', 10, [run(1, 10, { edges: 1 })]) }, null)]);
  assert.deepEqual(graphChartData(unsampled).omitted.slice(0, 2), [
    'bytes read per request: not measured in these files (no process was sampled)', 'bytes written per request: not measured in these files (no process was sampled)',
  ]);
});

test('the chart data\'s headline: per edge list each operation\'s requests per second per database, its gains over the baseline in the words', () => {
  const data = graphChartData(report());
  assert.deepEqual(data.rates.map((c) => c.title), [
    'g1: requests per second per operation (higher is better); gains over p in the tooltips', 'g2: requests per second per operation (higher is better); gains over p in the tooltips',
  ]);
  const [g1] = data.rates;
  assert.deepEqual(g1.labels, ['findEdge', 'inEdges', 'upsertEdges', 'removeEdge']);
  assert.deepEqual(g1.databases, [
    { id: 'p', values: [20000, null, 10, null], text: ['20,000 requests/s', 'unsupported', '10.0 requests/s (5,000 edges/s)', 'failed'] },
    { id: 'm', values: [50000, 10000, 40, 200], text: ['50,000 requests/s, 2.50x p', '10,000 requests/s', '40.0 requests/s (20,000 edges/s), 4.00x p', '200 requests/s'] },
  ]);
  // One database: its rates, no gains.
  assert.equal(graphChartData(oneList()).rates.length, 1);
  const alone = graphChartData(buildReport([documents()[2]])).rates[0];
  assert.equal(alone.title, 'requests per second per operation (higher is better)');
  assert.equal(alone.databases[0].text[0], '50,000 requests/s');
});

test('the rendering hooks: the dataset\'s label, the chart section and its count, the page\'s script', () => {
  assert.equal(suiteRendering('graph'), graph);
  assert.equal(graphDatasetLabel(G1), 'g1 (synthetic edge list, tiny, seed 1)');
  assert.equal(graphDatasetLabel(G2), 'g2 (? edge list, seed ?)');
  assert.equal(graph.datasetLabel, graphDatasetLabel);
  assert.equal(graph.model, graphModel);
  assert.equal(graph.blocks, graphBlocks);
  assert.equal(graph.csv, GRAPH_CSV);
  assert.equal(graph.charts.data, graphChartData);
  assert.equal(graph.charts.id, 'chart-graph-rates');
  assert.equal(graph.charts.headline, true);
  assert.equal(graph.charts.title, 'Requests per second per operation (higher is better), as Unum\'s tables');
  assert.equal(graph.charts.none, 'no operation has a rate');
  assert.equal(graph.charts.count({ rates: [1, 2], charts: [1, 2, 3] }), 2);
  assert.deepEqual(graph.charts.more({ rates: [], charts: [1, 2], omitted: ['x'] }), [{ id: 'chart-graph', title: 'Bytes read and written per request (amplification) and the edge collection on disk', count: 3 }]);
  assert.equal(graph.charts.script, GRAPH_PAGE_SCRIPT);
  assert.ok(GRAPH_PAGE_SCRIPT.includes("(data.graph ? data.graph.charts : []).forEach(function (chart) {"));
  assert.ok(GRAPH_PAGE_SCRIPT.includes("new Chart(canvas('chart-graph', chart.title), {"));
  assert.ok(GRAPH_PAGE_SCRIPT.includes("return database.id + ': ' + database.text[item.dataIndex];"));
  assert.ok(GRAPH_PAGE_SCRIPT.includes('scales: { y: valueAxis(values, chart.axis) },'));
  // The page: the section, the data under the suite's id, the script.
  const html = REPORT_FORMATS.html(report());
  assert.ok(html.includes('<section><h2>Bytes read and written per request (amplification) and the edge collection on disk</h2><div class="grid" id="chart-graph"></div></section>'));
  assert.ok(html.indexOf('id="chart-graph-rates"') < html.indexOf('id="chart-graph"'), 'the headline first');
  assert.ok(!html.includes('id="chart-overview"') && !html.includes('id="chart-latency"'));
  const data = JSON.parse(html.match(/<script type="application\/json" id="report-data">(.*?)<\/script>/s)[1]);
  assert.deepEqual(data.graph, JSON.parse(JSON.stringify(graphChartData(report()))));
  assert.ok(html.includes("new Chart(canvas('chart-graph', chart.title), {"));
  // The summary names the edge lists with that label.
  assert.equal(REPORT_FORMATS.table(report()).split('\n')[1], 'dataset: g1 (synthetic edge list, tiny, seed 1); g2 (? edge list, seed ?)');
});

test('the model warns of nothing, and takes the operation from the first document that names it', () => {
  const docs = documents();
  delete docs[0].result.workloads.findEdge.operation;
  const model = graphModel({ workloads: [{ name: 'findEdge' }, { name: 'other' }], databases: [{ id: 'p' }, { id: 'm' }], documents: docs });
  assert.deepEqual(model.warnings, []);
  assert.equal(model.block.workloads[0].operation, 'findEdge');
  // A name no document holds is its own operation, and not run everywhere (without figures for a list the database has no file of).
  assert.deepEqual([model.block.workloads[1].operation, model.block.workloads[1].batched], ['other', false]);
  assert.deepEqual(model.block.workloads[1].results.m, { g1: { ...NOT_RUN('other'), operation: 'other' }, g2: NOT_RUN('other') });
  // A workload named otherwise than its operation: batched by the operation.
  const renamed = documents();
  for (const { result } of renamed) {
    if (result.workloads.upsertEdges) {
      result.workloads.bulk = result.workloads.upsertEdges;
      delete result.workloads.upsertEdges;
    }
  }
  const bulk = graphModel({ workloads: [{ name: 'bulk' }], databases: [{ id: 'p' }], documents: renamed }).block.workloads[0];
  assert.deepEqual([bulk.name, bulk.operation, bulk.batched], ['bulk', 'upsertEdges', true]);
  assert.equal(bulk.results.p.g1.requestsPerSec, 10);
  // A workload that did not pass keeps the operation its entry names, not its own name.
  renamed[0].result.workloads.gone = failed('removeEdge', 10, 'still there');
  const gone = graphModel({ workloads: [{ name: 'gone' }], databases: [{ id: 'p' }], documents: renamed }).block.workloads[0];
  assert.deepEqual(gone.results.p.g1, { name: 'gone', operation: 'removeEdge', status: 'failed', reason: 'still there' });
  // Both batched writes of the publication, and no other operation.
  const batched = (operation) => graphModel({ workloads: [{ name: 'w' }], databases: [{ id: 'p' }],
    documents: [document('p', 'server', G1, { w: passed(operation, 1, [run(1, 1, { edges: 1 })]) }, null)] }).block.workloads[0].batched;
  assert.deepEqual(['upsertEdges', 'removeEdges', 'upsertEdge', 'removeEdge', 'edgesOf'].map(batched), [true, true, false, false, false]);
});

test('graphFigures at its edges: no requests, no edges, a run of 0 ms, no latencies, the characters counted, the reason of a failure', async () => {
  const { graphFigures, runIo } = await import('../../results/graph-table.js');
  const figures = (entry, kind = 'server') => graphFigures({ db: { kind }, workloads: { w: entry } })[0];
  const counted = { server: { io: { readBytes: 6000, writeBytes: 3000, readChars: 9000, writeChars: 4500 } } };
  // The median of three valid runs, an invalid one left out; the characters per request as the bytes.
  const full = figures(passed('findEdge', 1000, [run(1, 30, { edges: 50 }), run(2, 10, { edges: 50 }), run(3, 20, { edges: 500, resources: counted, diskBytes: 0 }),
    { run: 4, valid: false, ms: 1 }]));
  assert.deepEqual(full, {
    name: 'w', status: 'passed', requests: 1000, edges: 500, medianMs: 20, requestsPerSec: 50000, edgesPerSec: 25000, p50Ms: 0.2, p99Ms: 2,
    ioScope: 'server', readBytesPerRequest: 6, writeBytesPerRequest: 3, readAmplification: 1, writeAmplification: 0.5,
    readCharsPerRequest: 9, writeCharsPerRequest: 4.5, diskBytes: 0,
  });
  // Two runs: the mean of the middle two for every figure, the generic table's median time; the bytes too.
  const io = (readBytes) => ({ server: { io: { readBytes, writeBytes: 0, readChars: 0, writeChars: 0 } } });
  const even = figures(passed('findEdge', 10, [run(1, 40, { resources: io(100) }), run(2, 20, { resources: io(300) }), run(3, 10, { resources: io(0) }), run(4, 90, { resources: io(0) })]));
  assert.deepEqual([even.medianMs, even.requestsPerSec, even.readBytesPerRequest], [30, 1000 / 3, 20]);
  const { poolWorkload } = await import('../../results/report/aggregate.js');
  const document = { result: { workloads: { w: passed('findEdge', 10, [run(1, 40), run(2, 20)]) } } };
  assert.equal(figures(passed('findEdge', 10, [run(1, 40), run(2, 20)])).medianMs, poolWorkload('w', [document]).medianMs);
  // No edges recorded: no edge rate and no ratio; no latencies: none; 0 ms: no rates.
  const bare = figures(passed('findEdge', 10, [{ run: 1, valid: true, ms: 0, resources: counted }]));
  assert.deepEqual([bare.edges, bare.requestsPerSec, bare.edgesPerSec, bare.p50Ms, bare.p99Ms, bare.readBytesPerRequest, bare.readAmplification, bare.writeAmplification],
    [null, null, null, null, null, 600, null, null]);
  // 0 ms with edges, edges not recorded with a time: no edge rate either way.
  assert.equal(figures(passed('findEdge', 10, [{ run: 1, valid: true, ms: 0, edges: 5 }])).edgesPerSec, null);
  assert.equal(figures(passed('findEdge', 10, [{ run: 1, valid: true, ms: 10 }])).edgesPerSec, null);
  // A workload that failed in one run has no figures from its valid ones.
  assert.deepEqual(figures({ status: 'failed', ops: 10, runs: [run(1, 10, { edges: 5 }), { run: 2, valid: false, reason: 'wrong' }] }),
    { name: 'w', operation: 'w', status: 'failed', reason: 'wrong' });
  // No requests: nothing per request.
  const none = figures(passed('findEdge', 0, [run(1, 10, { edges: 5, resources: counted })]));
  assert.deepEqual([none.ioScope, none.readBytesPerRequest, none.readCharsPerRequest, none.readAmplification], [null, null, null, null]);
  // The harness's bytes only for an embedded database, and only when the server's were not sampled.
  const harness = { client: { io: { readBytes: 1, writeBytes: 2, readChars: 0, writeChars: 0 } } };
  assert.deepEqual(runIo({ resources: harness }, 'embedded'), { io: harness.client.io, scope: 'harness' });
  assert.equal(runIo({ resources: harness }, 'server'), null);
  assert.equal(runIo({ resources: null }, 'embedded'), null);
  assert.equal(runIo({}, 'embedded'), null);
  assert.equal(runIo({ resources: { server: null } }, 'embedded'), null);
  assert.deepEqual(runIo({ resources: { ...counted, ...harness } }, 'embedded'), { io: counted.server.io, scope: 'server' });
  // A workload that did not pass: its status (unsupported when the adapter says so) and the reason, its own or its failed run's.
  assert.deepEqual(figures(failed('removeEdge', 10, 'gone')), { name: 'w', operation: 'removeEdge', status: 'failed', reason: 'gone' });
  assert.deepEqual(figures({ ...failed('removeEdge', 10, 'gone'), reason: 'own' }).reason, 'own');
  assert.deepEqual(figures({ status: 'failed', ops: 1, runs: [{ run: 1, valid: false }] }), { name: 'w', operation: 'w', status: 'failed', reason: null });
  assert.deepEqual(figures({ ...unsupported('inEdges'), status: 'not run' }).status, 'unsupported');
  assert.deepEqual(figures({ supported: true, status: 'not run', ops: 0, runs: [] }).status, 'not run');
});

test('the terminal\'s graph table and import line at their edges: rates and ratios of exactly 10, bytes rounded, figures missing', async () => {
  const { formatGraphTable, graphImportLine } = await import('../../results/graph-table.js');
  const result = {
    db: { name: 'N', kind: 'server' },
    workloads: {
      a: { status: 'passed', ops: 10, runs: [{ run: 1, valid: true, ms: 1000, edges: 100, resources: server(1006, 0) }] },
      b: { status: 'passed', ops: 1, runs: [{ run: 1, valid: true, ms: 1000, edges: 12, resources: server(1440, 0) }] },
      c: { status: 'failed', ops: 1, runs: [{ run: 1, valid: false }] },
    },
  };
  assert.deepEqual(formatGraphTable(result), [
    'workload  status  requests  median ms  requests/s  edges/s  p50 ms  p99 ms  read/req  written/req  read ampl.  write ampl.',
    'a         ok            10       1000          10      100                     101 B          0 B       0.84×        0.00×',
    'b         ok             1       1000         1.0       12                   1.4 KiB          0 B         10×        0.00×',
    'c         FAILED',
    '',
    'read/written: bytes the server\'s processes read from and wrote to storage per request; page-cache hits read 0',
    'edges/s: edges answered (reads) or written (writes) per second; a batched write carries 500 per request',
    'amplification: those bytes over the logical bytes of the edges answered or written (12 bytes an edge)',
  ]);
  // A reason of any length goes below the table, each once with its workloads, and leaves the columns as they were.
  const long = 'the server cannot run this, for reasons that take a whole paragraph to give, '.repeat(3).trim();
  const withReasons = { ...result, workloads: { ...result.workloads,
    d: { supported: false, status: 'unsupported', reason: long, runs: [] }, e: { supported: false, status: 'unsupported', reason: long, runs: [] },
    f: { status: 'failed', ops: 1, runs: [{ run: 1, valid: false, reason: '3 wrong answers' }] } } };
  const lines = formatGraphTable(withReasons);
  assert.equal(lines[0], 'workload  status       requests  median ms  requests/s  edges/s  p50 ms  p99 ms  read/req  written/req  read ampl.  write ampl.',
    'the status column as wide as UNSUPPORTED, the others as they were');
  assert.ok(lines.slice(0, 7).every((line) => line.length <= lines[0].length));
  assert.deepEqual(lines.slice(4, 7), ['d         UNSUPPORTED', 'e         UNSUPPORTED', 'f         FAILED']);
  assert.deepEqual(lines.slice(7, 10), ['', `unsupported d, e: ${long}`, 'failed f: 3 wrong answers']);
  // Two write workloads with the collection's size after them: both named on the last line.
  result.workloads.a.runs[0].diskBytes = 2048;
  result.workloads.b.runs[0].diskBytes = 0;
  assert.equal(formatGraphTable(result).at(-1), 'edge collection on disk after each write workload (before its undo): a 2.0 KiB, b 0 B');
  assert.equal(graphImportLine({ reused: true, edges: 1000 }), 'import: reused the edge collection loaded before (1,000 edges)');
  assert.equal(graphImportLine({ reused: false, edges: 1000, ms: 1500, indexesMs: 250, floor: { ms: 100 }, floorMultiple: 15 }),
    'import: 1,000 edges in 1.50 s (0 edges/s, indexes 0.25 s); reading and parsing the file alone (the floor) 0.10 s, 0 edges/s, so the import took 15× the floor');
  assert.equal(graphImportLine({ reused: false, edges: 1000, ms: 1500, edgesPerSec: 667, indexesMs: 250, resources: { server: null, client: { io: { writeBytes: 120000 } } } }),
    'import: 1,000 edges in 1.50 s (667 edges/s, indexes 0.25 s); the harness process (the database inside) wrote 117.2 KiB, 10× the edges\' logical bytes');
  assert.equal(graphImportLine({ reused: false, edges: 1000, ms: 1500, edgesPerSec: 667, indexesMs: 250, resources: { server: { io: { writeBytes: 119999 } } }, collectionBytes: 0 }),
    'import: 1,000 edges in 1.50 s (667 edges/s, indexes 0.25 s); the server wrote 117.2 KiB, 10.00× the edges\' logical bytes; the edge collection takes 0 B on disk');
  // Resources without any bytes counted: nothing written to say.
  assert.equal(graphImportLine({ reused: false, edges: 10, ms: 1000, edgesPerSec: 10, indexesMs: 0, resources: { server: null } }),
    'import: 10 edges in 1.00 s (10 edges/s, indexes 0.00 s)');
});
