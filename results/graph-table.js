// The graph suite's figures per workload, as the publication tabulated them (operations, and for the batched
// writes edges, per second) beside the harness's latencies and the I/O each workload caused: bytes the server's
// process tree read from and wrote to storage per request, and as a ratio to the logical bytes of the edges the
// answers held or the writes carried (12 bytes an edge). For an embedded database the bytes are the harness
// process's own, which holds the database.
import { mean } from 'simple-statistics';
import { EDGE_BYTES } from '../workloads/graph/operations.js';
import { formatBytes, formatCount, formatMs } from './format.js';
import { latencies } from './report/aggregate.js';

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

// The median of the valid runs as every table of the harness takes it: the middle run, or for an even number of
// runs the mean of the middle two, for each figure (the time, the edges, the bytes, the size on disk); the
// latencies as the generic table's, over every valid run. Null without a valid run. `kind`: the database's, for
// where its bytes were counted.
function medianRun(entry, kind) {
  const valid = entry.runs.filter((run) => run.valid);
  if (valid.length === 0) return null;
  const sorted = [...valid].sort((a, b) => a.ms - b.ms);
  const middle = sorted.length % 2 === 1 ? [sorted[(sorted.length - 1) / 2]] : sorted.slice(sorted.length / 2 - 1, sorted.length / 2 + 1);
  if (middle.length === 1) return { ...middle[0], latencyMs: latencies(valid) ?? middle[0].latencyMs };
  const of = (field) => (middle.every((run) => typeof run[field] === 'number') ? mean(middle.map((run) => run[field])) : middle[0][field]);
  const ios = middle.map((run) => runIo(run, kind));
  const io = ios.every((counted) => counted && counted.scope === ios[0].scope)
    ? Object.fromEntries(Object.keys(ios[0].io).map((field) => [field, mean(ios.map((counted) => counted.io[field]))])) : null;
  return {
    ms: of('ms'), edges: of('edges'), diskBytes: of('diskBytes'), latencyMs: latencies(valid) ?? middle[0].latencyMs,
    counted: io && { io, scope: ios[0].scope },
  };
}

// Where a run's I/O was counted: the server's process tree when one was sampled, else the harness's process
// (an embedded database, or a server the harness does not know the pid of: then null).
export function runIo(run, kind) {
  if (run.resources?.server?.io) return { io: run.resources.server.io, scope: 'server' };
  if (kind === 'embedded' && run.resources?.client?.io) return { io: run.resources.client.io, scope: 'harness' };
  return null;
}

// One row per workload: { name, status, requests, edges, medianMs, requestsPerSec, edgesPerSec, p50Ms, p99Ms,
// readBytesPerRequest, writeBytesPerRequest, readAmplification, writeAmplification, diskBytes, reason }.
export function graphFigures(result) {
  return Object.entries(result.workloads).map(([name, entry]) => {
    const run = entry.status === 'passed' ? medianRun(entry, result.db.kind) : null;
    const failedRun = entry.runs.find((candidate) => !candidate.valid);
    if (!run) {
      return { name, operation: entry.operation ?? name, status: entry.supported === false ? 'unsupported' : entry.status, reason: entry.reason ?? failedRun?.reason ?? null };
    }
    const counted = entry.ops > 0 ? run.counted ?? runIo(run, result.db.kind) : null;
    const logical = (run.edges ?? 0) * EDGE_BYTES;
    const ratio = (bytes) => (counted && logical > 0 ? bytes / logical : null);
    return {
      name,
      status: entry.status,
      requests: entry.ops,
      edges: run.edges ?? null,
      medianMs: run.ms,
      requestsPerSec: run.ms > 0 ? (entry.ops / run.ms) * 1000 : null,
      edgesPerSec: run.ms > 0 && typeof run.edges === 'number' ? (run.edges / run.ms) * 1000 : null,
      p50Ms: run.latencyMs?.p50 ?? null,
      p99Ms: run.latencyMs?.p99 ?? null,
      ioScope: counted?.scope ?? null,
      readBytesPerRequest: counted ? counted.io.readBytes / entry.ops : null,
      writeBytesPerRequest: counted ? counted.io.writeBytes / entry.ops : null,
      readAmplification: counted ? ratio(counted.io.readBytes) : null,
      writeAmplification: counted ? ratio(counted.io.writeBytes) : null,
      readCharsPerRequest: counted ? counted.io.readChars / entry.ops : null,
      writeCharsPerRequest: counted ? counted.io.writeChars / entry.ops : null,
      diskBytes: typeof run.diskBytes === 'number' ? run.diskBytes : null,
    };
  });
}

const cell = (value, format) => (value === null || value === undefined ? '' : format(value));
const rate = (value) => (value < 10 ? value.toFixed(1) : formatCount(Math.round(value)));
const bytes = (value) => formatBytes(Math.round(value));
const times = (value) => `${value < 10 ? value.toFixed(2) : Math.round(value)}×`;

function align(table, numeric) {
  const widths = table[0].map((_, column) => Math.max(...table.map((r) => r[column].length)));
  return table.map((r) => r.map((text, column) => (numeric.has(column) ? text.padStart(widths[column]) : text.padEnd(widths[column])))
    .join('  ').trimEnd());
}

export function formatGraphTable(result) {
  const header = ['workload', 'status', 'requests', 'median ms', 'requests/s', 'edges/s', 'p50 ms', 'p99 ms',
    'read/req', 'written/req', 'read ampl.', 'write ampl.'];
  const figures = graphFigures(result);
  const rows = figures.map((f) => (f.status === 'passed'
    ? [f.name, 'ok', String(f.requests), formatMs(f.medianMs), cell(f.requestsPerSec, rate), cell(f.edgesPerSec, rate),
      cell(f.p50Ms, formatMs), cell(f.p99Ms, formatMs), cell(f.readBytesPerRequest, bytes), cell(f.writeBytesPerRequest, bytes),
      cell(f.readAmplification, times), cell(f.writeAmplification, times)]
    : [f.name, f.status.toUpperCase(), '', '', '', '', '', '', '', '', '', '']));
  const lines = align([header, ...rows], new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]));
  // Why a workload did not pass, below the table, each reason once with the workloads it holds for: in a column it
  // would widen the table to its length (a server's reason can be a paragraph).
  const reasons = new Map();
  for (const f of figures) {
    if (f.status === 'passed' || !f.reason) continue;
    const key = `${f.status}\n${f.reason}`;
    reasons.set(key, [...(reasons.get(key) ?? []), f.name]);
  }
  if (reasons.size > 0) lines.push('');
  for (const [key, names] of reasons) {
    const [status, reason] = key.split('\n');
    lines.push(`${status} ${names.join(', ')}: ${reason}`);
  }
  const scope = figures.find((f) => f.ioScope)?.ioScope;
  lines.push('');
  lines.push(scope === 'harness'
    ? `read/written: bytes the harness process (${result.db.name} runs inside it) read from and wrote to storage per request; page-cache hits read 0`
    : scope === 'server'
      ? 'read/written: bytes the server\'s processes read from and wrote to storage per request; page-cache hits read 0'
      : 'read/written: not measured (no local server process known: bench server start, or --server-pid)');
  lines.push('edges/s: edges answered (reads) or written (writes) per second; a batched write carries 500 per request');
  lines.push(`amplification: those bytes over the logical bytes of the edges answered or written (${EDGE_BYTES} bytes an edge)`);
  const disk = figures.filter((f) => typeof f.diskBytes === 'number').map((f) => `${f.name} ${formatBytes(f.diskBytes)}`);
  if (disk.length > 0) lines.push(`edge collection on disk after each write workload (before its undo): ${disk.join(', ')}`);
  return lines;
}

// The graph suite's import line: edges per second against the parse floor, or that the collection was reused.
export function graphImportLine(done) {
  const size = typeof done.collectionBytes === 'number' ? `; the edge collection takes ${formatBytes(done.collectionBytes)} on disk` : '';
  if (done.reused) return `import: reused the edge collection loaded before (${formatCount(done.edges)} edges)${size}`;
  const passes = done.floor?.passes?.length > 1 ? `, the faster of ${done.floor.passes.length} passes` : '';
  const floor = done.floor ? `; reading and parsing the file alone (the floor${passes}) ${seconds(done.floor.ms)}, ${formatCount(done.floor.edgesPerSec ?? 0)} edges/s, so the import took ${done.floorMultiple}× the floor` : '';
  const io = done.resources?.server?.io ?? done.resources?.client?.io ?? null;
  const written = io ? `; ${done.resources?.server?.io ? 'the server' : 'the harness process (the database inside)'} wrote ${formatBytes(io.writeBytes)}, `
    + `${times(io.writeBytes / (done.edges * EDGE_BYTES))} the edges' logical bytes` : '';
  return `import: ${formatCount(done.edges)} edges in ${seconds(done.ms)} (${formatCount(done.edgesPerSec ?? 0)} edges/s, indexes ${seconds(done.indexesMs)})${floor}${written}${size}`;
}
