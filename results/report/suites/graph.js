// The graph suite's own view of a report, after Unum's graph benchmark: per workload a table of each database's
// requests per second on each edge list (and edges per second for the batched writes) with the publication's
// "gains" column; the import against the parse floor, with the bytes it wrote and the size it left; and the bytes
// read and written per request with their amplification. The page charts those bytes and the edge collection's
// size on disk. Every figure is graphFigures' (the terminal table's) over the pooled runs of a database and
// edge list; the generic normalised table stays the statistical comparison.
import { formatBytes, formatCount } from '../../format.js';
import { graphFigures } from '../../graph-table.js';
import { EDGE_BYTES, WRITE_OPERATIONS } from '../../../workloads/graph/operations.js';
import { distinct, poolWorkload } from '../aggregate.js';
import { reportId } from '../clusters.js';

// The publication measured its batched writes in edges per second.
const BATCHED = new Set(['upsertEdges', 'removeEdges']);

// Gains to two decimals as the publication printed them, and to two significant digits below 0.1, so that a
// database a hundred times slower than the baseline keeps its figure.
const toGain = (value) => (value >= 0.1 ? Math.round(value * 100) / 100 : Number(value.toPrecision(2)));
const round3 = (value) => (typeof value === 'number' ? Math.round(value * 1000) / 1000 : value);
const mib = (bytes) => bytes / 2 ** 20;

function edgeListOf(result) {
  const { id, name = null, scale = null, seed = null, edges = null, vertices = null, label = null } = result.dataset;
  return { id, name, scale, seed, edges, vertices, label };
}

// One database's documents of one edge list as a single result for graphFigures: per workload, the status the
// generic report pools (a wrong answer in any file fails it) and the runs of every file that passed it, so the
// median run is taken over all of them.
function pooledResult(documents, names) {
  return {
    db: documents[0].result.db,
    workloads: Object.fromEntries(names.map((name) => {
      const entries = documents.map(({ result }) => result.workloads[name]).filter(Boolean);
      const pooled = poolWorkload(name, documents);
      return [name, {
        operation: entries[0]?.operation ?? name,
        supported: pooled.status !== 'unsupported',
        status: pooled.status,
        reason: pooled.reason,
        ops: pooled.ops,
        runs: entries.filter((entry) => entry.status === 'passed').flatMap((entry) => entry.runs),
      }];
    })),
  };
}

// Where the import's bytes were counted, as the terminal's import line takes them: the server's process tree,
// or for an embedded database the harness's process, which loaded it.
function importIo(figures) {
  if (figures?.resources?.server?.io) return { io: figures.resources.server.io, scope: 'server' };
  if (figures?.resources?.client?.io) return { io: figures.resources.client.io, scope: 'harness' };
  return null;
}

// The import of one database and edge list: the fresh loads (a reused collection repeats no load), the one of
// median time among them, and the size the collection took (measured again when it was reused).
function importFigures(documents) {
  const all = documents.map(({ result }) => result.import).filter(Boolean);
  if (all.length === 0) return null;
  const fresh = distinct(all.filter((figures) => !figures.reused)).sort((a, b) => a.ms - b.ms);
  const chosen = fresh[Math.floor((fresh.length - 1) / 2)] ?? null;
  const sized = chosen ?? all.at(-1);
  const collectionBytes = typeof sized.collectionBytes === 'number' ? sized.collectionBytes : null;
  const counted = importIo(chosen);
  const logical = (chosen?.edges ?? 0) * EDGE_BYTES;
  return {
    imports: fresh.length,
    edges: sized.edges ?? null,
    ms: chosen?.ms ?? null,
    edgesPerSec: chosen?.edgesPerSec ?? null,
    floorEdgesPerSec: chosen?.floor?.edgesPerSec ?? null,
    floorMultiple: chosen?.floorMultiple ?? null,
    writeBytes: counted?.io.writeBytes ?? null,
    writeAmplification: counted && logical > 0 ? counted.io.writeBytes / logical : null,
    ioScope: counted?.scope ?? null,
    diskBytes: collectionBytes ?? (typeof sized.diskBytes === 'number' ? sized.diskBytes : null),
    diskScope: collectionBytes !== null ? 'collection' : typeof sized.diskBytes === 'number' ? sized.diskScope ?? null : null,
  };
}

// The publication's gains: the mean over the edge lists of the database's rate over the baseline's on the same
// list (so the baseline is 1); null where they share no list with a rate.
function gainsOf(results, baselineId, edgeLists) {
  return Object.fromEntries(Object.entries(results).map(([id, byList]) => {
    const ratios = edgeLists.map((list) => [byList[list.id], results[baselineId]?.[list.id]])
      .filter(([own, base]) => own?.status === 'passed' && base?.status === 'passed' && own.requestsPerSec > 0 && base.requestsPerSec > 0)
      .map(([own, base]) => own.requestsPerSec / base.requestsPerSec);
    return [id, ratios.length > 0 ? toGain(ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length) : null];
  }));
}

// The report's `graph` block: { edgeLists: [{ id, name, scale, seed, edges, vertices, label }], workloads: [{ name,
// operation, batched, results: { <database id>: { <edge list id>: figures } }, gains: { <database id>: x } }],
// imports: { <database id>: { <edge list id>: figures | null } } }, the workloads' figures being graphFigures'
// rows.
export function graphModel({ workloads, databases, documents }) {
  const edgeLists = distinct(documents.map(({ result }) => result.dataset.id))
    .map((id) => edgeListOf(documents.find(({ result }) => result.dataset.id === id).result));
  const names = workloads.map((workload) => workload.name);
  const of = (databaseId, listId) => documents.filter(({ result }) => reportId(result) === databaseId && result.dataset.id === listId);
  const figures = Object.fromEntries(databases.map(({ id }) => [id, Object.fromEntries(edgeLists.map((list) => {
    const own = of(id, list.id);
    return [list.id, own.length > 0 ? graphFigures(pooledResult(own, names)) : null];
  }))]));
  const baselineId = databases[0].id;
  const block = {
    edgeLists,
    workloads: names.map((name) => {
      const results = Object.fromEntries(databases.map(({ id }) => [id, Object.fromEntries(edgeLists.map((list) => [
        list.id, figures[id][list.id]?.find((f) => f.name === name) ?? { name, status: 'not run', reason: null },
      ]))]));
      const operation = documents.map(({ result }) => result.workloads[name]?.operation).find(Boolean) ?? name;
      return { name, operation, batched: BATCHED.has(operation), results, gains: gainsOf(results, baselineId, edgeLists) };
    }),
    imports: Object.fromEntries(databases.map(({ id }) => [id, Object.fromEntries(edgeLists.map((list) => [list.id, importFigures(of(id, list.id))]))])),
  };
  return { block, warnings: [] };
}

// Rates readable from a few a second (a batch of 500 edges per request) to millions: whole numbers from 100 on.
function rate(value) {
  if (value >= 100) return formatCount(Math.round(value));
  return value.toFixed(value >= 10 ? 1 : 2);
}

const orNa = (value, format) => (typeof value === 'number' ? format(value) : 'n/a');
const bytes = (value) => formatBytes(Math.round(value));
const times = (value) => `${value < 10 ? value.toFixed(2) : formatCount(Math.round(value))}×`;
const gain = (value) => `${value >= 0.1 ? value.toFixed(2) : value.toPrecision(2)}x`;
const alone = (report) => report.databases.length === 1;
const blockId = (name) => `graph-${name.replace(/[^A-Za-z0-9]+/g, '-')}`;

function rateCell(f, batched) {
  if (f.status !== 'passed') return f.status;
  const edges = batched && typeof f.edgesPerSec === 'number' ? ` (${rate(f.edgesPerSec)} edges/s)` : '';
  return `${orNa(f.requestsPerSec, rate)}${edges}`;
}

// Rows = databases, columns = edge lists, and the gains over the baseline as the publication's last column.
function workloadTable(report, workload) {
  const { edgeLists } = report.graph;
  const baselineId = report.baseline.id;
  const withGains = !alone(report) && !report.comparison?.refused;
  return {
    kind: 'table',
    id: blockId(workload.name),
    title: `${workload.name}: requests per second${workload.batched ? ' (edges per second)' : ''} per edge list, higher is better`
      + (withGains ? `; gains over ${baselineId}` : ''),
    header: ['database', ...edgeLists.map((list) => list.id), ...(withGains ? ['gains'] : [])],
    numeric: edgeLists.map((_, i) => i + 1).concat(withGains ? [edgeLists.length + 1] : []),
    rows: report.databases.map(({ id }) => [
      id,
      ...edgeLists.map((list) => rateCell(workload.results[id][list.id], workload.batched)),
      ...(withGains ? [id === baselineId && workload.gains[id] !== null ? '1x' : orNa(workload.gains[id], gain)] : []),
    ]),
  };
}

function importTable(report) {
  const rows = [];
  for (const { id } of report.databases) {
    for (const list of report.graph.edgeLists) {
      const f = report.graph.imports[id][list.id];
      if (!f) continue;
      const loaded = f.imports > 0;
      rows.push([
        id, list.id, orNa(f.edges, formatCount),
        loaded ? `${(f.ms / 1000).toFixed(2)} s` : 'reused',
        loaded ? orNa(f.edgesPerSec, formatCount) : '', loaded ? orNa(f.floorEdgesPerSec, formatCount) : '',
        loaded ? orNa(f.floorMultiple, (x) => `${x}×${x < 1 ? ' (below it: see "of the floor")' : ''}`) : '', loaded ? orNa(f.writeBytes, bytes) : '',
        loaded ? orNa(f.writeAmplification, times) : '', loaded ? f.ioScope ?? 'not measured' : '',
        orNa(f.diskBytes, (n) => `${formatBytes(n)}${f.diskScope === 'data directory' ? ' (whole data directory)' : ''}`),
      ]);
    }
  }
  return {
    kind: 'table',
    id: 'graph-import',
    title: 'Import of the edge list, indexes included, against reading and parsing the file alone (the floor)',
    header: ['database', 'edge list', 'edges', 'time', 'edges/s', 'floor edges/s', 'of the floor', 'written', 'write ampl.', 'counted in', 'on disk'],
    numeric: [2, 3, 4, 5, 6, 7, 8, 10],
    rows,
  };
}

// Per workload and database (and edge list, when there are several): the bytes per request and their ratio to
// the edges' logical bytes; for the write workloads, the collection's size before their undo.
function amplificationTable(report) {
  const { edgeLists } = report.graph;
  const several = edgeLists.length > 1;
  const rows = [];
  for (const workload of report.graph.workloads) {
    let first = true;
    for (const { id } of report.databases) {
      for (const list of edgeLists) {
        const f = workload.results[id][list.id];
        const lead = [first ? workload.name : '', id, ...(several ? [list.id] : [])];
        first = false;
        if (f.status !== 'passed') {
          rows.push([...lead, f.status, '', '', '', '', '']);
          continue;
        }
        const measured = f.ioScope !== null;
        rows.push([
          ...lead,
          measured ? bytes(f.readBytesPerRequest) : 'n/a', measured ? bytes(f.writeBytesPerRequest) : 'n/a',
          measured ? orNa(f.readAmplification, times) : '', measured ? orNa(f.writeAmplification, times) : '',
          measured ? f.ioScope : 'not measured',
          WRITE_OPERATIONS.includes(workload.operation) ? orNa(f.diskBytes, formatBytes) : '',
        ]);
      }
    }
  }
  const lead = ['workload', 'database', ...(several ? ['edge list'] : [])];
  return {
    kind: 'table',
    id: 'graph-amplification',
    title: 'Bytes read and written per request, and as a multiple of the edges\' logical bytes (amplification)',
    header: [...lead, 'read/req', 'written/req', 'read ampl.', 'write ampl.', 'counted in', 'on disk after'],
    numeric: [0, 1, 2, 3, 5].map((i) => i + lead.length),
    rows,
  };
}

function notes(report) {
  const items = [
    { label: 'requests/s', lines: ['requests per run over the median time of every valid run of that database and edge list (for an even number of runs the mean of the middle two, as every table of the report), as the terminal table; a batched write carries 500 edges per request, hence its edges/s'] },
    { label: 'read/written', lines: ['bytes the server\'s process tree read from and wrote to storage per request (/proc/<pid>/io); for an embedded database the harness\'s process, which holds it ("counted in"); page-cache hits read 0; n/a where no process was sampled; a server\'s writes are counted until a second after each write run, so that log writes it defers (PostgreSQL\'s WAL writer, InnoDB\'s flush) are the run\'s'] },
    { label: 'amplification', lines: ['those bytes over the logical bytes of the edges answered or written, 12 bytes an edge'] },
    { label: 'of the floor', lines: ['the import\'s time over the floor\'s: reading and parsing the edge file alone, the faster of two passes, so that both read the file from memory. The import parses in a worker thread while the database writes, so 1× is a database that kept up with the parser; below 1× is noise, or a file from before the floor took two passes (its one pass may have read the file from disk)'] },
    { label: 'on disk', lines: ['the edge collection with its indexes as the adapter measures it, after the import and after each write workload before its undo; else the namespace or the server\'s whole data directory, as the import table says'] },
  ];
  if (!alone(report)) {
    items.splice(1, 0, { label: 'gains', lines: [`as the publication: the mean over the edge lists of the database's requests/s over ${report.baseline.id}'s (= 1x); the normalised table below compares the medians with their intervals`] });
  }
  return { kind: 'list', id: 'graph-notes', title: 'Graph suite figures', items };
}

// The headline, as Unum's tables end: a row per database, its gains over the baseline in every operation (the
// mean over the edge lists of its requests/s over the baseline's). Several databases only, with equal terms.
function gainsTable(report) {
  const baselineId = report.baseline.id;
  return {
    kind: 'table',
    id: 'graph-gains',
    title: `Gains over ${baselineId} per operation (its requests per second over ${baselineId}'s = 1x; higher is better)`,
    header: ['database', ...report.graph.workloads.map((w) => w.name)],
    numeric: report.graph.workloads.map((_, i) => i + 1),
    // No gain: the database's status where it passed no list, else n/a (the baseline has no rate there).
    rows: report.databases.map(({ id }) => [id, ...report.graph.workloads.map((w) => {
      const own = Object.values(w.results[id]);
      if (w.gains[id] === null || w.gains[id] === undefined) return own.every((f) => f.status !== 'passed') ? own[0].status : 'n/a';
      return id === baselineId ? '1x' : gain(w.gains[id]);
    })]),
  };
}

export function graphBlocks(report) {
  return [
    ...(alone(report) || report.comparison?.refused ? [] : [gainsTable(report)]),
    ...report.graph.workloads.map((workload) => workloadTable(report, workload)), importTable(report), amplificationTable(report), notes(report),
  ];
}

export function graphDatasetLabel(dataset) {
  const scale = dataset.scale ? `, ${dataset.scale}` : '';
  return `${dataset.id} (${dataset.name ?? '?'} edge list${scale}, seed ${dataset.seed ?? '?'})`;
}

// The CSV's workload rows gain the edge list and the graph figures (to 3 decimals); a report of several edge
// lists has no single figure per workload and database, so its cells stay empty (the tables and the JSON have
// them per list).
export const GRAPH_CSV = Object.freeze({
  columns: ['edge_list', 'requests_per_sec', 'edges_per_sec', 'read_bytes_per_request', 'written_bytes_per_request',
    'read_amplification', 'write_amplification', 'io_counted_in', 'disk_bytes_after'],
  cells(report, workload, databaseId) {
    const { edgeLists, workloads } = report.graph;
    const f = edgeLists.length === 1 ? workloads.find((w) => w.name === workload.name)?.results[databaseId][edgeLists[0].id] : null;
    if (!f || f.status !== 'passed') return [edgeLists.length === 1 ? edgeLists[0].id : null, null, null, null, null, null, null, null, null];
    return [edgeLists[0].id, ...[f.requestsPerSec, f.edgesPerSec, f.readBytesPerRequest, f.writeBytesPerRequest, f.readAmplification,
      f.writeAmplification].map(round3), f.ioScope, f.diskBytes];
  },
});

// A chart of one figure per label and database; `text` is each bar's tooltip, or the word for a missing bar.
function chart(title, axis, labels, databases) {
  return { title, axis, labels, databases };
}

function bytesChart(report, list, prefix, key, what) {
  const workloads = report.graph.workloads.filter((w) => report.databases.some(({ id }) => w.results[id][list.id].status === 'passed'));
  const ratio = key === 'readBytesPerRequest' ? 'readAmplification' : 'writeAmplification';
  return chart(`${prefix}bytes ${what} per request (lower is better)`, `bytes ${what} per request`, workloads.map((w) => w.name),
    report.databases.map(({ id }) => {
      const figures = workloads.map((w) => w.results[id][list.id]);
      const value = (f) => (f.status === 'passed' && f.ioScope !== null ? f[key] : null);
      return {
        id,
        values: figures.map(value),
        text: figures.map((f) => (f.status !== 'passed' ? f.status : value(f) === null ? 'not measured'
          : `${bytes(f[key])} per request${typeof f[ratio] === 'number' ? ` (${times(f[ratio])} the edges' bytes)` : ''}, counted in the ${f.ioScope}`)),
      };
    }));
}

function diskChart(report, list, prefix) {
  const writes = report.graph.workloads.filter((w) => WRITE_OPERATIONS.includes(w.operation));
  return chart(`${prefix}edge collection on disk after the import and after each write workload`, 'MiB',
    ['after import', ...writes.map((w) => `after ${w.name}`)],
    report.databases.map(({ id }) => {
      const sizes = [report.graph.imports[id][list.id]?.diskBytes ?? null,
        ...writes.map((w) => (w.results[id][list.id].status === 'passed' ? w.results[id][list.id].diskBytes : null))];
      return {
        id,
        ...(sizes.every((size) => size === null) ? { label: `${id} (not measured)` } : {}),
        values: sizes.map((size) => (size === null ? null : mib(size))),
        text: sizes.map((size) => (size === null ? 'not measured' : formatBytes(size))),
      };
    }));
}

// A chart of nothing but zeros and gaps would draw no bar: it is replaced by a sentence saying why.
const hasFigures = (entry) => entry.databases.some((database) => database.values.some((value) => value > 0));

function whyEmpty(entry) {
  const measured = entry.databases.some((database) => database.values.some((value) => value === 0));
  const what = entry.title.replace(/ \(lower is better\)$/, '');
  if (entry.kind === 'disk') return `${what}: not measured in these files`;
  if (!measured) return `${what}: not measured in these files (no process was sampled)`;
  return entry.kind === 'read'
    ? `${what}: 0 B in every workload, so no chart: every read was served from memory (the page cache or the database's own cache); --cache with a size below the data and --cold make reads reach the disk`
    : `${what}: 0 B in every workload, so no chart (no write workload ran, or none reached the disk while it was measured)`;
}

// Per edge list, the headline: each operation's requests per second per database (higher is better), with its
// gains over the baseline in the tooltip, on one axis for every list.
function ratesChart(report, list, prefix) {
  const baselineId = !alone(report) && !report.comparison?.refused ? report.baseline.id : null;
  const { workloads } = report.graph;
  return {
    title: `${prefix}requests per second per operation (higher is better)${baselineId ? `; gains over ${baselineId} in the tooltips` : ''}`,
    labels: workloads.map((w) => w.name),
    databases: report.databases.map(({ id }) => {
      const figures = workloads.map((w) => w.results[id][list.id]);
      return {
        id,
        values: figures.map((f) => (f.status === 'passed' && typeof f.requestsPerSec === 'number' ? f.requestsPerSec : null)),
        text: figures.map((f, i) => (f.status !== 'passed' ? f.status : `${orNa(f.requestsPerSec, rate)} requests/s`
          + (workloads[i].batched && typeof f.edgesPerSec === 'number' ? ` (${rate(f.edgesPerSec)} edges/s)` : '')
          + (baselineId && id !== baselineId && typeof f.requestsPerSec === 'number' && workloads[i].results[baselineId][list.id].requestsPerSec > 0
            ? `, ${gain(f.requestsPerSec / workloads[i].results[baselineId][list.id].requestsPerSec)} ${baselineId}` : ''))),
      };
    }),
  };
}

// The page's charts, per edge list: the headline (requests per second per operation), then bytes read and written
// per request per workload and database, and the size on disk; a chart without a figure above zero is replaced by
// a sentence (\`omitted\`).
export function graphChartData(report) {
  const several = report.graph.edgeLists.length > 1;
  const amplification = report.graph.edgeLists.flatMap((list) => {
    const prefix = several ? `${list.id}: ` : '';
    return [{ ...bytesChart(report, list, prefix, 'readBytesPerRequest', 'read'), kind: 'read' }, { ...bytesChart(report, list, prefix, 'writeBytesPerRequest', 'written'), kind: 'written' },
      { ...diskChart(report, list, prefix), kind: 'disk' }];
  });
  return {
    rates: report.graph.edgeLists.map((list) => ratesChart(report, list, several ? `${list.id}: ` : '')),
    charts: amplification.filter(hasFigures).map(({ kind: _, ...entry }) => entry),
    omitted: amplification.filter((entry) => !hasFigures(entry)).map(whyEmpty),
  };
}

export const GRAPH_PAGE_SCRIPT = `
  (data.graph ? data.graph.rates : []).forEach(function (chart) {
    new Chart(canvas('chart-graph-rates', chart.title, 'chart wide'), {
      type: 'bar',
      data: { labels: chart.labels, datasets: chart.databases.map(function (database, i) {
        return { label: database.id, data: database.values, backgroundColor: palette[i % palette.length], maxBarThickness: 60 };
      }) },
      options: {
        plugins: {
          title: { display: true, text: chart.title },
          tooltip: { callbacks: { label: function (item) {
            return chart.databases[item.datasetIndex].id + ': ' + chart.databases[item.datasetIndex].text[item.dataIndex];
          } } },
        },
        scales: { y: sharedAxis(data.graph.rates, 'values', 'requests per second') },
      },
    });
  });
  (data.graph ? data.graph.omitted : []).forEach(function (sentence) {
    var note = document.createElement('p');
    note.className = 'none';
    note.textContent = sentence;
    document.getElementById('chart-graph').appendChild(note);
  });
  (data.graph ? data.graph.charts : []).forEach(function (chart) {
    var values = [];
    chart.databases.forEach(function (database) { values = values.concat(database.values); });
    new Chart(canvas('chart-graph', chart.title), {
      type: 'bar',
      data: { labels: chart.labels, datasets: chart.databases.map(function (database, i) {
        return { label: database.label || database.id, data: database.values, backgroundColor: palette[i % palette.length] };
      }) },
      options: {
        plugins: {
          title: { display: true, text: chart.title },
          tooltip: { callbacks: { label: function (item) {
            var database = chart.databases[item.datasetIndex];
            return database.id + ': ' + database.text[item.dataIndex];
          } } },
        },
        scales: { y: valueAxis(values, chart.axis) },
      },
    });
  });
`;

export default {
  // Unum's tables give PostgreSQL 1x: the gains read as the publication's when it is in the results.
  baseline: Object.freeze({ id: 'postgresql', name: 'PostgreSQL', reason: 'PostgreSQL, the 1x of the published graph tables (Unum, 2021)' }),
  model: graphModel,
  blocks: graphBlocks,
  datasetLabel: graphDatasetLabel,
  csv: GRAPH_CSV,
  charts: {
    id: 'chart-graph-rates',
    headline: true,
    title: 'Requests per second per operation (higher is better), as Unum\'s tables',
    none: 'no operation has a rate',
    data: graphChartData,
    count: (data) => data.rates.length,
    script: GRAPH_PAGE_SCRIPT,
    // Always there: its charts, or a sentence for each it leaves out.
    more: (data) => [{ id: 'chart-graph', title: 'Bytes read and written per request (amplification) and the edge collection on disk', count: data.charts.length + data.omitted.length }],
  },
};
