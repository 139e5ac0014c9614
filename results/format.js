// How the terminal and the reports write numbers: milliseconds with three significant places or so, counts
// with thousands separators, byte sizes in binary units.

export function formatMs(ms) {
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

export function formatCount(n) {
  return n.toLocaleString('en-US');
}

export function formatBytes(n) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

// What a mixed result's runs started from (their `startedFrom` and `load`): the loads with their documents and
// time, and how many runs started from the state the run before left. Null for a result whose runs say nothing.
export function loadsOf(workloads) {
  const runs = Object.values(workloads).flatMap((entry) => entry.runs ?? []).filter((run) => run.startedFrom);
  if (runs.length === 0) return null;
  const loads = runs.filter((run) => run.load).map((run) => run.load);
  return {
    runs: runs.length,
    loads: loads.length,
    documents: loads[0]?.documents ?? null,
    ms: loads.reduce((sum, load) => sum + load.ms, 0),
    firstMs: loads[0]?.ms ?? null,
    fromRunBefore: runs.filter((run) => run.startedFrom === 'the run before').length,
  };
}

// One line of it: "loaded once: 10,000 documents in 12.3 s (untimed); 17 of 18 runs started from the checked
// state the run before left".
export function loadsLine(summary) {
  if (!summary) return null;
  const { loads, documents, ms, firstMs, fromRunBefore, runs } = summary;
  const documentsText = documents === null ? '' : `${formatCount(documents)} documents `;
  const loaded = loads === 1
    ? `loaded once: ${documentsText}in ${formatMs(firstMs / 1000)} s (untimed)`
    : `loaded ${loads} times: ${documentsText}in ${formatMs(ms / 1000)} s in all (untimed)`;
  return `${loaded}; ${fromRunBefore} of ${runs} run${runs === 1 ? '' : 's'} started from the checked state the run before left`;
}
