// What a suite adds to the generic report (the per-workload tables, percentages and charts every suite gets),
// chosen by the report's `suite`. Every hook is optional; a suite without an entry (social) is rendered as the
// generic report alone.
//   baseline: { id, name, reason } → the database the suite's publication is relative to, the default baseline
//     when it is in the results (otherwise ArangoDB, the nosql-tests' reference)
//   model({ workloads, databases, documents }) → { block, warnings }: `block` goes into the report model under
//     the suite's id (`report.crud`), the warnings join the report's
//   blocks(report) → blocks (see blocks.js) shown right after the summary
//   datasetLabel(dataset) → how the summary and the reproducibility block name a dataset
//   csv: { columns, cells(report, workload, databaseId) } → columns appended to the CSV's workload rows
//   charts: { id, title, none, data(report), count(data), script } → the page's chart section: `data` is embedded
//     under the suite's id, and `script` runs in the page with `data`, `canvas`, `palette`, `valueAxis` and `sharedAxis`;
//     `headline: true` when they are the suite's headline, in place of the generic time and latency charts;
//     `more(data, report)` → [{ id, title, count }]: further sections the script draws into, after the first
import crud from './crud.js';
import graph from './graph.js';
import mixed from './mixed.js';
import queries from './queries.js';

const RENDERINGS = Object.freeze({ crud, graph, mixed, queries });

export function suiteRendering(suite) {
  return Object.hasOwn(RENDERINGS, suite) ? RENDERINGS[suite] : {};
}
