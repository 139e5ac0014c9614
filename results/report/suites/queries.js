// The queries suite's own view of a report: the table the 2015 AQL shootout published, per database (`test name |
// collection | runs | min (s) | max (s) | avg (s)`, plus the median and the rows returned), and each database's
// load time per collection size. The generic tables already give the normalised comparison per case and size;
// the page's headline is each case's time against the collection size, then each size's cases relative to the
// baseline.
import { median } from 'simple-statistics';
import { formatCount } from '../../format.js';
import { caseOf } from '../../queries-table.js';
import { summarizeRuns } from '../../stats.js';
import { CASE_NAMES } from '../../../workloads/queries/cases.js';
import { SIZES } from '../../../workloads/queries/data.js';
import { distinct } from '../aggregate.js';
import { reportId } from '../clusters.js';

const seconds = (ms) => (typeof ms === 'number' ? (ms / 1000).toFixed(4) : '');
const round3 = (value) => Math.round(value * 1000) / 1000;

// Every valid run of one database's entry across its files: runs, min, max, mean, median (ms), rows.
function caseFigures(entries, status) {
  const runs = entries.flatMap((entry) => (entry.status === 'passed' ? entry.runs.filter((run) => run.valid) : []));
  if (status !== 'passed' || runs.length === 0) return { status, runs: 0, minMs: null, maxMs: null, meanMs: null, medianMs: null, rows: null };
  const { minMs, maxMs, meanMs, medianMs } = summarizeRuns(runs.map((run) => run.ms));
  return {
    status, runs: runs.length, minMs, maxMs, meanMs, medianMs,
    rows: runs.at(-1).rows ?? null,
  };
}

// Each database's load of each size: the median time and rate of the loads its files made (a reused collection
// counts nowhere).
function loads(documents, databases) {
  return Object.fromEntries(databases.map(({ id }) => {
    const bySize = {};
    for (const { result } of documents.filter((document) => reportId(document.result) === id)) {
      for (const [size, entry] of Object.entries(result.import?.collections ?? {})) {
        if (entry.reused) continue;
        (bySize[size] ??= []).push(entry);
      }
    }
    return [id, Object.fromEntries(Object.entries(bySize).map(([size, entries]) => [size, {
      loads: entries.length,
      ms: round3(median(entries.map((entry) => entry.ms))),
      documentsPerSec: Math.round(median(entries.map((entry) => entry.documentsPerSec))),
    }]))];
  }));
}

// The report's `queries` block: { sizes, cases: [{ queryCase, size, documents, workload, results: { <id>:
// figures } }], loads: { <id>: { <size>: { loads, ms, documentsPerSec } } } }, cases in the suite's order and
// each case's sizes ascending.
export function queriesModel({ workloads, databases, documents }) {
  const cases = [];
  for (const workload of workloads) {
    const params = documents.map(({ result }) => result.workloads[workload.name]?.params).find(Boolean);
    const at = caseOf(workload.name, params);
    if (!at) continue;
    cases.push({
      ...at,
      workload: workload.name,
      results: Object.fromEntries(databases.map(({ id }) => {
        const entries = documents.filter(({ result }) => reportId(result) === id).map(({ result }) => result.workloads[workload.name]).filter(Boolean);
        return [id, { ...caseFigures(entries, workload.results[id]?.status ?? 'not run'), normalisedPct: workload.results[id]?.normalisedPct ?? null }];
      })),
    });
  }
  cases.sort((a, b) => CASE_NAMES.indexOf(a.queryCase) - CASE_NAMES.indexOf(b.queryCase) || a.documents - b.documents);
  const sizes = distinct(cases.map((c) => c.size)).sort((a, b) => SIZES[a] - SIZES[b]);
  return { block: { sizes, cases, loads: loads(documents, databases) }, warnings: [] };
}

function publishedTable(report, database) {
  return {
    kind: 'table',
    id: `queries-${database.id}`,
    title: `${database.id}: per case and collection, seconds (as the AQL shootout published)`,
    header: ['test name', 'collection', 'runs', 'min (s)', 'max (s)', 'avg (s)', 'median (s)', 'rows'],
    numeric: [2, 3, 4, 5, 6, 7],
    rows: report.queries.cases.map((c) => {
      const f = c.results[database.id];
      return f.status === 'passed'
        ? [c.queryCase, c.size, String(f.runs), seconds(f.minMs), seconds(f.maxMs), seconds(f.meanMs), seconds(f.medianMs), f.rows === null ? '' : formatCount(f.rows)]
        : [c.queryCase, c.size, '', f.status, '', '', '', ''];
    }),
  };
}

function loadTable(report) {
  const ids = report.databases.map((database) => database.id);
  return {
    kind: 'table',
    id: 'queries-load',
    title: 'Loading the collections: seconds (documents per second), indexes and count check included',
    header: ['collection', ...ids],
    numeric: ids.map((_, i) => i + 1),
    rows: report.queries.sizes.map((size) => [size, ...ids.map((id) => {
      const load = report.queries.loads[id]?.[size];
      return load ? `${(load.ms / 1000).toFixed(2)} s (${formatCount(load.documentsPerSec)}/s)` : 'reused';
    })]),
  };
}

export function queriesBlocks(report) {
  return [...report.databases.map((database) => publishedTable(report, database)), loadTable(report)];
}

export function queriesDatasetLabel(dataset) {
  return `${dataset.id} (${dataset.name ?? 'query shootout documents'})`;
}

// The CSV's workload rows gain the case, the collection size and the published statistics.
export const QUERIES_CSV = Object.freeze({
  columns: ['case', 'collection', 'min_ms', 'max_ms', 'mean_ms', 'rows'],
  cells(report, workload, databaseId) {
    const c = report.queries.cases.find((entry) => entry.workload === workload.name);
    if (!c) return [null, null, null, null, null, null];
    const f = c.results[databaseId];
    return [c.queryCase, c.size, f.minMs, f.maxMs, f.meanMs, f.rows];
  },
});

// The page's charts. The headline, as the publication's table reads: small multiples, one chart per case, its
// median time (ms) against the collection size, one line per database, every case on one axis (the page's
// sharedAxis). Then, with several databases, per size each database's median time per case relative to the
// baseline: one bar per case and database, each chart as tall as its bars need. One database has nothing to be
// relative to: no such chart.
export function queriesChartData(report) {
  const several = report.databases.length > 1 && !report.comparison?.refused;
  const cases = distinct(report.queries.cases.map((c) => c.queryCase));
  const at = (queryCase, size) => report.queries.cases.find((c) => c.queryCase === queryCase && c.size === size);
  return {
    baseline: several ? report.baseline?.id ?? null : null,
    sizes: report.queries.sizes,
    cases: cases.map((queryCase) => ({
      title: queryCase,
      databases: report.databases.map(({ id }) => {
        const figures = report.queries.sizes.map((size) => at(queryCase, size)?.results[id] ?? null);
        return {
          id,
          medianMs: figures.map((f) => (f?.status === 'passed' ? f.medianMs : null)),
          missing: figures.map((f) => (f === null ? 'not run' : f.status === 'passed' ? null : f.status)),
        };
      }),
    })),
    charts: !several ? [] : report.queries.sizes.map((size) => {
      const ofSize = report.queries.cases.filter((c) => c.size === size);
      return {
        title: `${size} documents: median time relative to ${report.baseline.id} (= 100%, lower is faster)`,
        cases: ofSize.map((c) => c.queryCase),
        databases: report.databases.map(({ id }) => ({
          id,
          pct: ofSize.map((c) => (c.results[id].status === 'passed' ? c.results[id].normalisedPct : null)),
          missing: ofSize.map((c) => (c.results[id].status === 'passed' ? null : c.results[id].status)),
        })),
      };
    }),
  };
}

export const QUERIES_PAGE_SCRIPT = `
  (data.queries ? data.queries.cases : []).forEach(function (chart) {
    new Chart(canvas('chart-queries', chart.title, 'chart small'), {
      type: 'line',
      data: { labels: data.queries.sizes, datasets: chart.databases.map(function (database, i) {
        var notes = data.queries.sizes.map(function (size, s) { return database.missing[s] ? size + ' ' + database.missing[s] : null; }).filter(Boolean);
        return { label: database.id + (notes.length ? ' (' + notes.join(', ') + ')' : ''), data: database.medianMs, spanGaps: false, pointRadius: 3,
          borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length] };
      }) },
      options: {
        plugins: { title: { display: true, text: chart.title }, legend: { labels: { boxWidth: 12 } } },
        scales: { x: { title: { display: true, text: 'documents in the collection' } }, y: sharedAxis(data.queries.cases, 'medianMs', 'median time, ms') },
      },
    });
  });
  (data.queries ? data.queries.charts : []).forEach(function (chart) {
    var values = [];
    chart.databases.forEach(function (database) { values = values.concat(database.pct); });
    var element = canvas('chart-queries-relative', chart.title, 'chart wide');
    // As tall as its bars need: 14 px a bar, so that every case is labelled.
    element.parentNode.style.height = (120 + chart.cases.length * chart.databases.length * 14) + 'px';
    new Chart(element, {
      type: 'bar',
      data: { labels: chart.cases, datasets: chart.databases.map(function (database, i) {
        return { label: database.id, data: database.pct, backgroundColor: database.id === data.queries.baseline ? '#555' : palette[i % palette.length] };
      }) },
      options: {
        indexAxis: 'y',
        plugins: {
          title: { display: true, text: chart.title },
          tooltip: { callbacks: { label: function (item) {
            var database = chart.databases[item.datasetIndex];
            var missing = database.missing[item.dataIndex];
            return database.id + ': ' + (missing ? missing : item.raw + '%');
          } } },
        },
        scales: { x: valueAxis(values, '% of the baseline\\'s median time'), y: { ticks: { autoSkip: false } } },
      },
    });
  });
`;

export default {
  model: queriesModel,
  blocks: queriesBlocks,
  datasetLabel: queriesDatasetLabel,
  csv: QUERIES_CSV,
  charts: {
    id: 'chart-queries',
    headline: true,
    title: 'Median time per case against the collection size (ms, lower is better), as the publication\'s table reads',
    none: 'no case has a time',
    data: queriesChartData,
    count: (data) => data.cases.length,
    script: QUERIES_PAGE_SCRIPT,
    // With several databases, a second section: each size's cases relative to the baseline.
    more: (data, report) => (data.charts.length > 0 ? [{ id: 'chart-queries-relative', title: `Median time per case relative to ${report.baseline.id}, per collection size (lower is faster)`, count: data.charts.length }] : []),
  },
};
