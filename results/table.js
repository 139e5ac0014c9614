// The readable summary of one result document, for the terminal.
import { formatSize } from '../core/terms.js';
import { CLIENT_BOUND_CPU_PCT, CLIENT_BOUND_LOOP, CLIENT_BOUND_SHARE } from '../resources/client.js';
import { formatMs, loadsLine, loadsOf } from './format.js';
import { formatGraphTable, graphImportLine } from './graph-table.js';
import { formatQueryTable, queryImportLine } from './queries-table.js';

function medianRun(entry) {
  const sorted = [...entry.runs].sort((a, b) => a.ms - b.ms);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

const CLIENT_BOUND = 'client-bound *';

function formatBytes(bytes) {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

// The path an import took where its database has two (adapters/neo4j/README.md): the offline importer's own time,
// or why the online path was taken.
function importPathNote(entry) {
  if (entry.path === 'offline') return `; offline: importer and restart ${formatMs(entry.loadMs / 1000)} s`;
  return entry.onlineBecause ? `; online: ${entry.onlineBecause}` : '';
}

function diskNote(entry) {
  if (typeof entry.diskBytes !== 'number') return '';
  return `; ${formatBytes(entry.diskBytes)} on disk${entry.diskScope === 'data directory' ? ' (the whole data directory)' : ''}`;
}

// The server's and the harness's use of CPU and memory over the runs, in one line.
function resourcesLine(resources, db) {
  const parts = [];
  const { server, client } = resources;
  if (server && typeof server.rssPeakBytes === 'number') {
    const processes = server.parts ? server.parts.map(({ name, pid }) => `${name} pid ${pid}`).join(' and ') : `pid ${server.pid}`;
    parts.push(`server (${server.source}, ${processes}) peak ${formatBytes(server.rssPeakBytes)} resident, `
      + `CPU peak ${server.cpuPeakPct === null ? 'n/a (no run of 0.5 s or more)' : `${server.cpuPeakPct}%`} mean ${server.cpuMeanPct}%`);
  }
  if (typeof client.cpuPeakPct === 'number') {
    parts.push(`harness${db.kind === 'embedded' ? ` (with ${db.name} inside)` : ''} CPU peak ${client.cpuPeakPct}%`
      + (typeof client.eventLoopDelayP99MaxMs === 'number' ? `, event-loop delay p99 up to ${formatMs(client.eventLoopDelayP99MaxMs)} ms` : ''));
  }
  return parts.length > 0 ? `resources: ${parts.join('; ')} (100% = one core)` : null;
}

const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;

// The lines of the dataset's files that reading repaired (invalid UTF-8) or skipped (--skip-bad), in one line;
// null when there were none. `readStats` is the result's dataset.readStats (datasets/README.md).
export function readStatsLine(readStats) {
  const parts = [];
  // The graph suite's edge list has one source file, whose statistics are the object itself.
  const files = typeof readStats?.skippedLines === 'number'
    ? { 'edge file': readStats }
    : { profiles: readStats?.profiles, relations: readStats?.relations };
  for (const [file, stats] of Object.entries(files)) {
    const counts = [];
    if (stats?.repairedLines > 0) counts.push(`${plural(stats.repairedLines, 'line')} repaired (invalid UTF-8)`);
    if (stats?.skippedLines > 0) counts.push(`${plural(stats.skippedLines, 'line')} skipped (malformed, --skip-bad)`);
    if (stats?.duplicates > 0) counts.push(`${plural(stats.duplicates, 'repeated pair')} dropped`);
    if (stats?.selfLoops > 0) counts.push(`${plural(stats.selfLoops, 'self-loop')} dropped`);
    if (counts.length > 0) parts.push(`${file} ${counts.join(', ')}`);
  }
  return parts.length > 0 ? `dataset files read: ${parts.join('; ')}` : null;
}

function row(name, entry) {
  if (!entry.supported) return [name, 'unsupported', '', '', '', '', '', '', ''];
  if (entry.status !== 'passed') {
    const failedRun = entry.runs.find((run) => !run.valid);
    return [name, entry.status.toUpperCase(), String(entry.ops), '', '', '', '', '', failedRun ? failedRun.reason : ''];
  }
  const run = medianRun(entry);
  return [
    name, 'ok', String(entry.ops), formatMs(entry.summary.medianMs), String(Math.round((entry.ops / entry.summary.medianMs) * 1000)),
    formatMs(run.latencyMs.p50), formatMs(run.latencyMs.p99), entry.runs.length > 1 ? formatMs(entry.summary.stdevMs) : '',
    entry.resources?.clientBound ? CLIENT_BOUND : '',
  ];
}

function align(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((r) => r[column].length)));
  const numeric = new Set([2, 3, 4, 5, 6, 7]);
  return rows.map((r) => r.map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
    .join('  ').trimEnd());
}

// The run's durability term, how the database got it and what the server said (core/terms.js).
function termsLine(terms) {
  const durability = terms?.durability;
  if (!durability) return null;
  const cache = terms.cache ? `\n${cacheLine(terms.cache)}` : '';
  const settings = Object.entries(durability.settings ?? {}).map(([name, { value }]) => `${name}=${value}`).join(', ');
  const read = durability.verified ? `read back: ${settings || 'nothing to read'}` : 'not read back from the server';
  return `durability: ${durability.term}${durability.how ? ` (${durability.how})` : ''}; ${read}`
    + `${durability.applied?.length ? `; set: ${durability.applied.join('; ')}` : ''}${cache}`;
}

// "cache: 64MB as asked (--cache), read back: shared_buffers=8192 x 8192 B; cold: 2 runs restarted, page cache dropped 2 times"
function cacheLine(cache) {
  const settings = Object.entries(cache.settings ?? {}).map(([name, { value }]) => `${name}=${value}`).join(', ');
  const size = cache.bytes === null ? 'not read back' : `${formatSize(cache.bytes)}${cache.requested ? ' as asked (--cache)' : ' (the database\'s own)'}`;
  const cold = cache.cold
    ? `; cold: ${cache.cold.restarted} of ${cache.cold.rounds} runs after a restart, the page cache dropped before ${cache.cold.pageCacheDropped}${cache.cold.notes.length ? ` (${cache.cold.notes.join('; ')})` : ''}`
    : '';
  return `cache: ${size}${settings ? `, read back: ${settings}` : ''}${cold}`;
}

// " (the furthest over: 95-5 n=1000 c=1: 52% of one core, event loop busy 61%, 74 us of CPU per operation, 58% of
// its mean latency)": the flagged workload whose figures go furthest past their limits, and those figures.
function worstShare(entries) {
  const over = ({ cpuPct, eventLoopUtilization, latencyShare }) => Math.max(
    typeof cpuPct === 'number' ? cpuPct / CLIENT_BOUND_CPU_PCT : 0,
    typeof eventLoopUtilization === 'number' ? eventLoopUtilization / CLIENT_BOUND_LOOP : 0,
    typeof latencyShare === 'number' ? latencyShare / CLIENT_BOUND_SHARE : 0);
  const [worst] = entries.filter(([, entry]) => entry.resources.client)
    .sort(([, a], [, b]) => over(b.resources.client) - over(a.resources.client));
  if (!worst) return '';
  const [name, { resources: { client } }] = worst;
  const figures = [
    typeof client.cpuPct === 'number' ? `${client.cpuPct}% of one core` : null,
    typeof client.eventLoopUtilization === 'number' ? `event loop busy ${Math.round(client.eventLoopUtilization * 100)}%` : null,
    typeof client.cpuPerOpUs === 'number' ? `${client.cpuPerOpUs} us of CPU per operation` : null,
    typeof client.latencyShare === 'number' ? `${Math.round(client.latencyShare * 100)}% of its mean latency` : null,
  ].filter(Boolean);
  return figures.length > 0 ? ` (the furthest over: ${name}: ${figures.join(', ')})` : '';
}

// The kinds of a mix in the order the mixed suite names them, then any other.
const KIND_ORDER = ['get', 'update', 'insert', 'delete'];

// A row per passed workload that timed each kind of its operations apart (a mix: get, update, ...).
function kindTable(workloads) {
  const entries = Object.entries(workloads).filter(([, entry]) => entry.status === 'passed' && entry.latencyByKind);
  if (entries.length === 0) return [];
  const present = new Set(entries.flatMap(([, entry]) => Object.keys(entry.latencyByKind)));
  const kinds = [...KIND_ORDER.filter((kind) => present.has(kind)), ...[...present].filter((kind) => !KIND_ORDER.includes(kind))];
  const cell = (figures) => (figures ? `${formatMs(figures.p50)} / ${formatMs(figures.p99)} (${figures.operations})` : '');
  const rows = [['workload', ...kinds], ...entries.map(([name, entry]) => [name, ...kinds.map((kind) => cell(entry.latencyByKind[kind]))])];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((r) => r[column].length)));
  return rows.map((r) => r.map((text, column) => (column === 0 ? text.padEnd(widths[column]) : text.padStart(widths[column]))).join('  ').trimEnd());
}

export function formatTable(result) {
  const header = ['workload', 'status', 'ops', 'median ms', 'ops/s', 'p50 ms', 'p99 ms', 'sd ms', ''];
  const compared = [];
  const separate = [];
  for (const [name, entry] of Object.entries(result.workloads)) (entry.compared ? compared : separate).push(row(name, entry));
  const lines = [];
  const { db, dataset, config } = result;
  // A suite other than the social one describes its data in a label of its own.
  const data = dataset.label ?? `dataset ${dataset.name} ${dataset.scale} (${dataset.profiles} profiles, ${dataset.relations} relations, seed ${dataset.seed})`;
  const suite = result.suite && result.suite !== 'social' ? `suite ${result.suite} · ` : '';
  // A blocking driver's run is said in its header: its operations ran in processes of their own.
  const blocking = db.driver?.blocking ? ` · driver ${db.driver.name} (blocking: one client process per operation in flight)` : '';
  lines.push(`${suite}${db.name} ${db.version}${blocking} · ${data} · concurrency ${config.concurrency}${db.execution === 'serial' ? ' (serial driver: one operation at a time)' : ''} · ${config.runs} run${config.runs === 1 ? '' : 's'}`);
  if (result.import && result.suite === 'queries') {
    lines.push(`${queryImportLine(result.import)}${diskNote(result.import)}`);
  } else if (result.import && result.suite === 'graph') {
    // The edge collection's own size, when the adapter tells it, stands for the namespace's.
    lines.push(`${graphImportLine(result.import)}${typeof result.import.collectionBytes === 'number' ? '' : diskNote(result.import)}`);
  } else if (result.import) {
    lines.push(result.import.reused
      ? `import: reused the data imported at ${result.import.importedAt}${diskNote(result.import)}`
      : `import: ${formatMs(result.import.ms / 1000)} s (profiles ${result.import.profilesPerSec}/s, relations ${result.import.relationsPerSec}/s, indexes ${formatMs(result.import.indexesMs / 1000)} s${importPathNote(result.import)})${diskNote(result.import)}`);
  }
  const loads = loadsLine(loadsOf(result.workloads));
  if (loads) lines.push(loads);
  const terms = termsLine(result.terms);
  if (terms) lines.push(terms);
  const usage = result.resources && resourcesLine(result.resources, db);
  if (usage) lines.push(usage);
  lines.push('');
  const tables = { queries: formatQueryTable, graph: formatGraphTable };
  lines.push(...(tables[result.suite]?.(result) ?? align([header, ...compared])));
  const byKind = kindTable(result.workloads);
  if (byKind.length > 0) lines.push('', 'latency by operation, every run together (p50 / p99 ms; ops: how many of the kind):', ...byKind);
  if (separate.length > 0) {
    lines.push('');
    lines.push('not compared:');
    lines.push(...align([header, ...separate]).slice(1));
  }
  // Why a workload is unsupported, where the result says (a durability term the database cannot give, a query
  // case it cannot express): each reason once, with the workloads it holds for.
  // (The queries and graph suites' own tables give it in their status column.)
  const reasons = new Map();
  for (const [name, entry] of tables[result.suite] ? [] : Object.entries(result.workloads)) {
    if (entry.status === 'unsupported' && entry.reason) reasons.set(entry.reason, [...(reasons.get(entry.reason) ?? []), name]);
  }
  if (reasons.size > 0) lines.push('');
  for (const [reason, names] of reasons) lines.push(`unsupported ${names.join(', ')}: ${reason}`);
  const read = readStatsLine(dataset.readStats);
  if (read) {
    lines.push('');
    lines.push(read);
  }
  const bound = Object.entries(result.workloads).filter(([, entry]) => entry.status === 'passed' && entry.resources?.clientBound);
  if (bound.length > 0) {
    lines.push('');
    lines.push(db.kind === 'embedded'
      ? `* client-bound: in at least one run the harness used more than ${CLIENT_BOUND_CPU_PCT}% of one core or its event loop was `
        + `busy more than ${CLIENT_BOUND_LOOP * 100}% of the time${worstShare(bound)}, so the limit was that core, which ${db.name} shares with the harness as it runs inside it`
      : `* client-bound: in at least one run the harness itself was the limit: it used more than ${CLIENT_BOUND_CPU_PCT}% of one core, `
        + `its event loop was busy more than ${CLIENT_BOUND_LOOP * 100}% of the time, or its own CPU per operation was more than `
        + `${CLIENT_BOUND_SHARE * 100}% of the operation's mean latency${worstShare(bound)}; the figure may measure the client or its `
        + 'driver rather than the database (more concurrency or --clients spread that cost)');
  }
  // A run --duration bounded that took all its --ops first: shorter than the time asked for.
  for (const [name, entry] of Object.entries(result.workloads)) {
    const early = (entry.runs ?? []).filter((run) => run.endedAtOps);
    if (early.length === 0) continue;
    lines.push('');
    lines.push(`${name}: ${early.length === 1 ? `run ${early[0].run}` : `runs ${early.map((run) => run.run).join(', ')}`} took all ${entry.params.ops.toLocaleString('en-US')} `
      + `operations in ${early.map((run) => (run.ms < 1000 ? `${Math.round(run.ms)} ms` : `${(run.ms / 1000).toFixed(1)} s`)).join(', ')}, before ${entry.params.durationS} s were up: `
      + 'give --ops higher for a run bounded by time');
  }
  if (usage?.includes('event-loop delay')) {
    lines.push('');
    lines.push('event-loop delay: how long the harness\'s own event loop was blocked (p99, worst run); latencies may include that wait');
  }
  const failures = Object.entries(result.workloads).filter(([, entry]) => entry.failures?.length > 0);
  for (const [name, entry] of failures) {
    lines.push('');
    lines.push(`${name} failed; examples:`);
    for (const failure of entry.failures.slice(0, 3)) {
      lines.push(`  run ${failure.run}: input ${failure.input}: ${failure.problem}`);
    }
  }
  if (!result.complete) {
    lines.push('');
    lines.push(result.interrupted ? 'INCOMPLETE: interrupted; the runs completed so far are kept (NOT RUN: not reached, or stopped by the interruption before it finished).'
      : `INCOMPLETE: ${result.error?.message ?? 'stopped early'}`);
  }
  return lines.join('\n');
}
